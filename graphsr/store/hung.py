"""A local server that does not answer: judged from its process (stopped, or using no CPU time while it should work)
and killed, at a command's start, at a stop and after a call the watch ended (:mod:`graphsr.store.watch`); what
it had answered is in its append-only log, which its next start replays."""

from __future__ import annotations

import time

from .base import StoreError
from .processes import pid_alive as _pid_alive
from .processes import status as _status
from .watch import STOPPED_AFTER, kill, process_state

__all__ = [
    "answers",
    "kill_hung",
    "stopped_otherwise",
    "restart_after_kill",
    "wait_gone",
    "RESTART_LOADING_WAIT",
    "KILL_WAIT",
]

#: Seconds a command that killed a hung server waits for the new one to load its log before it ends (the server
#: loads on, and answers the next command once done).
RESTART_LOADING_WAIT = 20.0

#: Seconds a killed server is waited for to exit (a process frozen by its cgroup cannot, until it is thawed).
KILL_WAIT = 10.0


def answers(server, pid: int, timeout: float) -> str | None:
    """Wait up to ``timeout`` s for ``server``'s running process ``pid`` to answer: None once it does (or is
    gone); ``busy`` if it works (its CPU time grows, or its log says it loads) but does not answer in time; else what shows it
    hung: stopped (state T) for :data:`~graphsr.store.watch.STOPPED_AFTER` s, or no CPU time for
    :attr:`~graphsr.store.server.LocalServer.HUNG_START` s."""
    t0 = time.monotonic()
    cpu, grew, stopped, told = -1, t0, None, 0.0
    while True:
        state = process_state(pid)  # (before the ping: a stopped process is seen at once, not after a ping's wait)
        answer = server.state()
        if answer == "up" or not _pid_alive(pid):
            return None
        now = time.monotonic()
        if state is not None:
            letter, ticks = state
            if ticks != cpu:
                cpu, grew = ticks, now
            stopped = (stopped or now) if letter in "Tt" else None
            if stopped is not None and now - stopped >= STOPPED_AFTER:
                return "does not answer: it is stopped (process state T)"
            if now - grew >= server.HUNG_START:  # (loading or not: a server that works uses CPU time)
                return f"does not answer and used no CPU time for {now - grew:.0f} s (state {letter})"
        if answer == "loading" or server.log.says_loading(pid, 0):  # waited for as long as it loads
            if now - told >= server.LOADING_REPORT:
                progress = server.loading_progress() or "its log says it is still at it"
                _status(f"graphsr: the local store is loading its saved data: {progress}")
                told = now
        elif now - t0 >= timeout:
            return "busy"
        time.sleep(0.1)


def kill_hung(server, pid: int) -> None:
    """Kill a hung server and wait for it to go (its pid file and socket are a dead server's then)."""
    kill(pid)
    wait_gone(server, pid)
    server.pidfile.unlink(missing_ok=True)


def wait_gone(server, pid: int, seconds: float | None = None) -> None:
    """Wait for killed process ``pid`` to go (reaping it where it is ``server``'s own child), ``seconds`` at most
    (:data:`KILL_WAIT` unless given).

    Raises
    ------
    StoreError
        If it is still there after ``seconds`` (frozen by its cgroup: SIGKILL waits for it to be thawed).
    """
    seconds = KILL_WAIT if seconds is None else seconds
    deadline = time.monotonic() + seconds
    while _pid_alive(pid) and time.monotonic() < deadline:
        if server.process is not None and server.process.pid == pid:
            server.process.poll()
        time.sleep(0.05)
    if _pid_alive(pid):
        raise StoreError(
            f"local store {server.path}: the killed server (pid {pid}) did not exit within {seconds:g} s of SIGKILL "
            "(frozen by its cgroup?)"
        )


def stopped_otherwise(server, timeout: float) -> None:
    """At a stop that finds no server answering: a server that runs but is hung is killed, and one that ended
    without a stop (its pid file left behind) is said so -- never a silent 'not running'.

    Raises
    ------
    StoreError
        For a hung server (killed: what it answered is in its log).
    """
    running = server.server_pid()
    if running is not None:
        seen = answers(server, running, min(timeout, 30.0))
        if seen is None:
            return
        if seen == "busy":
            raise StoreError(
                f"local store {server.path}: the local server (pid {running}) is busy and does not answer; not "
                "stopped (wait for it, or give --wait SECONDS)"
            )
        kill_hung(server, running)
        raise StoreError(
            f"local store {server.path}: the local server (pid {running}) {seen}; graphsr killed it: every write "
            "it had answered is in its log, and its next start replays it"
        )
    pid = server.pid()
    if pid is not None and not _pid_alive(pid):  # (a clean exit removes the pid file)
        server.pidfile.unlink(missing_ok=True)
        _status(
            f"graphsr: local store {server.path}: the server (pid {pid}) had ended without a stop (its log ends: "
            f"{server.log.tail(2)}); every write it answered is in its log, and its next start replays it"
        )


def restart_after_kill(server, pid: int, timeout: float = 30.0) -> None:
    """Start the server again after graphsr killed it as hung (:mod:`graphsr.store.watch`): once the killed
    process ``pid`` is gone, as :meth:`restart` does.

    Raises
    ------
    StoreError
        If the process does not exit within a few seconds of SIGKILL (frozen by its cgroup: the signal waits
        for it to be thawed), or the new server does not start.
    """
    wait_gone(server, pid)
    server.restart(timeout, loading_wait=RESTART_LOADING_WAIT)
