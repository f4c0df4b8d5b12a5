"""The five perturbations of SR paper §7.1, each on a small hand-made run, and the fidelity test."""

from __future__ import annotations

import pandas as pd
import pytest

from graphsr.analysis.perturb import EXPECTED_ORDER, fidelity, perturb
from graphsr.cli.main import main
from graphsr.io import read_run
from graphsr.core.document import DocumentTree
from graphsr.core.qrels import ElementQrels
from graphsr.core.run import Run, TreeResult


# a[ b[ d, e ], c ]: a is the root, b mid-branch, d, e, c leaves
DOC = DocumentTree.from_nested("x", ("a", "1", [("b", "2", [("d", "3", []), ("e", "4", [])]), ("c", "5", [])]))
XP = {"a": "/a[1]", "b": "/a[1]/b[1]", "d": "/a[1]/b[1]/d[1]", "e": "/a[1]/b[1]/e[1]", "c": "/a[1]/c[1]"}
QRELS = ElementQrels({"1": {("x", XP["d"]): 1.0, ("x", XP["c"]): 0.5, ("x", XP["a"]): 0.0}})
RUN = Run("r", {"1": [TreeResult("1", k + 1, "x", (XP[n],), 10.0 - k) for k, n in enumerate("abdce")]}, run_ids=("r",))


def order(run: Run) -> str:
    rs = run.results["1"]
    assert [r.rank for r in rs] == list(range(1, len(rs) + 1))
    assert [r.score for r in rs] == sorted((r.score for r in rs), reverse=True)
    names = {v: k for k, v in XP.items()}
    return "".join(names[r.xpaths[0]] for r in rs)


@pytest.mark.parametrize(
    "kind, expected",
    [("i", "dcabe"), ("ii", "abedc"), ("iii", "a"), ("iv", "dceab"), ("v", "badce"), ("relevant-first", "dcabe")],
)
def test_each_perturbation_does_what_its_name_says(kind, expected):
    assert order(perturb(RUN, kind, QRELS, {"x": DOC})) == expected
    assert order(RUN) == "abdce"  # the original is left alone


def test_overlap_removal_keeps_what_does_not_nest():
    run = Run("r", {"1": [TreeResult("1", k + 1, "x", (XP[n],), 1.0) for k, n in enumerate("dbec")]})
    assert order(perturb(run, "iii", QRELS, {"x": DOC})) == "dec"  # b contains d, ranked above it


def test_tree_results_move_whole():
    run = Run(
        "r", {"1": [TreeResult("1", 1, "x", (XP["a"], XP["b"]), 2.0), TreeResult("1", 2, "x", (XP["d"], XP["e"]), 1.0)]}
    )
    moved = perturb(run, "iv", QRELS, {"x": DOC}).results["1"]
    assert [r.xpaths for r in moved] == [(XP["d"], XP["e"]), (XP["a"], XP["b"])]


def test_fidelity_statistic():
    perfect = pd.DataFrame(
        [[6, 5, 4, 3, 2, 1], [0.9, 0.8, 0.7, 0.3, 0.2, 0.1], [1, 1, 1, 1, 1, 1]], columns=list(EXPECTED_ORDER)
    )
    rho, p, used = fidelity(perfect)
    assert used == 2 and rho == pytest.approx(1.0) and p < 1e-6  # the flat topic tells nothing
    reversed_ = perfect[list(EXPECTED_ORDER)[::-1]].set_axis(list(EXPECTED_ORDER), axis=1)
    assert fidelity(reversed_)[0] == pytest.approx(-1.0)


def test_perturb_and_fidelity_commands(tmp_path, capsys):
    from graphsr.data import sample

    s = sample("shakespeare")
    out = tmp_path / "perturbed"
    assert (
        main(
            [
                "perturb",
                str(s["runs"][1]),
                "--qrels",
                str(s["qrels"]),
                "--collection",
                str(s["collection"]),
                "-o",
                str(out),
            ]
        )
        == 0
    )
    files = sorted(out.iterdir())
    assert len(files) == 5 and all(read_run(f).num_results > 0 for f in files)
    capsys.readouterr()
    assert main(["fidelity"]) == 0  # the bundled sample
    text = capsys.readouterr().out
    for kind in EXPECTED_ORDER:
        assert f"S({kind:<3})" in text
    assert "Spearman rho" in text and "p = " in text


def test_written_runs_read_back(tmp_path):
    from graphsr.io import write_run

    path = tmp_path / "r.run"
    write_run(RUN, path)
    back = read_run(path)
    assert [(r.rank, r.xpaths) for r in back.results["1"]] == [(r.rank, r.xpaths) for r in RUN.results["1"]]
