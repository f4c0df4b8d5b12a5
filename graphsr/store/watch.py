"""Every wait on the local store's server is bounded: each call graphsr makes to it runs under a watch that ends
the wait once the server is seen not to answer it.

A call declares what it does and how long it may take (:func:`call_bound`: a base and so much per row of a batch;
a user's query its timeout and a few seconds).  While any call is in flight a monitor thread looks at the server's process
every quarter of a second (``/proc/PID/stat``, as the start's wait does) and takes it as hung when

* the call has run past its bound;
* the process is stopped (``T``: SIGSTOP, a debugger) for :data:`STOPPED_AFTER` seconds; or
* its CPU time has not grown for :data:`STALLED_AFTER` seconds (a deadlock: every server thread waiting on a lock,
  as a CI run once saw FalkorDB do; a frozen cgroup).

It then records why (the process, what the call was doing, how long it waited), kills the server (SIGKILL: what it
answered is in its append-only log, synced before each answer) and shuts the calls' sockets, so that every thread
waiting on the server returns at once; the store (:mod:`graphsr.store.local`) reports the hang in one line and starts
the server again once.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = [
    "Hang",
    "ServerWatch",
    "call_bound",
    "process_state",
    "kill",
    "STOPPED_AFTER",
    "STALLED_AFTER",
    "CALL_BASE",
    "CALL_PER_ROW",
]

#: Seconds any call may take, and so much more per row of a batch it sends (the local store writes about 100,000
#: elements a second: a batch of 10,000 rows takes a tenth of a second, its bound 110 s).
CALL_BASE = 60.0
CALL_PER_ROW = 0.005
#: Seconds a stopped server process (state T) is waited for.
STOPPED_AFTER = 2.0
#: Seconds a server whose CPU time does not grow, while a call waits on it, is waited for.
STALLED_AFTER = 20.0
#: How often the monitor looks (seconds).
_TICK = 0.25


def call_bound(rows: int = 0) -> float:
    """The seconds a call sending ``rows`` rows may take: :data:`CALL_BASE` plus :data:`CALL_PER_ROW` a row (some
    thousand times what it takes: a batch of 10,000 elements is written in a tenth of a second, a drop's statement
    of 200,000 in about 2 s, an index of 3.5 million elements built in 14 s over many calls)."""
    return CALL_BASE + CALL_PER_ROW * rows


@dataclass(eq=False)
class _Call:
    what: str
    bound: float
    started: float = field(default_factory=time.monotonic)
    sockets: list = field(default_factory=list)


@dataclass
class Hang:
    """Why the watch took the server as hung: its pid, what the call waiting on it was doing, how long it waited,
    and what was seen (``stopped``, ``no CPU time``, ``past its bound``)."""

    pid: int
    what: str
    waited: float
    seen: str

    def describe(self) -> str:
        return (
            f"the local server (pid {self.pid}) {self.seen} while graphsr was {self.what}; waited {self.waited:.0f} s"
        )


def process_state(pid: int) -> tuple[str, int] | None:
    """A process's state letter and its CPU time in clock ticks, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return fields[0].decode(), int(fields[11]) + int(fields[12])


class ServerWatch:
    """Watches the calls in flight to the server whose pid ``pid()`` gives (see the module docstring); on a hang
    it kills the process and shuts the calls' sockets, and :attr:`hang` says why."""

    def __init__(self, pid, kill):
        self._pid, self._kill = pid, kill
        self._calls: set[_Call] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.hang: Hang | None = None

    @contextmanager
    def call(self, what: str, bound: float, sockets=()):
        """Watch one call (the block); ``sockets``: a callable giving the sockets it waits on (shut on a hang)."""
        c = _Call(what, bound)
        c.sockets = [sockets] if sockets else []
        with self._lock:
            self._calls.add(c)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._monitor, name="graphsr-store-watch", daemon=True)
                self._thread.start()
        try:
            yield c
        finally:
            with self._lock:
                self._calls.discard(c)

    def _monitor(self) -> None:
        cpu_seen: tuple[int, float] | None = None  # (CPU ticks, when they last grew)
        stopped_since: float | None = None
        while True:
            time.sleep(_TICK)
            with self._lock:
                calls = list(self._calls)
                if not calls:
                    self._thread = None
                    return
            pid = self._pid()
            now = time.monotonic()
            oldest = min(calls, key=lambda c: c.started)
            seen = None
            state = process_state(pid) if pid is not None else None
            if state is not None:
                letter, ticks = state
                if cpu_seen is None or ticks != cpu_seen[0]:
                    cpu_seen = (ticks, now)
                stopped_since = (stopped_since or now) if letter in "Tt" else None
                if stopped_since is not None and now - stopped_since >= STOPPED_AFTER:
                    seen = "was stopped (process state T)"
                elif now - max(cpu_seen[1], oldest.started) >= STALLED_AFTER:
                    seen = f"used no CPU time for {now - max(cpu_seen[1], oldest.started):.0f} s (state {letter})"
            late = [c for c in calls if now - c.started > c.bound]
            if seen is None and late:
                oldest = late[0]
                seen = f"did not answer within the call's bound of {oldest.bound:g} s"
            if seen is not None and pid is not None:
                self.hang = Hang(pid, oldest.what, now - oldest.started, seen)
                self._kill(pid)
                for c in calls:
                    for get in c.sockets:
                        for sock in get():
                            try:
                                sock.shutdown(socket.SHUT_RDWR)
                            except OSError:
                                pass
                return


def kill(pid: int) -> None:
    """SIGKILL ``pid`` (a stopped process is killed too; a frozen one when thawed)."""
    try:
        os.kill(pid, 9)
    except OSError:
        pass
