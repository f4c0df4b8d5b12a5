"""trec_eval's tie order (score descending, then document name descending within a topic): the C tie orderer
gives what ordering every name with numpy gives, on names that share prefixes, differ in length or are not
ASCII, and on runs that tie a few lines or every line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.core import columns as columns_module
from graphsr.core.columns import DocumentColumns, name_order, rank_documents

TIES = columns_module._ties_module()
needs_c = pytest.mark.skipif(TIES is None, reason="the C tie orderer is not built")

NAMES = st.lists(st.text(st.sampled_from(["a", "b", "A", "0", "9", "-", "é", "ß", "\u4e2d", "\U0001f600", "\x7f"]),
                         min_size=1, max_size=6), min_size=1, max_size=40, unique=True)


def _by_numpy(names: list[str], doc: np.ndarray, group: np.ndarray) -> np.ndarray:
    rank = np.empty(len(doc), dtype=np.int64)
    rank[name_order([names[d] for d in doc.tolist()])] = np.arange(len(doc))
    return np.lexsort((-rank, group))


@needs_c
@settings(max_examples=300, deadline=None)
@given(NAMES, st.data())
def test_the_c_tie_order_is_numpys(names, data):
    size = data.draw(st.integers(0, len(names)))
    doc = np.array(data.draw(st.permutations(range(len(names))))[:size], dtype=np.int64)
    cuts = sorted(data.draw(st.lists(st.integers(0, size), max_size=6)))
    group = np.searchsorted(np.array(cuts, dtype=np.int64), np.arange(size), side="right").astype(np.int64)
    got = TIES.names_descending(names, doc, group)
    assert got.tolist() == _by_numpy(names, doc, group).tolist()


@needs_c
def test_a_name_without_utf8_form_is_left_to_numpy():
    assert TIES.names_descending(["a", "\ud800"], np.array([0, 1]), np.array([0, 0])) is None
    with pytest.raises(ValueError):
        TIES.names_descending(["a"], np.array([1]), np.array([0]))
    with pytest.raises(ValueError):
        TIES.names_descending(["a", "b"], np.array([0, 1]), np.array([1, 0]))


@needs_c
@pytest.mark.parametrize("levels, topics_, depth", [(1, 30, 300), (3, 30, 300), (50, 30, 300), (10 ** 6, 30, 300),
                                                   (1, 2, 6000)])
def test_runs_rank_the_same_with_and_without_the_c_tie_orderer(monkeypatch, levels, topics_, depth):
    """From every line tied (one score) to almost none; names with shared prefixes (``WSJ001-00042``); ties of
    thousands of lines (ordered in bulk)."""
    rng = np.random.default_rng(levels)
    topics, docs, scores = [], [], []
    for t in range(topics_):
        for d in rng.choice(max(5000, depth), size=int(rng.integers(depth // 2 if depth > 300 else 1, depth)),
                            replace=False):
            topics.append(str(t))
            docs.append(f"WSJ{t:03d}-{d:05d}" if d % 7 else f"x{d}")
            scores.append(float(rng.integers(0, levels)))
    run = DocumentColumns.from_lists(topics, docs, scores)
    fast = rank_documents(run.topic, run.value, run.doc, run)
    monkeypatch.setattr(columns_module, "_ties_module", lambda: None)
    slow = rank_documents(run.topic, run.value, run.doc, run)
    assert fast.tolist() == slow.tolist()
    expected = sorted(range(len(topics)), key=lambda k: (run.topic[k], -scores[k], [-ord(c) for c in docs[k]] + [1]))
    assert fast.tolist() == expected
