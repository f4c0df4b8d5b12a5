"""Ties made visible: ties='average' gives every rank measure's expected value over all orderings of results
tied in score (equal to a brute-force mean over every ordering); under the default (trec_eval's order) a line
says where tied results straddle a cut-off; a measure without a tie-aware form is refused in one line."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphsr
from graphsr.errors import GraphsrInputError
from graphsr.evaluation import evaluate

MEASURES = [
    "P@3",
    "R@3",
    "AP",
    "AP@4",
    "nDCG",
    "nDCG@3",
    "RR",
    "RR@2",
    "Rprec",
    "Success@2",
    "Judged@3",
    "NumRelRet",
    "NumRet",
    "NumRel",
    "P(rel=2)@5",
    "nDCG(judged_only=true)@4",
    "DCG@3",
    "DCG(dcg=exp-log2)",
    "F1@3",
    "F1",
]


def _brute_force(qrels: dict, run: dict, topic: str) -> np.ndarray:
    """The mean of each measure over every ordering of the topic's tied results (each ordering scored as a run
    of distinct scores)."""
    groups: dict[float, list] = {}
    for d, s in run.items():
        groups.setdefault(s, []).append(d)
    orders = list(itertools.product(*(itertools.permutations(groups[s]) for s in sorted(groups, reverse=True))))
    total = np.zeros(len(MEASURES))
    for combo in orders:
        flat = [d for group in combo for d in group]
        res = evaluate({topic: qrels}, [{topic: {d: float(len(flat) - i) for i, d in enumerate(flat)}}], MEASURES).runs[
            0
        ]
        total += [res.values[graphsr.parse_measure(m)][0] for m in MEASURES]
    return total / len(orders)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_average_is_the_mean_over_every_ordering_of_tied_results(data):
    docs = [f"d{i}" for i in range(6)]
    qrels = {d: data.draw(st.integers(-1, 3)) for d in docs if data.draw(st.booleans())}
    n = data.draw(st.integers(1, 6))
    run = {d: float(data.draw(st.integers(0, 2))) for d in docs[:n]}
    got = evaluate({"1": qrels or {"x": 1}}, [{"1": run}], MEASURES, ties="average").runs[0]
    want = _brute_force(qrels or {"x": 1}, run, "1")
    np.testing.assert_allclose(
        [got.values[graphsr.parse_measure(m)][0] for m in MEASURES],
        want,
        rtol=1e-12,
        atol=1e-12,
        err_msg=str((qrels, run)),
    )


def test_the_ir_measures_style_api_takes_ties():
    qrels, run = {"1": {"a": 1, "b": 0, "c": 1}}, {"1": {"a": 2.0, "b": 1.0, "c": 1.0}}
    assert graphsr.calc_aggregate(["P@2"], qrels, run)["P@2"] == 1.0  # trec_eval: c before b
    assert graphsr.calc_aggregate(["P@2"], qrels, run, ties="average")["P@2"] == 0.75
    assert [m.value for m in graphsr.iter_calc(["P@2"], qrels, run, ties="average")] == [0.75]


def test_without_ties_average_is_trec_eval_order():
    rng = np.random.default_rng(7)
    qrels = {str(t): {f"d{i}": int(rng.integers(0, 3)) for i in range(30)} for t in range(5)}
    run = {str(t): {f"d{i}": float(s) for i, s in enumerate(rng.permutation(40))} for t in range(5)}
    a = evaluate(qrels, [run], MEASURES, ties="average").runs[0]
    b = evaluate(qrels, [run], MEASURES).runs[0]
    for m in a.values:
        np.testing.assert_allclose(a.values[m], b.values[m], rtol=1e-12, atol=1e-15)


def test_the_default_says_where_ties_straddle_a_cut_off_and_average_settles_them(tmp_path, capsys):
    from graphsr.cli.main import main

    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 a 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 2 s\n1 Q0 b 2 1 s\n1 Q0 c 3 1 s\n2 Q0 a 1 5 s\n")
    assert main(["eval", str(tmp_path / "q"), str(tmp_path / "r"), "-m", "P@2", "-m", "AP", "-q"]) == 0
    out, err = capsys.readouterr()
    assert "straddle a cut-off (k=2 in 1 topic(s))" in err and "--ties average" in err
    assert "P@2\t1\t1.000000" in out  # trec_eval's order: a, then c before b (name descending)
    assert (
        main(["eval", str(tmp_path / "q"), str(tmp_path / "r"), "-m", "P@2", "-m", "AP", "-q", "--ties", "average"])
        == 0
    )
    out, err = capsys.readouterr()
    assert "straddle" not in err
    assert "P@2\t1\t0.750000" in out  # a, then b or c with even chances: (1 + 0.5) / 2
    with pytest.raises(GraphsrInputError, match="Bpref: no tie-aware value") as e:
        evaluate(str(tmp_path / "q"), [str(tmp_path / "r")], ["Bpref"], ties="average")
    assert "\n" not in str(e.value)
    with pytest.raises(GraphsrInputError, match="ties must be"):
        evaluate(str(tmp_path / "q"), [str(tmp_path / "r")], ["P@2"], ties="random")
