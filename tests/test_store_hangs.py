"""Every wait on the local store's server is bounded (graphsr/store/watch.py): a server frozen while a command waits
on it -- mid-load, mid-routes, mid-drop -- is named in one line (pid, what graphsr was doing, how long, the server's
and its modules' versions), killed and started again from its log, and the command ends (exit 3) with what it was
writing marked INCOMPLETE; running it again completes it.  A command that finds the server frozen before it starts
kills it and starts it again; a stop does the same and says so.  Real processes, a real server, frozen by SIGSTOP
(and, where the machine allows, by a cgroup freezer: no CPU time, not a stopped state)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import error_lines

from graphsr.data import sample
from graphsr.store.local import LocalServer

#: Seconds a frozen server's command may take to end: the watch's two seconds, the server's start again, margin.
BOUND = 60


def _run(*args, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "graphsr", *args], capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def _start(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "graphsr", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@pytest.fixture
def kept(tmp_path):
    """A kept local store (``store start``): its URL and server."""
    path = tmp_path / "store"
    url = f"local:{path}"
    _run("store", "start", "--store", url)
    server = LocalServer(path)
    yield url, server
    pid = server.server_pid()
    if pid is not None:  # (thawed, if a test left it frozen)
        os.kill(pid, signal.SIGCONT)
    _run("store", "stop", "--store", url, check=False)


def _log_bytes(server: LocalServer) -> int:
    """What the server's append-only log holds (it grows with every write the server answers)."""
    return sum(p.stat().st_size for p in server.journal.dir.glob("*") if p.is_file())


def _steps(url: str) -> int:
    from graphsr.store import open_store

    with open_store(url, create=False) as s:
        return int(s.run("count_Step")[0]["n"])


def _freeze_when_writing(server: LocalServer, proc: subprocess.Popen, grown: int = 4096, ready=None):
    """SIGSTOP the server once its log has grown by ``grown`` bytes and ``ready()`` holds (the command is writing
    what it writes); its pid and the time."""
    before = _log_bytes(server)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (_log_bytes(server) < before + grown or (ready and not ready())):
        assert proc.poll() is None, "the command finished before the server could be frozen: " + proc.stderr.read()
        time.sleep(0.01)
    pid = server.server_pid()
    os.kill(pid, signal.SIGSTOP)
    return pid, time.monotonic()


def _ended_in_one_line(proc: subprocess.Popen, frozen_at: float, pid: int, doing: str) -> str:
    code = proc.wait(timeout=BOUND)
    took = time.monotonic() - frozen_at
    out, err = proc.communicate()
    lines = error_lines(err)
    assert code == 3 and len(lines) == 1 and "Traceback" not in err, err
    line = lines[0]
    assert f"the local server (pid {pid}) was stopped (process state T) while graphsr was {doing}" in line, line
    assert "(redis 8." in line and "graph 4." in line  # (the server's and its modules' versions)
    assert "killed it and started it again from its log" in line and "INCOMPLETE" in line and "run it again" in line
    assert took < BOUND
    return line


def _generated(tmp_path: Path, documents: int = 3000, sections: int = 12) -> Path:
    """A collection of ``documents`` documents of ``sections`` sections (4 elements each), that takes a few
    seconds to load."""
    root = tmp_path / "gen"
    root.mkdir()
    body = "".join(f"<sec><title>t{k}</title><p>text {k}</p><p>more</p></sec>" for k in range(sections))
    for d in range(documents):
        (root / f"d{d}.xml").write_text(f"<article><title>doc {d}</title>{body}</article>")
    return root


@pytest.mark.slow
def test_a_server_frozen_mid_load_ends_the_load_in_one_line_and_a_second_load_completes_it(kept, tmp_path):
    url, server = kept
    collection = _generated(tmp_path)
    load = _start(
        "store", "load", str(collection), "--name", "gen", "--elements", "all", "--store", url, "--no-progress"
    )
    pid, at = _freeze_when_writing(server, load)
    _ended_in_one_line(load, at, pid, "running its query")
    new = server.server_pid()
    assert new is not None and new != pid and server.alive()  # started again, kept running
    shown = _run("store", "show", "--store", url).stdout
    assert "INCOMPLETE" in next(line for line in shown.splitlines() if line.startswith("gen "))
    _run("store", "load", str(collection), "--name", "gen", "--elements", "all", "--store", url, "--no-progress")
    shown = _run("store", "show", "--store", url).stdout
    assert " complete " in next(line for line in shown.splitlines() if line.startswith("gen "))


@pytest.mark.slow
def test_a_server_frozen_mid_routes_ends_the_routes_load_in_one_line(kept, tmp_path):
    url, server = kept
    plays = str(sample("shakespeare")["collection"])
    _run("store", "load", plays, "--elements", "all", "--name", "sh", "--store", url, "--no-progress")
    log = tmp_path / "log.csv"
    _run("simulate-routes", plays, "-o", str(log), "--routes", "30000", "--seed", "4", "--no-progress")
    routes = _start("store", "routes", str(log), "--collection", "sh", "--study", "s", "--store", url)
    pid, at = _freeze_when_writing(server, routes, ready=lambda: _steps(url) > 0)
    _ended_in_one_line(routes, at, pid, "running its query 'create_steps'")
    model = _run("store", "model", "--collection", "sh", "--from-routes", "s", "--store", url, check=False)
    assert model.returncode == 2, model.stderr  # (a failed routes load removes its study; left INCOMPLETE otherwise)
    assert "study 's' of collection 'sh' is INCOMPLETE" in model.stderr or "no study 's'" in model.stderr
    _run("store", "routes", str(log), "--collection", "sh", "--study", "s", "--store", url)
    _run("store", "model", "--collection", "sh", "--from-routes", "s", "--store", url)


@pytest.mark.slow
def test_a_server_frozen_mid_drop_ends_the_drop_in_one_line_and_a_second_drop_completes_it(kept, tmp_path):
    url, server = kept
    # few documents of many elements: a drop removes 200,000 elements a statement, the documents of each named
    # (and a start after a crash replays a logged statement without the index it ran with, scanning the elements
    # once per document named: few documents keep that short)
    collection = _generated(tmp_path, 40, 2500)
    _run("store", "load", str(collection), "--name", "gen", "--elements", "all", "--store", url, "--no-progress")
    drop = _start("store", "drop", "gen", "--store", url)
    pid, at = _freeze_when_writing(server, drop, grown=1)
    _ended_in_one_line(drop, at, pid, "running its query")
    shown = _run("store", "show", "--store", url).stdout
    line = next((x for x in shown.splitlines() if x.startswith("gen ")), "")
    assert line == "" or "INCOMPLETE" in line
    _run("store", "drop", "gen", "--store", url)
    assert not any(x.startswith("gen ") for x in _run("store", "show", "--store", url).stdout.splitlines())


def test_a_command_that_finds_the_server_frozen_starts_it_again(kept):
    url, server = kept
    pid = server.server_pid()
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 5  # (the signal takes effect after kill() returns: a user's server is stopped)
    while not server._stopped() and time.monotonic() < deadline:
        time.sleep(0.01)
    t0 = time.monotonic()
    assert server.state() == "down"  # a stopped process cannot answer: seen from its state, no ping waited out
    assert time.monotonic() - t0 < server.PING_TIMEOUT / 2
    t0 = time.monotonic()
    done = _run("store", "query", "MATCH (n) RETURN count(n) AS n", "--store", url)
    assert time.monotonic() - t0 < BOUND
    assert f"the local store server (pid {pid}) does not answer: it is stopped (process state T)" in done.stderr
    assert server.server_pid() not in (None, pid) and server.alive()


def test_a_stop_of_a_frozen_server_kills_it_and_says_so(kept):
    url, server = kept
    pid = server.server_pid()
    os.kill(pid, signal.SIGSTOP)
    done = _run("store", "stop", "--store", url, check=False)
    assert done.returncode == 3 and len(error_lines(done.stderr)) == 1, done.stderr
    assert f"the local server (pid {pid}) does not answer: it is stopped (process state T); graphsr killed it" in (
        done.stderr
    )
    assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    again = _run("store", "stop", "--store", url)
    assert again.stdout.startswith("not running") and again.stderr == ""


def test_a_stop_says_when_the_server_had_ended_without_one(kept):
    url, server = kept
    pid = server.server_pid()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    done = _run("store", "stop", "--store", url)
    assert done.stdout.startswith("not running")
    assert f"the server (pid {pid}) had ended without a stop" in done.stderr
    assert _run("store", "stop", "--store", url).stderr == ""  # (said once)


def test_a_call_past_its_bound_ends_though_the_server_works():
    """A server that keeps working (its CPU time grows) but does not answer a call is taken as hung once the call
    passes its declared bound: the watch kills the process and shuts the call's socket, so the wait returns."""
    import socket as sockets

    from graphsr.store.watch import ServerWatch, kill

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    ours, theirs = sockets.socketpair()
    try:
        watch = ServerWatch(lambda: busy.pid, kill)
        t0 = time.monotonic()
        with watch.call("waiting for an answer that never comes", 1.0, lambda: [ours]):
            assert ours.recv(1) == b""  # (returns once the watch shuts the socket)
        assert 1.0 <= time.monotonic() - t0 < 10
        assert busy.wait(timeout=10) == -signal.SIGKILL
        assert watch.hang.seen == "did not answer within the call's bound of 1 s"
        assert watch.hang.what == "waiting for an answer that never comes" and watch.hang.pid == busy.pid
    finally:
        busy.kill()
        ours.close()
        theirs.close()


def _freezer():
    """A cgroup v1 freezer of this machine's (root only), or None."""
    base = Path("/sys/fs/cgroup/freezer")
    if os.geteuid() != 0 or not (base / "freezer.state").exists() and not base.is_dir():
        return None
    group = base / f"graphsr-test-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
    except OSError:
        return None
    return group


def test_a_server_that_uses_no_cpu_time_is_taken_as_hung(tmp_path, monkeypatch):
    """A server frozen by its cgroup (every thread asleep, as in FalkorDB's deadlock: no CPU time, not a stopped
    state) is taken as hung once it used no CPU time for STALLED_AFTER seconds while a call waited; a frozen
    process cannot die before it is thawed, and the line says so."""
    import threading

    from graphsr.errors import StoreError
    from graphsr.store import hung, open_store, watch

    group = _freezer()
    if group is None:
        pytest.skip("no cgroup v1 freezer here (it needs root)")
    monkeypatch.setattr(watch, "STALLED_AFTER", 3.0)
    monkeypatch.setattr(hung, "KILL_WAIT", 2.0)  # (the frozen process cannot exit: this much waited out)
    url = f"local:{tmp_path / 'store'}"
    store = open_store(url)
    try:
        pid = store.server.server_pid()
        (group / "cgroup.procs").write_text(str(pid))
        timer = threading.Timer(0.5, lambda: (group / "freezer.state").write_text("FROZEN"))
        timer.start()
        time.sleep(1.0)
        t0 = time.monotonic()
        with pytest.raises(StoreError) as failed:
            store.run("store_version")
        assert time.monotonic() - t0 < 30
        message = str(failed.value)
        assert f"the local server (pid {pid}) used no CPU time for" in message and "\n" not in message
        assert "did not exit within 2 s of SIGKILL (frozen by its cgroup?)" in message or "killed it" in message
    finally:
        (group / "freezer.state").write_text("THAWED")
        time.sleep(0.5)
        try:
            store.close()
        except Exception:
            pass
        for line in (group / "cgroup.procs").read_text().split():
            (group.parent / "cgroup.procs").write_text(line)
        group.rmdir()


def test_a_server_hung_while_the_schema_is_made_is_started_again_and_the_command_goes_on(kept, monkeypatch, capsys):
    """The schema's statements are idempotent: one the server hung on is made again on the server started again
    from its log (FalkorDB can deadlock making indexes), with a warning, and the command goes on."""
    from graphsr.store import open_store
    from graphsr.store.local import LocalStore

    url, server = kept
    real = LocalStore._execute
    frozen = []

    def freeze_first_schema_statement(self, text, params):
        if not frozen and text.lstrip().upper().startswith("CREATE INDEX"):
            frozen.append(server.server_pid())
            os.kill(frozen[0], signal.SIGSTOP)
        return real(self, text, params)

    monkeypatch.setattr(LocalStore, "_execute", freeze_first_schema_statement)
    t0 = time.monotonic()
    with open_store(url) as s:
        s.init_schema()
        assert s.counts() is not None  # (the store answers on the server started again)
    assert frozen and time.monotonic() - t0 < BOUND
    err = capsys.readouterr().err
    assert f"(pid {frozen[0]})" in err and "stopped" in err and "made the schema's indexes there" in err
    assert err.count("\n") == 1 and "making the schema's indexes" in err
    assert server.server_pid() not in (None, frozen[0]) and server.alive()
