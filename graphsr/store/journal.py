"""The local store's append-only log on disk: ``PATH/graphsr.aof/``, the server's own multi-part log (Redis 7 and
later).  A manifest (``graphsr.aof.manifest``) lists a *base* -- the data as of the log's last rewrite, in the
snapshot's format -- and the *incremental* files of write commands since, each acknowledged only once written
and synced (``appendfsync always``).  The server loads the base and replays the commands at its start.

This module only reads what the server wrote: which files the manifest lists, how many bytes a start has to load,
and whether the commands since the last rewrite are only indexes made when first needed and dropped again
(which replay in a millisecond and need no rewrite, where the base holds none of them).  The format it reads is the documented one:
the manifest's lines ``file NAME seq N type b|h|i [...]``, and commands in the protocol's array form
(``*N``, then ``$LEN`` and the bytes of each argument).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["Journal", "DIRNAME", "FILENAME"]

#: The log's directory in the store's directory, and the prefix of its files (the server's ``appenddirname`` and
#: ``appendfilename``).
DIRNAME = "graphsr.aof"
FILENAME = "graphsr.aof"


class Journal:
    """The append-only log of the store in directory ``path``."""

    def __init__(self, path: Path):
        self.dir = Path(path) / DIRNAME
        self.manifest = self.dir / f"{FILENAME}.manifest"

    def exists(self) -> bool:
        """Whether the server has written its log here (it then starts from the log, not from a snapshot)."""
        return self.manifest.is_file()

    def files(self) -> list[tuple[Path, str]]:
        """The files the manifest lists as the log, with their type: ``b`` (the base) and ``i`` (incremental), in
        order; files of type ``h`` (history, left for deletion) are not part of it."""
        try:
            text = self.manifest.read_text(errors="replace")
        except OSError:
            return []
        out = []
        for line in text.splitlines():
            fields = line.split()
            if len(fields) < 6 or fields[0] != "file" or fields[2] != "seq" or fields[4] != "type":
                continue
            if fields[5] in ("b", "i"):
                out.append((self.dir / fields[1], fields[5]))
        return out

    def size(self) -> int:
        """Bytes of saved data a start loads (the base and the incremental files)."""
        total = 0
        for path, _ in self.files():
            try:
                total += path.stat().st_size
            except OSError:
                pass
        return total

    def incremental_size(self) -> int:
        """Bytes of write commands since the log was last rewritten."""
        total = 0
        for path, kind in self.files():
            if kind == "i":
                try:
                    total += path.stat().st_size
                except OSError:
                    pass
        return total

    def holds_only_indexes(self, graph: str, indexes: list[tuple[str, str]], limit: int = 1 << 20) -> bool:
        """Whether every command written since the last rewrite makes or drops one of ``indexes`` ((statement
        making it, statement dropping it) pairs) on ``graph`` (a ``GRAPH.QUERY``, whatever flags follow its
        text), each dropped one made among them (an index dropped that was not means the base holds it), or is
        the database selection the server writes first.  False where the commands are more than ``limit`` bytes,
        or anything cannot be read as commands."""
        incremental = [path for path, kind in self.files() if kind == "i"]
        if not incremental:
            return not self.exists()
        data = b""
        for path in incremental:
            try:
                with open(path, "rb") as fh:
                    data += fh.read(limit + 1)
            except OSError:
                return False
            if len(data) > limit:
                return False
        makes = {make.encode(): make.encode() for make, _ in indexes}
        drops = {drop.encode(): make.encode() for make, drop in indexes}
        made: set[bytes] = set()
        for command in _commands(data):
            if command is None:
                return False
            name = command[0].upper() if command else b""
            if name == b"SELECT":
                continue
            if name != b"GRAPH.QUERY" or len(command) < 3 or command[1] != graph.encode():
                return False
            text = command[2]
            if text in makes:
                made.add(text)
            elif text in drops and drops[text] in made:
                made.discard(drops[text])
            else:
                return False
        return True


def _commands(data: bytes):
    """The commands in ``data``, each a list of its arguments; None (and the end) where the bytes are not whole
    commands in the protocol's array form."""
    at, n = 0, len(data)
    while at < n:
        end = data.find(b"\r\n", at)
        if end < 0 or data[at : at + 1] != b"*":
            yield None
            return
        try:
            count = int(data[at + 1 : end])
        except ValueError:
            yield None
            return
        at = end + 2
        args = []
        for _ in range(count):
            end = data.find(b"\r\n", at)
            if end < 0 or data[at : at + 1] != b"$":
                yield None
                return
            try:
                length = int(data[at + 1 : end])
            except ValueError:
                yield None
                return
            start = end + 2
            if length < 0 or data[start + length : start + length + 2] != b"\r\n":
                yield None
                return
            args.append(data[start : start + length])
            at = start + length + 2
        yield args
