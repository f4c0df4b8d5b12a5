"""The local store's calls to its server, each watched (:mod:`graphsr.store.watch`), and what a command says and
does when the watch takes the server as hung: :class:`WatchedCalls`, a part of :class:`~graphsr.store.local.LocalStore`.
"""

from __future__ import annotations

import threading
from typing import Any

from .base import StoreError

__all__ = ["WatchedCalls"]


class WatchedCalls:
    """Calls to the local server under a :class:`~graphsr.store.watch.ServerWatch` (``self.server`` its
    :class:`~graphsr.store.server.LocalServer`, ``self._db`` the client)."""

    server: Any
    _db: Any

    def _watch_server(self) -> None:
        """Watch the server this store just connected to, and read its versions (a hung server answers nothing)."""
        from .watch import ServerWatch, kill

        self._readers: list = []  # the clients of users' queries in flight (their sockets are shut on a hang)
        pid = self.server.server_pid()
        self._watch = ServerWatch(lambda: pid, kill)
        self._modules = self._server_modules()

    def _server_modules(self) -> str:
        """The server's version and its modules' (``MODULE LIST``), for the line of a hang: read at connect, since
        a hung server answers nothing."""
        try:
            with self._call("reading the server's version"):
                conn = self._db.connection
                version = conn.info("server").get("redis_version", "?")
                modules = conn.execute_command("MODULE", "LIST")
        except Exception:
            return ""
        parts = [f"redis {version}"]
        for m in modules or ():
            pairs = m.items() if isinstance(m, dict) else zip(m[0::2], m[1::2])  # (a dict, or a flat list)
            m = {(k.decode() if isinstance(k, bytes) else k): v for k, v in pairs}
            name = m.get("name", b"?")
            name = name.decode() if isinstance(name, bytes) else str(name)
            ver = int(m.get("ver", 0) or 0)
            parts.append(f"{name} {ver // 10000}.{ver // 100 % 100}.{ver % 100}" if ver >= 10000 else f"{name} {ver}")
        return ", ".join(parts)

    def _sockets(self) -> list:
        """The sockets of this process's calls to the server (shut on a hang, so that every wait returns)."""
        out = []
        for db in [self._db, *self._readers]:
            pool = getattr(db.connection, "connection_pool", None)
            for conn in list(getattr(pool, "_in_use_connections", ()) or ()):
                sock = getattr(conn, "_sock", None)
                if sock is not None:
                    out.append(sock)
        return out

    def _call(self, what: str, rows: int = 0, bound: float | None = None):
        """Watch one call to the server (:mod:`graphsr.store.watch`): ``what`` it does, for the line of a hang."""
        from .watch import call_bound

        return self._watch.call(what, call_bound(rows) if bound is None else bound, self._sockets)

    def execute(self, prepared):
        name, _, params = prepared
        rows = getattr(params, "rows", 0)
        with self._call(f"running its query {name!r}" + (f" on {rows:,} rows" if rows else ""), rows):
            return super().execute(prepared)

    _restart_lock = threading.Lock()

    def _hung(self) -> StoreError | None:
        """If the watch took the server as hung: start it again from its log (once, whichever thread asks first)
        and the one-line error saying so; None otherwise."""
        hang = self._watch.hang or getattr(self, "_reported", None)
        if hang is None:
            return None
        with self._restart_lock:
            if getattr(self, "_reported", None) is None:
                from .hung import restart_after_kill
                from .watch import ServerWatch, kill

                self._reported = hang
                detail = f" ({self._modules})" if self._modules else ""
                again = "graphsr killed it and started it again from its log"
                try:
                    restart_after_kill(self.server, hang.pid)
                    pid = self.server.server_pid()
                    self._watch = ServerWatch(lambda: pid, kill)  # (the new server's)
                except StoreError as exc:
                    again = f"graphsr killed it; starting it again failed ({exc})"
                self._unsaved = False  # (every answered write is in the log: nothing to undo at close)
                self._hang_error = StoreError(
                    f"local store {self.server.path}: {hang.describe()}{detail}; {again}: every write it had "
                    "answered is kept, and this command did not finish (what it was writing is INCOMPLETE, or "
                    "removed where the command cleans up after a failure): run it again to complete it"
                )
        return self._hang_error
