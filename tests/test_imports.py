"""A scoring command imports only what it uses: ``graphsr eval`` on TREC files or on INEX passage files loads
none of the heavy optional parts (tables, plots, graphs, the store's drivers)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: (ir_measures, where installed, is the measures' base class in every library process; the command line's own
#: process does not load it: graphsr._interop)
HEAVY = ("pandas", "matplotlib", "pyarrow", "networkx", "neo4j", "falkordb", "redis", "lxml", "ir_measures", "scipy")


def _imported(args: list[str], cwd, whole: bool = False) -> set[str]:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "graphsr", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            names.add(name if whole else name.split(".")[0])
    return names


@pytest.mark.parametrize("kind", ["trec", "passages"])
def test_a_scoring_command_imports_no_heavy_part(tmp_path, kind):
    if kind == "trec":
        (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
        (tmp_path / "r").write_text("1 Q0 a 1 2.5 sys\n1 Q0 c 2 1.5 sys\n2 Q0 c 1 1.0 sys\n")
        args = ["eval", "q", "r", "-m", "AP", "-m", "nDCG@10", "-m", "P@5"]
    else:
        (tmp_path / "q").write_text("1 Q0 a 30 100 10 10:30\n1 Q0 b 0 50\n")
        (tmp_path / "r").write_text("1 Q0 a 1 9 r 0 20\n1 Q0 b 2 8 r 0 50\n")
        args = ["eval", "q", "r"]
    loaded = _imported(args, tmp_path)
    assert "graphsr" in loaded and "numpy" in loaded  # the parse of -X importtime worked
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_a_trec_run_s_evaluation_imports_no_tree_element_or_preference_code(tmp_path):
    """What only trees, element runs or ``-R prefs`` need stays out of a TREC run's start-up."""
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    (tmp_path / "r").write_text("1 Q0 a 1 2.5 sys\n1 Q0 c 2 1.5 sys\n2 Q0 c 1 1.0 sys\n")
    loaded = _imported(["eval", "q", "r", "-m", "AP", "-m", "ndcg_cut.10", "-m", "P.5"], tmp_path, whole=True)
    assert "graphsr.measures.trec_table" in loaded  # (the parse worked, and trec_eval's names were read)
    assert not loaded & {"graphsr.core.document", "graphsr.measures.elements", "graphsr.measures.trec_eval.prefs"}
    # records, not dataclasses (whose methods are compiled at each start: graphsr._records)
    assert "graphsr._records" in loaded and "dataclasses" not in loaded


ORDERS = {
    "the command line first": "import graphsr.cli.main\nfrom graphsr.cli.main import main\nimport graphsr",
    "the library first": "import graphsr\nimport graphsr.cli.main",
    "ir_measures first": "import ir_measures\nimport graphsr\nimport graphsr.cli.main",
}
PROBE = """
{first}
import ir_measures
from graphsr.measures import parse_measure
m = parse_measure("nDCG(dcg=exp-log2)@5")
print(isinstance(m, ir_measures.Measure), m == ir_measures.nDCG(dcg="exp-log2") @ 5, hash(m) == hash(ir_measures.nDCG(dcg="exp-log2") @ 5),
      parse_measure("P@5") == ir_measures.P @ 5, type(m).__mro__[-2].__module__)
"""


@pytest.mark.parametrize("order", ORDERS)
def test_measures_have_one_base_class_whatever_is_imported_first(order):
    """graphsr's measures are ir_measures' measures (equal and hashed alike) whichever module a process imports
    first, the command line's own included."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(first=ORDERS[order])], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True", "True", "True", "ir_measures.measures.base"]


def test_the_command_line_scores_with_the_same_measures(tmp_path):
    """A measure built inside ``graphsr eval``'s own process, where ir_measures is loaded already (a script that
    imports it and runs the command line), is an ir_measures measure too; started as a command, the process never
    loads ir_measures (test_a_scoring_command_imports_no_heavy_part)."""
    (tmp_path / "q").write_text("1 0 a 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 s\n")
    probe = (
        "import sys, ir_measures\nfrom graphsr.cli.main import main\nsys.argv = ['graphsr', 'eval', 'q', 'r', "
        "'-m', 'P@1']\ncode = main()\nfrom graphsr.measures import parse_measure\n"
        "print(code, isinstance(parse_measure('P@1'), ir_measures.Measure), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.stderr.split()[-2:] == ["0", "True"], done.stderr[-2000:]
