"""The local store: FalkorDB run by graphsr itself (:mod:`graphsr.store.server` starts, shares and stops the
server), reached through its native client over a unix socket.

**Bounded.**  The server runs under the limits of :mod:`graphsr.store.limits`; a query over one ends in one
line (:class:`~graphsr.store.base.StoreLimitError`, exit 3) and leaves the store as it was.  A query that
makes the server stop at its memory limit is answered the same way once graphsr has started the server again
from its log.  Every call to the server is watched while it waits (:mod:`graphsr.store.watch`): a server that
misses a call's bound, is stopped or uses no CPU time while a call waits is killed and started again, and the
command ends in one line saying so (:meth:`LocalStore._hung`).

**Durability.**  Data persist in PATH as the server's append-only log (``graphsr.aof/``,
:mod:`graphsr.store.journal`): a base -- the data as a snapshot, written when the log was last rewritten --
and the write commands since, each written and synced to disk (``appendfsync always``) before the server
answers it, so that whatever a command reports is on disk before it reports it (the server's own system calls
show the sync before each answer: ``tests/test_store_journal.py``), and a server killed at any moment starts
again with every write it answered.  :meth:`LocalStore.persist`, which a command that wrote calls before it
reports, only checks the log's status (and starts its rewrite in the background once the commands since the
base pass :attr:`~graphsr.store.journal.Journal.REWRITE_AT` bytes).  A server that cannot write or sync
its log (a full disk) stops rather than answer: the command fails with the server's reason in one line
(exit 3), every write answered before is kept, and the rest of the command is not; what a command cut short
wrote is marked INCOMPLETE, and running it again completes or replaces it.

Why the log rather than a snapshot per write command (as graphsr did until 2026-11-29): the snapshot was most of
what a small write cost (2.6 s for help's 246 MB store, 3.1 s for music-svg's 429 MB, of the 11.8-15.4 s that
100,000 routes took), and the log costs a write and a sync per statement (0.15 ms a sync here).  What the log costs
instead: a start replays the commands since the base, slower than loading a base (help's routes, 23 MB of commands
written and dropped four times, 138 MB: 67-74 s; the base of 297 MB: 2.4 s).  So a stop rewrites the log into a new
base (:meth:`~graphsr.store.server.LocalServer._shutdown`), unless the commands since the base are only the
deferred indexes made and dropped (:mod:`graphsr.store.deferred`, a millisecond to replay); a start after a crash
replays them, however long that takes (the start waits for a server that is loading).  A failed command is not
undone by going back to an earlier snapshot: its acknowledged statements stay, marked INCOMPLETE, as after any
interrupted command.  A store an earlier graphsr saved as a snapshot (``graphsr.rdb``) starts from it, has the log
switched on (its base written from the data loaded) and the snapshot removed, once.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import sys
import time
from typing import Any

from .base import GraphStore, StoreError, StoreLimitError, _writes
from .limits import ServerLimits
from .server import GRAPH, LocalServer, StoreMissingError, StorePathError
from .watched import WatchedCalls

__all__ = ["LocalServer", "LocalStore", "StorePathError", "StoreMissingError"]


class _Encoded(dict):
    """Parameters whose ``CYPHER ...`` header is already built (see LocalStore.prepare), and how many rows they
    carry (what the call's bound is sized by)."""

    def __init__(self, header: str, rows: int = 0):
        super().__init__()
        self.header = header
        self.rows = rows

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


class LocalStore(WatchedCalls, GraphStore):
    """The ``local:PATH`` backend: FalkorDB through its native client over a unix socket."""

    backend = "falkordb"
    exclusive_writer = True  # the flock on graphsr.writer (see _acquire_writer)

    def __init__(
        self,
        path: str | os.PathLike,
        batch_size: int = 10000,
        keep_running: bool = False,
        create: bool = True,
        limits: ServerLimits | None = None,
    ):
        super().__init__(f"local:{path}", batch_size)
        self.server = LocalServer(path, limits)
        if not create and not self.server.exists():
            raise StoreMissingError(
                f"no store at {self.server.path}: nothing was loaded there ('graphsr store init "
                f"--store local:{path}' or 'graphsr store load' makes one; check the path)"
            )
        self.started = self.server.start(keep=keep_running)
        self.keep_running = keep_running
        self._log_mark = self.server.log.size()
        self._connect()
        self._closed = False
        atexit.register(self.close)

    def _connect(self) -> None:
        from falkordb import FalkorDB

        self._db = FalkorDB(unix_socket_path=str(self.server.socket))
        self._graph = _Graph(self._db, GRAPH)
        self._indexed: set[str] = set()  # labels whose deferred indexes were seen ready (graphsr.store.deferred)
        self._indexes_made = 0  # deferred indexes this process made since its last snapshot
        self._watch_server()

    def _ensure_indexes(self, text: str) -> None:
        """Make (and wait for) the deferred indexes statement ``text`` needs, once per label and connection: all
        of a label's at once (FalkorDB builds a label's properties into one index, and adding a property re-reads
        every node: help's partition page needed two of them, built one after the other in 20 s, all five at once
        in 14 s).  A server at its data limit refuses to build them: the statement then reads without them, more
        slowly, and a status line says so."""
        from . import deferred

        labels = deferred.labels_needed(text)
        if not labels or labels <= self._indexed:
            return
        wanted = [i for i in deferred.deferred_indexes() if i.label in labels]
        try:
            deferred.build(self._index_query, wanted, f"local store {self.server.path}")
        except Exception as exc:
            if self._limit_failure(exc) is None:
                raise
            names = ", ".join(sorted(f"{i.label}.{i.prop}" for i in wanted))
            print(
                f"graphsr: local store {self.server.path}: the server holds as much data as it may and cannot build "
                f"the index of {names}; reading without it (slower)",
                file=sys.stderr,
                flush=True,
            )
        self._indexed |= labels

    def index_ready(self, label: str) -> bool:
        return label in self._indexed

    def _index_query(self, text: str) -> list:
        """Run a statement of :mod:`graphsr.store.deferred`, counting the indexes it made: changes of no data,
        which the server counts among those since its snapshot (see :meth:`LocalServer._shutdown`)."""
        with self._call("building an index" if text.startswith("CREATE INDEX") else "reading the indexes"):
            rows = self._graph.query(text).result_set
        if text.startswith("CREATE INDEX"):
            self._indexes_made += 1
        return rows

    def _limits_text(self) -> str:
        limits = self.server.running_limits()
        return limits.describe() if limits is not None else "limits unknown: started by an earlier graphsr"

    def _limit_failure(self, exc: Exception) -> StoreLimitError | None:
        """The one-line error of a query the server ended at one of its limits; None for any other error."""
        text = str(exc)
        limits = self.server.running_limits()
        if "mem consumption exceeded capacity" in text:
            cap = f" ({limits.describe()})" if limits is not None else ""
            return StoreLimitError(
                f"local store {self.server.path}: the server ended a query that needed more "
                f"memory than a query may take{cap}; nothing was changed (raise it with "
                "$GRAPHSR_STORE_QUERY_MEMORY or 'graphsr store start --query-memory SIZE')"
            )
        if "OOM command not allowed" in text or "used memory > 'maxmemory'" in text:
            return StoreLimitError(
                f"local store {self.server.path}: the server refused to write: it holds as much "
                f"data as it may ({self._limits_text()}); nothing was changed (raise it with "
                "$GRAPHSR_STORE_DATA_MEMORY, or drop what is no longer needed)"
            )
        if "timed out" in text.lower() and "query" in text.lower():
            return StoreLimitError(
                f"local store {self.server.path}: the server ended a query at its time limit "
                f"({self._limits_text()}); nothing was changed"
            )
        return None

    def _stopped_at_memory(self) -> StoreLimitError | None:
        """If the server stopped because an allocation went past its memory limit: start it again from its
        log and say so in one line; None otherwise."""
        if self.server.alive() or not self.server.log.ran_out_of_memory(self._log_mark):
            return None
        self.server.restart()
        self._log_mark = self.server.log.size()
        self._connect()
        return StoreLimitError(
            f"local store {self.server.path}: a query needed more memory than the store may "
            f"take ({self._limits_text()}); the server stopped, and graphsr started it again "
            "from its saved data: nothing saved was lost (raise the limit with "
            "$GRAPHSR_STORE_MEMORY or 'graphsr store start --memory SIZE')"
        )

    def _failure(self, name: str, exc: Exception) -> StoreError | None:
        import redis

        hung = self._hung()
        if hung is not None:
            return hung
        if isinstance(
            exc, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError, BrokenPipeError)
        ):
            stopped = self._stopped_at_memory()
            if stopped is not None:
                self._unsaved = False
                return stopped
            if not self.server.alive() and self.server.log.log_write_failed(self._log_mark):
                return StoreError(
                    f"local store {self.server.path}: could not save the data "
                    f"({self.server.log.reason(self._log_mark)}); the server stopped: what it had answered is "
                    "kept, the rest of this command is not (run it again once the disk has room)"
                )
            if not self.server.alive():
                return StoreError(
                    f"local store {self.server.path}: the local server stopped while this command ran "
                    f"(its log ends: {self.server.log.tail(2)}); run the command again: graphsr starts "
                    "the server, and a load completes what an interrupted one left"
                )
            return StoreError(
                f"local store {self.server.path}: lost the connection to the local server ({exc}); run "
                "the command again"
            )
        if isinstance(exc, redis.exceptions.RedisError):
            limited = self._limit_failure(exc)
            if limited is not None:
                return limited
            return StoreError(
                f"local store {self.server.path}: the server refused a request ({exc}; in graphsr's query {name!r})"
            )
        return None

    def _acquire_writer(self) -> None:
        """An exclusive lock on ``graphsr.writer`` in the store's directory (released by the system if the
        process dies); a command that has to wait for another writer says so."""
        fh = self.server._open("graphsr.writer")
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(
                f"graphsr: another command is writing to local store {self.server.path}; waiting for it to finish",
                file=sys.stderr,
                flush=True,
            )
            fcntl.flock(fh, fcntl.LOCK_EX)
        self._writer = fh

    def _release_writer(self) -> None:
        fh, self._writer = getattr(self, "_writer", None), None
        if fh is not None:
            fcntl.flock(fh, fcntl.LOCK_UN)
            fh.close()

    def prepare(self, name: str, /, **params: Any):
        from ._falkor_params import params_header
        from .queries import query

        rows = params.get("rows")
        return name, query(name), _Encoded(params_header(params), len(rows) if isinstance(rows, list) else 0)

    def _execute(self, text: str, params: dict[str, Any] | None) -> list[dict]:
        # graphsr's own reads go as GRAPH.RO_QUERY: a store that holds as much data as it may (Redis' maxmemory
        # refuses GRAPH.QUERY then) can still be read
        params = params if params else None
        self._ensure_indexes(text)
        if _writes(text):
            res = self._graph.query(text, params)
        else:
            try:
                res = self._graph.ro_query(text, params)
            except Exception as exc:
                if "empty key" not in str(exc):
                    raise
                res = self._graph.query(text, params)  # no graph yet: GRAPH.QUERY reads an empty one
        names = [h[1] if isinstance(h, (list, tuple)) else h for h in (res.header or [])]
        return [dict(zip(names, row)) for row in res.result_set]

    #: Seconds a user's query may run past its timeout before the command stops waiting for it (FalkorDB checks
    #: the time between records, not inside one function's evaluation).
    READ_GRACE = 5.0

    def _check_query_bounds(self, text: str, params: dict[str, Any], timeout: float) -> None:
        from .query_bounds import check_bounds

        limits = self.server.running_limits() or self.server.server_limits()
        check_bounds(text, params, limits.query_memory, min(timeout, limits.query_time))

    def _execute_read(self, text: str, params: dict[str, Any], timeout: float) -> list[dict]:
        """GRAPH.RO_QUERY: the server refuses writes and ends the query after ``timeout`` (milliseconds, capped
        by its own query time); the command waits ``timeout`` + :attr:`READ_GRACE` at most."""
        import redis
        from falkordb import FalkorDB
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        wait = timeout + max(self.READ_GRACE, 0.1 * timeout)
        self._ensure_indexes(text)
        db = FalkorDB(unix_socket_path=str(self.server.socket), socket_timeout=wait, retry=Retry(NoBackoff(), 0))
        self._readers.append(db)
        try:
            with self._call("running a user's query", bound=wait + 1.0):
                res = _Graph(db, GRAPH).ro_query(text, params if params else None, timeout=max(1, int(timeout * 1000)))
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError) as exc:
            hung = self._hung()
            if hung is not None:
                raise hung from None
            if not isinstance(exc, redis.exceptions.TimeoutError):
                stopped = self._stopped_at_memory()
                if stopped is not None:
                    raise stopped from None
                raise
            raise StoreLimitError(
                f"local store {self.server.path}: the query did not end within its timeout ({timeout:g} s): graphsr "
                f"stopped waiting after {wait:g} s, and the server, still working (FalkorDB checks a query's time "
                "between the records it makes, not within one function's evaluation), goes on with it until it "
                f"ends or reaches a limit ({self._limits_text()})"
            ) from None
        except redis.exceptions.ResponseError as exc:
            if "empty key" in str(exc) and not getattr(self, "_version_checked", False):
                self.run("store_version")  # nothing stored yet: its reads make the (empty) graph; then ask again
                return self._execute_read(text, params, timeout)
            if "timed out" in str(exc).lower():
                raise StoreLimitError(
                    f"store query on {self.url} stopped after {timeout:g} s (--timeout SECONDS "
                    f"allows longer, up to the server's own limit: {self._limits_text()}): "
                    f"{exc}"
                ) from None
            limited = self._limit_failure(exc)
            if limited is not None:
                raise limited from None
            raise
        finally:
            if db in self._readers:  # (a restart meanwhile makes a new list)
                self._readers.remove(db)
            try:
                db.connection.close()
            except Exception:
                pass
        names = [h[1] if isinstance(h, (list, tuple)) else h for h in (res.header or [])]
        return [dict(zip(names, row)) for row in res.result_set]

    def _execute_schema(self, text: str, params: dict[str, Any]) -> list[dict]:
        """One schema statement.  A server that hangs while making the indexes (FalkorDB can deadlock there:
        asleep, no CPU time) is killed and started again from its log, as on any hang; as the schema's statements
        are idempotent and every write it answered is in its log, the statement is then made again on the new
        server, once, and the command goes on (a warning says so) rather than ending."""
        try:
            with self._call("making the schema's indexes"):
                return self._execute(text, params)
        except Exception:
            if self._watch.hang is None:
                raise
        hang = self._watch.hang
        failure = self._hung()  # (the server killed and started again)
        if self._watch.hang is not None or failure is None:  # (starting it again failed)
            raise failure or StoreError(f"local store {self.server.path}: {hang.describe()}")
        self._reported = self._hang_error = None
        self._connect()  # (to the server started again)
        import sys

        print(
            f"graphsr: warning: local store {self.server.path}: {hang.describe()}; graphsr killed it, started it "
            "again from its log and made the schema's indexes there",
            file=sys.stderr,
        )
        with self._call("making the schema's indexes"):
            return self._execute(text, params)

    def _ignorable_schema_error(self, exc: Exception) -> bool:
        return "already indexed" in str(exc).lower()

    def persist(self, timeout: float = 600.0) -> None:
        """Make sure what this command wrote is on disk before it reports (see the module docstring).  With the
        append-only log on, it is already: each write was synced to the log before the server answered it; the
        log's own status is checked, and once the log has grown past
        :attr:`~graphsr.store.journal.Journal.REWRITE_AT` its rewrite is started, in the background (the
        server's child process writes the new base while it goes on answering).  Without the log (a server started from a
        snapshot it could not move to the log), a snapshot is written now and checked; waits for a snapshot
        another command started.

        Raises
        ------
        StoreError
            With the server's reason when the data cannot be written; the previous saved state stays in place.
        """
        import redis

        conn = self._db.connection
        since = self.server.log.size()
        try:
            with self._call("reading the state of its log"):
                info = conn.info("persistence")
        except redis.RedisError as exc:
            hung = self._hung()
            if hung is not None:
                raise hung from None
            raise StoreError(f"local store {self.server.path}: could not save the data: {exc}") from None
        if info.get("aof_enabled") == 1:
            if info.get("aof_last_write_status") != "ok":
                self._unsaved = True
                raise StoreError(
                    f"local store {self.server.path}: could not save the data ({self.server.log.reason(since)})"
                )
            if self.server.journal.needs_rewrite(info):
                with self._call("starting the rewrite of its log"):  # (in the background: every write is logged)
                    self.server.journal.start_rewrite(conn)
            self._dirty = False
            self._indexes_made = 0
            return
        self._save(conn, since, timeout)

    def _save(self, conn, since: int, timeout: float) -> None:
        """Write a snapshot now (``SAVE``) and check it."""
        import redis

        deadline = time.monotonic() + timeout
        self._drop_indexes_before_last_save()
        while True:
            try:
                with self._call("saving a snapshot", bound=max(timeout, 60.0)):
                    conn.execute_command("SAVE")
                self._dirty = False
                self._indexes_made = 0
                return
            except redis.ResponseError as exc:
                busy = "in progress" in str(exc).lower()
                if not busy or time.monotonic() > deadline:
                    self._unsaved = True
                    raise StoreError(
                        f"local store {self.server.path}: could not save the data "
                        f"({self.server.log.reason(since)}); the store keeps its last saved state"
                    ) from None
            except redis.RedisError as exc:
                raise StoreError(f"local store {self.server.path}: could not save the data: {exc}") from None
            time.sleep(0.05)  # a background snapshot is running: save again once it ends

    def _drop_indexes_before_last_save(self) -> None:
        """A server that stops when this command leaves it would drop its deferred indexes and save again as it
        stops (:meth:`LocalServer._shutdown`): they are dropped before this snapshot instead, which the stop then
        finds current (one snapshot rather than two: 1.8 s for help's 246 MB).  A statement run after it makes
        again what it needs."""
        from . import deferred

        if not self._indexed or not self.server.stops_when_left():
            return
        try:
            deferred.drop(self._index_query)
        except Exception:
            return  # kept: the stop drops them
        self._indexed = set()

    def release_memory(self) -> None:
        """Give back what a drop freed.  FalkorDB keeps a deleted node's slot (its id, for reuse) and its matrices'
        size: after the help collection's 4.5 million nodes were dropped the server still held 455 MB, and its
        saved data 44 MB, for a store of one node.  A drop that leaves nothing but the Store node therefore
        replaces the graph by a fresh one (its indexes and the Store node, with its counters, made again); then
        the allocator (jemalloc) returns the freed pages (``MEMORY PURGE``), which it keeps otherwise.  Where
        something is still stored the slots stay, for the next writes to reuse, and the server gives them back
        when it next starts from its saved data."""
        import redis

        conn = self._db.connection
        try:
            with self._call("counting what a drop left"):
                [[nodes]] = self._graph.query("MATCH (n) RETURN count(n)").result_set
                [[edges]] = self._graph.query("MATCH ()-[r]->() RETURN count(r)").result_set
                rows = self._graph.query("MATCH (s:Store) RETURN properties(s)").result_set
            if nodes == 1 and edges == 0 and len(rows) == 1:
                store_node = rows[0][0]
                with self._call("making the emptied graph afresh"):
                    conn.execute_command("GRAPH.DELETE", GRAPH)
                self._indexed = set()
                self._dirty = True
                self.init_schema()
                with self._call("making the emptied graph afresh"):
                    self._graph.query("CREATE (s:Store) SET s = $p", {"p": store_node})
        except redis.RedisError as exc:
            hung = self._hung()
            if hung is not None:
                raise hung from None
            raise StoreError(
                f"local store {self.server.path}: could not make the emptied store afresh: {exc}"
            ) from None
        try:
            with self._call("giving freed memory back"):
                conn.execute_command("MEMORY", "PURGE")
        except redis.RedisError:
            pass  # a server that cannot purge keeps the pages for its next writes

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)  # a closed store needs no handler at exit (a process opening many keeps none)
        self._release_writer()
        try:
            self._db.connection.close()
        except Exception:
            pass
        self.server.leave(unsaved=getattr(self, "_unsaved", False), indexes_made=self._indexes_made)
