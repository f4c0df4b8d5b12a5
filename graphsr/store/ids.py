"""Node ids of the property graph.

Every node is keyed by an ``id`` string that graphsr computes from the
thing's own identity, never from database-internal ids: a one-letter code
of the label, then the parts, each with ``\\`` and ``/`` escaped, joined by
``/`` -- e.g. ``E/inex/12345/7`` for element 7 of document 12345.  The
escaping makes the encoding unambiguous whatever the parts contain (quotes,
slashes, backticks...), so two different things never share an id and the
same thing always gets the same one: MERGE on it makes loading idempotent.
Ids are short because the database hashes and parses them millions of times.
"""

from __future__ import annotations

__all__ = ["node_id", "node_id_prefix", "LABEL_CODES", "collection_id", "document_id", "element_id", "summary_id",
           "summary_node_id"]

LABEL_CODES = {"Collection": "C", "Document": "D", "Element": "E", "Summary": "S", "SummaryNode": "N",
               "Model": "M", "Study": "Y", "Route": "R", "Step": "P", "Qrels": "Q", "Topic": "T", "Run": "U"}


def _part(p) -> str:
    s = str(p)
    if "\\" in s:
        s = s.replace("\\", "\\\\")
    if "/" in s:
        s = s.replace("/", "\\/")
    return s


def node_id(label: str, *parts) -> str:
    """The id of a node: ``node_id("Element", collection, docid, pre)``.

    Examples
    --------
    >>> node_id("Element", "inex", "12345", 7)
    'E/inex/12345/7'
    >>> node_id("Document", "a/b", "c") != node_id("Document", "a", "b/c")
    True
    """
    return "/".join([LABEL_CODES[label], *map(_part, parts)])


def node_id_prefix(label: str, *parts) -> str:
    """The common start of ids whose last part varies: ``node_id_prefix(l, a) + str(x) == node_id(l, a, x)``
    for an ``x`` whose text holds no ``/`` or ``\\`` (e.g. an integer).
    """
    return "/".join([LABEL_CODES[label], *map(_part, parts), ""])


def collection_id(name: str) -> str:
    return node_id("Collection", name)


def document_id(collection: str, docid: str) -> str:
    return node_id("Document", collection, docid)


def element_id(collection: str, docid: str, pre: int) -> str:
    return node_id("Element", collection, docid, int(pre))


def summary_id(collection: str, kind: str) -> str:
    return node_id("Summary", collection, kind)


def summary_node_id(collection: str, kind: str, label: str) -> str:
    return node_id("SummaryNode", collection, kind, label)
