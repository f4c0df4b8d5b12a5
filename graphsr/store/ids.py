"""Node ids and element keys of the property graph.

Every node but an element is keyed by an ``id`` string that graphsr computes
from the thing's own identity, never from database-internal ids: a one-letter
code of the label, then the parts, each with ``\\`` and ``/`` escaped, joined
by ``/`` -- e.g. ``D/inex/12345`` for document 12345 of collection inex.  The
escaping makes the encoding unambiguous whatever the parts contain (quotes,
slashes, backticks...), so two different things never share an id and the
same thing always gets the same one: MERGE on it makes loading idempotent.

Elements, the millions, are keyed by one integer instead
(:func:`element_key`): their document's ``code`` (a number the store gives
each document when it first stores it, unique in the store) times 2**32 plus
their pre-order number.  An integer key costs the database a fraction of a
string id's memory, and a document's elements are one range of keys.  An
element's summary memberships are integer properties named by the summary
kind (:func:`membership_property`), the SID of its summary node.
"""

from __future__ import annotations

__all__ = [
    "node_id",
    "node_id_prefix",
    "LABEL_CODES",
    "collection_id",
    "document_id",
    "element_key",
    "key_parts",
    "key_ranges",
    "summary_id",
    "summary_node_id",
    "membership_property",
    "MEMBERSHIP_PROPERTIES",
    "KEY_SPAN",
    "STORE_ID",
]

LABEL_CODES = {
    "Collection": "C",
    "Document": "D",
    "Summary": "S",
    "SummaryNode": "N",
    "Model": "M",
    "Study": "Y",
    "Route": "R",
    "Step": "P",
    "Qrels": "Q",
    "Topic": "T",
    "Run": "U",
}

#: The id of the one Store node (the schema's version and the next document code).
STORE_ID = "graphsr"

#: Keys of one document's elements span this many values: ``code * KEY_SPAN + pre``.
KEY_SPAN = 1 << 32

#: The element property holding its summary node's SID, per summary kind (a fixed list: query text names a
#: property only from it, never from user input).
MEMBERSHIP_PROPERTIES = {"p*": "in_p_star", "p*|c": "in_p_star_c", "c": "in_c", "tag": "in_tag"}


def _part(p) -> str:
    s = str(p)
    if "\\" in s:
        s = s.replace("\\", "\\\\")
    if "/" in s:
        s = s.replace("/", "\\/")
    return s


def node_id(label: str, *parts) -> str:
    """The id of a node: ``node_id("Document", collection, docid)``.

    Examples
    --------
    >>> node_id("Step", "inex", "study", "r1", 7)
    'P/inex/study/r1/7'
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


def element_key(code: int, pre: int) -> int:
    """The key of element ``pre`` (pre-order number, root 1) of the document coded ``code``.

    >>> element_key(3, 7), key_parts(element_key(3, 7))
    (12884901895, (3, 7))
    """
    if not 0 < int(pre) < KEY_SPAN:
        raise ValueError(f"an element's pre-order number must lie in 1 .. {KEY_SPAN - 1}, got {pre}")
    return int(code) * KEY_SPAN + int(pre)


def key_ranges(codes) -> list[list[int]]:
    """The open key ranges holding the elements of the documents coded ``codes``: one per run of consecutive codes,
    so that no other document's elements fall in one.

    >>> key_ranges([9, 3, 4, 5, 4])
    [[12884901888, 25769803776], [38654705664, 42949672960]]
    """
    ranges: list[list[int]] = []
    for code in sorted(set(codes)):
        if ranges and ranges[-1][1] == code * KEY_SPAN:  # the next code: the run goes on
            ranges[-1][1] = (code + 1) * KEY_SPAN
        else:
            ranges.append([code * KEY_SPAN, (code + 1) * KEY_SPAN])
    return ranges


def key_parts(key: int) -> tuple[int, int]:
    """``(document code, pre)`` of an element key."""
    return divmod(int(key), KEY_SPAN)


def membership_property(kind: str) -> str:
    """The element property holding its summary node's SID for summary kind ``kind``.

    >>> membership_property("p*|c")
    'in_p_star_c'
    """
    try:
        return MEMBERSHIP_PROPERTIES[kind]
    except KeyError:
        raise ValueError(
            f"no membership property for summary kind {kind!r}; expected one of {', '.join(MEMBERSHIP_PROPERTIES)}"
        ) from None


def summary_id(collection: str, kind: str) -> str:
    return node_id("Summary", collection, kind)


def summary_node_id(collection: str, kind: str, label: str) -> str:
    return node_id("SummaryNode", collection, kind, label)
