"""Property tests of SR/SRP against a direct transcription of CIKM'08 Eq 1-5, 7, 9."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.measures import RankedNodes, compute_sr_family, parse_measure, sr_components


def reference_sr(results, k):
    """Eq 1 with Eq 4, Eq 5 and p(e;f) of Eq 2/7, written out with loops.

    results: list of (doc, {node: (rel, seen)}).
    """

    def p_node(e, de, f, df):
        if de != df:
            return 0.0
        if e == f:
            return 1.0
        return nodes[(de, e)][1]

    def p_tree(ti, tj):
        (di, ni), (dj, nj) = ti, tj
        s = sum(p_node(e, di, f, dj) for f in nj for e in ni)
        return s / (len(ni) * len(nj))

    nodes = {(d, e): v for d, ns in results for e, v in ns.items()}
    total = 0.0
    for i, (d, ns) in enumerate(results[:k]):
        rel_tree = sum(v[0] for v in ns.values()) / len(ns)
        prod = 1.0
        for j in range(i):
            prod *= 1 - p_tree((d, ns), results[j])
        total += rel_tree * prod
    return total


@st.composite
def rankings(draw):
    ndocs = draw(st.integers(1, 3))
    # per document: node ids 0..9 with a fixed (rel, seen)
    node_vals = {
        (d, e): (draw(st.sampled_from([0.0, 0.25, 0.5, 1.0])), draw(st.floats(0, 1)))
        for d in range(ndocs)
        for e in range(10)
    }
    nres = draw(st.integers(0, 8))
    results, used = [], set()
    for _ in range(nres):
        d = draw(st.integers(0, ndocs - 1))
        nodes = frozenset(draw(st.lists(st.integers(0, 9), min_size=1, max_size=4, unique=True)))
        if (d, nodes) in used:
            continue
        used.add((d, nodes))
        results.append((d, {e: node_vals[(d, e)] for e in sorted(nodes)}))
    return results


def to_ranked(results):
    items = [(f"doc{d}", [(e, v[0], v[1]) for e, v in ns.items()]) for d, ns in results]
    return RankedNodes.from_lists({"t": items})


@settings(max_examples=300, deadline=None)
@given(rankings(), st.integers(1, 10))
def test_vectorised_sr_equals_direct_equations(results, k):
    r = to_ranked(results)
    m = parse_measure(f"SR@{k}")
    assert compute_sr_family([m], r)[m][0] == pytest.approx(reference_sr(results, k), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(rankings(), st.integers(1, 10))
def test_bounds(results, k):
    r = to_ranked(results)
    rel_tree, red = sr_components(r)
    assert np.all((red >= 0) & (red <= 1))
    sr, srp = parse_measure(f"SR@{k}"), parse_measure(f"SRP@{k}")
    v = compute_sr_family([sr, srp], r)
    assert 0 <= v[srp][0] <= 1
    assert v[sr][0] <= rel_tree[:k].sum() + 1e-12
    # SR@k is non-decreasing in k
    assert compute_sr_family([parse_measure(f"SR@{k + 1}")], r)[parse_measure(f"SR@{k + 1}")][0] >= v[sr][0] - 1e-12


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 30), st.booleans()), max_size=25), st.integers(1, 30))
def test_srp_equals_precision_without_navigation(items, k):
    seen, results = set(), []
    for d, e, rel in items:
        if (d, e) not in seen:
            seen.add((d, e))
            results.append((f"d{d}", [(e, float(rel), 0.0)]))
    r = RankedNodes.from_lists({"t": results})
    m = parse_measure(f"SRP@{k}")
    precision = sum(1 for _, [(_, rel, _)] in results[:k] if rel) / k
    assert compute_sr_family([m], r)[m][0] == pytest.approx(precision, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(rankings())
def test_more_navigation_never_raises_sr(results):
    """Raising every seen probability can only add redundancy (monotonicity)."""
    r = to_ranked(results)
    bumped = RankedNodes(
        r.topics, r.result_topic, r.result_doc, r.item_result, r.item_node, r.rel, np.minimum(1.0, r.seen + 0.2)
    )
    m = parse_measure("SR")
    assert compute_sr_family([m], bumped)[m][0] <= compute_sr_family([m], r)[m][0] + 1e-12


def test_several_topics_are_independent():
    a = [("d", [(1, 1.0, 0.5)]), ("d", [(2, 1.0, 0.5)])]
    both = RankedNodes.from_lists({"x": a, "y": a})
    m = parse_measure("SR@2")
    assert compute_sr_family([m], both)[m].tolist() == pytest.approx([1.5, 1.5])


def test_empty_ranking_scores_zero():
    r = RankedNodes(["t"], [], [], [], [], [], [])
    m = parse_measure("SRP@5")
    assert compute_sr_family([m], r)[m].tolist() == [0.0]
