"""What graphsr asks of the operating system about the local store's server process: whether it lives, the CPU
it has used, what it sets before it runs, and the status lines a command prints about it."""

from __future__ import annotations

import os

__all__ = ["cpu_ticks", "status", "server_preexec", "pid_alive"]


def cpu_ticks(pid: int) -> int:
    """The CPU time process ``pid`` has used (user and system, in clock ticks), or -1."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return -1


def status(message: str) -> None:
    """A line about what the store is doing, on stderr (stdout carries results)."""
    import sys

    print(message, file=sys.stderr, flush=True)


def server_preexec(memory: int):
    """What the server's process sets before it runs: umask 077 (its saved data, log and pid file are its
    owner's only), its address space limited to ``memory`` bytes, and no core dump (a server stopped at its
    limit would write gigabytes)."""
    import resource

    def preexec() -> None:
        os.umask(0o077)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        limit = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return preexec


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie (our own exited child not yet reaped) counts as gone
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
