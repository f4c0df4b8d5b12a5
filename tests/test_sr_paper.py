"""The CIKM'08 SR numbers of docs/errata.md (verified worked examples and errata)."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.measures import RankedNodes, compute_sr_family, parse_measure, sr_components
from graphsr.navigation import reversible_steady_state

from .test_navigation import TABLE1, TABLE2

T_L = (1, 2, 3, 4, 14, 15)
T_R = (1, 2, 7, 14, 17)


def fig4_ranking(seen: dict[int, float]) -> RankedNodes:
    tl = [(e, 1.0, seen[e]) for e in T_L]
    tr = [(e, 1.0, seen[e]) for e in T_R]
    return RankedNodes.from_lists({"q": [("book", tl), ("book", tr)]})


def sr_of(ranking: RankedNodes, measure: str) -> float:
    m = parse_measure(measure)
    return float(compute_sr_family([m], ranking)[m][0])


def test_example_4_4_redundancy_is_055():
    # p(e;f) = 0.5 for every e != f: Eq 5 gives 16.5/30 = 0.55 (the paper prints 0.45)
    _, red = sr_components(fig4_ranking({e: 0.5 for e in T_L + T_R}))
    assert red[1] == pytest.approx(0.55, abs=1e-12)


def _pstar_sids():
    # node -> SID as printed in Example 6.1 for p* (0-based SIDs)
    return {1: 0, 2: 1, 3: 2, 4: 3, 7: 2, 14: 5, 15: 6, 17: 6}


def _pstarc_sids():
    # p*|c as printed: e1->S1, e2->S2, e7->S3, e14->S8, e17->S9
    return {1: 0, 2: 1, 3: 2, 4: 3, 7: 2, 14: 7, 15: 8, 17: 8}


def _seen(pi, sids):
    return {e: 1.0 - pi[s] for e, s in sids.items()}


def test_example_6_1_with_printed_table1_pi():
    pi = TABLE1.sum(axis=1) / 70  # the printed column: row sums / 70
    r = fig4_ranking(_seen(pi, _pstar_sids()))
    assert sr_of(r, "SR@2") == pytest.approx(1.138, abs=5e-4)
    assert sr_of(r, "SRP@2") == pytest.approx(0.569, abs=5e-4)
    # SR = 1 + X/30 with X = 5(pi1+pi2+pi14) + 6(pi7+pi17)
    x = 5 * (pi[0] + pi[1] + pi[5]) + 6 * (pi[2] + pi[6])
    assert sr_of(r, "SR@2") == pytest.approx(1 + x / 30, abs=1e-12)


def test_example_6_1_with_eq8_pi_of_table1():
    pi = reversible_steady_state(TABLE1)
    assert sr_of(fig4_ranking(_seen(pi, _pstar_sids())), "SR@2") == pytest.approx(1.127, abs=5e-4)


def test_example_6_1_with_table2():
    pi = reversible_steady_state(TABLE2, check_symmetric=False)
    r = fig4_ranking(_seen(pi, _pstarc_sids()))
    assert sr_of(r, "SR@2") == pytest.approx(1.122, abs=5e-4)
    assert sr_of(r, "SRP@2") == pytest.approx(0.561, abs=5e-4)


def test_srp_is_precision_without_navigation():
    rels = [1, 0, 1, 1, 0, 0, 1]
    r = RankedNodes.from_lists({"q": [("d", [(i, float(v), 0.0)]) for i, v in enumerate(rels)]})
    for k in range(1, 10):
        assert sr_of(r, f"SRP@{k}") == pytest.approx(sum(rels[:k]) / k)


def test_redundancy_across_documents_is_zero():
    r = RankedNodes.from_lists({"q": [("a", [(1, 1.0, 0.9)]), ("b", [(1, 1.0, 0.9)])]})
    _, red = sr_components(r)
    assert red.tolist() == [0.0, 0.0]


def test_eq3_for_singletons():
    # Example 4.2: p(e16; {e4, e15}) = 1 - (1 - p(e16;e4))(1 - p(e16;e15)) = 1 - (1 - q16)^2
    r = RankedNodes.from_lists({"q": [("b", [(4, 1.0, 0.3)]), ("b", [(15, 1.0, 0.2)]), ("b", [(16, 1.0, 0.4)])]})
    _, red = sr_components(r)
    assert red == pytest.approx([0.0, 0.2, 1 - 0.6**2])
    assert np.all((red >= 0) & (red <= 1))
