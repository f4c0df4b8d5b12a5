"""A user's Cypher query, run read-only: refused before it is sent if it writes, and sent in the backend's
read-only mode (FalkorDB ``GRAPH.RO_QUERY``, a Neo4j read transaction) so the server refuses it too.

The check reads the query with its string literals and comments blanked (a
word inside a string is not a clause): clauses that write (``CREATE``,
``MERGE``, ``SET``, ``DELETE``, ``DETACH DELETE``, ``REMOVE``, ``DROP``,
``FOREACH``, ``LOAD CSV``) and procedure calls other than a few known
read-only ones are refused.  Values are passed as parameters, never
formatted into the text.

>>> check_read_only("MATCH (n:Element) WHERE n.xpath = 'SET x' RETURN n.id")
>>> check_read_only("MATCH (n) SET n.x = 1")
Traceback (most recent call last):
...
graphsr.errors.GraphsrInputError: store query: SET writes; queries are read-only
"""

from __future__ import annotations

import re

from ..errors import GraphsrInputError

__all__ = ["check_read_only", "READ_PROCEDURES"]

_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV)\b", re.IGNORECASE)
_CALL = re.compile(r"\bCALL\s+([A-Za-z_][\w.]*)", re.IGNORECASE)
_SUBQUERY = re.compile(r"\bCALL\s*\{", re.IGNORECASE)
#: procedures known not to write (both backends' schema introspection)
READ_PROCEDURES = frozenset(
    {
        "db.labels",
        "db.relationshiptypes",
        "db.propertykeys",
        "db.indexes",
        "db.constraints",
        "db.schema.visualization",
        "db.schema.nodetypeproperties",
        "db.schema.reltypeproperties",
        "dbms.components",
        "dbms.procedures",
        "db.meta.stats",
    }
)


def _blank(text: str) -> str:
    """The query with string literals, quoted names and comments replaced by spaces."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def check_read_only(text: str) -> None:
    """Raise GraphsrInputError if the query writes (see the module docstring)."""
    if not text.strip():
        raise GraphsrInputError("store query: the query is empty")
    code = _blank(text)
    hit = _WRITES.search(code)
    if hit:
        word = " ".join(hit.group(1).upper().split())
        if word == "DETACH":
            word = "DETACH DELETE"
        raise GraphsrInputError(f"store query: {word} writes; queries are read-only")
    for call in _CALL.finditer(code):
        if call.group(1).lower() not in READ_PROCEDURES:
            raise GraphsrInputError(
                f"store query: CALL {call.group(1)} is not a known read-only procedure; queries are read-only"
            )
    if _SUBQUERY.search(code) and _WRITES.search(code):  # pragma: no cover - caught above
        raise GraphsrInputError("store query: a subquery writes; queries are read-only")
