"""A chunk's element rows and CHILD edges as the local store's loader sends them: written in C from the chunk's
columns (graphsr.store._rows.elements), the same text as the Python writer's, document after document, and as the
parameter encoder's for the same rows as lists."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.core.document import DocumentTree
from graphsr.store import _falkor_params as fp
from graphsr.store.collection_writes import _C_ROWS, _chunk_literal, _element_rows

KINDS = ["p*", "p*|c", "c", "tag"]
#: Tag names with what the literal must escape or carry: quotes, backslashes, text beyond ASCII, a lone surrogate
#: (which UTF-8 cannot encode: that chunk is written in Python).
NAMES = ["a", "b", "é", "ns:t", "w" * 30, 'q"uote', "back\\slash", "日本", "\udc80"]

trees = st.recursive(
    st.tuples(st.sampled_from(NAMES), st.just(""), st.just([])),
    lambda kids: st.tuples(
        st.sampled_from(["a", "sec", "p"]), st.sampled_from(["", "text", "é" * 70]), st.lists(kids, max_size=3)
    ),
    max_leaves=12,
)


def _documents(nested, kinds, codes):
    out = []
    for i, (tree, code) in enumerate(zip(nested, codes)):
        doc = DocumentTree.from_nested(f"d{i}", tree)
        sids = {k: (np.arange(len(doc), dtype=np.int64) - 1) * (j + 3) for j, k in enumerate(sorted(kinds))}
        out.append((code, doc, sids))
    return out


@pytest.mark.skipif(_C_ROWS is None, reason="the C writer was not built")
@given(
    st.lists(trees, min_size=1, max_size=6),
    st.sets(st.sampled_from(KINDS)),
    st.lists(st.integers(0, (1 << 30) - 1), min_size=6, max_size=6, unique=True),
)
@settings(max_examples=200, deadline=None)
def test_a_chunk_written_in_c_is_the_text_python_and_the_encoder_write(nested, kinds, codes):
    documents = _documents(nested, kinds, codes)
    in_c = _chunk_literal(documents)
    in_python = _chunk_literal(documents, c_rows=None)
    assert in_c == in_python
    rows, children, at = [], [], 0
    for code, doc, sids in documents:
        r, parent = _element_rows(doc, code, sids)
        rows += r
        children += [[at + p, at + c] for c, p in enumerate(parent) if p >= 0]
        at += len(doc)
    as_lists = fp.params_header({"rows": rows, "children": children})
    as_text = fp.params_header({"rows": fp.Literal("[" + in_c[0] + "]"), "children": fp.Literal("[" + in_c[1] + "]")})
    assert as_text == as_lists


@pytest.mark.skipif(_C_ROWS is None, reason="the C writer was not built")
def test_the_c_writer_writes_every_int64_as_python_does_and_refuses_what_is_out_of_range():
    extremes = np.array([0, 1, -1, 9, 10, -10, 2**31, -(2**31), 2**63 - 1, -(2**63)], dtype=np.int64)
    n = len(extremes)
    zeros = np.zeros(n, dtype=np.int64)
    none = np.full(n, -1, dtype=np.int64)
    rows, edges = _C_ROWS.elements(
        extremes, extremes, zeros, extremes, extremes, extremes, (extremes, None, None, extremes), ['"t"'], none
    )
    assert rows == ",".join(f'[{x},{x},"t",{x},{x},{x},{x},null,null,{x}]' for x in extremes.tolist())
    assert edges == ""
    parents = np.array([-1] + list(range(n - 1)), dtype=np.int64)
    _, edges = _C_ROWS.elements(zeros, zeros, zeros, zeros, zeros, zeros, (None,) * 4, ['"t"'], parents)
    assert edges == ",".join(f"[{i - 1},{i}]" for i in range(1, n))
    with pytest.raises(IndexError):  # a tag past the names
        _C_ROWS.elements(zeros, zeros, zeros + 1, zeros, zeros, zeros, (None,) * 4, ['"t"'], none)
    with pytest.raises(IndexError):  # a parent past the rows
        _C_ROWS.elements(zeros, zeros, zeros, zeros, zeros, zeros, (None,) * 4, ['"t"'], none + n + 1)
    with pytest.raises(ValueError, match="int64"):  # a column of another width or length
        _C_ROWS.elements(zeros, zeros.astype(np.int32), zeros, zeros, zeros, zeros, (None,) * 4, ['"t"'], none)
    with pytest.raises(ValueError, match="int64"):
        _C_ROWS.elements(zeros, zeros[:-1], zeros, zeros, zeros, zeros, (None,) * 4, ['"t"'], none)
    assert _C_ROWS.elements(zeros, zeros, zeros, zeros, zeros, zeros, (None,) * 4, ['"\udc80"'], none) is None
