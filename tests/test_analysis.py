"""The analysis layer: score tables, rank agreement and significance tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from graphsr.analysis.agreement import rank_agreement, tau_ap, tau_ap_pvalue
from graphsr.analysis.scores import ScoreTable
from graphsr.analysis.significance import bh, compare_runs, holm, paired_test
from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.errors import GraphsrInputError

from .conftest import write


def table(rng, runs=5, topics=20, measures=("A", "B")) -> ScoreTable:
    rows = [
        (f"r{k}", m, str(t), float(rng.random() * (k + 1) / runs))
        for k in range(runs)
        for m in measures
        for t in range(1, topics + 1)
    ]
    return ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_score_tables_round_trip(tmp_path, suffix):
    t = table(np.random.default_rng(1))
    path = tmp_path / f"scores{suffix}"
    t.write(path)
    back = ScoreTable.read(path)
    pd.testing.assert_frame_equal(back.frame, t.frame)
    assert back.per_topic("A").shape == (20, 5) and list(back.means("A").index) == t.runs


def test_bad_score_tables_are_one_line(tmp_path):
    bad = write(tmp_path / "bad.csv", "run,topic,value\nr,1,0.5\n")
    with pytest.raises(GraphsrInputError, match="bad.csv: .*missing measure"):
        ScoreTable.read(bad)
    with pytest.raises(GraphsrInputError, match="a .csv or .parquet file"):
        ScoreTable.read(tmp_path / "scores.txt")
    with pytest.raises(GraphsrInputError, match="no measure 'Z'"):
        table(np.random.default_rng(0)).per_topic("Z")


def test_eval_saves_a_score_table(tmp_path, capsys):
    s = sample("shakespeare")
    out = tmp_path / "scores.parquet"
    code = main(
        [
            "eval",
            str(s["qrels"]),
            *map(str, s["runs"]),
            "--collection",
            str(s["collection"]),
            "-m",
            "SRP@5",
            "-m",
            "PRUM",
            "--save",
            str(out),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    t = ScoreTable.read(out)
    assert set(t.measures) == {"SRP@5", "PRUM"} and len(t.runs) == len(s["runs"])
    srp = {line.split("\t")[2] for line in printed.splitlines() if line.startswith("SRP@5\tall")}
    assert {f"{v:.6f}" for v in t.means("SRP@5")} == srp


@pytest.mark.slow
def test_kendall_and_spearman_are_scipys():
    rng = np.random.default_rng(2)
    for _ in range(50):
        n = int(rng.integers(3, 15))
        x = pd.Series(rng.integers(0, 6, n).astype(float), index=[f"s{i}" for i in range(n)])
        y = pd.Series(rng.integers(0, 6, n).astype(float), index=x.index)
        if x.nunique() < 2 or y.nunique() < 2:
            continue
        a = rank_agreement(x, y, samples=200)
        kt, sr = stats.kendalltau(x, y), stats.spearmanr(x, y)
        assert (a.tau_b, a.tau_p) == (pytest.approx(kt.statistic), pytest.approx(kt.pvalue))
        assert (a.rho, a.rho_p) == (pytest.approx(sr.statistic), pytest.approx(sr.pvalue))
        i, j = np.triu_indices(n, 1)  # tau-a by its definition
        nc = np.sum((x.values[i] - x.values[j]) * (y.values[i] - y.values[j]) > 0)
        nd = np.sum((x.values[i] - x.values[j]) * (y.values[i] - y.values[j]) < 0)
        assert a.tau == pytest.approx((nc - nd) / (n * (n - 1) / 2))
        if x.nunique() == n and y.nunique() == n:
            assert a.tau == pytest.approx(a.tau_b)


def test_tau_ap_by_hand_and_by_its_definition():
    # by hand: the reference ranks A B C D E, the other B A C E D; the reference positions of the other's
    # order are 1 0 2 4 3, so C(i)/(i-1) = 0/1, 2/2, 3/3, 3/4 and tau_AP = 2/4 (0 + 1 + 1 + 3/4) - 1 = 0.375
    assert tau_ap([5, 4, 3, 2, 1], [4, 5, 3, 1, 2]) == pytest.approx(0.375)
    rng = np.random.default_rng(3)
    for _ in range(100):
        n = int(rng.integers(2, 12))
        ref, other = rng.permutation(n).astype(float), rng.permutation(n).astype(float)
        by_ref = list(np.argsort(-ref))
        by_other = list(np.argsort(-other))
        total = sum(
            sum(by_ref.index(by_other[j]) < by_ref.index(by_other[i]) for j in range(i)) / i for i in range(1, n)
        )
        assert tau_ap(ref, other) == pytest.approx(2 * total / (n - 1) - 1)
        assert tau_ap(ref, ref) == 1.0 and tau_ap(ref, -ref) == -1.0
    assert tau_ap_pvalue(1.0, 5) == pytest.approx(2 / 120)  # only the same and the reversed order reach |1|


def test_paired_tests_are_reproducible_whatever_the_threads():
    rng = np.random.default_rng(4)
    a, b = rng.random(30), rng.random(30) * 0.9
    for test in ("randomization", "bootstrap"):
        ps = {paired_test(a, b, test, samples=5000, seed=7, threads=th) for th in (1, 2, 4, 1)}
        assert len(ps) == 1, test
    assert paired_test(a, b, "t") == pytest.approx(stats.ttest_rel(a, b).pvalue)
    assert paired_test(a, a, "randomization") == 1.0


def test_randomization_agrees_with_the_exact_permutation_distribution():
    rng = np.random.default_rng(5)
    a, b = rng.random(10), rng.random(10)
    d = a - b
    signs = np.array(np.meshgrid(*[[-1, 1]] * 10)).reshape(10, -1).T
    exact = np.mean(np.abs((signs * d).mean(axis=1)) >= abs(d.mean()) - 1e-12)
    assert paired_test(a, b, "randomization", samples=20000, seed=1) == pytest.approx(exact, abs=0.01)


def test_holm_and_bh_on_the_textbook_example():
    # Benjamini and Hochberg (1995), section 4: 15 p-values, q = 0.05
    p = [
        0.0001,
        0.0004,
        0.0019,
        0.0095,
        0.0201,
        0.0278,
        0.0298,
        0.0344,
        0.0459,
        0.3240,
        0.4262,
        0.5719,
        0.6528,
        0.7590,
        1.000,
    ]
    assert int(np.sum(bh(p) <= 0.05)) == 4  # BH rejects the four smallest
    assert int(np.sum(holm(p) <= 0.05)) == 3  # Holm: 0.0095 > 0.05/12
    assert holm(p)[:4].tolist() == pytest.approx([0.0015, 0.0056, 0.0247, 0.114])
    assert bh(p)[:5].tolist() == pytest.approx([0.0015, 0.003, 0.0095, 0.035625, 0.0603])


def test_comparison_tables():
    rng = np.random.default_rng(6)
    t = table(rng, runs=3, topics=40)
    c = compare_runs(t, ["A"], test="t", correction="holm")
    best = c.means["A"].idxmax()
    text = c.table("text")
    assert "A" in text.splitlines()[0] and best in text
    assert c.pairs["p_adjusted"].tolist() == pytest.approx(holm(c.pairs["p"].to_numpy()).tolist())
    md, tex = c.table("markdown"), c.table("latex")
    assert md.startswith("| # | run | A |") and "\\begin{tabular}" in tex
    for k, run in enumerate(c.runs):
        for j in c.wins("A", run):
            pair = c.pairs[
                ((c.pairs.run_a == run) & (c.pairs.run_b == c.runs[j]))
                | ((c.pairs.run_b == run) & (c.pairs.run_a == c.runs[j]))
            ].iloc[0]
            assert pair.significant


def test_compare_and_agree_commands(tmp_path, capsys):
    t = table(np.random.default_rng(7))
    path = tmp_path / "s.csv"
    t.write(path)
    assert (
        main(
            [
                "compare",
                str(path),
                "-m",
                "A",
                "--test",
                "randomization",
                "--samples",
                "500",
                "--threads",
                "2",
                "--format",
                "markdown",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("| # | run | A |")
    assert main(["agree", str(path), "-m", "A", "-m", "B"]) == 0
    out = capsys.readouterr().out
    assert "tau_AP" in out and "Spearman rho" in out
    assert main(["agree", str(path), "-m", "A"]) == 2
    assert "two measures" in capsys.readouterr().err


def test_relative_change_in_rank_across_cutoffs():
    from graphsr.analysis.agreement import rank_change

    means = {  # run -> (A@5, A@10, B@5, B@10): A swaps r1/r2 between 5 and 10, B too, r3 stays last
        "r1": (0.9, 0.5, 0.8, 0.4),
        "r2": (0.7, 0.6, 0.6, 0.7),
        "r3": (0.1, 0.1, 0.2, 0.1),
    }
    rows = [
        (run, name, "all", v[i]) for run, v in means.items() for i, name in enumerate(("A@5", "A@10", "B@5", "B@10"))
    ]
    t = ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))
    rc = rank_change(t, "A", "B")
    assert rc.cutoffs == [5, 10]
    assert rc.changes.set_index("run")["change_a"].to_dict() == {"r1": 1, "r2": -1, "r3": 0}
    assert rc.r == pytest.approx(stats.pearsonr([1, -1, 0], [1, -1, 0]).statistic) and rc.r == pytest.approx(1.0)
    with pytest.raises(GraphsrInputError, match="two or more common cut-offs"):
        rank_change(t, "A", "C")


def test_model_sensitivity(tmp_path, capsys):
    from graphsr.analysis.sensitivity import model_sensitivity
    from graphsr.io import read_element_qrels, read_run

    s = sample("shakespeare")
    qrels, runs = read_element_qrels(s["qrels"]), [read_run(p) for p in s["runs"]]
    result = model_sensitivity(qrels, runs, "SRP@10", s["collection"], ["p*:extent", "tag:uniform", "none"])
    assert result.means.shape == (len(runs), 3) and (np.diag(result.tau.to_numpy()) == 1).all()
    assert set(result.scores.measures) == {"SRP@10 [p*:extent]", "SRP@10 [tag:uniform]", "SRP@10 [none]"}
    none = result.means["none"]  # the 'none' column is SRP without navigation, as graphsr eval computes it
    code = main(
        [
            "eval",
            str(s["qrels"]),
            *map(str, s["runs"]),
            "--collection",
            str(s["collection"]),
            "-m",
            "SRP@10",
            "--model",
            "none",
        ]
    )
    printed = [
        float(line.split("\t")[2]) for line in capsys.readouterr().out.splitlines() if line.startswith("SRP@10\tall")
    ]
    assert code == 0 and none.round(6).tolist() == pytest.approx(printed)
    log = tmp_path / "log.csv"
    assert main(["simulate-routes", str(s["collection"]), "-o", str(log), "--routes", "300", "--seed", "1"]) == 0
    esr = model_sensitivity(qrels, runs, "ESRP@5", s["collection"], routes=str(log))
    assert esr.models == ["depth4", "routes:elements", "routes:p*", "routes:p*|c", "routes:c", "routes:tag"]
    plot = tmp_path / "m.svg"
    assert (
        main(
            [
                "sensitivity",
                str(s["qrels"]),
                *map(str, s["runs"]),
                "--collection",
                str(s["collection"]),
                "--model",
                "p*:extent",
                "--model",
                "none",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    assert plot.read_bytes().lstrip().startswith(b"<?xml")


@pytest.mark.slow
def test_prum_sensitivity_puts_structural_and_learned_navigation_in_one_matrix():
    from graphsr.analysis.sensitivity import model_sensitivity
    from graphsr.io import read_element_qrels, read_run

    s = sample("shakespeare")
    qrels, runs = read_element_qrels(s["qrels"]), [read_run(p) for p in s["runs"]]
    result = model_sensitivity(qrels, runs, "MAPRUM", s["collection"], ["structural", "none", "p*:extent", "depth4"])
    assert list(result.tau.columns) == ["structural", "none", "p*:extent", "depth4"]
    # each column is the measure with that navigation, as graphsr.evaluate gives it
    from graphsr.evaluation import element_context, evaluate

    ctx = element_context(
        qrels.docids().union(*(r.docids() for r in runs)), measures=["MAPRUM(nav=none)"], collection=s["collection"]
    )
    res = evaluate(qrels, runs, ["MAPRUM(nav=none)"], ctx)
    assert result.means["none"].tolist() == pytest.approx([r.mean(res.measures[0]) for r in res])
    with pytest.raises(GraphsrInputError, match="structural model"):
        model_sensitivity(qrels, runs, "SRP@5", s["collection"], ["structural"])


def test_tau_ap_with_ties_depends_on_no_name():
    """Tied means: tau_AP is NaN with a warning (breaking ties by run name made it 0.667 or 1.0), tau_AP_b is the
    same whatever the names; an all-tied reference gives NaN, as Kendall does."""
    import pandas as pd

    from graphsr.analysis.agreement import tau_ap_b

    a = pd.Series([0.9, 0.5, 0.5, 0.1], index=["r1", "r2", "r3", "r4"])
    b = pd.Series([0.8, 0.6, 0.4, 0.2], index=["r1", "r2", "r3", "r4"])
    renamed = a.rename({"r2": "z", "r3": "a"}), b.rename({"r2": "z", "r3": "a"})
    one, two = rank_agreement(a, b), rank_agreement(*renamed)
    assert np.isnan(one.tau_ap) and np.isnan(one.tau_ap_p) and "tau_AP is undefined with tied" in one.warnings[0]
    assert one.tau_ap_b == two.tau_ap_b and one.tau_ap_b_p == two.tau_ap_b_p
    # by hand: a's ranking has r2 = r3; walking b (r1 > r2 > r3 > r4): c/p = 1/1, 1/2 (r2 is not above r3 in
    # a), 3/3 -> 2/3 (2.5) - 1; walking a (r1 > {r2, r3} > r4): 1/1, 1/1, 3/3 -> 2/3 (3) - 1 = 1
    assert one.tau_ap_b == pytest.approx(((2 / 3 * 2.5 - 1) + 1) / 2)
    assert tau_ap_b([1, 2, 3, 4], [1, 2, 3, 4]) == 1.0 and tau_ap_b([1, 2, 3], [3, 2, 1]) == -1.0
    flat = rank_agreement(pd.Series([0.5, 0.5, 0.5], index=["x", "y", "z"]), b.iloc[:3].set_axis(["x", "y", "z"]))
    assert np.isnan(flat.tau_ap) and np.isnan(flat.tau_b)
    for x, y in [
        (np.random.default_rng(s).permutation(6), np.random.default_rng(s + 1).permutation(6)) for s in range(5)
    ]:  # without ties: the mean of tau_AP both ways
        assert tau_ap_b(x, y) == pytest.approx((tau_ap(x, y) + tau_ap(y, x)) / 2)


def test_the_correction_family_is_each_measures_pairs():
    """compare with one measure, compare with two, and the report: the same adjusted p-values (and letters) for a
    measure, and each output says which family it corrected over."""
    import pandas as pd

    from graphsr.analysis.scores import ScoreTable
    from graphsr.analysis.significance import compare_runs

    rng = np.random.default_rng(3)
    rows = [
        (run, m, str(t), float(rng.random() + 0.1 * k))
        for k, run in enumerate(["a", "b", "c"])
        for m in ("P@5", "AP")
        for t in range(20)
    ]
    scores = ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))
    one = compare_runs(scores, ["AP"])
    two = compare_runs(scores, ["AP", "P@5"])
    both = two.pairs[two.pairs.measure == "AP"].reset_index(drop=True)
    assert both["p_adjusted"].tolist() == one.pairs["p_adjusted"].tolist()
    assert "holm correction over the 3 pairs of each measure" in two.table() and "3 pairs of each" in one.table()
