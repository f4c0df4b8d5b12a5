"""The documentation site: its generated reference pages are what the code gives, it builds with
``mkdocs build --strict``, and every example in it runs and prints what it shows.

Examples are ``console`` blocks (``$ command`` lines, the output after them; ``...`` in an output line stands
for any text, as times and paths vary) and ``pycon`` blocks (doctests: ELLIPSIS and NORMALIZE_WHITESPACE).
``sh`` blocks are the set-up commands a reader types once (the two commands of Getting started, which CI runs
as ``.ci/run``) and the Neo4j commands, which need a Neo4j server; they are not run here.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "reference" not in p.parts)


def blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)


def console_case(block: str) -> tuple[list[str], list[str]]:
    """The commands of a console block (a ``$`` line, and ``>`` continuation lines) and the expected output."""
    commands, expected = [], []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        elif line.startswith("> ") and commands:
            commands[-1] += "\n" + line[2:]
        else:
            expected.append(line)
    return commands, expected


def matches(expected: str, got: str) -> bool:
    """``expected`` with each ``...`` standing for any text (trailing blanks ignored)."""
    return re.fullmatch(".*?".join(map(re.escape, expected.rstrip().split("..."))), got.rstrip()) is not None


def run_console(block: str, cwd: Path) -> list[str]:
    """Run a console block in ``cwd`` (where ``graphsr/``, ``bench/`` and ``tests/`` lead to the repository's, so
    the documentation's paths of the sample data, generators and test data work as in a clone; the local store is
    ``cwd/store``) and check its output; returns the output lines."""
    commands, expected = console_case(block)
    for name in ("graphsr", "bench", "tests"):  # (the package's sample data; the bench's generators; test data)
        if not (cwd / name).exists():
            (cwd / name).symlink_to(ROOT / name)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GRAPHSR_STORE": f"local:{cwd / 'store'}",
        "COLUMNS": "100",
    }
    proc = subprocess.run(
        ["bash", "-ec", "\n".join(commands)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.splitlines()
    assert len(got) == len(expected), "\n".join(got)
    for e, g in zip(expected, got):
        assert matches(e, g), (e, g)
    run_console.stderr = proc.stderr  # type: ignore[attr-defined]
    return got


#: The local store's status lines (a slow start), which pages need not name.
_STATUS = ("graphsr: starting the local store", "graphsr: local store ready")


def what_stderr_says(line: str) -> str:
    """The gist of a stderr line a page must name: without the program's prefix, the file it names and the
    details in parentheses or after a colon."""
    message = re.sub(r"^graphsr: (?:warning: |error: )?", "", line)
    message = re.sub(r"^\S+: ", "", message)  # (the file it names)
    return re.split(r"[(:;]", message)[0].strip()


def stop_store(cwd: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "graphsr", "store", "stop", "--store", f"local:{cwd / 'store'}"], capture_output=True
    )


def test_the_reference_pages_are_what_the_code_gives():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_docs.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path):
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[dev]'")
    proc = subprocess.run(
        [mkdocs, "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "reference" / "measures" / "index.html").exists()
    html = (tmp_path / "site" / "conventions" / "index.html").read_text()
    assert 'id="formats"' in html and "{#formats}" not in html  # (heading ids, {#id}, render)


CONSOLE = [p for p in PAGES if blocks(p, "console")]


@pytest.mark.slow
@pytest.mark.parametrize("page", CONSOLE, ids=[str(p.relative_to(DOCS)) for p in CONSOLE])
def test_every_console_block_prints_what_it_shows(page, tmp_path):
    """A page's console blocks are one shell session's commands, in order, in a directory of their own; what a
    block's commands say on stderr (a warning about tied scores, a file written) the page shows or names, after
    the block."""
    text = page.read_text(encoding="utf-8")
    try:
        for block in blocks(page, "console"):
            run_console(block, tmp_path)
            after = " ".join(text[text.index(block) : text.index(block) + len(block) + 1500].split())
            for line in run_console.stderr.splitlines():  # type: ignore[attr-defined]
                if line.strip() and not line.startswith(_STATUS):
                    assert what_stderr_says(line) in after, (page.name, line)
    finally:
        stop_store(tmp_path)


PYCON = [p for p in PAGES if blocks(p, "pycon")]


@pytest.mark.slow
@pytest.mark.parametrize("page", PYCON, ids=[str(p.relative_to(DOCS)) for p in PYCON])
def test_every_pycon_block_prints_what_it_shows(page, tmp_path, monkeypatch):
    """A page's pycon blocks are one session, run from the repository's root with a local store of their own."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'store'}")
    monkeypatch.setenv("GRAPHSR_TMP", str(tmp_path))
    text = "\n".join(blocks(page, "pycon"))
    test = doctest.DocTestParser().get_doctest(text, {}, str(page.name), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    try:
        runner.run(test, out=failures.append)
    finally:
        subprocess.run(
            [sys.executable, "-m", "graphsr", "store", "stop", "--store", f"local:{tmp_path / 'store'}"],
            capture_output=True,
        )
    assert runner.failures == 0, "".join(failures)


def test_every_page_has_run_examples_or_says_why_not():
    """The tutorials and the getting-started page show something that runs."""
    for page in PAGES:
        if "tutorials" in page.parts or page.name == "getting-started.md":
            assert blocks(page, "console") or blocks(page, "pycon"), page


@pytest.mark.slow
def test_a_broken_anchor_fails_the_build(tmp_path):
    """A link to an anchor no page has fails the strict build (the pages as they are build strictly:
    test_the_site_builds_strictly)."""
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    if mkdocs is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[dev]'")
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    os.symlink(ROOT / "graphsr", copy / "graphsr")  # (the API page reads the package)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    page = copy / "docs" / "errata.md"
    page.write_text(page.read_text() + "\nSee [nowhere](conventions.md#no-such-heading).\n")
    done = subprocess.run(
        [mkdocs, "build", "--strict", "-d", str(tmp_path / "bad")],
        cwd=copy,  # (-q hides it)
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode != 0 and "no-such-heading" in done.stdout + done.stderr
