"""Indexes the local store makes when a statement first needs them, and drops when its server stops.

A FalkorDB server starting from its saved data rebuilds every index before it answers anything: 2.3 s per million
nodes for a label's first indexed property and about 0.3 s for each further one (measured on FalkorDB 4.16;
help's 3.5 million elements took 12 s of a 14-16 s start).  The labels that hold millions of nodes (Element,
Route, Step) therefore have their indexes declared ``deferred`` in ``cypher/schema.falkordb.cypher``:

* a statement that filters one of those labels on an indexed property (``e.key = $k``, ``e.key > lo``,
  ``e.in_p_star = $sid``, ``(s:Step {id: ...})``) first has that property's index made and waits until the
  server reports it operational (FalkorDB builds an index in the background, and a query meanwhile scans every
  node of the label);
* a statement that only reads those labels' properties (``a.key AS src``) or reaches them along edges does not;
* when the server stops (:meth:`graphsr.store.server.LocalServer._shutdown`), the deferred indexes are dropped
  before the append-only log is rewritten (or, where the log holds nothing else since its base, the log keeps
  the indexes' making and dropping, which replay in a millisecond), so that the next start loads the data
  alone.  A server killed instead leaves the indexes' making in its log: the next start makes them again while
  it replays the log (slower, equally right), and the next stop drops them.

Which statements need which index is read from their text (:func:`indexes_needed`), against the declarations: the
rule lives here, and ``tests/test_deferred_indexes.py`` lists what it decides for every named query.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from functools import lru_cache

from .processes import status as _status
from .queries import deferred_statements

__all__ = [
    "DeferredIndex",
    "deferred_indexes",
    "indexes_needed",
    "labels_needed",
    "build",
    "present",
    "drop",
    "drop_on",
]

_CLAUSE = re.compile(
    r"\b(ON\s+CREATE\s+SET|ON\s+MATCH\s+SET|OPTIONAL\s+MATCH|MATCH|MERGE|CREATE|WITH|UNWIND|RETURN|SET|WHERE|"
    r"DETACH\s+DELETE|DELETE|ORDER\s+BY|CALL|FOREACH|REMOVE)\b",
    re.IGNORECASE,
)
_DECLARED = re.compile(r"^CREATE INDEX FOR \(n:(\w+)\) ON \(n\.(\w+)\)$")


@dataclass(frozen=True)
class DeferredIndex:
    """One declared deferred index: its label and property (read from the declaration) and the declaration's own
    statement, which makes it; the statement that drops it is the same with DROP (FalkorDB's syntax)."""

    label: str
    prop: str
    create: str = field(default="", compare=False)

    @property
    def drop(self) -> str:
        return "DROP" + self.create[len("CREATE") :]


@lru_cache(maxsize=None)
def deferred_indexes(backend: str = "falkordb") -> tuple[DeferredIndex, ...]:
    """The deferred indexes a backend declares (none for Neo4j, which keeps its indexes on disk)."""
    out = []
    for text in deferred_statements(backend):
        m = _DECLARED.match(text.strip())
        if m is None:
            raise ValueError(f"schema.{backend}.cypher: a deferred block is one 'CREATE INDEX FOR (n:L) ON (n.p)'")
        out.append(DeferredIndex(m[1], m[2], m[0]))
    return tuple(out)


def _props(label: str, backend: str) -> str:
    return "|".join(re.escape(i.prop) for i in deferred_indexes(backend) if i.label == label)


@lru_cache(maxsize=4096)
def indexes_needed(text: str, backend: str = "falkordb") -> frozenset[DeferredIndex]:
    """The deferred indexes statement ``text`` needs: the properties it filters a big label's nodes on, by
    comparison (``=``, ``<``, ``>``, ``IN``) or in a MATCH's or MERGE's node pattern.  (A dynamic property,
    ``e[$p] = $v``, is never served by an index.)"""
    needed = set()
    # the node patterns of MATCH and MERGE clauses (a CREATE's map sets properties, it finds nothing)
    parts = _CLAUSE.split(text)
    found = " ".join(
        body for keyword, body in zip(parts[1::2], parts[2::2]) if keyword.upper().endswith(("MATCH", "MERGE"))
    )
    for index in deferred_indexes(backend):
        label, prop = re.escape(index.label), re.escape(index.prop)
        if re.search(rf"\(\s*\w*\s*:\s*{label}\s*\{{[^}}]*\b{prop}\s*:", found):
            needed.add(index)
            continue
        for var in set(re.findall(rf"\(\s*(\w+)\s*:\s*{label}\b", text)):
            v = re.escape(var)
            if re.search(rf"\b{v}\.{prop}\s*(?:=|<|>|IN\b)", text) or re.search(rf"(?:=|<|>)\s*{v}\.{prop}\b", text):
                needed.add(index)
                break
    return frozenset(needed)


def labels_needed(text: str, backend: str = "falkordb") -> frozenset[str]:
    """The labels of :func:`indexes_needed`."""
    return frozenset(i.label for i in indexes_needed(text, backend))


def _status_rows(query) -> dict[str, tuple[set[str], str]]:
    """label -> (indexed properties, status) of the graph's range indexes."""
    out = {}
    for label, props, status in query(
        "CALL db.indexes() YIELD label, properties, status RETURN label, properties, status"
    ):
        label = label.decode() if isinstance(label, bytes) else str(label)
        status = status.decode() if isinstance(status, bytes) else str(status)
        if isinstance(props, (bytes, str)):
            props = [p.strip() for p in (props.decode() if isinstance(props, bytes) else props).strip("[]").split(",")]
        out[label] = ({str(p.decode() if isinstance(p, bytes) else p) for p in props}, status)
    return out


def present(query, backend: str = "falkordb") -> list[DeferredIndex]:
    """The deferred indexes the graph holds now (``query(text)`` returns result rows)."""
    rows = _status_rows(query)
    return [i for i in deferred_indexes(backend) if i.prop in rows.get(i.label, (set(), ""))[0]]


#: Seconds between status lines while a deferred index is built.
REPORT_EVERY = 10.0


def build(query, wanted, where: str, poll: float = 0.05) -> None:
    """Make the deferred indexes ``wanted`` and wait until the server reports each one's label index operational
    (FalkorDB indexes a label's properties in one index: a property added later re-reads every node of the
    label, 2.6 s per million, against 2.3 s for the first).  ``query(text)`` runs a statement and returns its
    rows; an index that exists already is no error.  A status line every :data:`REPORT_EVERY` s says how far a
    long build is."""
    wanted = sorted(wanted, key=lambda i: (i.label, i.prop))
    for index in wanted:
        try:
            query(index.create)
        except Exception as exc:
            if "already indexed" not in str(exc).lower():
                raise
    t0 = time.monotonic()
    told = t0
    while True:
        rows = _status_rows(query)
        waiting = {}
        for index in wanted:
            props, status = rows.get(index.label, (set(), "missing"))
            if index.prop not in props or status.strip().upper() != "OPERATIONAL":
                waiting[index.label] = status
        if not waiting:
            if told > t0:
                _status(f"graphsr: {where}: indexes ready after {time.monotonic() - t0:.1f} s")
            return
        now = time.monotonic()
        if now - told >= REPORT_EVERY:
            told = now
            what = "; ".join(f"{label} {status}" for label, status in sorted(waiting.items()))
            _status(f"graphsr: {where}: building the indexes a statement needs ({what}) ...")
        time.sleep(poll)


def drop(query, backend: str = "falkordb") -> int:
    """Drop the deferred indexes the graph holds; returns how many were dropped."""
    held = present(query, backend)
    for index in held:
        query(index.drop)
    return len(held)


def drop_on(client, graph: str) -> int:
    """:func:`drop` through a plain Redis client (the server's own, as it stops); 0 where there is no graph yet
    ("empty key") or the server does not answer (its next start then rebuilds the indexes: slower, equally
    right)."""

    def query(text: str) -> list:
        command = "GRAPH.RO_QUERY" if text.startswith("CALL") else "GRAPH.QUERY"
        reply = client.execute_command(command, graph, text)
        return reply[1] if len(reply) == 3 else []

    try:
        return drop(query)
    except Exception:
        return 0
