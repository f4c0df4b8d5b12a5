"""Start-up discipline: each command imports only what it needs (the whole-process timings are in
bench/bench_fol.py; here, which modules a command loads)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphsr.data import sample

ROOT = Path(__file__).parents[2]
QRELS = sample("inex2010")["qrels"]
RUN = Path(__file__).parent / "data" / "inex2010-official" / "runs" / "foc11.run.gz"
HEAVY = {"pandas", "scipy", "networkx", "lxml", "matplotlib", "falkordb", "neo4j", "redis", "tqdm"}
GRAPHSR_HEAVY = {
    "graphsr.store",
    "graphsr.summaries",
    "graphsr.navigation",
    "graphsr.io.collection",
    "graphsr.evaluation.collection",
    "graphsr.measures.esr.inputs",
    "graphsr.analysis",
}

PROBE = """
import contextlib, io, json, sys
from graphsr.cli.main import main
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules), "out": out.getvalue()[:200]}))
"""


def loaded(*args: str) -> tuple[int, set[str], str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    return got["code"], set(got["modules"]), got["out"]


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize(
    "run, options",
    [
        ("foc11", []),
        ("foc11", ["--report", "official", "-q"]),
        ("thr11", ["--task", "thorough"]),
        ("ric11", ["--task", "t2i", "--irr", "100"]),
        ("bic11", ["--task", "bic", "-c"]),
    ],
)
def test_a_passage_evaluation_imports_numpy_and_graphsr_only(run, options):
    code, modules, out = loaded("eval", str(QRELS), str(RUN.parent / f"{run}.run.gz"), *options)
    assert code == 0 and out
    assert not _top(modules) & HEAVY, sorted(_top(modules) & HEAVY)
    assert not {m for m in modules if any(m == h or m.startswith(h + ".") for h in GRAPHSR_HEAVY)}


def test_help_and_measures_import_little():
    code, modules, _ = loaded("--help")
    assert code == 0 and "numpy" not in _top(modules)
    assert {m for m in modules if m.startswith("graphsr.")} <= {
        "graphsr.cli",
        "graphsr.cli.main",
        "graphsr.errors",
        "graphsr._lazy",
        "graphsr._version",  # (the version's own module: any layer reads it)
        "graphsr.measures",  # (a lazy namespace: its names come from the generated index of declarations)
        "graphsr.measures._index",
    }
    code, modules, out = loaded("measures")
    assert code == 0 and "Structural Relevance" in out and not _top(modules) & HEAVY
