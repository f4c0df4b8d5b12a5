"""The Neo4j backend: Neo4j 5 over Bolt through the official ``neo4j`` driver.

``bolt://HOST:PORT`` or ``neo4j://HOST:PORT``; credentials come from the
environment variables ``GRAPHSR_NEO4J_USER`` and ``GRAPHSR_NEO4J_PASSWORD``
(default user ``neo4j``); ``GRAPHSR_NEO4J_DATABASE`` picks a database
(default: the server's home database).  Each statement runs as one
transaction, so each ``UNWIND`` batch is one transaction; writes run as
managed transactions, which the driver retries on a transient failure (every
write is an idempotent MERGE here, see :mod:`graphsr.store.load`).  There is
no writer lock: two loads at once MERGE on ids that Neo4j's uniqueness
constraints keep unique, so they store everything once.
(py2neo is not used: it is end-of-life and cannot talk Bolt 5.)
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from .base import GraphStore, _writes

__all__ = ["BoltStore"]

#: Times a write refused by a uniqueness constraint is run again (see :meth:`BoltStore._execute`).
CONSTRAINT_RETRIES = 8


def split_userinfo(url: str) -> tuple[str, str | None, str | None]:
    """``bolt://USER:PASSWORD@HOST:PORT`` as the URL without its user information (the driver refuses it), the
    user and the password (percent-decoded; None where the URL names none).

    >>> split_userinfo("bolt://neo4j:s%40cret@localhost:7687")
    ('bolt://localhost:7687', 'neo4j', 's@cret')
    >>> split_userinfo("neo4j://localhost")
    ('neo4j://localhost', None, None)
    """
    from urllib.parse import unquote, urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None, None
    info, host = parts.netloc.rsplit("@", 1)
    user, _, password = info.partition(":")
    return (
        urlunsplit(parts._replace(netloc=host)),
        unquote(user) if user else None,
        unquote(password) if ":" in info else None,
    )


class BoltStore(GraphStore):
    backend = "neo4j"

    def __init__(
        self,
        url: str,
        batch_size: int = 5000,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        schema: bool = True,
    ):
        super().__init__(url, batch_size, schema)
        from neo4j import GraphDatabase

        url, url_user, url_password = split_userinfo(url)
        self.url = url  # shown in messages: without the password a URL may carry
        user = (
            user
            if user is not None
            else url_user
            if url_user is not None
            else os.environ.get("GRAPHSR_NEO4J_USER", "neo4j")
        )
        password = (
            password
            if password is not None
            else url_password
            if url_password is not None
            else os.environ.get("GRAPHSR_NEO4J_PASSWORD", "")
        )
        self.database = database or os.environ.get("GRAPHSR_NEO4J_DATABASE") or None
        self._driver = GraphDatabase.driver(url, auth=(user, password))
        from .limits import ENV, parse_seconds

        #: Seconds the server lets one of graphsr's transactions run ($GRAPHSR_STORE_QUERY_TIME, default 3,600);
        #: a user's query (store query --timeout) sets its own.
        self.transaction_timeout = parse_seconds(os.environ.get(ENV["query_time"], "3600"), f"${ENV['query_time']}")

    def _failure(self, name: str, exc: Exception):
        from neo4j import exceptions as ne

        from ..errors import StoreError

        if isinstance(exc, (ne.ServiceUnavailable, ne.SessionExpired)):
            return StoreError(f"cannot reach {self.url} ({exc}); is the Neo4j server running, and is this its address?")
        if isinstance(exc, ne.AuthError):
            return StoreError(
                f"{self.url} refused the credentials ({exc}); set GRAPHSR_NEO4J_USER and GRAPHSR_NEO4J_PASSWORD"
            )
        code = getattr(exc, "code", "") or ""
        if "TransactionTimedOut" in code or "MemoryPoolOutOfMemory" in code or "OutOfMemory" in code:
            from ..errors import StoreLimitError

            return StoreLimitError(
                f"{self.url} ended graphsr's query {name!r} at one of its limits ({exc}); nothing was changed"
            )
        if isinstance(exc, (ne.Neo4jError, ne.DriverError)):
            return StoreError(f"{self.url} refused a request ({exc}; in graphsr's query {name!r})")
        return None

    def _execute(self, text: str, params: dict[str, Any]) -> list[dict]:
        if not _writes(text):
            return self._execute_schema(text, params)

        from neo4j import unit_of_work

        @unit_of_work(timeout=self.transaction_timeout)  # the server ends a transaction running past it
        def work(tx):
            return [record.data() for record in tx.run(text, params)]

        # a managed write transaction: the driver retries it on a transient failure (a deadlock between two
        # loads MERGEing the same nodes), which is safe because every write graphsr sends is idempotent
        from neo4j.exceptions import ConstraintError

        for attempt in range(CONSTRAINT_RETRIES + 1):
            try:
                with self._driver.session(database=self.database) as session:
                    return session.execute_write(work)
            except ConstraintError:
                # Neo4j's MERGE on a uniquely constrained property locks it, so two loads never collide;
                # ArcadeDB's does not: of two transactions creating one id at once, the later fails its
                # uniqueness check.  Every write here is an idempotent MERGE, so it is run again, and then
                # finds the node the other made.  A real violation fails every attempt and is reported.
                if attempt == CONSTRAINT_RETRIES:
                    raise
                time.sleep(random.uniform(0.5, 1.5) * 0.05 * 2**attempt)
        raise AssertionError("unreachable")

    def _execute_schema(self, text: str, params: dict[str, Any]) -> list[dict]:
        with self._driver.session(database=self.database) as session:  # one auto-commit transaction
            result = session.run(text, params)
            return [record.data() for record in result]

    def _execute_read(self, text: str, params: dict[str, Any], timeout: float) -> list[dict]:
        from neo4j import unit_of_work

        @unit_of_work(timeout=timeout)  # the server ends the transaction after the timeout
        def work(tx):
            return [record.data() for record in tx.run(text, params)]

        with self._driver.session(database=self.database, default_access_mode="READ") as session:
            return session.execute_read(work)  # a read transaction: Neo4j refuses writes in it

    def _ignorable_schema_error(self, exc: Exception) -> bool:
        return "already exists" in str(exc).lower()

    def close(self) -> None:
        self._driver.close()
