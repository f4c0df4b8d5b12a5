"""The local store never loses what a command said it wrote: kills, a full disk, a shared server, bad paths.

Real server processes, real commands (subprocesses), real file systems: the full-disk and read-only cases
mount a small tmpfs, which needs root (CI runs as root); elsewhere they are skipped, saying why.
"""

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

MOBY = str(sample("mobydick")["collection"])
PLAYS = str(sample("shakespeare")["collection"])


def graphsr(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "graphsr", *args], capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def kill_server(path: Path) -> None:
    pid = int((path / "graphsr.pid").read_text())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)


def counts(url: str) -> dict[str, int]:
    out = graphsr("store", "show", "--store", url).stdout
    rows = [line.split() for line in out.split("collections:")[0].splitlines()[2:] if line.strip()]
    return {r[0]: int(r[1]) for r in rows}


def stop(url: str) -> None:
    graphsr("store", "stop", "--store", url, check=False)


@pytest.mark.slow
def test_a_kept_running_server_killed_after_each_write_command_keeps_the_data(tmp_path):
    path = tmp_path / "s"
    url = f"local:{path}"
    log = tmp_path / "routes.csv"
    graphsr("simulate-routes", MOBY, "-o", str(log), "--routes", "20", "--seed", "1")
    steps = sum(1 for _ in log.open()) - 1
    graphsr("store", "start", "--store", url)
    try:
        graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
        kill_server(path)
        assert counts(url)["Element"] == 17  # restarted from the snapshot the command wrote
        graphsr("model", "build", "--collection", "moby", "--model", "p*|c:length", "--store", url)
        kill_server(path)
        assert "moby/p*|c:length" in graphsr("model", "list", "--store", url).stdout
        graphsr("routes", "load", str(log), "--collection", "moby", "--study", "s1", "--store", url)
        kill_server(path)
        assert counts(url)["Step"] == steps
    finally:
        stop(url)


@pytest.fixture
def small_fs(tmp_path):
    """A 8 MB tmpfs (root only)."""
    from .conftest import small_tmpfs

    with small_tmpfs(tmp_path / "small", "8m") as mnt:
        yield mnt


def _fill(mnt: Path, leave_kb: int = 40) -> Path:
    st = os.statvfs(mnt)
    free = st.f_bavail * st.f_frsize
    filler = mnt / "filler"
    with open(filler, "wb") as fh:
        fh.write(b"\0" * max(free - leave_kb * 1024, 0))
    return filler


@pytest.mark.slow
def test_a_full_disk_fails_the_write_command_and_keeps_what_was_answered(small_fs):
    """The server stops rather than answer a write it cannot sync to its log: the command fails in one line naming
    the disk; moby, written before, is whole after a restart; what the failed load wrote is marked INCOMPLETE,
    and loading it again once there is room completes it."""
    path = small_fs / "s"
    url = f"local:{path}"
    graphsr("store", "start", "--store", url)
    try:
        graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
        filler = _fill(small_fs)
        done = graphsr("store", "load", PLAYS, "--name", "plays", "--elements", "all", "--store", url, check=False)
        assert done.returncode == 3 and done.stdout == ""
        assert len(error_lines(done.stderr)) == 1
        assert f"local store {path}: could not save the data" in done.stderr
        assert "no space left" in done.stderr.lower()
        done = graphsr("store", "stop", "--store", url, check=False)  # it stopped at the failed write
        assert done.returncode == 0 and done.stdout.startswith("not running")
        filler.unlink()
        shown = graphsr("store", "show", "--store", url).stdout
        moby = next(line for line in shown.splitlines() if line.startswith("moby "))
        plays = next((line for line in shown.splitlines() if line.startswith("plays ")), "")
        assert " complete " in moby and counts(url)["Document"] >= 1
        assert plays == "" or "INCOMPLETE" in plays
        graphsr("store", "load", PLAYS, "--name", "plays", "--elements", "all", "--store", url)
        shown = graphsr("store", "show", "--store", url).stdout
        assert all(" complete " in line for line in shown.splitlines() if line.startswith(("moby ", "plays ")))
        assert counts(url)["Document"] == 1 + len(list(Path(PLAYS).glob("*.xml")))
    finally:
        stop(url)


SHARER = """
import faulthandler, sys, time
faulthandler.dump_traceback_later(50)  # a hang shows where it is (the test waits 60 s)
from graphsr.store import open_store
role, url = sys.argv[1], sys.argv[2]
with open_store(url) as s:
    if role == "starter":
        s.counts()
        time.sleep(0.15)          # exits while the other is querying
    else:
        end = time.monotonic() + 0.6
        while time.monotonic() < end:
            s.counts()
"""


@pytest.mark.slow
def test_a_shared_server_is_stopped_by_its_last_user_only(tmp_path):
    from graphsr.store.local import LocalServer

    path = tmp_path / "shared"
    url = f"local:{path}"
    graphsr("store", "load", MOBY, "--name", "moby", "--store", url)
    server = LocalServer(path)
    for _ in range(12):  # (each round a race of two processes: starter and user)
        starter = subprocess.Popen([sys.executable, "-c", SHARER, "starter", url], stderr=subprocess.PIPE, text=True)
        time.sleep(0.05)
        user = subprocess.Popen([sys.executable, "-c", SHARER, "user", url], stderr=subprocess.PIPE, text=True)
        for name, proc in (("starter", starter), ("user", user)):
            try:
                code = proc.wait(60)
            except subprocess.TimeoutExpired:  # say where it hung: its stack is in its stderr, the server's log
                proc.kill()
                pytest.fail(
                    f"the {name} did not finish in 60 s; stderr: {proc.communicate()[1][-2000:]}; "
                    f"server log: {server.log.tail(10)}"
                )
            assert code == 0, proc.stderr.read()
        assert not server.alive()  # the last one out stopped it


def test_store_stop_refuses_while_a_command_uses_the_server(tmp_path):
    from graphsr.store import open_store

    url = f"local:{tmp_path / 'busy'}"
    graphsr("store", "start", "--store", url)
    with open_store(url) as s:
        done = graphsr("store", "stop", "--store", url, check=False)
        assert done.returncode == 3 and "other graphsr commands are using the server" in done.stderr
        assert s.counts() is not None
    assert graphsr("store", "stop", "--store", url).stdout.startswith("stopped")
    assert graphsr("store", "stop", "--store", url).stdout.startswith("not running")


def test_unusable_store_directories_get_one_line(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for path in (a_file, a_file / "below", Path("/proc/graphsr-store")):
        done = graphsr("store", "init", "--store", f"local:{path}", check=False)  # init makes the store
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"graphsr: error: local store {path}: cannot use this directory")
        assert len(error_lines(done.stderr)) == 1


def test_a_read_only_store_directory_gets_one_line(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    mounted = False
    if os.geteuid() == 0:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", str(ro)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(
                f"root cannot be refused by permissions, and a read-only tmpfs cannot be mounted here: "
                f"{done.stderr.decode().strip()}"
            )
        mounted = True
    else:
        ro.chmod(0o555)
    try:
        done = graphsr("store", "init", "--store", f"local:{ro / 's'}", check=False)
        assert done.returncode == 2 and len(error_lines(done.stderr)) == 1
        assert (
            "cannot use this directory" in done.stderr
            and "Read-only file system" in done.stderr
            or "Permission denied" in done.stderr
        )
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(ro)], capture_output=True)
        else:
            ro.chmod(0o755)


@pytest.mark.slow
def test_a_write_the_full_disk_refuses_is_not_kept(small_fs):
    path = small_fs / "implicit"
    url = f"local:{path}"
    graphsr("store", "load", MOBY, "--name", "moby", "--elements", "all", "--store", url)
    filler = _fill(small_fs, leave_kb=0)
    done = graphsr("model", "build", "--collection", "moby", "--model", "p*:extent", "--store", url, check=False)
    assert done.returncode == 3 and len(error_lines(done.stderr)) == 1
    assert f"local store {path}" in done.stderr and "no space left" in done.stderr.lower()
    filler.unlink()
    assert "(none)" in graphsr("model", "list", "--store", url).stdout  # the failed command's model is gone
    assert counts(url)["Element"] == 17
