"""The vectorised ESR expectations equal the reference implementation (node-level assessments)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .esr_reference import ESRTopic, esr_expectations
from graphsr.measures.esr import ESRInputs, esr_curves
from graphsr.measures.inputs import RankedNodes


@st.composite
def cases(draw):
    n_nodes = 8
    n_docs = draw(st.integers(1, 2))
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    p = rng.random((n_docs, n_nodes, n_nodes)) * (rng.random((n_docs, n_nodes, n_nodes)) < 0.6)
    topics = {}
    for t in range(draw(st.integers(1, 3))):
        results, used = [], set()
        for _ in range(draw(st.integers(0, 6))):
            d = int(rng.integers(n_docs))
            nodes = tuple(sorted(rng.choice(n_nodes, size=int(rng.integers(1, 4)), replace=False).tolist()))
            if (d, nodes) in used:
                continue
            used.add((d, nodes))
            results.append((d, nodes))
        assessed = {(int(rng.integers(n_docs)), int(rng.integers(n_nodes))) for _ in range(int(rng.integers(0, 5)))}
        rel = {a: float(rng.choice([1.0, 0.5, 30.0])) for a in assessed}
        topics[f"q{t}"] = (results, rel)
    return p, n_nodes, topics


def node_id(d, e, n_nodes):
    return d * n_nodes + e


@settings(max_examples=150, deadline=None)
@given(cases(), st.lists(st.integers(1, 8), min_size=1, max_size=3, unique=True))
def test_vectorised_equals_reference(case, cutoffs):
    p, n_nodes, topics = case

    def nav(to, fr):  # element-wise p~(to; from), 0 across documents
        to, fr = np.asarray(to), np.asarray(fr)
        same = to // n_nodes == fr // n_nodes
        return np.where(same, p[to // n_nodes, fr % n_nodes, to % n_nodes], 0.0)

    def nav_matrix(to, fr):
        return np.array([[float(nav(np.array([i]), np.array([j]))[0]) for j in fr] for i in to])

    ranking = {
        t: [(f"d{d}", [(node_id(d, e, n_nodes), 0.0, 0.0) for e in nodes]) for d, nodes in res]
        for t, (res, _) in topics.items()
    }
    ranked = RankedNodes.from_lists(ranking)
    # RankedNodes.from_lists numbers nodes itself: map back to our ids via the same order
    ids, docs = [], {}
    for t, (res, _) in topics.items():
        for d, nodes in res:
            docs.setdefault(f"d{d}", len(docs))
            ids += [node_id(d, e, n_nodes) for e in nodes]
    ranked.item_node = np.array(ids, dtype=np.int64)
    a_topic, a_node, a_doc, a_rel = [], [], [], []
    for ti, (t, (_, rel)) in enumerate(topics.items()):
        for (d, e), v in sorted(rel.items()):
            a_topic.append(ti)
            a_node.append(node_id(d, e, n_nodes))
            a_doc.append(docs.get(f"d{d}", -1 - d))  # a document the run never returns gets its own code
            a_rel.append(v)
    x = ESRInputs(
        ranked,
        np.ones(len(ids)),
        np.array(a_topic, int),
        np.array(a_node, int),
        np.array(a_doc, int),
        np.array(a_rel),
        nav,
    )
    got = esr_curves(x, cutoffs)
    for ti, (t, (res, rel)) in enumerate(topics.items()):
        topic = ESRTopic(
            [np.array([node_id(d, e, n_nodes) for e in nodes]) for d, nodes in res],
            [len(nodes) for _, nodes in res],
            [np.array([node_id(d, e, n_nodes)]) for (d, e) in sorted(rel)],
            np.array([rel[a] for a in sorted(rel)]),
        )
        for c, k in enumerate(cutoffs):
            ref = esr_expectations(topic, nav_matrix, k)
            assert got["hits"][ti, c] == pytest.approx(ref["hits"], abs=1e-9)
            assert got["near_misses"][ti, c] == pytest.approx(ref["near_misses"], abs=1e-9)
            assert got["misses"][ti, c] == pytest.approx(ref["misses"], abs=1e-9)
            assert got["size"][ti, c] == pytest.approx(sum(len(n) for _, n in res[:k]))
