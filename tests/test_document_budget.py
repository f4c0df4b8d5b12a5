"""One huge document is read within a declared memory bound or refused in one line naming it
(graphsr/io/budget.py): real processes, real limits (an environment bound, ulimit -v)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from graphsr.io.budget import BYTES_PER_ELEMENT, TEXT_FACTOR, reading_cost


@pytest.fixture(scope="module")
def huge(tmp_path_factory):
    """A document of 1.2 million small elements (7.5 MB)."""
    path = tmp_path_factory.mktemp("huge") / "h.xml"
    with open(path, "w") as fh:
        fh.write("<r>" + "<s><b>x</b><c/></s>" * 400_000 + "</r>")
    return path


def summary(path, env=None, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "graphsr", "summary", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        preexec_fn=preexec,
        timeout=300,
    )


def test_a_document_past_the_declared_bound_is_refused_in_one_line(huge):
    done = summary(huge, {"GRAPHSR_DOCUMENT_MEMORY": "256M"})
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert "about 1,200,001 elements" in done.stderr and "256 MB, $GRAPHSR_DOCUMENT_MEMORY" in done.stderr


def test_within_the_bound_it_is_read_within_the_stated_cost(huge):
    """Read, its peak memory (the process's own, the interpreter's included) within what the bound declares.  The
    peak is the process's high-water mark (VmHWM), not getrusage's ru_maxrss: Linux keeps ru_maxrss across fork and
    exec, so a child of a large test process reported the parent's size (684 MB under a 400 MB read, seen in CI)."""
    code = (
        "import sys\nfrom graphsr.cli.main import main\ncode = main(['summary', sys.argv[1]])\n"
        "hwm = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')][0]\n"
        "sys.stderr.write(f'peak {int(hwm) * 1024}\\n')\n"
        "sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(huge)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "GRAPHSR_DOCUMENT_MEMORY": "2G"},
    )
    assert done.returncode == 0, done.stderr
    peak = int(done.stderr.split("peak ")[1])
    assert 100 << 20 < peak <= reading_cost(huge.stat().st_size, 1_200_001) + (150 << 20)
    assert "/r/s/c" in done.stdout


def test_the_address_space_limit_bounds_it_too(huge):
    """Under ulimit -v, the document is refused in one line naming that limit, not killed halfway."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (560 << 20, 560 << 20))

    done = summary(huge, {"GRAPHSR_DOCUMENT_MEMORY": "8G"}, preexec=limit)
    assert done.returncode == 2, done.stderr
    assert "address-space limit" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_cost_is_declared():
    assert reading_cost(1000, 10) == TEXT_FACTOR * 1000 + BYTES_PER_ELEMENT * 10


#: Markdown of the shapes that cost most to read, a unit each (repeated to about a megabyte).
_SHAPES = {
    "nested lists": "- a\n  - b\n    - c\n      - d\n",
    "short paragraphs": "x\n\n",
    "lines of one paragraph": "x\n",
    "emphasis": "*a* " * 64 + "\n",
    "table rows": "| a | b | c |\n|---|---|---|\n" + "| 1 | 2 | 3 |\n" * 50 + "\n",
    "headings": "# h\n## h2\ntext\n",
    "quotes": "> a\n> > b\n> > > c\n",
    "inline links and code": "*a* **b** `c` [d](e) " * 20 + "\n\n",
}


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_reading_markdown_stays_within_its_declared_cost(shape, tmp_path):
    """The cost the bound reads off a Markdown file before parsing it (graphsr.io.budget.text_reading_cost: bytes,
    lines, lines opening a block, inline delimiters) is an upper bound of what reading it takes, on the shapes that
    cost most (the process's high-water mark, less what it held before)."""
    from graphsr.io.budget import text_reading_cost

    unit = _SHAPES[shape].encode()
    path = tmp_path / "d.md"
    path.write_bytes(unit * ((1 << 20) // len(unit) + 1))
    code = (
        "import sys\nfrom graphsr.io.collection import list_collection, read_document\n"
        "[s] = list_collection(sys.argv[1])\n"
        "def hwm():\n    return [int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "before = hwm()\nread_document(s)\nprint(hwm() - before)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cost, counts = text_reading_cost(path.read_bytes())
    assert int(done.stdout) <= cost, (shape, int(done.stdout), cost, counts)
