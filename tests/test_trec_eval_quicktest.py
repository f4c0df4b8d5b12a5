"""trec_eval 9.0.8's own ``make quicktest``, run as ``graphsr trec_eval``: its eleven commands, its files
(tests/data/trec_eval/quicktest, copied unchanged with their notice), each output byte-identical."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

QUICKTEST = Path(__file__).parent / "data" / "trec_eval" / "quicktest"
COMMANDS = [line.rsplit("|", 1) for line in (QUICKTEST / "commands.txt").read_text().splitlines() if line.strip()]


def test_the_quicktest_is_all_there():
    assert len(COMMANDS) == 11
    assert all((QUICKTEST / expected.strip()).is_file() for _, expected in COMMANDS)


@pytest.mark.parametrize("args, expected", COMMANDS, ids=[e.strip() for _, e in COMMANDS])
def test_quicktest_command_is_byte_identical(args, expected, tmp_path):
    (tmp_path / "test").symlink_to(QUICKTEST)  # the commands name the files as test/FILE, from trec_eval's directory
    done = subprocess.run([sys.executable, "-m", "graphsr", "trec_eval", *shlex.split(args)], cwd=tmp_path,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert done.stdout == (QUICKTEST / expected.strip()).read_bytes()
