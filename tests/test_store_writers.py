"""One writer at a time on a local store: two loads at once, or a drop during a load, leave exactly the counts of
one clean load or of a clean drop (real processes, a real server)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import error_lines

from graphsr.data import sample
from graphsr.errors import StoreError
from graphsr.store import open_store, stop_store


def _graphsr(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "graphsr", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _counts(url: str) -> dict:
    with open_store(url, create=False) as s:
        return {k: v for k, v in s.counts().items() if v}


@pytest.fixture
def store_url(tmp_path):
    url = f"local:{tmp_path / 'store'}"
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "store", "start", "--store", url], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    yield url
    stop_store(url, wait=30)


@pytest.fixture(scope="module")
def clean_load_counts(tmp_path_factory):
    url = f"local:{tmp_path_factory.mktemp('clean') / 'store'}"
    coll = str(sample("shakespeare")["collection"])
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "store", "load", coll, "--elements", "all", "--name", "sh", "--store", url],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return _counts(url)


@pytest.mark.slow
def test_two_loads_at_once_store_everything_once(store_url, clean_load_counts):
    coll = str(sample("shakespeare")["collection"])
    for _ in range(3):
        procs = [
            _graphsr("store", "load", coll, "--elements", "all", "--name", "sh", "--store", store_url) for _ in range(2)
        ]
        results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
        assert [code for code, _, _ in results] == [0, 0], results
        assert _counts(store_url) == clean_load_counts


@pytest.mark.slow
def test_a_drop_during_a_load_leaves_a_clean_state(store_url, clean_load_counts):
    coll = str(sample("shakespeare")["collection"])
    for _ in range(3):
        load = _graphsr("store", "load", coll, "--elements", "all", "--name", "sh", "--store", store_url)
        drop = _graphsr("store", "drop", "sh", "--store", store_url)
        codes = [load.wait(timeout=300), drop.wait(timeout=300)]
        outs = [load.communicate(), drop.communicate()]
        assert codes[0] == 0, outs[0]
        got = _counts(store_url)
        # dropped after the load (the Store node, the store's own, stays), or the load after the drop
        assert got in ({}, {"Store": 1}, clean_load_counts), (got, outs)
        if got.get("Collection"):  # leave the store without the collection for the next round
            assert (
                subprocess.run(
                    [sys.executable, "-m", "graphsr", "store", "drop", "sh", "--store", store_url], capture_output=True
                ).returncode
                == 0
            )


def _routes_load_writing_steps(store_url: str, tmp_path, study: str, seed: int):
    """The Shakespeare sample loaded, and a load of 30,000 simulated routes as ``study`` that has begun to write
    steps (still running): its process and the log."""
    import time

    coll = str(sample("shakespeare")["collection"])
    assert (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "store",
                "load",
                coll,
                "--elements",
                "all",
                "--name",
                "sh",
                "--store",
                store_url,
            ],
            capture_output=True,
        ).returncode
        == 0
    )
    log = tmp_path / "log.csv"
    assert (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "simulate-routes",
                coll,
                "-o",
                str(log),
                "--routes",
                "30000",
                "--seed",
                str(seed),
            ],
            capture_output=True,
        ).returncode
        == 0
    )
    routes = _graphsr("store", "routes", str(log), "--collection", "sh", "--study", study, "--store", store_url)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _counts(store_url).get("Step", 0) == 0:
        time.sleep(0.05)
    assert routes.poll() is None, "the load finished before it could be interrupted"
    return routes, log


@pytest.mark.slow
def test_a_killed_routes_load_leaves_an_incomplete_study_that_models_refuse(store_url, tmp_path):
    import signal

    routes, log = _routes_load_writing_steps(store_url, tmp_path, "s1", 2)
    routes.send_signal(signal.SIGKILL)
    routes.wait()
    steps = _counts(store_url).get("Step", 0)
    assert steps > 0
    model = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "model",
            "--collection",
            "sh",
            "--from-routes",
            "s1",
            "--store",
            store_url,
        ],
        capture_output=True,
        text=True,
    )
    assert model.returncode == 2 and "study 's1' of collection 'sh' is INCOMPLETE" in model.stderr, model.stderr
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "routes",
            str(log),
            "--collection",
            "sh",
            "--study",
            "s1",
            "--store",
            store_url,
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    model = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "model",
            "--collection",
            "sh",
            "--from-routes",
            "s1",
            "--store",
            store_url,
        ],
        capture_output=True,
        text=True,
    )
    assert model.returncode == 0, model.stderr


@pytest.mark.slow
def test_a_partition_whose_memberships_were_not_stored_is_refused(store_url):
    coll = str(sample("shakespeare")["collection"])
    for kind, elements in (("p*", "none"), ("p*|c", "all")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "store",
                "load",
                coll,
                "--kind",
                kind,
                "--elements",
                elements,
                "--name",
                "sh",
                "--store",
                store_url,
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "partition", "sh", "S1", "--store", store_url, "--kind", "p*"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.strip().splitlines() == [
        "graphsr: error: collection 'sh': the elements of 10 document(s) are "
        "stored without their p* memberships (they were loaded with other "
        "summary kinds): load it again with --kind 'p*' and the same "
        "--elements"
    ]


@pytest.mark.slow
def test_a_runaway_query_stops_on_the_server(store_url):
    import time

    coll = str(sample("shakespeare")["collection"])
    assert (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "store",
                "load",
                coll,
                "--elements",
                "all",
                "--name",
                "sh",
                "--store",
                store_url,
            ],
            capture_output=True,
        ).returncode
        == 0
    )
    start = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "query",
            "MATCH (a:Element), (b:Element) RETURN count(*) AS n",
            "--timeout",
            "0.5",
            "--store",
            store_url,
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 3 and "stopped after 0.5 s" in done.stderr and done.stdout == ""
    # the server is free again: the next query answers at once
    quick = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphsr",
            "store",
            "query",
            "MATCH (c:Collection) RETURN c.name AS n",
            "--store",
            store_url,
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "sh" in done.stdout
    assert time.monotonic() - quick < time.monotonic() - start + 5


def test_the_server_lifecycle_touches_only_our_server(tmp_path):
    """A pid file naming another process is never signalled; a server that does not answer a ping at once is
    not replaced by a second one; a closed store leaves no handler at exit."""
    import os
    import time

    from graphsr.store.local import LocalServer

    url = f"local:{tmp_path / 's'}"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        server = LocalServer(tmp_path / "s")
        server.path.mkdir(parents=True)
        server.pidfile.write_text(str(other.pid))
        assert server.server_pid() is None
        server.kill()  # a stale pid file naming another process: nothing is signalled
        time.sleep(0.1)
        assert other.poll() is None
    finally:
        other.kill()
    import graphsr.store.local as local

    handlers = []

    class Recorder:  # atexit as the store module sees it: which handlers are left registered
        register = staticmethod(handlers.append)
        unregister = staticmethod(lambda f: handlers.remove(f) if f in handlers else None)

    real, local.atexit = local.atexit, Recorder
    try:
        for _ in range(3):
            with open_store(url) as s:
                s.counts()
    finally:
        local.atexit = real
    assert handlers == []
    with open_store(url, keep_running=True) as s:
        running = s.server.server_pid()
        assert running is not None and s.server.server_pid() == int(s.server.pidfile.read_text())
        s.server.state = lambda: "down"  # a ping that fails: the running server is ours, busy, not replaced
        with pytest.raises(StoreError, match=rf"the local server \(pid {running}\) runs but does not answer"):
            s.server.start(timeout=0.5)
        assert s.server.socket.exists() and os.path.exists(f"/proc/{running}")
    stop_store(url, wait=10)


@pytest.mark.slow
def test_the_server_killed_during_a_write_says_so(store_url, tmp_path):
    import os
    import signal

    from graphsr.store.local import LocalServer

    routes, _ = _routes_load_writing_steps(store_url, tmp_path, "s2", 3)
    server = LocalServer(store_url[len("local:") :])
    os.kill(server.server_pid(), signal.SIGKILL)
    code = routes.wait(timeout=120)
    err = routes.communicate()[1]
    assert code == 3, err
    assert "the local server stopped while this command ran" in err and "run the command again" in err
    assert "Traceback" not in err and "documents_state" not in err and len(error_lines(err)) == 1


@pytest.mark.slow
def test_an_incomplete_collection_is_refused_by_models_partitions_and_evaluations(store_url):
    coll = str(sample("shakespeare")["collection"])
    s = sample("shakespeare")
    assert (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "store",
                "load",
                coll,
                "--elements",
                "all",
                "--name",
                "sh",
                "--store",
                store_url,
            ],
            capture_output=True,
        ).returncode
        == 0
    )
    assert (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "graphsr",
                "store",
                "model",
                "--collection",
                "sh",
                "--model",
                "p*:extent",
                "--name",
                "m",
                "--store",
                store_url,
            ],
            capture_output=True,
        ).returncode
        == 0
    )
    with open_store(store_url, create=False) as st:  # as a load or a drop killed midway leaves it
        st.run("mark_collection_dropping", id="C/sh")
    for argv in (
        ["store", "model", "--collection", "sh", "--model", "p*:extent", "--store", store_url],
        ["partitions", "sh", "--store", store_url],
        ["eval", str(s["qrels"]), str(s["runs"][0]), "--store", store_url, "--model", "m"],
    ):
        done = subprocess.run([sys.executable, "-m", "graphsr", *argv], capture_output=True, text=True)
        assert done.returncode == 2 and done.stdout == "", (argv, done.stdout)
        assert done.stderr.strip().splitlines() == [
            "graphsr: error: collection 'sh' is INCOMPLETE (a load or a drop of it did not finish): load it again "
            "with 'graphsr store load', or drop it"
        ], argv
