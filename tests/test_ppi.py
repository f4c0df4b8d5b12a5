"""Prediction-powered intervals (graphsr.analysis.ppi) against the reference implementation, ppi-python's
ppi_mean_pointestimate and ppi_mean_ci, on generated scores that reach the edges: two labelled topics, a model
that agrees perfectly, one that disagrees, one whose scores are all equal, scores on a grid as P@10's are."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from graphsr.analysis.ppi import ppi_difference, ppi_mean
from graphsr.errors import GraphsrInputError

ppi_py = pytest.importorskip("ppi_py")

#: How close "value for value" is: the same formulas, summed in numpy's order (a last-bit difference at most).
CLOSE = dict(rtol=1e-12, atol=1e-14)


def reference(y, yhat, u, alpha=0.1, lam=None):
    """ppi-python's estimate and interval (its defaults unless told)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its 0/0 where the model's scores are constant)
        est = ppi_py.ppi_mean_pointestimate(y, yhat, u, lam=lam)
        low, high = ppi_py.ppi_mean_ci(y, yhat, u, alpha=alpha, lam=lam)
    return float(np.squeeze(est)), float(np.squeeze(low)), float(np.squeeze(high))


@st.composite
def samples(draw):
    """Labelled scores with the model's, and the model's on other topics: continuous or on P@10's grid, the
    model agreeing, disagreeing, noisy or constant."""
    n = draw(st.integers(2, 40))
    big_n = draw(st.integers(2, 200))
    seed = draw(st.integers(0, 2**32 - 1))
    grid = draw(st.booleans())
    shape = draw(st.sampled_from(["noisy", "perfect", "opposite", "constant", "biased", "unrelated"]))
    rng = np.random.default_rng(seed)
    y = rng.random(n)
    u = rng.random(big_n)
    if grid:
        y, u = np.round(y * 10) / 10, np.round(u * 10) / 10
    if shape == "perfect":
        yhat = y.copy()
    elif shape == "opposite":
        yhat, u = 1 - y, 1 - u
    elif shape == "constant":
        c = float(rng.random())
        yhat, u = np.full(n, c), np.full(big_n, c)
    elif shape == "biased":
        yhat = np.clip(y + 0.2 + rng.normal(0, 0.05, n), 0, 1)
    elif shape == "unrelated":
        yhat = rng.random(n)
    else:
        yhat = np.clip(y + rng.normal(0, 0.15, n), 0, 1)
    return y, yhat, u, shape


@settings(max_examples=400, deadline=None)
@given(samples(), st.sampled_from([None, 0.0, 0.5, 1.0]), st.sampled_from([0.1, 0.05, 0.2]))
@example((np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([0.5, 0.5]), "perfect"), None, 0.1)
@example((np.linspace(0, 1, 32), np.full(32, 0.51305735), np.full(103, 0.51305735), "constant"), None, 0.1)
def test_equal_to_ppi_python(sample, lam, alpha):
    y, yhat, u, shape = sample
    got = ppi_mean(y, yhat, u, confidence=1 - alpha, lam=lam)
    want = reference(y, yhat, u, alpha=alpha, lam=lam)
    if shape == "constant" and lam is None:  # ppi-python: lambda = 0/0 (nan, or rounding errors' ratio)
        assert got.lam == 0.0
        # (its estimate, its interval or both nan, or else equal to the answer at lambda = 0)
        assert np.isnan(want).any() or np.allclose(want, reference(y, yhat, u, alpha=alpha, lam=0.0), rtol=1e-9)
        want = reference(y, yhat, u, alpha=alpha, lam=0.0)
        for other in (0.5, 1.0):  # the answer of every weight alike
            np.testing.assert_allclose(got[:3], reference(y, yhat, u, alpha=alpha, lam=other), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got[:3], want, **CLOSE)
    assert got.low <= got.mean <= got.high
    np.testing.assert_allclose(got.classical, reference(y, yhat, u, alpha=alpha, lam=0.0)[1:], **CLOSE)
    # the p-value: ppi_mean_pval's z test with the interval's weight (it would choose its own, unclipped)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want_p = float(np.squeeze(ppi_py.ppi_mean_pval(y, yhat, u, lam=got.lam)))
    np.testing.assert_allclose(got.p, want_p, rtol=1e-9, atol=1e-15)
    assert (got.p < alpha) == (not got.low <= 0 <= got.high) or abs(got.p - alpha) < 1e-9


def test_the_default_weight_is_ppi_python_s():
    rng = np.random.default_rng(7)
    y = rng.random(12)
    yhat = np.clip(y + rng.normal(0, 0.1, 12), 0, 1)
    u = rng.random(300)
    got = ppi_mean(y, yhat, u)  # confidence 0.9: ppi-python's alpha=0.1
    np.testing.assert_allclose(got[:3], reference(y, yhat, u), **CLOSE)
    assert 0 < got.lam < 1  # (a weight chosen, not clipped)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 30), st.integers(2, 100), st.integers(0, 2**32 - 1))
def test_a_difference_of_two_runs_is_the_estimate_of_their_paired_differences(n, big_n, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.random(n), rng.random(n)
    a_hat, b_hat = np.clip(a + rng.normal(0, 0.1, n), 0, 1), np.clip(b + rng.normal(0, 0.1, n), 0, 1)
    a_u, b_u = rng.random(big_n), rng.random(big_n)
    got = ppi_difference(a, b, a_hat, b_hat, a_u, b_u)
    np.testing.assert_allclose(got[:3], reference(a - b, a_hat - b_hat, a_u - b_u), **CLOSE)


@pytest.mark.parametrize(
    "args, message",
    [
        (([0.5], [0.5], [0.1, 0.2]), "at least 2 topics judged by people"),
        (([0.5, 0.1], [0.5, 0.2], [0.1]), "at least 2 topics judged only by the model"),
        (([0.5, np.nan], [0.5, 0.2], [0.1, 0.3]), "finite"),
        (([0.5, 0.1], [0.5, 0.2, 0.3], [0.1, 0.3]), "differ in number"),
    ],
)
def test_what_cannot_be_estimated_is_refused_in_one_line(args, message):
    with pytest.raises(GraphsrInputError, match=message):
        ppi_mean(*args)


@pytest.mark.parametrize("kw", [dict(confidence=1.0), dict(confidence=0.0), dict(lam=1.5), dict(lam=float("nan"))])
def test_options_out_of_range_are_refused(kw):
    with pytest.raises(GraphsrInputError):
        ppi_mean([0.1, 0.2], [0.1, 0.3], [0.2, 0.4], **kw)


def _write_collection(root, seed: int, labelled: int, unlabelled: int, copies: int = 1):
    """A simulated collection: ``copies`` collections of topics (named by copy), each topic's ten results
    relevant with its own chance p ~ Beta(2, 3) (so that E[P@10] = 0.4), people's judgments of the first
    ``labelled`` topics of a copy, a model's of all its topics (a relevant result called relevant 85% of the
    time, a non-relevant one 20%: biased), and one run of the ten results."""
    rng = np.random.default_rng(seed)
    people, model, run = (open(root / name, "w") for name in ("people", "model", "run"))
    with people, model, run:
        for c in range(copies):
            p = rng.beta(2, 3, labelled + unlabelled)
            truth = rng.random((len(p), 10)) < p[:, None]
            said = np.where(truth, rng.random(truth.shape) < 0.85, rng.random(truth.shape) < 0.2)
            for t in range(len(p)):
                topic = f"{c}-{t}"
                for d in range(10):
                    if t < labelled:
                        people.write(f"{topic} 0 d{d} {int(truth[t, d])}\n")
                    model.write(f"{topic} 0 d{d} {int(said[t, d])}\n")
                    run.write(f"{topic} Q0 d{d} {d + 1} {10 - d} sim\n")
    return root / "people", root / "model", root / "run"


def test_eval_ci_ppi_equals_ppi_python_on_the_per_topic_scores(tmp_path):
    """graphsr eval --model-qrels --ci ppi: the run's estimate and interval are ppi-python's over the per-topic
    scores the two evaluations give (P@10 and AP), at ppi-python's default confidence."""
    import json
    import subprocess
    import sys

    people, model, run = _write_collection(tmp_path, 5, 12, 60)
    cmd = [sys.executable, "-m", "graphsr", "eval", str(people), str(run), "-m", "P@10", "-m", "AP"]
    out = subprocess.run(
        cmd + ["--model-qrels", str(model), "--ci", "ppi", "--confidence", "0.9", "--format", "json", "-q"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == ""  # (the topics only the model judged are not said to be ignored)
    got = {(r["measure"], r["topic"]): r for r in json.loads(out.stdout)}
    scores = {}
    for name, qrels in (("people", people), ("model", model)):
        per = subprocess.run(
            cmd[:4] + [str(qrels), str(run), "-m", "P@10", "-m", "AP", "-q", "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
        )
        scores[name] = {(r["measure"], r["topic"]): r["value"] for r in json.loads(per.stdout) if r["topic"] != "all"}
    for m in ("P@10", "AP"):
        labelled = sorted(t for (mm, t) in scores["people"] if mm == m)
        rest = sorted(t for (mm, t) in scores["model"] if mm == m and t not in labelled)
        assert len(labelled) == 12 and len(rest) == 60
        y = np.array([scores["people"][m, t] for t in labelled])
        yhat = np.array([scores["model"][m, t] for t in labelled])
        u = np.array([scores["model"][m, t] for t in rest])
        want = reference(y, yhat, u)
        row = got[m, "all"]
        np.testing.assert_allclose([row["ppi"], row["ci_low"], row["ci_high"]], want, **CLOSE)
        assert row["value"] == pytest.approx(y.mean())  # ``all``: people's judgments alone, as without --ci
        assert (row["ppi_labelled"], row["ppi_unlabelled"]) == (12, 60)


@pytest.mark.slow
def test_the_intervals_cover_the_truth_at_the_nominal_rate(tmp_path):
    """Over 600 simulated collections (30 topics judged by people, 150 by a biased model), the 90% intervals
    of mean P@10 hold its true value (0.4) about 90% of the time, PPI++'s as the classical ones, and PPI++'s are
    narrower (the model's judgments add what they know)."""
    import graphsr

    copies, labelled, unlabelled = 600, 30, 150
    people, model, run = _write_collection(tmp_path, 11, labelled, unlabelled, copies)
    frames = {name: graphsr.calc_frame(["P@10"], q, run) for name, q in (("people", people), ("model", model))}
    by = {name: dict(zip(f["topic"], f["value"])) for name, f in frames.items()}
    covered = classical_covered = 0
    widths, classical_widths = [], []
    for c in range(copies):
        lab = [f"{c}-{t}" for t in range(labelled)]
        rest = [f"{c}-{t}" for t in range(labelled, labelled + unlabelled)]
        est = ppi_mean([by["people"][t] for t in lab], [by["model"][t] for t in lab], [by["model"][t] for t in rest])
        covered += est.low <= 0.4 <= est.high
        classical_covered += est.classical[0] <= 0.4 <= est.classical[1]
        widths.append(est.high - est.low)
        classical_widths.append(est.classical[1] - est.classical[0])
    # 600 draws at 0.9: a standard error of 0.012; a coverage outside [0.86, 0.94] is 3.3 of them off
    assert 0.86 <= covered / copies <= 0.94, covered
    assert 0.86 <= classical_covered / copies <= 0.94, classical_covered
    assert np.mean(widths) < 0.9 * np.mean(classical_widths)


def _score_tables(tmp_path):
    """Two runs' score tables against people's judgments (12 topics) and a model's (those and 60 more)."""
    import subprocess
    import sys

    people, model, run = _write_collection(tmp_path, 9, 12, 60)
    rng = np.random.default_rng(2)
    other = tmp_path / "other"
    with open(run) as src, open(other, "w") as out:  # the same results in another order
        lines = src.read().splitlines()
        for k in range(0, len(lines), 10):
            block = [lines[k + j] for j in rng.permutation(10)]
            for rank, line in enumerate(block):
                f = line.split()
                out.write(f"{f[0]} Q0 {f[2]} {rank + 1} {10 - rank} other\n")
    tables = {}
    for name, qrels in (("people", people), ("model", model)):
        tables[name] = tmp_path / f"{name}.csv"
        cmd = [sys.executable, "-m", "graphsr", "eval", str(qrels), str(run), str(other), "-m", "P@5", "-m", "AP"]
        subprocess.run(cmd + ["--save", str(tables[name])], capture_output=True, check=True)
    return tables


def test_compare_test_ppi_equals_ppi_python_on_each_pair(tmp_path):
    import pandas as pd

    from graphsr.analysis.scores import ScoreTable
    from graphsr.analysis.significance import compare_runs

    tables = _score_tables(tmp_path)
    people, model = ScoreTable.read(tables["people"]), ScoreTable.read(tables["model"])
    c = compare_runs(people, test="ppi", model_scores=model, confidence=0.9, correction="none")
    assert len(c.pairs) == 2
    for _, row in c.pairs.iterrows():
        m = row["measure"]
        p, q = people.per_topic(m), model.per_topic(m)
        lab = list(p.index)
        rest = [t for t in q.index if t not in lab]
        d = (p["sim"] - p["other"]).to_numpy(), (q.loc[lab, "sim"] - q.loc[lab, "other"]).to_numpy()
        du = (q.loc[rest, "sim"] - q.loc[rest, "other"]).to_numpy()
        np.testing.assert_allclose([row["diff"], row["ci_low"], row["ci_high"]], reference(*d, du), **CLOSE)
        for run, col in (("sim", "mean_a"), ("other", "mean_b")):
            want = reference(p[run].to_numpy(), q.loc[lab, run].to_numpy(), q.loc[rest, run].to_numpy())[0]
            assert row[col] == pytest.approx(want, rel=1e-12)
            assert c.means.loc[run, m] == pytest.approx(want, rel=1e-12)
        assert (row["topics"], row["ppi_unlabelled"]) == (12, 60)
        assert pd.isna(row["effect_size"])
    with pytest.raises(GraphsrInputError, match="model's scores"):
        compare_runs(people, test="ppi")


def test_compare_and_report_commands_take_the_model_s_scores(tmp_path):
    import subprocess
    import sys

    tables = _score_tables(tmp_path)
    base = [sys.executable, "-m", "graphsr"]
    both = [str(tables["people"]), "--model-scores", str(tables["model"])]
    out = subprocess.run(
        base + ["compare", *both, "--test", "ppi", "--format", "pairs"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "interval (ppi)" in out.stdout and "lambda" in out.stdout
    assert "12 topics judged by people, 60 by the model only" in out.stdout
    refused = subprocess.run(base + ["compare", str(tables["people"]), "--test", "ppi"], capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--model-scores" in refused.stderr
    page = tmp_path / "r.html"
    pytest.importorskip("matplotlib")
    out = subprocess.run(base + ["report", *both, "-o", str(page)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    text = page.read_text()
    assert "prediction-powered estimate (PPI++)" in text and " ppi " in text
