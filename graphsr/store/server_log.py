"""The local store server's log (``PATH/graphsr.log``), read for what the server says it is doing or why it
failed: graphsr's errors quote it rather than guess."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ServerLog"]


class ServerLog:
    """The log file at ``path``, read from a byte offset (where one start or one command began)."""

    def __init__(self, path: Path):
        self.path = path

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def reason(self, since: int = 0) -> str:
        """Why the server failed, from the warnings it logged after byte ``since`` of its log (e.g. "Write
        error while saving DB to the disk: No space left on device"); where it could not log, the free
        space of the store's file system."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(since)
                lines = fh.read().decode(errors="replace").splitlines()
        except OSError:
            lines = []
        said = ""
        for line in reversed(lines):
            if " # " in line and not any(x in line for x in ("Check the log", "can't exit", "Can't recover")):
                said = line.split(" # ", 1)[1].strip()
                if said.startswith("WARNING"):  # (the advice every start logs, such as memory overcommit)
                    said = ""
                    continue
                break
        if said and "Short write" not in said:  # (a short write names no cause: the free space may)
            return said
        try:
            st = os.statvfs(self.path.parent)
            free = st.f_bavail * st.f_frsize
        except OSError:
            return said or "the server logged no reason"
        if free < 1 << 20:
            return (said + ": " if said else "") + f"no space left on the device ({free // 1024} KB free)"
        return said or "the server logged no reason"

    def _after(self, since: int) -> bytes:
        """What the server logged after byte ``since`` of its log (nothing where the log cannot be read)."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(since)
                return fh.read()
        except OSError:
            return b""

    def ran_out_of_memory(self, since: int = 0) -> bool:
        """Whether the server logged, after byte ``since`` of its log, that an allocation failed (it stops
        then: its address space reached the store's memory limit)."""
        return b"Out Of Memory allocating" in self._after(since)

    def log_write_failed(self, since: int = 0) -> bool:
        """Whether the server logged, after byte ``since`` of its log, that it could not write its append-only log
        (it stops then, rather than answer a write it could not keep)."""
        text = self._after(since)
        return b"AOF write error" in text or b"writing to the AOF file" in text or b"fsync the AOF file" in text

    def said_bye(self, since: int = 0) -> bool:
        """Whether the server logged, after byte ``since`` of its log, that it stopped as asked ("ready to exit")."""
        return b"ready to exit" in self._after(since)

    def tail(self, n: int = 5) -> str:
        try:
            return " | ".join(self.path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def says_loading(self, pid: int, offset: int) -> bool:
        """Whether server ``pid``'s log (from byte ``offset``, where its start began) says it is loading its saved
        data: it has begun ("Loading RDB", a snapshot or the append-only log's base) and not finished ("DB loaded
        from disk", "DB loaded from append only file", "Ready to accept connections")."""
        try:
            with open(self.path, "rb") as fh:
                fh.seek(offset)
                text = fh.read(16 << 20)  # (a start's lines: a few kB, a line per 100,000 nodes loaded)
        except OSError:
            return False
        mine = [line for line in text.split(b"\n") if line.startswith(b"%d:" % pid)]
        began = any(b"Loading RDB" in line for line in mine)
        done = any(
            b"DB loaded from disk" in line
            or b"DB loaded from append only file" in line
            or b"Ready to accept connections" in line
            for line in mine
        )
        return began and not done
