"""Systems of several runs (seeds, folds) compared as systems: by their runs' per-topic means under graphsr's
paired tests (equal to scipy's on those means), or by a linear mixed model of every run's scores (equal to
statsmodels' MixedLM fitted to the same data)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from graphsr.analysis.scores import ScoreTable
from graphsr.analysis.significance import compare_runs
from graphsr.analysis.systems import complete_systems, parse_systems, system_table, systems_by_pattern
from graphsr.errors import GraphsrInputError


def seeded_table(seed: int, systems=("bm25", "dense", "splade"), seeds: int = 3, topics: int = 25, gap: float = 0.05):
    """A score table of ``seeds`` runs of each system (named SYSTEM-seedK) on ``topics`` topics under two measures:
    a topic effect, a system effect and each run's own noise."""
    rng = np.random.default_rng(seed)
    rows = []
    topic_effect = rng.normal(0.4, 0.15, topics)
    for k, s in enumerate(systems):
        for r in range(seeds):
            noise = rng.normal(0, 0.05, (2, topics))
            for j, m in enumerate(("P@10", "AP")):
                values = np.clip(topic_effect + k * gap + noise[j], 0, 1)
                rows += [(f"{s}-seed{r}", m, str(t + 1), float(v)) for t, v in enumerate(values)]
    return ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 4), st.sampled_from(["t", "randomization", "bootstrap"]))
def test_systems_are_compared_by_their_runs_per_topic_means(seed, seeds, test):
    scores = seeded_table(seed, seeds=seeds)
    systems = systems_by_pattern(scores.runs, r"(.*)-seed[0-9]+")
    assert systems == {s: [f"{s}-seed{r}" for r in range(seeds)] for s in ("bm25", "dense", "splade")}
    got = compare_runs(scores, systems=systems, test=test, samples=500)
    by_hand = {}  # each system's per-topic means, averaged here
    for m in ("P@10", "AP"):
        table = scores.per_topic(m)
        for s, runs in systems.items():
            by_hand[s, m] = table[runs].mean(axis=1)
    rows = [(s, m, t, v) for (s, m), series in by_hand.items() for t, v in series.items()]
    means_table = ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))
    want = compare_runs(means_table, runs=list(systems), test=test, samples=500)
    pd.testing.assert_frame_equal(got.pairs, want.pairs)
    if test == "t":
        for _, row in got.pairs.iterrows():
            a, b = by_hand[row["run_a"], row["measure"]], by_hand[row["run_b"], row["measure"]]
            assert row["p"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-10)
            ci = stats.ttest_rel(a, b).confidence_interval(0.95)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-10)
    for m in ("P@10", "AP"):
        for s in systems:
            assert got.means.loc[s, m] == pytest.approx(by_hand[s, m].mean(), rel=1e-12)


def test_the_mixed_model_is_statsmodels_mixedlm_on_every_run_s_scores():
    smf = pytest.importorskip("statsmodels.formula.api")
    scores = seeded_table(3, seeds=4)
    systems = systems_by_pattern(scores.runs, r"(.*)-seed[0-9]+")
    got = compare_runs(scores, systems=systems, test="lmm", correction="none", confidence=0.9)
    assert len(got.pairs) == 6  # 3 pairs x 2 measures
    for m in ("P@10", "AP"):
        frame = scores.frame[scores.frame["measure"] == m].copy()
        frame["system"] = frame["run"].str.replace(r"-seed[0-9]+$", "", regex=True)
        for _, row in got.pairs[got.pairs["measure"] == m].iterrows():
            a, b = row["run_a"], row["run_b"]
            three = frame.copy()
            three["system"] = pd.Categorical(three["system"], categories=list(systems))
            fit3 = smf.mixedlm("value ~ C(system)", three, groups=three["topic"]).fit(reml=True)
            contrast = np.zeros((1, len(fit3.fe_params)))
            for s, sign in ((a, 1.0), (b, -1.0)):
                if s != list(systems)[0]:
                    contrast[0, list(fit3.fe_params.index).index(f"C(system)[T.{s}]")] = sign
            t = fit3.t_test(contrast)
            assert row["diff"] == pytest.approx(float(np.squeeze(t.effect)), rel=1e-9)
            low, high = np.asarray(t.conf_int(alpha=0.1)).reshape(-1)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), rel=1e-9)
            assert row["p"] == pytest.approx(float(np.squeeze(t.pvalue)), rel=1e-9)
            # a balanced design (every run on every topic): the effects' difference is the means' difference
            assert row["diff"] == pytest.approx(row["mean_a"] - row["mean_b"], rel=1e-6, abs=1e-9)
            # the Wald test by hand: the contrast over its standard error, normal
            z = float(np.squeeze(t.effect)) / np.sqrt(
                (contrast @ fit3.cov_params().iloc[:3, :3].to_numpy() @ contrast.T).item()
            )
            assert row["p"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)


def test_two_systems_of_one_run_each_under_the_mixed_model():
    smf = pytest.importorskip("statsmodels.formula.api")
    scores = seeded_table(8, systems=("a", "b"), seeds=1)
    got = compare_runs(scores, runs=None, test="lmm", measures=["AP"], correction="none")
    frame = scores.frame[scores.frame["measure"] == "AP"].copy()
    frame["system"] = pd.Categorical(frame["run"], categories=["a-seed0", "b-seed0"])
    fit = smf.mixedlm("value ~ C(system)", frame, groups=frame["topic"]).fit(reml=True)
    [row] = got.pairs.to_dict(orient="records")
    assert row["diff"] == pytest.approx(-fit.fe_params["C(system)[T.b-seed0]"], rel=1e-9)
    assert row["p"] == pytest.approx(fit.pvalues["C(system)[T.b-seed0]"], rel=1e-9)


@pytest.mark.parametrize(
    "systems, message",
    [
        ({"x": ["bm25-seed0", "nope"]}, "no run 'nope'"),
        ({"x": ["bm25-seed0"], "y": ["bm25-seed0"]}, "in two systems"),
        ({"dense-seed0": ["bm25-seed0"]}, "the name of a run"),
    ],
)
def test_systems_that_do_not_fit_the_table_are_refused(systems, message):
    scores = seeded_table(1)
    with pytest.raises(GraphsrInputError, match=message):
        complete_systems(systems, scores.runs)


def test_a_system_whose_runs_differ_in_topics_is_refused():
    scores = seeded_table(1)
    frame = scores.frame[~((scores.frame["run"] == "bm25-seed1") & (scores.frame["topic"] == "7"))]
    with pytest.raises(GraphsrInputError, match="not scored on the same topics"):
        system_table(ScoreTable(frame), complete_systems({"bm25": ["bm25-seed0", "bm25-seed1"]}, scores.runs))


@pytest.mark.parametrize(
    "specs, message",
    [(["a"], "NAME=RUN"), (["a="], "NAME=RUN"), (["a=x,,y"], "NAME=RUN"), (["a=x", "a=y"], "named twice")],
)
def test_system_specs_are_checked(specs, message):
    with pytest.raises(GraphsrInputError, match=message):
        parse_systems(specs)


def test_patterns_are_checked():
    with pytest.raises(GraphsrInputError, match="needs a group"):
        systems_by_pattern(["a-1"], r"a-[0-9]")
    with pytest.raises(GraphsrInputError, match="matches none"):
        systems_by_pattern(["a-1"], r"(b)-[0-9]")
    with pytest.raises(GraphsrInputError, match="not a regular expression"):
        systems_by_pattern(["a-1"], r"(")


def test_compare_command_takes_systems(tmp_path):
    scores = seeded_table(4, seeds=2)
    path = tmp_path / "s.csv"
    scores.frame.to_csv(path, index=False)
    base = [sys.executable, "-m", "graphsr", "compare", str(path)]
    out = subprocess.run(base + ["--systems-by", "(.*)-seed[0-9]+"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [line.split()[1] for line in out.stdout.splitlines()[1:4]] == ["bm25", "dense", "splade"]
    out = subprocess.run(
        base
        + [
            "--system",
            "B=bm25-seed0,bm25-seed1",
            "--system",
            "D=dense-seed0,dense-seed1",
            "--run",
            "B",
            "--run",
            "D",
            "--test",
            "lmm",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    pairs = pd.read_csv(__import__("io").StringIO(out.stdout))
    assert set(pairs["run_a"]) == {"B"} and set(pairs["run_b"]) == {"D"}
    both = subprocess.run(base + ["--system", "B=bm25-seed0", "--systems-by", "(.*)-x"], capture_output=True, text=True)
    assert both.returncode == 2 and "not both" in both.stderr
