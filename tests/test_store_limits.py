"""The local store is its owner's alone, and its server bounds what a query may take (graphsr/store/limits.py):
real servers, real processes, another user where the suite runs as root."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import error_lines

from graphsr.data import sample
from graphsr.errors import GraphsrInputError
from graphsr.store.limits import ServerLimits, parse_size, physical_memory
from graphsr.store.local import LocalServer

PLAYS = sample("shakespeare")["collection"]
#: A range graphsr cannot read as a constant (rand()): sent, and stopped at the server's address-space limit.
RUNAWAY = "UNWIND range(1, toInteger(1000000000 + rand() * 0)) AS x RETURN count(x)"
COUNT = "MATCH (e:Element) RETURN count(e) AS n"


def graphsr(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "graphsr", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


def modes(directory: Path) -> dict[str, int]:
    """The mode of the directory and of everything in it, the append-only log's directory and files included."""
    return {
        str(p.relative_to(directory.parent)) if p == directory else str(p.relative_to(directory)): stat.S_IMODE(
            p.lstat().st_mode
        )
        for p in [directory, *directory.rglob("*")]
    }


def base_file(path: Path) -> Path:
    """The store's saved data: its append-only log's base."""
    [base] = (path / "graphsr.aof").glob("graphsr.aof.*.base.rdb")
    return base


@pytest.fixture
def plays_store(tmp_path):
    """A store holding the Shakespeare plays, made in a directory whose parent others may read (0755)."""
    parent = tmp_path / "parent"
    parent.mkdir()
    parent.chmod(0o755)
    url = f"local:{parent / 'store'}"
    done = graphsr("store", "load", str(PLAYS), "--name", "plays", "--elements", "all", "--store", url)
    assert done.returncode == 0, done.stderr
    yield parent / "store", url
    graphsr("store", "stop", "--store", url)


def test_a_store_is_private_to_its_owner(plays_store):
    path, _ = plays_store
    found = modes(path)
    assert found.pop("store") == 0o700 and found.pop("graphsr.aof") == 0o700
    base = str(base_file(path).relative_to(path))
    assert {base, "graphsr.aof/graphsr.aof.manifest", "graphsr.log", "graphsr.lock"} <= set(found)
    assert all(mode == 0o600 for mode in found.values()), found


@pytest.mark.skipif(os.geteuid() != 0, reason="switching to another user needs root")
def test_another_user_cannot_read_the_store(plays_store):
    path, _ = plays_store
    base = base_file(path)
    assert b"plays" in base.read_bytes()  # the owner can; the collection's name is in it

    def as_nobody():
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)

    for cmd in (["cat", str(base)], ["ls", str(path)], ["cat", str(path / "graphsr.log")]):
        done = subprocess.run(cmd, capture_output=True, preexec_fn=as_nobody)
        assert done.returncode != 0 and b"Permission denied" in done.stderr and b"plays" not in done.stdout, cmd


def test_a_store_open_to_others_is_tightened_and_says_so(plays_store):
    path, url = plays_store
    assert graphsr("store", "stop", "--store", url).returncode == 0
    path.chmod(0o755)
    (path / "graphsr.aof").chmod(0o755)
    base_file(path).chmod(0o644)
    done = graphsr("store", "query", COUNT, "--store", url, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "was readable by other users" in done.stderr and "made private" in done.stderr
    assert set(modes(path).values()) <= {0o700, 0o600}
    assert '"n": 10330' in done.stdout


def test_a_runaway_query_ends_in_seconds_and_the_server_answers_after(plays_store):
    """FalkorDB 4.16.3 fills range()'s list in one block before checking the query's memory: the server's
    address-space limit stops it; graphsr starts it again from its snapshot."""
    path, url = plays_store
    assert graphsr("store", "start", "--store", url).returncode == 0  # a kept server, as a shared one would be
    server = LocalServer(path)
    pid = server.server_pid()
    limits = server.running_limits()
    assert limits == ServerLimits.resolve()
    # the kernel holds the server to its declared memory
    with open(f"/proc/{pid}/limits") as fh:
        line = next(text for text in fh if text.startswith("Max address space"))
    assert line.split()[3] == str(limits.memory)
    t0 = time.monotonic()
    done = graphsr("store", "query", "--timeout", "20", RUNAWAY, "--store", url)
    assert time.monotonic() - t0 < 30
    assert done.returncode == 3 and done.stdout == ""
    assert len(error_lines(done.stderr)) == 1 and "more memory than the store may take" in done.stderr
    assert "Traceback" not in done.stderr
    # the server answers, with the store as it was; it runs under the same limits
    after = graphsr("store", "query", COUNT, "--store", url, "--format", "json")
    assert after.returncode == 0 and '"n": 10330' in after.stdout, after.stderr
    assert server.alive() and server.running_limits() == limits


def test_the_servers_query_memory_ends_a_query_and_it_stays_up(plays_store):
    path, url = plays_store
    env = {"GRAPHSR_STORE_QUERY_MEMORY": "64M"}
    assert graphsr("store", "start", "--store", url, env=env).returncode == 0
    server = LocalServer(path)
    pid = server.server_pid()
    assert server.running_limits().query_memory == 64 << 20
    done = graphsr("store", "query", "UNWIND range(1, 3000000) AS x RETURN collect(x)[0] AS first", "--store", url)
    assert done.returncode == 3 and "needed more memory than a query may take" in done.stderr, done.stderr
    assert "64.0 MB" in done.stderr and len(error_lines(done.stderr)) == 1
    assert server.server_pid() == pid and server.alive()  # the same server, still answering
    assert '"n": 10330' in graphsr("store", "query", COUNT, "--store", url, "--format", "json").stdout


@pytest.mark.parametrize(
    "query, words",
    [
        ("RETURN size(reduce(s = 'x', i IN range(1, 40) | s + s)) AS n", "reads its accumulator s 2 times a step"),
        ("UNWIND range(1, 200000000) AS i RETURN count(i) AS n", "makes 200,000,000 values (about 3.0 GB)"),
        ("RETURN size(range(1, toInteger('2e9'))) AS n", "makes 2,000,000,000 values"),
        ("RETURN size(range(0, 10 ^ 9, 2)) AS n", "makes 500,000,001 values"),
    ],
)
def test_what_the_server_cannot_bound_is_refused_before_it_is_sent(plays_store, query, words):
    """FalkorDB 4.16.3 does not check the memory of one function's evaluation (a range's list, a string doubled in
    a reduce): such a query took a server to 5 GB and Redis aborted it, dropping every client.  On a server whose
    query memory is small, each is refused before it is sent, and the server, untouched, answers the next."""
    path, url = plays_store
    assert graphsr("store", "start", "--store", url, "--query-memory", "64M").returncode == 0
    server = LocalServer(path)
    pid = server.server_pid()
    t0 = time.monotonic()
    done = graphsr("store", "query", "--timeout", "2", query, "--store", url)
    assert time.monotonic() - t0 < 30
    assert done.returncode == 2 and len(error_lines(done.stderr)) == 1 and words in done.stderr, done.stderr
    assert "graphsr does not send it" in done.stderr
    assert (
        server.server_pid() == pid
        and '"n": 10330' in graphsr("store", "query", COUNT, "--store", url, "--format", "json").stdout
    )
    assert not server.log.ran_out_of_memory(0)


def test_a_range_within_the_bound_is_ended_by_the_server_itself_and_it_stays_up(plays_store):
    path, url = plays_store
    assert graphsr("store", "start", "--store", url, "--query-memory", "64M").returncode == 0
    server = LocalServer(path)
    pid = server.server_pid()
    # 3 million values: within the bound graphsr reads (64 MB at 16 bytes), past what the server's own check allows
    done = graphsr("store", "query", "UNWIND range(1, 3000000) AS i RETURN count(i) AS n", "--store", url)
    assert done.returncode == 3 and "needed more memory than a query may take" in done.stderr, done.stderr
    assert server.server_pid() == pid and server.alive()


def test_a_server_stopped_mid_query_is_said_to_be_so(plays_store):
    """A query whose server is frozen while it runs is not reported as ended at a limit: the line says the server
    was stopped, and the server is started again."""
    import signal

    path, url = plays_store
    assert graphsr("store", "start", "--store", url).returncode == 0
    server = LocalServer(path)
    pid = server.server_pid()
    query = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "query",
            "--timeout",
            "60",
            "UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b UNWIND range(1, 300) AS c RETURN count(*) AS n",
            "--store",
            url,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.0)
    os.kill(pid, signal.SIGSTOP)
    code = query.wait(timeout=60)
    err = query.communicate()[1]
    assert code == 3 and f"the local server (pid {pid}) was stopped (process state T)" in err, err
    assert "running a user's query" in err and "memory limit" not in err
    assert server.server_pid() not in (None, pid) and server.alive()


def test_the_servers_query_time_bounds_a_query_asking_for_more(plays_store):
    path, url = plays_store
    assert graphsr("store", "start", "--store", url, "--query-time", "1").returncode == 0
    t0 = time.monotonic()
    done = graphsr(
        "store",
        "query",
        "--timeout",
        "600",
        "UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b UNWIND range(1, 100) AS c RETURN count(*) AS n",
        "--store",
        url,
    )
    assert time.monotonic() - t0 < 60
    assert done.returncode == 3 and "stopped after" in done.stderr or "time limit" in done.stderr, done.stderr
    assert LocalServer(path).alive()


def test_the_servers_data_memory_refuses_writes_and_keeps_the_store(tmp_path):
    url = f"local:{tmp_path / 'store'}"
    done = graphsr(
        "store", "load", str(PLAYS), "--name", "plays", "--store", url, env={"GRAPHSR_STORE_DATA_MEMORY": "16M"}
    )
    try:
        assert done.returncode == 3, done.stderr
        assert "holds as much data as it may" in done.stderr and len(error_lines(done.stderr)) == 1
        listed = graphsr("store", "query", "MATCH (n) RETURN count(n) AS n", "--store", url, "--format", "json")
        assert listed.returncode == 0 and '"n": 0' in listed.stdout, listed.stderr
        # under the default limits the same load goes through
        assert graphsr("store", "load", str(PLAYS), "--name", "plays", "--store", url).returncode == 0
    finally:
        graphsr("store", "stop", "--store", url)


@pytest.mark.parametrize(
    "args, env, words",
    [
        (["--memory", "2x"], {}, "expected a size such as 8G"),
        (["--memory", "100M"], {}, "at least 1024 MB"),
        (["--memory", "150%"], {}, "percentage in (0, 100]"),
        (["--query-memory", "8G", "--memory", "4G"], {}, "less than the store's memory"),
        (["--query-time", "nan"], {}, "seconds in (0, 86400]"),
        (["--query-time", "-1"], {}, "seconds in (0, 86400]"),
        ([], {"GRAPHSR_STORE_MEMORY": "lots"}, "GRAPHSR_STORE_MEMORY"),
        ([], {"GRAPHSR_STORE_QUERY_TIME": "inf"}, "GRAPHSR_STORE_QUERY_TIME"),
    ],
)
def test_limits_out_of_range_are_one_line(tmp_path, args, env, words):
    done = graphsr("store", "start", "--store", f"local:{tmp_path / 's'}", *args, env=env)
    assert done.returncode == 2 and words in done.stderr and len(error_lines(done.stderr)) == 1
    assert not (tmp_path / "s" / "graphsr.pid").exists()


def test_limit_defaults_are_shares_of_physical_memory():
    limits = ServerLimits.resolve(environ={})
    assert limits.memory == physical_memory() // 2
    assert (limits.data_memory, limits.query_memory) == (limits.memory // 2, limits.memory // 4)
    assert limits.query_time == 3600
    assert parse_size("50%", "m") == physical_memory() // 2
    with pytest.raises(GraphsrInputError, match="GRAPHSR_STORE_QUERY_MEMORY"):
        ServerLimits.resolve(environ={"GRAPHSR_STORE_QUERY_MEMORY": "1T", "GRAPHSR_STORE_MEMORY": "2G"})
