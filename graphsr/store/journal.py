"""The local store's append-only log: ``PATH/graphsr.aof/``, the server's own multi-part log (Redis 7 and later).
A manifest (``graphsr.aof.manifest``) lists a *base* -- the data as of the log's last rewrite, in the
snapshot's format -- and the *incremental* files of write commands since, each acknowledged only once written
and synced (``appendfsync always``).  The server loads the base and replays the commands at its start.

:class:`Journal` reads what the server wrote -- which files the manifest lists, how many bytes a start has to
load, whether the commands since the last rewrite are only indexes made when first needed and dropped again
(which replay in a millisecond and need no rewrite, where the base holds none of them) -- and tells a running
server when to rewrite the log (graphsr decides: never the server on its own schedule).  The format it reads is
the documented one: the manifest's lines ``file NAME seq N type b|h|i [...]``, and commands in the protocol's
array form (``*N``, then ``$LEN`` and the bytes of each argument).  Why a log rather than snapshots, and what it
costs: :mod:`graphsr.store.local`, "Durability".
"""

from __future__ import annotations

import time
from pathlib import Path

from .base import StoreError
from .processes import status as _status
from .server_log import ServerLog

__all__ = ["Journal", "DIRNAME", "FILENAME"]

#: The log's directory in the store's directory, and the prefix of its files (the server's ``appenddirname`` and
#: ``appendfilename``).
DIRNAME = "graphsr.aof"
FILENAME = "graphsr.aof"


class Journal:
    """The append-only log of the store in directory ``path`` (``log``: its server's messages, for the reasons of
    a failure)."""

    #: The log is rewritten (its commands folded into a new base) once the commands since the last rewrite are more
    #: than this many bytes and :attr:`REWRITE_SHARE` of the base: a start replays commands at about 2 MB a second
    #: (help's store: 138 MB of routes written and dropped in 67-74 s), where it loads a base at over 100 MB a second
    #: (297 MB in 2.4 s).
    REWRITE_AT = 64 << 20
    REWRITE_SHARE = 0.25

    #: Seconds a rewrite of the log may take before graphsr gives up waiting for it.
    REWRITE_TIMEOUT = 3600.0

    def __init__(self, path: Path, log: ServerLog | None = None):
        self.path = Path(path)
        self.dir = self.path / DIRNAME
        self.manifest = self.dir / f"{FILENAME}.manifest"
        self.snapshot = self.path / "graphsr.rdb"  # (a store saved by an earlier graphsr: moved to the log at start)
        self.log = log if log is not None else ServerLog(self.path / "graphsr.log")

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

    def size(self, kinds: str = "bi") -> int:
        """Bytes of the log's files of ``kinds`` (``b`` the base, ``i`` incremental): by default both, all a
        start loads."""
        total = 0
        for path, kind in self.files():
            if kind in kinds:
                try:
                    total += path.stat().st_size
                except OSError:
                    pass
        return total

    def incremental_size(self) -> int:
        """Bytes of write commands since the log was last rewritten."""
        return self.size("i")

    def saved_size(self) -> int:
        """Bytes of saved data a start loads: the log's files, else a snapshot an earlier graphsr wrote."""
        if self.exists():
            return self.size()
        try:
            return self.snapshot.stat().st_size
        except OSError:
            return 0

    def server_args(self) -> list[str]:
        """How the server keeps its data: an append-only log each write command is synced to before it is
        answered, rewritten when graphsr says (never on the server's own schedule), no snapshots of its own.  A
        store holding only a snapshot (written by an earlier graphsr) starts from it with the log off, and has it
        switched on once up (:meth:`settle`)."""
        log = self.exists() or not self.snapshot.exists()
        return [
            "--appendonly",
            "yes" if log else "no",
            "--appenddirname",
            DIRNAME,
            "--appendfilename",
            FILENAME,
            "--appendfsync",
            "always",
            "--no-appendfsync-on-rewrite",
            "no",
            "--aof-use-rdb-preamble",
            "yes",
            "--aof-load-truncated",
            "yes",
            "--auto-aof-rewrite-percentage",
            "0",
            "--save",
            "",
        ]

    def settle(self, client) -> None:
        """After a start (``client``: one of the server's): a server started from a snapshot has its log switched
        on -- it writes the data as the log's base, as a rewrite in the background, waited for -- after which the
        snapshot is never read again and is removed (as one left by a switch cut short).  Where the base cannot
        be written (a full disk), the log stays off and each write command saves a snapshot, as before, until a
        later start manages it."""
        if self.exists():
            self.snapshot.unlink(missing_ok=True)
            return
        since = self.log.size()
        client.config_set("appendonly", "yes")
        ok = self.wait_rewrite(client) and self.exists()
        if not ok:
            client.config_set("appendonly", "no")
            _status(
                f"graphsr: local store {self.path}: could not start the append-only log ({self.log.reason(since)}); "
                "each write is saved as a snapshot meanwhile"
            )
            return
        self.snapshot.unlink(missing_ok=True)
        _status(f"graphsr: local store {self.path}: its data are kept in an append-only log from now on (once)")

    def wait_rewrite(self, client) -> bool:
        """Wait for the log's rewrite under way (or scheduled) to end; True if it succeeded."""
        deadline = time.monotonic() + self.REWRITE_TIMEOUT
        while time.monotonic() < deadline:
            info = client.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                return info.get("aof_last_bgrewrite_status") == "ok"
            time.sleep(0.02)
        return False

    def rewrite(self, client) -> None:
        """Fold the log's commands into a new base now (``BGREWRITEAOF``, waited for and checked).

        Raises
        ------
        StoreError
            With the server's reason where the rewrite failed; the log as it was stays whole (every write in it
            is kept: a start replays them).
        """
        import redis

        since = self.log.size()
        while True:
            try:
                client.execute_command("BGREWRITEAOF")
                break
            except redis.ResponseError as exc:
                if "in progress" not in str(exc).lower():
                    raise StoreError(f"local store {self.path}: could not rewrite its log: {exc}") from None
                self.wait_rewrite(client)  # another's: then this one
        if not self.wait_rewrite(client):
            raise StoreError(
                f"local store {self.path}: could not rewrite its log ({self.log.reason(since)}); every write is kept "
                "in it all the same"
            )

    def start_rewrite(self, client) -> None:
        """Start folding the log's commands into a new base, in the background (``BGREWRITEAOF``): nothing
        waits for it; a stop waits for one under way (:meth:`fold_at_stop`).  One already under way is left to
        finish; one that cannot start is said on stderr (every write stays in the log all the same)."""
        import redis

        try:
            client.execute_command("BGREWRITEAOF")
        except redis.ResponseError as exc:
            if "in progress" not in str(exc).lower():
                _status(f"graphsr: local store {self.path}: could not start rewriting its log: {exc}")

    def needs_rewrite(self, info: dict) -> bool:
        """Whether the log's commands since its last rewrite outgrew :attr:`REWRITE_AT` and :attr:`REWRITE_SHARE`
        of its base, with no rewrite under way (``info``: the server's INFO persistence)."""
        if info.get("aof_rewrite_in_progress") or info.get("aof_rewrite_scheduled"):
            return False
        base = int(info.get("aof_base_size", 0))
        grown = int(info.get("aof_current_size", 0)) - base
        return grown > max(self.REWRITE_AT, self.REWRITE_SHARE * base)

    def fold_at_stop(self, client, graph: str, indexes: list[tuple[str, str]]) -> None:
        """Before the server stops: wait for a rewrite under way, then rewrite the log unless its commands since
        the base are only ``indexes`` made and dropped (:meth:`holds_only_indexes`), so that the next start loads
        a base rather than replaying writes.  A rewrite that fails leaves the log whole: said on stderr, and the
        server may stop all the same."""
        try:
            self.wait_rewrite(client)  # (one a write command started)
            if not self.holds_only_indexes(graph, indexes):
                self.rewrite(client)
        except StoreError as exc:
            _status(f"graphsr: {exc}; its next start replays them")

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
