"""The store interface shared by the backends.

A :class:`GraphStore` runs the named Cypher queries of :mod:`graphsr.store.queries`
with parameters, writes rows in batches (one transaction per batch, via
``UNWIND $rows``), and sets up the schema.  Backends implement ``_execute``
(one statement, one transaction) and ``close``.
"""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, TypeVar

from ..errors import StoreError, StoreLimitError  # noqa: F401  (part of this module's interface)
from .queries import query, schema_statements

__all__ = [
    "GraphStore",
    "StoreError",
    "StoreLimitError",
    "batched",
    "NODE_LABELS",
    "RELATIONSHIP_TYPES",
    "SCHEMA_VERSION",
]

# The schema's whole vocabulary: queries use these and no others (labels never come from users).
NODE_LABELS = (
    "Store",
    "Collection",
    "Document",
    "Element",
    "Summary",
    "SummaryNode",
    "Model",
    "Study",
    "Route",
    "Step",
    "Qrels",
    "Topic",
    "Run",
)
RELATIONSHIP_TYPES = (
    "HAS_DOCUMENT",
    "ROOT",
    "CHILD",
    "HAS_SUMMARY",
    "HAS_NODE",
    "SUMMARY_EDGE",
    "OF_SUMMARY",
    "PI",
    "WEIGHT",
    "HAS_ROUTE",
    "HAS_STEP",
    "FROM",
    "TO",
    "HAS_TOPIC",
    "ASSESSES",
    "RETURNS",
)

#: The version of the graph schema this graphsr writes (the Store node's ``version``).  Version 2 keys elements by
#: an integer (:func:`graphsr.store.ids.element_key`) with their summary memberships as properties; version 1
#: (no Store node) keyed them by string ids with MEMBER_OF relationships.
SCHEMA_VERSION = 2


_WRITE = re.compile(r"\b(MERGE|CREATE|SET|DELETE|REMOVE)\b", re.IGNORECASE)


def _writes(text: str, _cache: dict = {}) -> bool:  # noqa: B006  (a cache of the named queries' texts)
    hit = _cache.get(text)
    if hit is None:
        hit = _cache[text] = bool(_WRITE.search(text))
    return hit


def writes(function):
    """A store service that writes: it runs under the store's writer lock (:meth:`GraphStore.writing`)."""

    @functools.wraps(function)
    def locked(store, *args, **kwargs):
        with store.writing():
            return function(store, *args, **kwargs)

    return locked


_Row = TypeVar("_Row")


def batched(rows: Iterable[_Row], size: int) -> Iterator[list[_Row]]:
    """``rows`` in lists of ``size`` (the last one shorter)."""
    batch: list[_Row] = []
    for r in rows:
        batch.append(r)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


class GraphStore:
    """A property-graph store reached through Cypher (see subclasses).

    Attributes
    ----------
    url : str
        Where the store is, as given to :func:`graphsr.store.open_store`.
    backend : str
        ``'falkordb'`` or ``'neo4j'``: selects the schema statements.
    batch_size : int
        Rows per ``UNWIND`` batch (one transaction each).
    """

    backend: str = ""
    #: Whether :meth:`writing` excludes every other writer of the store (the local store's lock).  Without it
    #: (Neo4j) loaders write with MERGE only, so that concurrent loads cannot duplicate anything.
    exclusive_writer: bool = False

    def __init__(self, url: str, batch_size: int = 5000, schema: bool = True):
        self.url = url
        self.batch_size = batch_size
        self.schema = schema

    # -- backend hooks -------------------------------------------------------
    def _execute(self, text: str, params: dict[str, Any]) -> list[dict]:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _execute_read(self, text: str, params: dict[str, Any], timeout: float) -> list[dict]:  # pragma: no cover
        raise NotImplementedError

    def _ignorable_schema_error(self, exc: Exception) -> bool:
        return False

    def _execute_schema(self, text: str, params: dict[str, Any]) -> list[dict]:
        """Run a schema statement (an index, a constraint); backends whose write transactions cannot hold one
        override it."""
        return self._execute(text, params)

    # -- public API ------------------------------------------------------------
    def run(self, name: str, /, **params: Any) -> list[dict]:
        """Run the shared query ``name`` with parameters; rows as dicts."""
        return self.execute(self.prepare(name, **params))

    def prepare(self, name: str, /, **params: Any) -> tuple[str, str, Any]:
        """Everything :meth:`execute` needs to run query ``name`` later, with parameter work done now.

        Backends may encode the parameters here, so that a loader can do that
        work in one thread and send the queries from another.
        """
        return name, query(name), params

    def execute(self, prepared: tuple[str, str, Any]) -> list[dict]:
        """Run a prepared query (see :meth:`prepare`)."""
        if not getattr(self, "_version_checked", False):
            self._version_checked = True
            self.check_version()
        name, text, params = prepared
        if _writes(text):
            self._dirty = True
        try:
            return self._execute(text, params)
        except StoreError:
            raise
        except Exception as exc:
            failure = self._failure(name, exc)
            if failure is None:  # not the database's or the connection's: graphsr's own bug, shown as it is
                raise
            raise failure from exc

    def check_version(self) -> None:
        """Refuse, in one line, a store whose graph another version of graphsr wrote in another schema (run
        before the first query; an empty store passes).

        Raises
        ------
        GraphsrInputError
            For a store of schema version 1 (elements keyed by string ids, memberships as relationships) or of
            a version newer than this graphsr's.
        """
        from ..errors import GraphsrInputError

        rows = self.run("store_version")
        version = rows[0]["version"] if rows else None
        if version is None and rows and int(rows[0]["collections"] or 0) > 0:
            raise GraphsrInputError(
                f"{self.url} was written by an earlier graphsr (graph schema 1, elements keyed "
                f"by strings); this graphsr reads schema {SCHEMA_VERSION}: load the collections "
                "into a new store (or drop them and load them again)"
            )
        if version is not None and int(version) != SCHEMA_VERSION:
            raise GraphsrInputError(
                f"{self.url} holds graph schema {version}; this graphsr reads schema "
                f"{SCHEMA_VERSION}: use the graphsr that wrote it, or a new store"
            )

    def _failure(self, name: str, exc: Exception) -> StoreError | None:
        """The :class:`StoreError` (exit 3) of a database or connection failure, saying what happened and
        what to do; None for any other exception (a bug, raised as it is)."""
        return None

    #: A user's read-only query ends on the server after this many seconds, unless told otherwise: a runaway
    #: query (a cartesian product) never keeps the server busy after its client is gone.
    QUERY_TIMEOUT = 60.0

    def read_query(self, text: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> list[dict]:
        """Run a user's Cypher query read-only, with ``params`` as query parameters; rows as dicts.  The server
        stops it after ``timeout`` seconds (default :attr:`QUERY_TIMEOUT`).

        Raises
        ------
        GraphsrInputError
            If the query writes (:func:`graphsr.store.readonly.check_read_only`) or the server refuses it.
        StoreLimitError
            If it takes longer than ``timeout``, or goes past a limit the server enforces (its memory).
        """
        from .readonly import check_read_only

        check_read_only(text)
        timeout = self.QUERY_TIMEOUT if timeout is None else float(timeout)
        if not timeout > 0:
            from ..errors import GraphsrInputError

            raise GraphsrInputError(f"a query timeout must be above 0 seconds, got {timeout:g}")
        self._check_query_bounds(text, dict(params or {}), timeout)
        try:
            return self._execute_read(text, dict(params or {}), timeout)
        except StoreError:
            raise
        except Exception as exc:
            from ..errors import GraphsrInputError

            if "timed out" in str(exc).lower() or "timeout" in str(exc).lower():
                raise StoreLimitError(
                    f"store query on {self.url} stopped after {timeout:g} s (--timeout SECONDS allows longer): {exc}"
                ) from None
            raise GraphsrInputError(f"store query failed on {self.url}: {exc}") from None

    def _check_query_bounds(self, text: str, params: dict[str, Any], timeout: float) -> None:
        """Refuse a user's query that would make the server allocate past its limits before it could stop it
        (the local store: :mod:`graphsr.store.query_bounds`; a Bolt server bounds a transaction's memory
        itself)."""

    def write(
        self, name: str, rows: Iterable[dict], /, batch_size: int | None = None, progress=None, **params: Any
    ) -> int:
        """Run ``name`` (an ``UNWIND $rows`` query) over rows in batches; returns the rows written.

        Each batch is one transaction, so an interrupted write leaves whole
        batches, and re-running it (every write query MERGEs) completes it.
        ``progress`` (e.g. a tqdm bar) is advanced by the rows of each batch.
        """
        n = 0
        for batch in batched(rows, batch_size or self.batch_size):
            self.run(name, rows=batch, **params)
            n += len(batch)
            if progress is not None:
                progress.update(len(batch))
        return n

    def index_ready(self, label: str) -> bool:
        """Whether nodes of ``label`` are looked up by their indexed properties without building an index first
        (always, but on the local store: see :mod:`graphsr.store.deferred`)."""
        return True

    def init_schema(self) -> None:
        """Create the backend's indexes / constraints (idempotent; skipped with ``schema=False``)."""
        if not self.schema:
            return
        for text in schema_statements(self.backend):
            try:
                self._execute_schema(text, {})
            except Exception as exc:
                if not self._ignorable_schema_error(exc):
                    failure = self._failure("schema", exc)
                    if failure is None:
                        raise
                    raise failure from exc

    def persist(self) -> None:
        """Make what was written durable now, where the backend needs telling (no-op by default: a Neo4j
        transaction is durable once committed).  Write commands call it before they report success."""
        self._dirty = False

    def release_memory(self) -> None:
        """Give back to the system the memory a drop freed, where the backend keeps it otherwise (the local store's
        allocator holds freed pages for reuse); a no-op by default."""

    @property
    def dirty(self) -> bool:
        """Whether this store wrote since it was opened or last persisted."""
        return getattr(self, "_dirty", False)

    def counts(self) -> dict[str, int]:
        """Number of nodes per label and relationships per type (0 for those absent)."""
        # one query per label and type (see cypher/inventory.cypher: each is read from the statistics)
        return {name: int(self.run(f"count_{name}")[0]["n"]) for name in NODE_LABELS + RELATIONSHIP_TYPES}

    @contextmanager
    def writing(self) -> Iterator["GraphStore"]:
        """Hold the store's writer lock for the block: one writing command at a time, so that what a load
        or a drop reads before it writes (which documents are complete) is still true when it writes.
        Re-entrant; a command that waits for another says so on stderr."""
        self._writers = getattr(self, "_writers", 0) + 1
        try:
            if self._writers == 1:
                self._acquire_writer()
            yield self
        finally:
            self._writers -= 1
            if self._writers == 0:
                self._release_writer()

    def _acquire_writer(self) -> None:
        """The backend's writer lock (Neo4j: none; MERGE on unique ids keeps concurrent loads idempotent)."""

    def _release_writer(self) -> None:
        """Release :meth:`_acquire_writer`'s lock."""

    def __enter__(self) -> "GraphStore":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        """Persist what was written (unless the block failed), then close; the first failure is the one
        reported."""
        failed = exc_type is not None
        try:
            if not failed and self.dirty:
                self.persist()
        except BaseException:
            failed = True
            raise
        finally:
            try:
                self.close()
            except StoreError:
                if not failed:
                    raise

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"
