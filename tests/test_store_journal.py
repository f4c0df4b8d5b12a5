"""The local store's append-only log: nothing a command reported is lost, whatever kills the server and when.

Every write is synced to the log before the server answers it (seen in the server's own system calls); a server
killed with SIGKILL right after an answer, in the middle of a command or while it rewrites its log starts again
with every answered write; a command cut short leaves its work INCOMPLETE and runs again whole; a store saved by an
earlier graphsr as a snapshot moves to the log once.  Real servers, real commands, real signals.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from graphsr.data import sample
from graphsr.store import open_store
from graphsr.store.journal import Journal, _commands
from graphsr.store.server import GRAPH, LocalServer

from .conftest import error_lines
from .test_store_durability import graphsr

MOBY = str(sample("mobydick")["collection"])
PLAYS = str(sample("shakespeare")["collection"])


def kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:  # (a server this process started: reaped)
                return
        except ChildProcessError:
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    raise AssertionError(f"server {pid} outlived SIGKILL")


def _plays_kept(tmp_path, routes: int, seed: int):
    """A store kept started (``graphsr store start``) holding the plays, and a log of ``routes`` simulated routes
    over them: (path, url, log, its steps, the server)."""
    path = tmp_path / "s"
    url = f"local:{path}"
    log = tmp_path / "routes.csv"
    graphsr("simulate-routes", PLAYS, "-o", str(log), "--routes", str(routes), "--seed", str(seed))
    steps = sum(1 for _ in log.open()) - 1
    graphsr("store", "start", "--store", url)
    try:
        graphsr("store", "load", PLAYS, "--name", "plays", "--elements", "all", "--store", url)
    except BaseException:
        LocalServer(path).stop()
        raise
    return path, url, log, steps, LocalServer(path)


def _steps_logged(journal: Journal, before: int) -> bool:
    """Whether the log holds, past its first ``before`` incremental bytes, one whole command that wrote steps.
    (A size alone is not enough: a statement of 5,000 steps is larger than any fixed threshold, and the server
    may be killed while its bytes reach the file; a torn last command is dropped at the next start.)"""
    data = b"".join(p.read_bytes() for p, kind in journal.files() if kind == "i" and p.exists())[before:]
    return any(c is not None and len(c) > 2 and b"HAS_STEP" in c[2] for c in _commands(data))


def _count(store, label: str) -> int:
    return int(store.read_query(f"MATCH (n:{label}) RETURN count(n) AS n")[0]["n"])


def test_a_server_killed_right_after_each_answer_keeps_every_answered_write(tmp_path):
    """Each round writes one node, and SIGKILL follows the answer at once: the next start replays the log and
    finds every node answered, none twice."""
    path = tmp_path / "s"
    for i in range(12):
        s = open_store(f"local:{path}")
        assert _count(s, "Probe") == i
        s._execute("CREATE (:Probe {i: $i})", {"i": i})
        kill(s.server.server_pid())  # right after the answer, before anything else reaches the server
        s.close()  # (nothing left to stop)
        assert Journal(path).incremental_size() > 0  # the write is in the log's commands, not in a base
    with open_store(f"local:{path}") as s:
        assert sorted(r["i"] for r in s.read_query("MATCH (p:Probe) RETURN p.i AS i")) == list(range(12))
    LocalServer(path).stop()


@pytest.mark.slow
def test_a_kept_server_killed_after_each_write_command_keeps_what_each_reported(tmp_path):
    """Load, model, study, drop: each command's report is followed by SIGKILL; what it reported is there."""
    path, url, log, steps, server = _plays_kept(tmp_path, 300, 2)
    try:
        kill(server.server_pid())
        out = graphsr("store", "routes", str(log), "--collection", "plays", "--study", "s1", "--store", url).stdout
        assert f"{steps} steps" in out
        assert Journal(path).incremental_size() > 0
        kill(server.server_pid())
        graphsr("store", "model", "--collection", "plays", "--from-routes", "s1", "--store", url)
        kill(server.server_pid())
        with open_store(url) as s:
            assert _count(s, "Step") == steps
            [state] = s.read_query("MATCH (st:Study) RETURN st.complete AS complete")
            assert state["complete"] is True
        assert "s1" in graphsr("model", "list", "--store", url).stdout
        graphsr("store", "drop", "plays", "--study", "s1", "--store", url)
        kill(server.server_pid())
        with open_store(url) as s:
            assert _count(s, "Step") == 0 and _count(s, "Route") == 0
            assert _count(s, "Element") > 0
    finally:
        LocalServer(path).stop()


@pytest.mark.slow
def test_a_study_cut_short_by_a_kill_is_incomplete_and_loads_again_whole(tmp_path):
    path, url, log, steps, server = _plays_kept(tmp_path, 20000, 3)
    try:
        journal = Journal(path)
        before = journal.incremental_size()
        cmd = [sys.executable, "-m", "graphsr", "store", "routes", str(log), "--collection", "plays", "--study", "s"]
        proc = subprocess.Popen([*cmd, "--store", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not _steps_logged(journal, before) and proc.poll() is None:  # routes being written
            assert time.monotonic() < deadline
            time.sleep(0.005)
        kill(server.server_pid())
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 3 and out == "", (out, err)
        assert len(error_lines(err)) == 1 and "stopped while this command ran" in err
        with open_store(url) as s:
            states = s.read_query("MATCH (st:Study) RETURN st.complete AS complete")
            assert states in ([], [{"complete": False}])  # begun, never finished
            assert 0 < _count(s, "Step") < steps or not states
        out = graphsr("store", "routes", str(log), "--collection", "plays", "--study", "s", "--store", url).stdout
        assert f"{steps} steps" in out
        with open_store(url) as s:
            assert _count(s, "Step") == steps
            assert s.read_query("MATCH (st:Study) RETURN st.complete AS complete") == [{"complete": True}]
    finally:
        LocalServer(path).stop()


def test_a_server_killed_while_it_rewrites_its_log_keeps_everything(tmp_path):
    path = tmp_path / "s"
    url = f"local:{path}"
    graphsr("store", "start", "--store", url)
    try:
        graphsr("store", "load", PLAYS, "--name", "plays", "--elements", "all", "--store", url)
        s = open_store(url)
        elements = _count(s, "Element")
        client = s.server._one_try_client(10)
        client.execute_command("BGREWRITEAOF")
        kill(s.server.server_pid())  # the rewrite under way: its new base never becomes the log's
        client.close()
        s.close()
        graphsr("store", "start", "--store", url)
        with open_store(url) as s:
            assert _count(s, "Element") == elements
            assert "complete" in graphsr("store", "show", "--store", url).stdout
    finally:
        LocalServer(path).stop()
    assert Journal(path).incremental_size() == 0  # the stop folded the commands into a new base


def test_a_store_saved_as_a_snapshot_moves_to_the_log_once(tmp_path):
    """A store an earlier graphsr saved as a snapshot (graphsr.rdb) starts from it, then keeps its data in the log:
    the same answers, the snapshot removed, the next start from the log."""
    path = tmp_path / "s"
    url = f"local:{path}"
    graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
    shown = graphsr("store", "show", "--store", url).stdout
    [base] = (path / "graphsr.aof").glob("*.base.rdb")
    shutil.copyfile(base, path / "graphsr.rdb")  # (the log's base is a snapshot in the same format)
    shutil.rmtree(path / "graphsr.aof")
    done = graphsr("store", "show", "--store", url)
    assert done.stdout == shown
    assert "append-only log from now on" in done.stderr
    assert not (path / "graphsr.rdb").exists() and Journal(path).exists()
    done = graphsr("store", "show", "--store", url)
    assert done.stdout == shown and "append-only log" not in done.stderr


def test_a_read_rewrites_nothing_and_a_write_leaves_no_commands_to_replay(tmp_path):
    path = tmp_path / "s"
    url = f"local:{path}"
    graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
    journal = Journal(path)
    assert journal.incremental_size() == 0
    files = sorted(p.name for p, _ in journal.files())
    env = {**os.environ, "GRAPHSR_STORE": url}
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "partition", "moby", "S1", "--store", "--kind", "p*", "--format", "csv"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    graphsr("store", "show", "--store", url)
    assert sorted(p.name for p, _ in journal.files()) == files  # nothing to fold: the same base
    graphsr("model", "build", "--collection", "moby", "--model", "p*:extent", "--store", url)
    assert sorted(p.name for p, _ in journal.files()) != files and journal.incremental_size() == 0


def test_the_log_is_rewritten_once_its_commands_outgrow_their_bound(tmp_path, monkeypatch):
    """Commands past the bound are folded into a new base by the server in the background: the write command
    does not wait for it, and nothing is lost meanwhile."""
    monkeypatch.setattr(Journal, "REWRITE_AT", 10_000)
    path = tmp_path / "s"
    with open_store(f"local:{path}", keep_running=True) as s:
        s._execute("UNWIND range(1, 50) AS i CREATE (:Small {i: i})", {})
        s.persist()
        assert 0 < Journal(path).incremental_size() < 10_000  # under the bound: kept as commands
        s._execute("UNWIND $rows AS r CREATE (:Big {s: r})", {"rows": [f"x{i:05d}" for i in range(2000)]})
        grown = Journal(path).incremental_size()
        assert grown > 10_000
        s.persist()  # past it: folded into a new base, in the background
        assert s.server.journal.wait_rewrite(s._db.connection)
        assert Journal(path).incremental_size() < 10_000
        assert _count(s, "Big") == 2000
    LocalServer(path).stop()


def test_what_the_log_holds_is_read_as_the_server_wrote_it(tmp_path):
    """holds_only_indexes reads the commands since the last rewrite: indexes made and dropped are all a read
    leaves; an index dropped that was not made since (the base holds it) or any other command is more."""
    from graphsr.store import deferred

    indexes = [(i.create, i.drop) for i in deferred.deferred_indexes()]
    path = tmp_path / "s"
    with open_store(f"local:{path}") as s:
        s._execute("CREATE (:First)", {})
    journal = Journal(path)
    assert journal.incremental_size() == 0  # (the stop folded the write into a new base)
    with open_store(f"local:{path}", keep_running=True) as s:
        assert journal.holds_only_indexes(GRAPH, indexes)
        index = deferred.deferred_indexes()[0]
        s._graph.query(index.create)
        s._graph.query(index.drop)
        assert journal.holds_only_indexes(GRAPH, indexes)
        assert not journal.holds_only_indexes(GRAPH, [])
        s._graph.query(index.create)
        client = s.server._one_try_client(10)
        s.server.journal.rewrite(client)  # the base holds the index now
        client.close()
        assert journal.holds_only_indexes(GRAPH, indexes)
        s._graph.query(index.drop)
        assert not journal.holds_only_indexes(GRAPH, indexes)  # dropped, not made since: in the base
        s._execute("CREATE (:Other)", {})
        assert not journal.holds_only_indexes(GRAPH, indexes)
    LocalServer(path).stop()
    assert journal.incremental_size() == 0  # (the stop rewrote the log)
    assert list(_commands(b"*1\r\n$4\r\nPING\r\n")) == [[b"PING"]]
    assert list(_commands(b"*1\r\n$9\r\nPING\r\n")) == [None]  # a length past the bytes
    assert list(_commands(b"#TS:1\r\n")) == [None]


def test_a_stop_after_a_rewrite_that_held_an_index_rewrites_again(tmp_path):
    """A rewrite in the background while a deferred index exists puts it in the base: the stop drops it and
    rewrites, so that the next start has no index to build."""
    from graphsr.store import deferred

    path = tmp_path / "s"
    with open_store(f"local:{path}", keep_running=True) as s:
        s._execute("UNWIND range(1, 100) AS i CREATE (:Element {key: i})", {})
        s._graph.query(deferred.deferred_indexes()[0].create)
        client = s.server._one_try_client(10)
        s.server.journal.rewrite(client)
        client.close()
    LocalServer(path).stop()
    with open_store(f"local:{path}") as s:
        rows = s._graph.query("CALL db.indexes() YIELD label RETURN label").result_set
        assert ["Element"] not in rows
    LocalServer(path).stop()


def _strace_available() -> str | None:
    """Why the server's system calls cannot be traced here, or None."""
    if shutil.which("strace") is None:
        return "strace is not installed (Debian package strace)"
    probe = subprocess.Popen(["sleep", "5"])
    try:
        done = subprocess.run(
            ["strace", "-p", str(probe.pid), "-e", "trace=none"], capture_output=True, text=True, timeout=1
        )
        return f"strace cannot attach here: {done.stderr.strip()}"
    except subprocess.TimeoutExpired:
        return None  # attached, and tracing until stopped
    finally:
        probe.kill()


def test_every_write_is_synced_to_the_log_before_the_server_answers_it(tmp_path):
    """The server's own system calls while a real command writes: after each write to the log's commands file
    comes its fdatasync, and only then the answer on a client's socket."""
    why = _strace_available()
    if why is not None:
        if os.environ.get("GRAPHSR_REQUIRE_STRACE"):
            pytest.fail(why)
        pytest.skip(why)
    path = tmp_path / "s"
    url = f"local:{path}"
    graphsr("store", "start", "--store", url)
    server = LocalServer(path)
    pid = server.server_pid()
    trace = tmp_path / "trace"
    tracer = subprocess.Popen(
        ["strace", "-f", "-y", "-qq", "-e", "trace=write,writev,sendmsg,sendto,fsync,fdatasync", "-o", str(trace)]
        + ["-p", str(pid)],
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(0.5)  # (attached)
        graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
        log = tmp_path / "routes.csv"
        graphsr("simulate-routes", MOBY, "-o", str(log), "--routes", "30", "--seed", "1")
        graphsr("store", "routes", str(log), "--collection", "moby", "--study", "s", "--store", url)
    finally:
        time.sleep(0.2)
        tracer.send_signal(signal.SIGINT)
        tracer.wait(10)
        server.stop()
    logged = synced = answered = 0
    unsynced = False
    for line in trace.read_text().splitlines():
        m = re.match(r"(\d+)\s+(\w+)\((\d+)<([^>]*)>", line)
        if m is None or int(m[1]) != pid:
            continue  # (another of the server's threads, or a call without a file)
        call, target = m[2], m[4]
        if ".incr.aof" in target and call in ("write", "writev"):
            logged += 1
            unsynced = True
        elif ".incr.aof" in target and call in ("fdatasync", "fsync"):
            synced += 1
            unsynced = False
        elif target.startswith("socket:") and call in ("write", "writev", "sendmsg", "sendto"):
            answered += 1
            assert not unsynced, f"an answer went out before the log was synced: {line}"
    assert logged > 10 and synced >= logged and answered > logged
