"""Archives cannot explode (graphsr/io/archive_limits.py): a zip member or a compressed tar or gzipped file that
expands past the declared ratio, or a member past the declared size, is refused in one line naming it and the
variable that sets the limit -- before its bytes are read, or as soon as decompression passes the limit; the limits
are overridable; a legitimate large member is read within the memory the document bound declares."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile

import pytest

#: A line of Markdown repeated: deflate shrinks it some 200 times.
LINE = b"Some *text* with [a link](http://x.y) and `code`, repeated to fill a member.\n"


def _zip(path, name: str, size: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, z.open(name, "w", force_zip64=True) as out:
        block = LINE * (1 << 14)
        for _ in range(size // len(block) + 1):
            out.write(block)


def _graphsr(*argv, env=None, peak=False) -> subprocess.CompletedProcess:
    """``graphsr ARGV`` in a child; with ``peak``, its high-water mark (VmHWM) on the last stderr line."""
    code = "import sys\nfrom graphsr.cli.main import main\ncode = main(sys.argv[1:])\n" + (
        "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "sys.stderr.write(f'peak {int(hwm) * 1024}\\n')\n"
        if peak
        else ""
    )
    return subprocess.run(
        [sys.executable, "-c", code + "sys.exit(code)", *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def _one_error(done) -> str:
    lines = [x for x in done.stderr.strip().splitlines() if not x.startswith("peak ")]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    """A 0.5 MB zip holding a 96 MB Markdown member (some 200 to 1)."""
    path = tmp_path_factory.mktemp("zip") / "bomb.zip"
    _zip(path, "docs/big.md", 96 << 20)
    return path


def test_a_zip_member_past_the_ratio_is_refused_before_it_is_read(bomb):
    assert bomb.stat().st_size < 1 << 20
    done = _graphsr("summary", bomb, peak=True)
    line = _one_error(done)
    assert "bomb.zip: member docs/big.md: 96.2 MB uncompressed from" in line
    assert "more than an archive member may expand (100 to 1; $GRAPHSR_ARCHIVE_RATIO sets it)" in line
    assert int(done.stderr.split("peak ")[1]) < 300 << 20  # (nothing of it read)


def test_a_member_past_the_size_is_refused_and_both_limits_are_overridable(bomb):
    line = _one_error(
        _graphsr("summary", bomb, env={"GRAPHSR_ARCHIVE_MEMBER_SIZE": "64M", "GRAPHSR_ARCHIVE_RATIO": "1000"})
    )
    assert "member docs/big.md: 96.2 MB uncompressed, more than an archive member may hold (64.0 MB;" in line
    assert "$GRAPHSR_ARCHIVE_MEMBER_SIZE sets it)" in line
    for bad, what in (
        ({"GRAPHSR_ARCHIVE_RATIO": "0.5"}, "ratio of at least 1"),
        ({"GRAPHSR_ARCHIVE_MEMBER_SIZE": "lots"}, "ARCHIVE_MEMBER_SIZE"),
    ):
        assert what in _one_error(_graphsr("summary", bomb, env=bad))


def test_a_legitimate_large_member_is_read_within_the_declared_memory(tmp_path):
    """With the ratio raised, a 24 MB member (200 to 1) is read; its reading stays within what the document bound
    declares for it (graphsr.io.budget.text_reading_cost), the interpreter's own size aside."""
    from graphsr.io.budget import text_reading_cost

    bomb = tmp_path / "large.zip"
    _zip(bomb, "docs/big.md", 24 << 20)
    done = _graphsr("summary", bomb, env={"GRAPHSR_ARCHIVE_RATIO": "1000", "GRAPHSR_DOCUMENT_MEMORY": "20G"}, peak=True)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(bomb) as z:
        cost, _ = text_reading_cost(z.read("docs/big.md"))
    assert int(done.stderr.split("peak ")[1]) <= cost + (200 << 20)
    # under a smaller bound it is refused in one line, as a file on disk would be
    line = _one_error(
        _graphsr("summary", bomb, env={"GRAPHSR_ARCHIVE_RATIO": "1000", "GRAPHSR_DOCUMENT_MEMORY": "256M"})
    )
    assert "large.zip!docs/big.md" in line and "more than graphsr's bound for one document" in line


def test_a_compressed_tar_that_expands_past_the_ratio_stops_while_it_is_decompressed(tmp_path):
    path = tmp_path / "bomb.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        data = LINE * ((40 << 20) // len(LINE))
        info = tarfile.TarInfo("a.md")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    done = _graphsr("summary", path, peak=True)
    line = _one_error(done)
    assert "bomb.tar.gz: expands past" in line and "more than 100 to 1 ($GRAPHSR_ARCHIVE_RATIO sets it)" in line
    assert int(done.stderr.split("peak ")[1]) < 300 << 20
    assert _graphsr("summary", path, env={"GRAPHSR_ARCHIVE_RATIO": "10000"}).returncode == 0
    # a small archive of small files (mostly zeros, compressed a thousand times over) is never refused for it
    small = tmp_path / "small.tar.gz"
    with tarfile.open(small, "w:gz") as tar:
        for k in range(200):
            info = tarfile.TarInfo(f"d{k}.md")
            info.size = 2
            tar.addfile(info, io.BytesIO(b"x\n"))
    assert small.stat().st_size * 100 < 200 * 1024 and _graphsr("summary", small).returncode == 0


def test_gzipped_records_that_expand_past_the_ratio_are_refused(tmp_path):
    path = tmp_path / "spans.jsonl.gz"
    row = json.dumps({"query_id": "1", "doc_id": "a", "start": 0, "end": 1, "relevance": 1}).encode() + b"\n"
    with gzip.open(path, "wb") as fh:
        for _ in range((40 << 20) // (len(row) * 1000)):
            fh.write(row * 1000)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "a.md").write_text("a\n")
    run = tmp_path / "r.jsonl"
    run.write_text(json.dumps({"query_id": "1", "doc_id": "a", "start": 0, "end": 1, "score": 1}) + "\n")
    line = _one_error(_graphsr("eval", path, run, "--collection", tmp_path / "c", "-m", "ChromaP@1"))
    assert "spans.jsonl.gz: expands past" in line
