"""ESR's one-pass kernel (element runs, navigation from a transition table, in C) equals the numpy path and the
reference transcription, with dense and sparse tables, unknown documents, certain steps (q = 1), hits at any
rank, repeated and unsorted cut-offs and cut-offs beyond the runs."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from .esr_reference import ESRTopic, esr_expectations
from graphsr.measures.esr import ESRInputs, esr_curves
from graphsr.measures.esr import kernel
from graphsr.measures.esr.kernel import esr_curves_many
from graphsr.measures.inputs import RankedNodes
from graphsr.navigation.elementwise import NodeTransitions

# CI builds the extension and asks for it (GRAPHSR_REQUIRE_C=1): there a missing extension fails rather than skips
pytestmark = pytest.mark.skipif(
    kernel._ACCUMULATE is None and os.environ.get("GRAPHSR_REQUIRE_C") != "1",
    reason="the C extension graphsr.measures.esr._survival was not built",
)

KEYS = ("hits", "near_misses", "misses", "recall_base", "size")


@st.composite
def cases(draw):
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    n_docs, n_nodes = draw(st.integers(1, 4)), draw(st.integers(1, 7))
    n_states = draw(st.integers(1, 6))
    dense = rng.random((n_states, n_states)) * (rng.random((n_states, n_states)) < draw(st.sampled_from([0.3, 1.0])))
    if draw(st.booleans()):  # a certain step somewhere: q = 1
        dense[rng.integers(n_states), rng.integers(n_states)] = 1.0
    rows = dense.sum(axis=1, keepdims=True)
    P = np.divide(dense, rows, out=np.zeros_like(dense), where=rows > 0)
    if draw(st.booleans()):
        P[rng.integers(n_states)] = 0.0
        P[rng.integers(n_states), rng.integers(n_states)] = 1.0
    state_of = rng.integers(n_states, size=n_docs * n_nodes)
    known = rng.random(n_docs) < 0.8  # a document the model does not know: every step to or from it is 0
    base = np.where(known, np.arange(n_docs) * n_nodes, -1)
    T = draw(st.integers(1, 4))
    results, assessed = [], []
    for t in range(T):
        picks = rng.permutation(n_docs * n_nodes)[: int(rng.integers(0, n_docs * n_nodes + 1))]
        results.append([(int(i // n_nodes), int(i % n_nodes)) for i in picks])
        assessed.append(
            sorted({(int(rng.integers(n_docs)), int(rng.integers(n_nodes))) for _ in range(int(rng.integers(0, 6)))})
        )
    rels = [float(rng.choice([1.0, 0.5, 30.0])) for t in range(T) for _ in assessed[t]]
    cutoffs = draw(st.lists(st.integers(1, n_docs * n_nodes + 2), min_size=1, max_size=4))
    return P, state_of, base, results, assessed, np.array(rels), cutoffs, draw(st.booleans())


def node(d: int, i: int) -> int:
    return (d << 32) | i


def inputs(case, nav):
    P, state_of, base, results, assessed, rels, cutoffs, _ = case
    topics = [f"q{t}" for t in range(len(results))]
    rt = np.array([t for t, res in enumerate(results) for _ in res], dtype=np.int64)
    nodes = np.array([node(d, i) for res in results for d, i in res], dtype=np.int64)
    docs = nodes >> 32
    ranked = RankedNodes(topics, rt, docs, np.arange(len(rt)), nodes, np.zeros(len(rt)), np.zeros(len(rt)))
    a_topic = np.array([t for t, a in enumerate(assessed) for _ in a], dtype=np.int64)
    a_node = np.array([node(d, i) for a in assessed for d, i in a], dtype=np.int64)
    return ESRInputs(ranked, np.ones(len(rt)), a_topic, a_node, a_node >> 32, rels, nav)


@settings(max_examples=300, deadline=None)
@given(cases())
def test_one_pass_equals_numpy_path_and_reference(case):
    P, state_of, base, results, assessed, rels, cutoffs, as_csr = case
    table = NodeTransitions(base, state_of, sp.csr_matrix(P), dense_up_to=0 if as_csr else 4096)
    assert (table.dense is None) == as_csr
    x = inputs(case, table)
    got = esr_curves(x, cutoffs)  # element run and a table: the one-pass kernel
    numpy_path = esr_curves(inputs(case, lambda to, fr: table(to, fr)), cutoffs)  # a plain callable: numpy
    for key in KEYS:
        np.testing.assert_allclose(got[key], numpy_path[key], rtol=1e-12, atol=1e-12, err_msg=key)

    def nav_matrix(to, fr):  # the reference's navigation: the table's, 0 across documents
        return np.array(
            [[float(table(np.array([a]), np.array([b]))[0]) if a >> 32 == b >> 32 else 0.0 for b in fr] for a in to]
        )

    at = 0
    for t, (res, judged) in enumerate(zip(results, assessed)):
        topic = ESRTopic(
            [np.array([node(d, i)]) for d, i in res],
            [1] * len(res),
            [np.array([node(d, i)]) for d, i in judged],
            rels[at : at + len(judged)],
        )
        at += len(judged)
        for c, k in enumerate(cutoffs):
            ref = esr_expectations(topic, nav_matrix, k)
            for key in ("hits", "near_misses", "misses"):
                assert got[key][t, c] == pytest.approx(ref[key], abs=1e-9), (key, t, k)


def test_one_pass_per_relevance_vector_and_cutoff_list():
    """Two relevance vectors with their own cut-off lists, in one call, equal each computed alone."""
    rng = np.random.default_rng(3)
    n_states = 5
    P = rng.random((n_states, n_states))
    P /= P.sum(axis=1, keepdims=True)
    table = NodeTransitions(np.array([0, 40]), rng.integers(n_states, size=80), sp.csr_matrix(P))
    results = [[(int(d), int(i)) for d, i in zip(rng.integers(2, size=30), rng.permutation(40)[:30])] for _ in range(3)]
    results = [list(dict.fromkeys(r)) for r in results]
    assessed = [sorted({(int(rng.integers(2)), int(rng.integers(40))) for _ in range(12)}) for _ in range(3)]
    rel = rng.random(sum(map(len, assessed)))
    case = (P, None, None, results, assessed, rel, None, False)
    x = inputs(case, table)
    lists = [[10, 1, 5], list(range(1, 31))]
    both = esr_curves_many(x, lists, [np.ones(len(rel)), rel])
    for out, ks, r in zip(both, lists, [np.ones(len(rel)), rel]):
        alone = esr_curves_many(inputs((P, None, None, results, assessed, r, None, False), table), ks, [r])[0]
        numpy_path = esr_curves_many(
            inputs((P, None, None, results, assessed, r, None, False), lambda to, fr: table(to, fr)), ks, [r]
        )[0]
        for key in KEYS:
            np.testing.assert_allclose(out[key], alone[key], rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(out[key], numpy_path[key], rtol=1e-12, atol=1e-12)
    assert both[1]["hits"].shape == (3, 30)
