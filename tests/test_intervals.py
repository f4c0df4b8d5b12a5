"""Confidence intervals, effect sizes, wins/ties/losses and Tukey's HSD, against independent computations: scipy's
t interval (ttest_rel) and bootstrap (same method, Monte-Carlo tolerance), direct d_z and counts, an OLS two-way
ANOVA (statsmodels) with scipy's studentized range, an independent Monte-Carlo transcription of the randomised
Tukey HSD, and, with two runs, the paired randomisation test itself; and the same numbers from the CLI."""

from __future__ import annotations

import io
import itertools
import json
from contextlib import redirect_stdout

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from graphsr.analysis.intervals import (
    bootstrap_interval,
    effect_size,
    t_interval,
    tukey_anova,
    tukey_randomized,
    wins_ties_losses,
)
from graphsr.analysis.significance import paired_test


def _scores(seed: int, n: int = 25, k: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.random((n, 1))
    x = np.clip(base + rng.normal(0, 0.15, size=(n, k)) + np.linspace(0, 0.1, k), 0, 1)
    x[rng.random((n, k)) < 0.1] = 0.5  # some ties between runs
    return x


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_the_t_interval_is_scipys(seed, confidence):
    x = _scores(seed)
    want = stats.ttest_rel(x[:, 0], x[:, 1]).confidence_interval(confidence)
    assert t_interval(x[:, 0] - x[:, 1], confidence) == pytest.approx((want.low, want.high), abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", range(4))
def test_the_bootstrap_intervals_are_scipys_within_monte_carlo_tolerance(method, seed):
    d = _scores(seed, n=30)[:, 0] - _scores(seed, n=30)[:, 1] + np.random.default_rng(seed).normal(0, 0.05, 30)
    ours = bootstrap_interval(d, 0.95, method, samples=20000, seed=seed)
    theirs = stats.bootstrap(
        (d,),
        np.mean,
        confidence_level=0.95,
        method=method,
        n_resamples=20000,
        random_state=np.random.default_rng(1000 + seed),
    ).confidence_interval
    width = theirs.high - theirs.low
    assert ours[0] == pytest.approx(theirs.low, abs=0.03 * width)
    assert ours[1] == pytest.approx(theirs.high, abs=0.03 * width)


def test_the_bootstrap_interval_is_the_same_for_any_number_of_threads():
    d = _scores(3)[:, 0] - _scores(3)[:, 1]
    assert bootstrap_interval(d, 0.95, "bca", 5000, 7, threads=1) == bootstrap_interval(
        d, 0.95, "bca", 5000, 7, threads=3
    )


@pytest.mark.parametrize("seed", range(5))
def test_effect_size_and_wins_ties_losses_are_direct(seed):
    x = _scores(seed)
    a, b = x[:, 0], x[:, 1]
    d = a - b
    assert effect_size(d) == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
    assert wins_ties_losses(a, b) == (sum(a > b), sum(a == b), sum(a < b))
    assert sum(wins_ties_losses(a, b)) == len(a)
    assert effect_size(np.zeros(5)) == 0.0


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [2, 3, 5])
def test_the_anova_hsd_is_an_ols_two_way_anova_with_the_studentized_range(seed, k):
    pd = pytest.importorskip("pandas")
    sm = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    x = _scores(seed, n=20, k=k)
    n = len(x)
    frame = pd.DataFrame([(t, r, x[t, r]) for t in range(n) for r in range(k)], columns=["topic", "run", "score"])
    fit = sm.ols("score ~ C(topic) + C(run)", data=frame).fit()
    table = anova_lm(fit)
    mse, df = float(table.loc["Residual", "mean_sq"]), float(table.loc["Residual", "df"])
    got = tukey_anova(x, 0.95)
    assert got["mse"] == pytest.approx(mse, rel=1e-9) and got["df"] == df
    means = x.mean(axis=0)
    for i, j in itertools.combinations(range(k), 2):
        q = abs(means[i] - means[j]) / np.sqrt(mse / n)
        assert got["p"][i, j] == pytest.approx(stats.studentized_range.sf(q, k, df), rel=1e-6, abs=1e-9)
        half = stats.studentized_range.ppf(0.95, k, df) * np.sqrt(mse / n)
        assert (got["low"][i, j], got["high"][i, j]) == pytest.approx(
            (means[i] - means[j] - half, means[i] - means[j] + half), abs=1e-9
        )
        assert got["effect"][i, j] == pytest.approx((means[i] - means[j]) / np.sqrt(mse), rel=1e-9)


def _independent_tukey(x: np.ndarray, samples: int, rng) -> np.ndarray:
    """Carterette's randomised Tukey HSD transcribed plainly: permute each topic's row, keep the largest
    difference of run means."""
    n, k = x.shape
    means = x.mean(axis=0)
    largest = np.empty(samples)
    for s in range(samples):
        perm = np.array([rng.permutation(row) for row in x])
        pm = perm.mean(axis=0)
        largest[s] = pm.max() - pm.min()
    diff = np.abs(means[:, None] - means[None, :])
    return (1 + (largest[None, None, :] >= diff[:, :, None] - 1e-12).sum(axis=2)) / (1 + samples)


@pytest.mark.parametrize("seed", range(3))
def test_the_randomised_tukey_hsd_agrees_with_an_independent_transcription(seed):
    x = _scores(seed, n=15, k=4)
    ours = tukey_randomized(x, samples=4000, seed=seed)
    theirs = _independent_tukey(x, 4000, np.random.default_rng(99 + seed))
    for i, j in itertools.combinations(range(4), 2):
        assert ours[i, j] == pytest.approx(theirs[i, j], abs=0.03)


@pytest.mark.parametrize("seed", range(5))
def test_with_two_runs_the_randomised_tukey_hsd_is_the_randomisation_test(seed):
    x = _scores(seed, k=2)
    p = tukey_randomized(x, samples=3000, seed=seed)
    assert p[0, 1] == paired_test(x[:, 0], x[:, 1], "randomization", samples=3000, seed=seed)


def test_the_command_line_gives_the_same_numbers(tmp_path):
    """graphsr compare --format json and the API give the same columns and numbers."""
    pd = pytest.importorskip("pandas")
    from graphsr.analysis.scores import ScoreTable
    from graphsr.analysis.significance import compare_runs
    from graphsr.cli.main import main

    x = _scores(4, n=12, k=3)
    rows = [("run" + str(r), "P@10", str(t), float(x[t, r])) for t in range(12) for r in range(3)]
    frame = pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    for args in (
        ["--test", "t"],
        ["--test", "bootstrap", "--interval", "percentile", "--samples", "2000"],
        ["--test", "tukey", "--samples", "2000"],
        ["--baseline", "run0", "--confidence", "0.9"],
    ):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["compare", str(path), "--format", "json", *args]) == 0
        cli = json.loads(out.getvalue())
        options = {
            "test": args[args.index("--test") + 1] if "--test" in args else "t",
            "samples": int(args[args.index("--samples") + 1]) if "--samples" in args else 10000,
            "interval": args[args.index("--interval") + 1] if "--interval" in args else "bca",
            "confidence": float(args[args.index("--confidence") + 1]) if "--confidence" in args else 0.95,
            "baseline": args[args.index("--baseline") + 1] if "--baseline" in args else None,
        }
        api = compare_runs(ScoreTable.read(path), **options).pairs
        assert len(cli) == len(api) and cli
        for got, (_, want) in zip(cli, api.iterrows()):
            for col in ("diff", "ci_low", "ci_high", "effect_size", "wins", "ties", "losses", "p"):
                assert got[col] == pytest.approx(want[col], abs=1e-12), (args, col)
        if options["baseline"]:
            assert {r["run_b"] for r in cli} == {"run0"} and len(cli) == 2


@pytest.mark.parametrize("fmt", ["json", "csv", "trec", "table"])
def test_eval_ci_prints_each_runs_interval_in_every_format(fmt):
    """graphsr eval --ci t: each run's mean with the t interval of its topics' values (scipy's), in every
    format."""
    import csv

    from graphsr.cli.main import main
    from graphsr.data import sample

    s = sample("shakespeare")
    argv = [
        "eval",
        str(s["qrels"]),
        str(s["runs"][2]),
        str(s["runs"][3]),
        "--collection",
        str(s["collection"]),
        "-m",
        "SRP@10",
        "-m",
        "P@10",
        "--ci",
        "t",
        "--confidence",
        "0.9",
    ]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(argv + ["--format", "json"]) == 0
    records = json.loads(out.getvalue())
    want = {}
    for r in records:
        if r["topic"] != "all":
            want.setdefault((r["run"], r["measure"]), []).append(r["value"])
    for (run, measure), values in want.items():
        ci = stats.t.interval(0.9, len(values) - 1, loc=np.mean(values), scale=stats.sem(values))
        want[run, measure] = ci
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(argv + ["--format", fmt]) == 0
    text = out.getvalue()
    if fmt == "json":
        got = {(r["run"], r["measure"]): (r["ci_low"], r["ci_high"]) for r in json.loads(text) if r["topic"] == "all"}
        tol = 1e-12
    elif fmt == "csv":
        got = {
            (r["run"], r["measure"]): (float(r["ci_low"]), float(r["ci_high"]))
            for r in csv.DictReader(io.StringIO(text))
            if r["topic"] == "all"
        }
        tol = 1e-12
    elif fmt == "trec":
        got, run = {}, None
        for line in text.splitlines():
            name, topic, value = line.split("\t")
            if name == "runid":
                run = value
            elif topic in ("ci_low", "ci_high"):
                low, high = got.get((run, name), (None, None))
                got[run, name] = (float(value), high) if topic == "ci_low" else (low, float(value))
        tol = 1e-6
    else:
        import re

        got = {}
        lines = text.splitlines()
        names = lines[0].split()[1:]
        for line in lines[1:]:
            run = line.split()[0]
            for name, (low, high) in zip(names, re.findall(r"\[(-?[\d.]+), (-?[\d.]+)\]", line)):
                got[run, name] = (float(low), float(high))
        tol = 5e-5
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=tol), key


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.floats(0, 1), min_size=2, max_size=40),
    confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_the_interval_of_a_bounded_measures_mean_stays_within_its_bounds(values, confidence):
    """A measure bounded to [0, 1] gets the bootstrap BCa interval, within the values' range (so within the
    bounds, where the t interval of a mean near 1 runs past it); an unbounded one the t interval."""
    from graphsr.analysis.intervals import MEAN_SAMPLES, bootstrap_interval, mean_interval

    v = np.array(values)
    lo, hi = mean_interval(v, confidence, (0.0, 1.0))
    assert v.min() - 1e-12 <= lo <= hi <= v.max() + 1e-12
    if np.ptp(v) > 0:
        assert (lo, hi) == bootstrap_interval(v, confidence, "bca", samples=MEAN_SAMPLES, seed=0)
        assert mean_interval(v, confidence, None) == t_interval(v, confidence)
    else:
        assert lo == hi == v[0]


def test_a_mean_near_its_bound_is_given_an_interval_inside_it():
    from graphsr.analysis.intervals import mean_interval, measure_bounds

    v = np.array([1, 1, 1, 0.9, 1, 1, 1, 0.8, 1, 1])
    assert t_interval(v)[1] > 1  # (what the report printed before: 0.97 [0.922, 1.018])
    lo, hi = mean_interval(v, 0.95, measure_bounds("P@10"))
    assert 0.8 <= lo < v.mean() < hi <= 1.0
    assert measure_bounds("P@10") == (0.0, 1.0) and measure_bounds("SR@100") is None
    assert measure_bounds("no such measure") is None


def test_the_bca_interval_of_tiny_differences_is_computed_not_collapsed():
    """Values a few times 1e-145 apart: the acceleration's sums underflowed (0/0, a RuntimeWarning, and the
    interval fell back to the point); scaled first, it is formed like any other."""
    import warnings

    from graphsr.analysis.intervals import bootstrap_interval

    v = np.array([0.0, 6e-145, 3e-145, 1e-145])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lo, hi = bootstrap_interval(v, 0.9, "bca", samples=2000)
    assert 0 <= lo < hi <= 6e-145
    assert bootstrap_interval(v * 1e145, 0.9, "bca", samples=2000) == pytest.approx((lo * 1e145, hi * 1e145))
