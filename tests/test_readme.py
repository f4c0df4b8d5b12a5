"""The README's examples run and print what the README shows: every ``pycon`` block as one doctest session,
every ``console`` block as shell commands whose output is compared."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_is_short_and_has_examples_to_run():
    """A front page (the manual and the tutorials are in docs/): at most about 10 KB, with a tour that runs."""
    assert len(README.read_bytes()) <= 10_240
    assert len(blocks("pycon")) >= 1 and len(blocks("console")) >= 1


def test_every_pycon_block_prints_what_the_readme_shows(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = "\n".join(blocks("pycon"))
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
    assert runner.tries >= 5


@pytest.mark.parametrize("block", blocks("console"))
def test_every_console_block_prints_what_the_readme_shows(block):
    commands, expected = [], []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        else:
            expected.append(line)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-ec", "\n".join(commands)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == expected
