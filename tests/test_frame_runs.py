"""Element runs given as DataFrames mean what their files mean: the rows of a topic that share a rank are one
tree result (PyTerrier's rank column, 0-based, included); without a rank column each row is a result of its own,
ranked by score, never merged with another row by (document, score)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import graphsr
from graphsr.data import sample
from graphsr.evaluation.context import element_context
from graphsr.io import read_element_qrels, read_run
from graphsr.io.runs import RankOrderWarning

#: One measure or more of every family that scores element runs.
MEASURES = ["SRP@10", "SR", "P@10", "AP", "nDCG@10", "ESRP@10", "SRiP@5", "PRUM", "XCG@5", "MAiP(task=thorough)"]


def _frame(path):
    import pandas as pd

    rows = [line.split() for line in open(path) if line.strip()]
    frame = pd.DataFrame(rows, columns=["query_id", "Q0", "doc_id", "rank", "score", "run_id", "xpath"])
    frame["rank"] = frame["rank"].astype(int)
    frame["score"] = frame["score"].astype(float)
    return frame.drop(columns=["Q0"])


def _values(results):
    return {(m, t): v for m, t, v in results.to_frame()[["measure", "topic", "value"]].itertuples(index=False)}


@pytest.fixture(scope="module", params=["shakespeare", "mobydick"])
def bundled(request):
    s = sample(request.param)
    qrels = read_element_qrels(s["qrels"])
    runs = [read_run(p) for p in s["runs"]]
    ctx = element_context(
        qrels.docids().union(*(r.docids() for r in runs)),
        measures=MEASURES,
        collection=s["collection"],
        model="p*|c:length",
        nav="depth4",
    )
    return s, qrels, ctx


def test_the_issue_case_scores_as_its_file():
    """The Shakespeare speeches run as a DataFrame with its rank column: SRP@10 0.5447 and P@10 0.98, as its file
    (before, rows sharing a document and a score were merged: 0.6633 and 0.86)."""
    s = sample("shakespeare")
    path = next(p for p in s["runs"] if p.name == "speeches.run")
    qrels = read_element_qrels(s["qrels"])
    ctx = graphsr.load_collection(s["collection"], kinds=["p*|c"]).context("p*|c:length")
    got = graphsr.evaluate(qrels, [_frame(path)], ["SRP@10", "P@10"], ctx)
    assert round(got.runs[0].mean(graphsr.parse_measure("SRP@10")), 4) == 0.5447
    assert round(got.runs[0].mean(graphsr.parse_measure("P@10")), 2) == 0.98


@pytest.mark.parametrize("layout", ["as read", "rows shuffled", "0-based ranks"])
def test_every_bundled_run_scores_the_same_from_its_frame(bundled, layout):
    s, qrels, ctx = bundled
    rng = np.random.default_rng(7)
    for path in s["runs"]:
        frame = _frame(path)
        if layout == "rows shuffled":
            frame = frame.iloc[rng.permutation(len(frame))]
        elif layout == "0-based ranks":  # PyTerrier's: any integers that order the results
            frame = frame.assign(rank=frame["rank"] - 1)
        want = _values(graphsr.evaluate(qrels, [read_run(path, name="r")], MEASURES, ctx))
        got = _values(graphsr.evaluate(qrels, [frame.assign(run_id="r")], MEASURES, ctx))
        assert got == want, path.name


def test_without_ranks_every_row_is_a_result_of_its_own(bundled):
    """Without a rank column every row is a result of its own, ranked by score, then document, both descending,
    then in row order: the same values as the rows given those ranks; a node in two rows of a topic is then one
    result twice, refused."""
    s, qrels, ctx = bundled
    for path in s["runs"]:
        frame = _frame(path)
        if frame.duplicated(["query_id", "doc_id", "xpath"]).any():  # a node in two tree results: as rows of
            with pytest.raises(graphsr.errors.DuplicateResultError):  # their own, one result twice: refused
                graphsr.io.frames.as_run(frame.drop(columns=["rank"]))
            frame = frame.drop_duplicates(["query_id", "doc_id", "xpath"])
        plain = frame.drop(columns=["rank"]).assign(run_id="r")
        run = graphsr.io.frames.as_run(plain)
        assert sum(len(rs) for rs in run.results.values()) == len(plain)  # one result per row, none merged
        order = sorted(
            range(len(plain)),
            key=lambda k: (
                plain["query_id"].iloc[k],
                -plain["score"].iloc[k],
                [-ord(c) for c in plain["doc_id"].iloc[k]] + [0],
                k,
            ),
        )
        ranks = np.empty(len(plain), dtype=int)
        seen: dict = {}
        for k in order:
            q = plain["query_id"].iloc[k]
            seen[q] = ranks[k] = seen.get(q, 0) + 1
        want = _values(graphsr.evaluate(qrels, [plain.assign(rank=ranks)], MEASURES, ctx))
        assert _values(graphsr.evaluate(qrels, [plain], MEASURES, ctx)) == want, path.name


def test_ranks_that_disagree_with_scores_are_followed_and_said_once():
    import pandas as pd

    frame = pd.DataFrame(
        {
            "query_id": ["1"] * 3 + ["2"] * 2,
            "doc_id": ["a", "a", "b", "a", "b"],
            "xpath": ["/a[1]", "/a[1]/b[1]", "/b[1]", "/a[1]", "/b[1]"],
            "rank": [1, 2, 3, 1, 2],
            "score": [1.0, 3.0, 2.0, 5.0, 4.0],
        }
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = graphsr.io.frames.as_run(frame)
    said = [w for w in caught if issubclass(w.category, RankOrderWarning)]
    assert len(said) == 1 and "in 1 topic(s)" in str(said[0].message) and "rank 2 has score 3" in str(said[0].message)
    assert [r.xpaths for r in run.results["1"]] == [("/a[1]",), ("/a[1]/b[1]",), ("/b[1]",)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graphsr.io.frames.as_run(frame.assign(score=[3.0, 2.0, 1.0, 5.0, 4.0]))  # agreeing: nothing said


@pytest.mark.parametrize(
    "ranks,expected",
    [([1.5, 2.0], "got 1.5 in row 1"), ([float("nan"), 1.0], "got nan"), (["x", "1"], "expected integer ranks")],
)
def test_ranks_that_are_not_integers_are_refused(ranks, expected):
    import pandas as pd

    frame = pd.DataFrame(
        {"query_id": ["1", "1"], "doc_id": ["a", "b"], "xpath": ["/a[1]", "/b[1]"], "rank": ranks, "score": [2.0, 1.0]}
    )
    with pytest.raises(graphsr.errors.RunFormatError, match=expected.replace("[", r"\[")):
        graphsr.io.frames.as_run(frame)


def test_measures_bound_to_different_contexts_score_each_under_its_own():
    """One evaluation with SRP@10 under two navigation models (bound) and unbound under the given context: each
    value is the one that measure gets alone (inputs resolved under one context never serve another), and
    bound measures need no context argument."""
    s = sample("shakespeare")
    qrels, run = read_element_qrels(s["qrels"]), read_run(s["runs"][3])
    coll = graphsr.load_collection(s["collection"], ["p*", "p*|c"])
    length, extent = coll.context("p*|c:length"), coll.context("p*:extent")
    a, b = graphsr.bind("SRP@10", length), graphsr.bind("SRP@10", extent)
    together = graphsr.evaluate(qrels, [run], [a, b, "SRP@10"], extent, unknown="error").runs[0]
    alone = {
        m: graphsr.evaluate(qrels, [run], [m], ctx).runs[0].values
        for m, ctx in ((a, length), (b, extent), (graphsr.parse_measure("SRP@10"), extent))
    }
    for m, want in alone.items():
        [(_, values)] = want.items()
        assert together.values[m].tolist() == values.tolist(), m
    assert together.mean(a) != together.mean(b)
    bound_only = graphsr.evaluate(qrels, [run], [a]).runs[0]
    assert bound_only.values[a].tolist() == together.values[a].tolist()
