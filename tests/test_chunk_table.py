"""A chunk map held as columns (graphsr.io.chunk_table.ChunkTable) reads as the dict of the same items does: every
look-up, the order of its ids, a table followed by another (``{**a, **b}``), rows of ids held or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.io.chunk_table import ChunkTable, as_chunk_table

_items = st.dictionaries(
    st.sampled_from([f"c{k}" for k in range(30)]),
    st.tuples(st.sampled_from(["d1", "d2", "d3", "é"]), st.integers(0, 50), st.integers(51, 99)),
    max_size=20,
)


@settings(max_examples=150, deadline=None)
@given(a=_items, b=_items, probe=st.lists(st.sampled_from([f"c{k}" for k in range(35)]), max_size=10))
def test_a_table_reads_as_its_dict(a, b, probe):
    b = {c: a.get(c, v) for c, v in b.items()}  # (tables followed by one another agree where they overlap)
    ta, tb = ChunkTable.from_items(a.items()), as_chunk_table(b)
    assert dict(ta) == a and list(ta) == list(a) and len(ta) == len(a)
    assert ta.items() == list(a.items()) and ta.values() == list(a.values())
    both = ta.then(tb)
    assert list(both.items()) == list({**a, **b}.items())
    assert both.rows(probe).tolist() == [list({**a, **b}).index(c) if c in both else -1 for c in probe]
    for c in probe:
        assert (c in both) == (c in {**a, **b})
        assert both.get(c, "none") == {**a, **b}.get(c, "none")
    assert len(set(both.doc_names)) == len(both.doc_names)  # (each document once)
    assert set(v[0] for v in {**a, **b}.values()) <= set(both.doc_names)
