"""Values checked where they enter, in the Python API as on the command line: score tables (non-finite and
absurd values, missing names), compare's pairs (too few shared topics) and samples, ids that are NaN or None,
and a measure name that means two things found under the caller's spelling."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsr
from graphsr.analysis.scores import ScoreTable
from graphsr.analysis.significance import SAMPLES, _ttest_rel, compare_runs
from graphsr.errors import GraphsrInputError


def table(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])


def graphsr_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "graphsr", *args], capture_output=True, text=True, timeout=120)


GOOD = [
    (r, "AP", str(t), v) for r, base in (("a", 0.5), ("b", 0.3)) for t, v in enumerate(base + np.linspace(0, 0.2, 6), 1)
]


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan, 1e308, -1e300])
def test_a_score_table_refuses_values_no_measure_gives(value, tmp_path):
    rows = GOOD[:-1] + [("b", "AP", "6", value)]
    with pytest.raises(GraphsrInputError, match="not finite numbers within"):
        ScoreTable(table(rows))
    path = tmp_path / "scores.csv"
    table(rows).to_csv(path, index=False)
    done = graphsr_cli("compare", str(path))
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert "not finite numbers" in done.stderr


@pytest.mark.parametrize("column", ["run", "measure", "topic"])
@pytest.mark.parametrize("missing", [None, np.nan, ""])
def test_a_score_table_refuses_rows_without_a_name(column, missing):
    frame = table(GOOD)
    frame[column] = frame[column].astype(object)
    frame.loc[3, column] = missing
    with pytest.raises(GraphsrInputError, match=f"{column} column holds 1 missing name"):
        ScoreTable(frame)


@pytest.mark.parametrize("shared", [0, 1])
def test_compare_refuses_runs_that_share_fewer_than_two_topics(shared, tmp_path):
    rows = [("a", "AP", str(t), 0.1 * t) for t in range(1, 6)] + [
        ("b", "AP", str(t), 0.05 * t) for t in range(6 - shared, 9 - shared)
    ]
    with pytest.raises(GraphsrInputError, match=f"runs 'a' and 'b' share {shared} topic.*'a' has 5, 'b' 3"):
        compare_runs(ScoreTable(table(rows)))
    assert compare_runs(ScoreTable(table(rows)), unpaired="skip").pairs.empty  # the report's choice
    path = tmp_path / "s.csv"
    table(rows).to_csv(path, index=False)
    done = graphsr_cli("compare", str(path))
    assert done.returncode == 2 and done.stdout == "" and "a paired test needs at least 2 topics" in done.stderr


@pytest.mark.parametrize("samples", ["1", "99", "0", "-5", "20000000", "1e3", "nan"])
def test_compare_samples_out_of_range(samples, tmp_path):
    path = tmp_path / "s.csv"
    table(GOOD).to_csv(path, index=False)
    done = graphsr_cli("compare", str(path), "--test", "bootstrap", "--samples", samples)
    assert done.returncode == 2 and done.stdout == "" and "--samples" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(GraphsrInputError, match=r"samples must be an integer in \[100, 10000000\]"):
        compare_runs(ScoreTable(table(GOOD)), test="bootstrap", samples=1)
    assert SAMPLES == (100, 10_000_000)


def test_compare_at_the_smallest_samples_gives_intervals_with_width():
    c = compare_runs(ScoreTable(table(GOOD)), test="bootstrap", samples=SAMPLES[0])
    row = c.pairs.iloc[0]
    assert row["ci_low"] < row["diff"] < row["ci_high"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.floats(-0.5, 0.5)), min_size=2, max_size=60),
    st.sampled_from([1.0, 1e-9, 0.0]),
)
def test_the_t_test_is_scipys_bit_for_bit(pairs, scale):
    from scipy import stats

    a = np.array([x for x, _ in pairs])
    b = a + scale * np.array([d for _, d in pairs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = float(stats.ttest_rel(a, b).pvalue)
    mine = _ttest_rel(a, b)
    assert mine == theirs or (np.isnan(mine) and np.isnan(theirs))


QRELS = {"1": {"a": 1, "b": 1}, "2": {"a": 1}}


@pytest.mark.parametrize(
    "run, words",
    [
        (pd.DataFrame({"query_id": [np.nan, "1"], "doc_id": ["a", "b"], "score": [1.0, 0.5]}), "query_id holds nan"),
        (pd.DataFrame({"query_id": ["1", "1"], "doc_id": [None, "a"], "score": [1.0, 0.5]}), "doc_id holds"),
        (pd.DataFrame({"query_id": [1.0, None], "doc_id": ["a", "b"], "score": [1.0, 0.5]}), "query_id holds"),
        ({float("nan"): {"a": 1.0}, "1": {"a": 1.0}}, "a topic: expected an id, got nan"),
        ({None: {"a": 1.0}}, "a topic: expected an id, got None"),
        ({"1": {None: 1.0, "a": 0.5}}, "expected an id, got None"),
        ({"1": {float("nan"): 1.0}}, "expected an id, got nan"),
        ([("1", None, 1.0), ("1", "a", 0.5)], "record 1 (doc_id): expected an id, got None"),
        ([(None, "a", 1.0)], "record 1 (query_id): expected an id, got None"),
    ],
)
def test_ids_that_are_nan_or_none_are_refused(run, words):
    with pytest.raises(GraphsrInputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        graphsr.calc_aggregate(["P@2"], QRELS, run)


@pytest.mark.parametrize(
    "qrels",
    [
        {"1": {None: 1}},
        {None: {"a": 1}},
        [("1", None, 1)],
        pd.DataFrame({"query_id": ["1"], "doc_id": [None], "relevance": [1]}),
    ],
)
def test_assessments_with_nan_or_none_ids_are_refused(qrels):
    with pytest.raises(GraphsrInputError, match="expected an id"):
        graphsr.calc_aggregate(["P@2"], qrels, {"1": {"a": 1.0}})


def test_a_name_meaning_two_measures_is_found_under_the_callers_spelling():
    """num_ret, num_rel and num_rel_ret are the official INEX tool's article counts and trec_eval's counts: on
    TREC document assessments they are trec_eval's, and the result answers to the name given."""
    run = {"1": {"a": 1.0, "c": 0.5}, "2": {"b": 2.0}}
    got = graphsr.calc_aggregate(["num_ret", "num_rel", "num_rel_ret", "P@2"], QRELS, run)
    assert (got["num_ret"], got["num_rel"], got["num_rel_ret"]) == (3, 3, 1)  # sums over topics, as trec_eval
    assert got["NumRet"] == got["num_ret"] and "num_rel" in got and got["P@2"] == 0.25
