"""trec_eval's own ``make quicktest``, run as ``graphsr trec_eval``: 9.0.8's eleven commands and files
(tests/data/trec_eval/quicktest), and 10.0's fifteen (tests/data/trec_eval/quicktest10, run with
``--trec_eval_version=10.0``), copied unchanged with their notices; each output byte-identical."""

from __future__ import annotations

import gzip
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "trec_eval"
QUICKTEST = DATA / "quicktest"
QUICKTEST10 = DATA / "quicktest10"


def _commands(folder: Path) -> list:
    return [line.rsplit("|", 1) for line in (folder / "commands.txt").read_text().splitlines() if line.strip()]


COMMANDS = _commands(QUICKTEST)
COMMANDS10 = _commands(QUICKTEST10)


def test_the_quicktests_are_all_there():
    assert len(COMMANDS) == 11 and len(COMMANDS10) == 15
    assert all((QUICKTEST / expected.strip()).is_file() for _, expected in COMMANDS)
    assert all((QUICKTEST10 / expected.strip()).is_file() for _, expected in COMMANDS10)


def _run(argv: list, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "graphsr", "trec_eval", *argv],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )


@pytest.mark.parametrize("args, expected", COMMANDS, ids=[e.strip() for _, e in COMMANDS])
def test_quicktest_command_is_byte_identical(args, expected, tmp_path):
    (tmp_path / "test").symlink_to(QUICKTEST)  # the commands name the files as test/FILE, from trec_eval's directory
    done = _run(shlex.split(args), tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert done.stdout == (QUICKTEST / expected.strip()).read_bytes()


@pytest.fixture(scope="module")
def test10(tmp_path_factory) -> Path:
    """trec_eval 10.0's test/ directory, its compressed files decompressed."""
    root = tmp_path_factory.mktemp("te10")
    (root / "test").mkdir()
    for f in QUICKTEST10.iterdir():
        if f.suffix == ".gz":
            (root / "test" / f.stem).write_bytes(gzip.decompress(f.read_bytes()))
        else:
            (root / "test" / f.name).symlink_to(f)
    return root


@pytest.mark.parametrize("args, expected", COMMANDS10, ids=[f"{k}-{e.strip()}" for k, (_, e) in enumerate(COMMANDS10)])
def test_quicktest_10_command_is_byte_identical(args, expected, test10):
    done = _run(["--trec_eval_version=10.0", *shlex.split(args)], test10)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert done.stdout == (QUICKTEST10 / expected.strip()).read_bytes()
