"""Steady states (CIKM'08 Eq 8 and the general solver) and SR navigation models."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import ModelSpecError
from graphsr.navigation import (
    build_sr_model,
    parse_model_spec,
    reversible_steady_state,
    row_stochastic,
    stationary_distribution,
    weight_matrix,
)
from graphsr.summaries import build_summary

# CIKM'08 Table 1 (p*, extent-size weights) and Table 2 (p*|c, content-length weights), as printed
TABLE1 = np.array(
    [
        [0, 1, 1, 3, 3, 6, 2],
        [1, 0, 0, 3, 0, 6, 2],
        [1, 0, 0, 0, 3, 0, 0],
        [3, 3, 0, 0, 0, 6, 2],
        [3, 0, 3, 0, 0, 0, 0],
        [6, 6, 0, 6, 0, 0, 0],
        [2, 2, 0, 2, 0, 0, 0],
    ],
    dtype=float,
)
TABLE2 = np.zeros((9, 9))
for (a, b), w in {(2, 3): 4, (2, 5): 7, (3, 4): 133, (5, 6): 14, (5, 7): 73}.items():
    TABLE2[a - 1, b - 1] = TABLE2[b - 1, a - 1] = w
TABLE2[7, 8] = 221  # S8 -> S9
TABLE2[8, 8] = 221  # S9 row as printed: a self-loop


def test_table2_pi_matches_printed_row():
    pi = reversible_steady_state(TABLE2, check_symmetric=False)
    assert pi.round(3).tolist() == [0.0, 0.012, 0.152, 0.147, 0.104, 0.015, 0.081, 0.244, 0.244]


def test_table1_pi_is_row_sums_over_76():
    pi = reversible_steady_state(TABLE1)
    assert pi == pytest.approx(TABLE1.sum(axis=1) / 76)
    assert pi.round(3).tolist() == [0.211, 0.158, 0.053, 0.184, 0.079, 0.237, 0.079]
    # the printed column is row sums / 70 and sums to 1.10 (docs/errata.md)
    assert (TABLE1.sum(axis=1) / 70).round(2).tolist() == [0.23, 0.17, 0.06, 0.2, 0.09, 0.26, 0.09]


def test_eq8_refuses_asymmetric_weights():
    with pytest.raises(ValueError, match="symmetric"):
        reversible_steady_state(TABLE2)


def test_general_solver_agrees_with_eq8_on_connected_symmetric():
    pi = stationary_distribution(TABLE1)
    assert pi == pytest.approx(reversible_steady_state(TABLE1))


def test_general_solver_periodic_chain():
    # bipartite, period 2: power iteration would oscillate
    w = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=float)
    assert stationary_distribution(w) == pytest.approx([0.5, 0.25, 0.25])


def test_general_solver_disconnected_and_one_way():
    w = np.zeros((5, 5))
    w[0, 1] = w[1, 0] = 1  # class {0, 1}
    w[2, 3] = 1  # 2 -> 3 -> 4 -> 3: 2 is transient
    w[3, 4] = w[4, 3] = 1
    pi = stationary_distribution(w)
    assert pi[2] == 0
    # from a uniform start: {0,1} keeps 2/5, {3,4} gets 2/5 + 1/5 from state 2
    assert pi == pytest.approx([0.2, 0.2, 0.0, 0.3, 0.3])
    start = np.array([1.0, 0, 0, 0, 0])
    assert stationary_distribution(w, start=start) == pytest.approx([0.5, 0.5, 0, 0, 0])


def test_dangling_policies():
    w = np.array([[0, 1], [0, 0]], dtype=float)
    assert stationary_distribution(w, dangling="self") == pytest.approx([0, 1])
    assert stationary_distribution(w, dangling="uniform") == pytest.approx([1 / 3, 2 / 3])
    with pytest.raises(ValueError, match="no outgoing weight"):
        row_stochastic(w, dangling="error")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 5), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_general_solver_is_stationary(rows):
    w = np.array(rows, dtype=float)
    pi = stationary_distribution(w)
    assert pi.sum() == pytest.approx(1.0)
    assert (pi >= -1e-12).all()
    p = row_stochastic(w).toarray()
    assert pi @ p == pytest.approx(pi, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 7).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 5), min_size=n, max_size=n), min_size=n, max_size=n)
    )
)
def test_eq8_is_stationary_for_symmetric_weights(rows):
    w = np.array(rows, dtype=float)
    w = w + w.T
    pi = reversible_steady_state(w)
    if w.sum() == 0:  # every state absorbing: the uniform start stays put (a one-node summary gets 1)
        assert pi == pytest.approx(np.full(len(w), 1 / len(w)))
        assert pi @ row_stochastic(w).toarray() == pytest.approx(pi)
        return
    p = row_stochastic(w).toarray()
    live = w.sum(axis=1) > 0
    assert (pi @ p)[live] == pytest.approx(pi[live], abs=1e-12)


def test_weight_schemes_on_a_summary():
    from graphsr.io import parse_document

    doc = parse_document(b"<a><b>xx</b><b>yyy</b><c>z</c></a>", "a")
    s = build_summary([doc], "p*")
    assert weight_matrix(s, "extent").toarray().tolist() == [[0, 2, 1], [2, 0, 0], [1, 0, 0]]
    assert weight_matrix(s, "length").toarray().tolist() == [[0, 5, 1], [5, 0, 0], [1, 0, 0]]
    assert weight_matrix(s, "uniform").toarray().tolist() == [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    directed = weight_matrix(s, "extent", symmetric=False).toarray()
    assert directed.tolist() == [[0, 2, 1], [0, 0, 0], [0, 0, 0]]
    m = build_sr_model(s, "extent")
    assert m.pi == pytest.approx([1 / 2, 1 / 3, 1 / 6])
    assert m.seen_probability(np.array([0, 2])) == pytest.approx([1 / 2, 5 / 6])
    assert m.name == "p*:extent"
    assert build_sr_model(s, "extent", solver="general").pi == pytest.approx(m.pi)


def test_self_loop_counts_once():
    from graphsr.io import parse_document

    s = build_summary([parse_document(b"<s><s><t/></s></s>", "d")], "tag")
    w = weight_matrix(s, "extent").toarray()
    assert w.tolist() == [[1, 1], [1, 0]]


def test_model_specs():
    assert str(parse_model_spec("p*:extent")) == "p*:extent"
    assert parse_model_spec("p*|c:uniform").summary == "p*|c"
    for bad in ["p*", "x:extent", "p*:size", ""]:
        with pytest.raises(ModelSpecError, match="expected SUMMARY:WEIGHT"):
            parse_model_spec(bad)
