"""Shared fixtures: tiny collections written to temporary directories."""

from __future__ import annotations

import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from graphsr.core import DocumentTree


def memberships(store, kind: str) -> int:
    """How many stored elements hold a membership of summary ``kind`` (a property per kind: see
    graphsr.store.ids)."""
    from graphsr.store.ids import membership_property

    prop = membership_property(kind)  # a fixed name from graphsr's list, never user text
    return int(store.read_query(f"MATCH (e:Element) WHERE e.{prop} IS NOT NULL RETURN count(e) AS n")[0]["n"])


@contextmanager
def small_tmpfs(directory: Path, size: str):
    """A tmpfs of ``size`` (``8m``, ``256k``) mounted at ``directory`` (made) for the block: a real full disk.
    Skips where it cannot be mounted (it needs root; CI runs as root)."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    directory.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], capture_output=True)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True, scope="session")
def _private_default_store(tmp_path_factory):
    """Keep tests away from the user's own default store."""
    import os

    old = os.environ.get("GRAPHSR_STORE")
    os.environ["GRAPHSR_STORE"] = f"local:{tmp_path_factory.mktemp('default-store')}"
    os.environ["GRAPHSR_CACHE"] = str(tmp_path_factory.mktemp("cache"))  # (indexes of large files: not the user's)
    yield
    from graphsr.store.local import LocalServer

    LocalServer(os.environ["GRAPHSR_STORE"][len("local:") :]).stop()
    if old is None:
        del os.environ["GRAPHSR_STORE"]
    else:
        os.environ["GRAPHSR_STORE"] = old


@pytest.fixture
def tiny_collection(tmp_path: Path) -> Path:
    """Two documents whose p* summary and steady state are worked out by hand in test_cli."""
    coll = tmp_path / "coll"
    write(coll / "a.xml", "<a><b>xx</b><b>yyy</b><c>z</c></a>")
    write(coll / "d2.xml", "<x><y>w</y></x>")
    return coll


def n(tag: str, *kids, text: str = "") -> tuple:
    return (tag, text, list(kids))


@pytest.fixture
def book() -> DocumentTree:
    """The book of the SR paper's Fig 2 (tags abbreviated, pre-order ids 1..17)."""
    return DocumentTree.from_nested(
        "moby",
        n(
            "bk",
            n(
                "fm",
                n("d", n("n", text="Moby Dick"), n("m", text="whale" + "x" * 20), n("m", text="bio" + "y" * 15)),
                n("d", n("n", text="Herman Melville"), n("n", text="Plain Label Books")),
                n(
                    "d",
                    n("n", text="Chapter 1: Looming"),
                    n("n", text="Chapter 2: The Carpet-bag"),
                    n("n", text="Chapter 3: The Spouter-Inn"),
                ),
            ),
            n("bd", n("c", text="w" * 50), n("c", text="c" * 100), n("c", text="z" * 50)),
        ),
    )


# -- the suite cleans up after itself -----------------------------------------------------------------------------
#: What a server a test starts has in its command line: a local store's FalkorDB, the ArcadeDB test server.
_SERVER_MARKS = (b"graphsr.sock", b"arcadedb_server.py")


#: Set in this session's environment, so inherited by every process its tests start: the servers it started are
#: told from those of another pytest session on the machine (a CI run beside a developer's), never touched.
_SESSION_MARK = f"GRAPHSR_TEST_SESSION={os.getpid()}-{time.time_ns()}".encode()


#: The status lines a local store slow to start prints (graphsr.store.server): not errors, and a busy machine may
#: print them in any test that starts one.
STORE_STATUS = (
    "graphsr: starting the local store at ",
    "graphsr: local store ready after ",
    "graphsr: the local store server (pid ",
    "graphsr: the local store is loading its saved data",
)  # (slow, loading, or a server that hung as it started, started again)


def error_lines(err: str) -> list[str]:
    """The lines of a command's stderr besides the local store's start-up status lines (slow, or started again)."""
    return [line for line in err.strip().splitlines() if not line.startswith(STORE_STATUS)]


def _ours(pid: str) -> bool:
    """Whether process ``pid`` was started under this session (its environment carries the session's mark)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return _SESSION_MARK in fh.read().split(b"\0")
    except OSError:
        return False


def _servers() -> dict[int, str]:
    """The store servers this session's tests started and that run now (pid: command line)."""
    import os

    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
            with open(f"/proc/{entry}/stat") as fh:
                state = fh.read().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(mark in cmdline for mark in _SERVER_MARKS) and _ours(entry):
            found[int(entry)] = cmdline.replace(b"\0", b" ").decode(errors="replace").strip()
    return found


#: Seconds the slowest test files take (``pytest --durations=0``, summed by file, on an idle 2-core machine,
#: 2026-12-03).  Each file runs on one worker (``--dist loadfile``); the workers take these first, longest first,
#: so that the suite does not end on one long file while the other worker is idle.
SLOWEST_FILES = {
    "test_docs.py": 73, "test_store_arcadedb.py": 62, "test_store_hangs.py": 59, "test_report.py": 58,
    "test_store_export.py": 57, "test_cli.py": 35, "test_store_writers.py": 33, "test_store_limits.py": 31,
    "test_store_durability.py": 30, "test_store_journal.py": 29, "test_partitions.py": 25, "test_view.py": 24,
    "test_registry.py": 23, "test_lint.py": 22, "test_document_budget.py": 19, "test_intervals.py": 18,
    "test_routes_columns.py": 17, "test_analysis.py": 16, "test_cli_fuzz.py": 15, "test_data_on_stdout.py": 15,
    "test_trec_parity.py": 14, "test_archive_limits.py": 14, "test_columnar_runs.py": 13,
    "test_readers_agree.py": 11, "test_shape_trees.py": 10, "test_named_loads.py": 10,
    "test_store_loading.py": 8, "test_store_local.py": 8, "test_simulation.py": 8, "test_trec_scanner.py": 8,
    "test_store_shapes.py": 7, "test_frame_runs.py": 7, "test_trec_eval_edges.py": 6,
}  # fmt: skip


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The slowest files first (:data:`SLOWEST_FILES`), each file's tests in their order, the others after."""
    items.sort(key=lambda item: -SLOWEST_FILES.get(item.nodeid.split("::", 1)[0].rsplit("/", 1)[-1], 0))


def pytest_sessionstart(session):
    import os

    key, _, value = _SESSION_MARK.decode().partition("=")
    os.environ[key] = value
    session.config._servers_before = set(_servers())


def pytest_sessionfinish(session, exitstatus):
    """Fail the run if a server a test started is still running once every fixture is torn down (each is
    ended here, so that none outlives the suite)."""
    import os
    import signal
    import time

    before = getattr(session.config, "_servers_before", None)
    if before is None or hasattr(session.config, "workerinput"):
        return
    deadline = time.monotonic() + 10  # a server told to stop may still be writing its snapshot
    while True:
        left = {pid: cmd for pid, cmd in _servers().items() if pid not in before}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if not left:
        return
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    listing = "\n".join(f"  pid {pid}: {cmd[:200]}" for pid, cmd in sorted(left.items()))
    session.config.get_terminal_writer().line(
        f"\nERROR: {len(left)} server(s) started by the tests were still running when the suite ended (killed "
        f"now):\n{listing}",
        red=True,
    )
    session.exitstatus = 1


# -- headless Chromium, for the pages graphsr writes ----------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _chromium():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as exc:
        if os.environ.get("GRAPHSR_REQUIRE_CHROMIUM") == "1":
            pytest.fail(f"GRAPHSR_REQUIRE_CHROMIUM is set but selenium is not installed: {exc}")
        pytest.skip("selenium is not installed (pip install graphsr[dev])")
    if not (CHROMIUM and DRIVER):
        if os.environ.get("GRAPHSR_REQUIRE_CHROMIUM") == "1":
            pytest.fail("GRAPHSR_REQUIRE_CHROMIUM is set but chromium or chromedriver is not installed")
        pytest.skip("headless Chromium and its driver are not installed (Debian: chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1400,900",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture
def browser():
    """A function starting headless Chromium under Selenium (skipped when it is missing, unless
    GRAPHSR_REQUIRE_CHROMIUM is set); the caller quits the driver."""
    return _chromium


@pytest.fixture()
def artefacts(tmp_path):
    """Where the screenshots go: $GRAPHSR_TEST_ARTEFACTS when set (CI keeps them), else the test's directory."""
    where = Path(os.environ.get("GRAPHSR_TEST_ARTEFACTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """``graphsr ARGV`` in this process: its exit code, stdout and stderr."""
    from graphsr.cli.main import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


#: The texts of the small span case: documents ``a`` (115 characters) and ``b`` (96).
SPAN_TEXTS = {"a": "alpha beta gamma delta " * 5, "b": "one two three four five " * 4}


def span_case(tmp_path: Path, chunks) -> dict:
    """A collection of :data:`SPAN_TEXTS` (text files), span judgments of query 1 (a relevant span in each
    document) and a chunk map of ``chunks`` ((chunk_id, doc_id, start, end) rows), written under ``tmp_path``."""
    import json

    collection = tmp_path / "collection"
    collection.mkdir()
    for doc, text in SPAN_TEXTS.items():
        (collection / f"{doc}.txt").write_text(text)
    spans = [("a", 6, 10), ("b", 0, 20)]
    qrels = write(
        tmp_path / "q.jsonl",
        "".join(
            json.dumps({"query_id": "1", "doc_id": d, "start": s, "end": e, "relevance": 1}) + "\n" for d, s, e in spans
        ),
    )
    rows = [{"chunk_id": c, "doc_id": d, "start": s, "end": e} for c, d, s, e in chunks]
    mapped = write(tmp_path / "map.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    return {"collection": collection, "qrels": qrels, "chunks": mapped, "dir": tmp_path}
