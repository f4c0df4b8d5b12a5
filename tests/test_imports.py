"""A scoring command imports only what it uses: ``graphsr eval`` on TREC files or on INEX passage files loads
none of the heavy optional parts (tables, plots, graphs, the store's drivers)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HEAVY = ("pandas", "matplotlib", "pyarrow", "networkx", "neo4j", "falkordb", "redis", "lxml", "ir_measures")


def _imported(args: list[str], cwd) -> set[str]:
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "graphsr", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
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
