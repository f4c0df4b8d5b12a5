"""Compact, array-based document trees.

A :class:`DocumentTree` holds one XML document as parallel numpy arrays in
document (pre-)order.  Node ``i`` (0-based array index) has pre-order id
``i + 1`` as in the figures of the SR paper (root = 1).  Nothing in it says
where the tree came from: it is built by :mod:`graphsr.io` from XML files, by
tests from literals, and later by the store from the database.

Conventions (docs/conventions.md)
----------------------------
* ``parent[i]`` is the array index of the parent, ``-1`` for the root.
* ``depth[i]`` counts the steps of the node's XPath: the root has depth 1.
* ``position[i]`` is the 1-based position of the node among the siblings
  that share its tag, so that the node's XPath is
  ``/tag[position]/.../tag[position]`` as INEX writes it.
* ``start[i]`` / ``end[i]`` are character offsets ``[start, end)`` of the
  node's descendant text: Unicode characters of text content only, tags
  excluded, offset 0 is the first text character of the document.  The
  node length (its FOL length) is ``end - start``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..errors import UnknownNodeError, XPathError

__all__ = [
    "DocumentTree",
    "PlainDocuments",
    "normalize_xpath",
    "canonical_xpath",
    "resolve_node",
    "containing_node",
    "containing_nodes",
]

_STEP = re.compile(r"([^/\[\]]+)(?:\[(\d+)\])?")
MAX_XPATH = 10_000  # characters: far beyond any real document's depth, and bounds the work on a bad line


def quoted(text: str, limit: int = 200) -> str:
    """``repr(text)``, cut to about ``limit`` characters for a message."""
    if not isinstance(text, str) or len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"


@lru_cache(maxsize=1 << 16)  # runs and assessments repeat the same XPaths: parse each once
def normalize_xpath(xpath: str) -> tuple[tuple[str, int], ...]:
    """Split an INEX XPath into ``(tag, position)`` steps.

    A step written without a position means position 1
    (``/article/bdy`` is ``/article[1]/bdy[1]``).

    Parameters
    ----------
    xpath : str
        An absolute XPath of child steps, e.g. ``/article[1]/bdy[1]/sec[2]``.

    Returns
    -------
    tuple of (str, int)

    Raises
    ------
    XPathError
        If the string is not an absolute path of ``tag[n]`` steps.

    Examples
    --------
    >>> normalize_xpath("/article[1]/bdy/sec[2]")
    (('article', 1), ('bdy', 1), ('sec', 2))
    """
    if len(xpath) > MAX_XPATH:
        raise XPathError(f"an XPath of {len(xpath)} characters (at most {MAX_XPATH}): {quoted(xpath)}")
    if not xpath.startswith("/") or xpath.endswith("/") or "//" in xpath:
        raise XPathError(f"expected an absolute XPath like /article[1]/sec[2], got {quoted(xpath)}")
    steps = []
    for raw in xpath[1:].split("/"):
        m = _STEP.fullmatch(raw)
        if m is None:
            raise XPathError(f"expected XPath steps of the form tag[n], got {quoted(raw)} in {quoted(xpath)}")
        pos = int(m.group(2)) if m.group(2) else 1
        if pos < 1:
            raise XPathError(f"XPath positions are 1-based, got {quoted(raw)} in {quoted(xpath)}")
        steps.append((m.group(1), pos))
    return tuple(steps)


@lru_cache(maxsize=1 << 16)
def canonical_xpath(xpath: str) -> str:
    """The XPath with an explicit position on every step.

    Examples
    --------
    >>> canonical_xpath("/article/bdy[1]/sec[2]")
    '/article[1]/bdy[1]/sec[2]'
    """
    return "/" + "/".join(f"{t}[{p}]" for t, p in normalize_xpath(xpath))


def _frozen(values, dtype) -> np.ndarray:
    a = np.array(values, dtype=dtype)
    a.flags.writeable = False
    return a


# a plain document (TREC document qrels and runs, DataFrames without an xpath column): one element
PLAIN_DOCUMENT_NODE = "/doc[1]"

# the arrays of a one-node document: tag, parent, depth, position, start, end
_SINGLE = (
    _frozen([0], np.int32),
    _frozen([-1], np.int32),
    _frozen([1], np.int32),
    _frozen([1], np.int32),
    _frozen([0], np.int64),
    _frozen([0], np.int64),
)
_SINGLE_INDEX = {(("doc", 1),): 0}


@dataclass(eq=False)
class DocumentTree:
    """One document as arrays in pre-order.

    Parameters
    ----------
    docid : str
        Document identifier (the file-name stem; INEX: the article id).
    tags : sequence of str
        The document's tag vocabulary; ``tag`` indexes into it.
    tag, parent, depth, position : array of int32
        Per-node tag index, parent index (-1 for the root), depth (root = 1)
        and 1-based position among same-tag siblings.
    start, end : array of int64
        Text offsets ``[start, end)`` of each node's descendant text.
    source : str, optional
        Where the document was read from (a file name), for messages.
    key_hashes : (ndarray, ndarray), optional
        Cached summary key hashes (tag codes, node hashes), see
        :mod:`graphsr.summaries._keys`; the C reader fills them in, else they
        are computed when first needed.

    Examples
    --------
    >>> doc = DocumentTree.from_nested("d", ("a", "xy", [("b", "abc", []), ("b", "", [("c", "z", [])])]))
    >>> [doc.xpath(i) for i in range(len(doc))]
    ['/a[1]', '/a[1]/b[1]', '/a[1]/b[2]', '/a[1]/b[2]/c[1]']
    >>> doc.length.tolist()
    [6, 3, 1, 1]
    >>> doc.node("/a/b[2]/c")
    3
    """

    docid: str
    tags: tuple[str, ...]
    tag: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    position: np.ndarray
    start: np.ndarray
    end: np.ndarray
    source: str | None = None
    key_hashes: tuple | None = field(default=None, repr=False)
    _index: dict | None = field(default=None, repr=False)
    _walked: int = field(default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.tags = tuple(self.tags)
        self.tag = np.asarray(self.tag, dtype=np.int32)
        self.parent = np.asarray(self.parent, dtype=np.int32)
        self.depth = np.asarray(self.depth, dtype=np.int32)
        self.position = np.asarray(self.position, dtype=np.int32)
        self.start = np.asarray(self.start, dtype=np.int64)
        self.end = np.asarray(self.end, dtype=np.int64)
        n = len(self.tag)
        for name in ("parent", "depth", "position", "start", "end"):
            if len(getattr(self, name)) != n:
                raise ValueError(
                    f"DocumentTree {self.docid!r}: array {name!r} has length {len(getattr(self, name))}, expected {n}"
                )
        if n == 0:
            raise ValueError(f"DocumentTree {self.docid!r} has no nodes")

    @classmethod
    def _trusted(
        cls, docid, tags, tag, parent, depth, position, start, end, source=None, key_hashes=None
    ) -> "DocumentTree":
        """Build without conversions or checks, from arrays of the right dtypes (readers only)."""
        self = object.__new__(cls)
        self.docid, self.tags, self.tag, self.parent, self.depth = docid, tags, tag, parent, depth
        self.position, self.start, self.end, self.source, self._index = position, start, end, source, None
        self._walked = 0
        self.key_hashes = key_hashes
        return self

    @classmethod
    def single(cls, docid: str) -> "DocumentTree":
        """A plain document: one element, :data:`PLAIN_DOCUMENT_NODE`, with no text (how document runs are
        scored without a collection).  Its arrays are shared and read-only."""
        self = cls._trusted(docid, ("doc",), *_SINGLE)
        self._index = _SINGLE_INDEX  # shared, never changed: node() only reads it
        return self

    # -- basic facts -------------------------------------------------------
    def __len__(self) -> int:
        return len(self.tag)

    @property
    def length(self) -> np.ndarray:
        """Node length: number of text characters in each node's subtree."""
        return self.end - self.start

    @property
    def preorder(self) -> np.ndarray:
        """Pre-order ids (root = 1)."""
        return np.arange(1, len(self) + 1, dtype=np.int64)

    def tag_names(self) -> list[str]:
        """Tag name of every node."""
        return [self.tags[t] for t in self.tag]

    def children(self, i: int) -> np.ndarray:
        """Array indices of the children of node ``i`` in document order."""
        return np.flatnonzero(self.parent == i)

    # -- XPaths --------------------------------------------------------------
    def xpath(self, i: int) -> str:
        """The 1-based positional XPath of node ``i``."""
        steps = []
        i = int(i)
        while i >= 0:
            steps.append(f"{self.tags[self.tag[i]]}[{self.position[i]}]")
            i = int(self.parent[i])
        return "/" + "/".join(reversed(steps))

    def xpaths(self) -> list[str]:
        """XPaths of all nodes, in pre-order."""
        out: list[str] = []
        tags, tag, pos, par = self.tags, self.tag.tolist(), self.position.tolist(), self.parent.tolist()
        for i in range(len(tag)):
            step = f"/{tags[tag[i]]}[{pos[i]}]"
            out.append(step if par[i] < 0 else out[par[i]] + step)
        return out

    def xpaths_of(self, nodes) -> list[str]:
        """XPaths of the nodes ``nodes`` (array indices, any order), each built once with its ancestors' (what
        :meth:`xpath` gives for each, without building every node's as :meth:`xpaths` does).

        >>> doc = DocumentTree.from_nested("d", ("a", "", [("b", "x", []), ("b", "y", [("c", "z", [])])]))
        >>> doc.xpaths_of([3, 1, 3])
        ['/a[1]/b[2]/c[1]', '/a[1]/b[1]', '/a[1]/b[2]/c[1]']
        """
        tags, tag, pos, par = self.tags, self.tag, self.position, self.parent
        made: dict[int, str] = {}

        def path(i: int) -> str:
            chain = []
            while i >= 0 and i not in made:
                chain.append(i)
                i = int(par[i])
            prefix = made[i] if i >= 0 else ""
            for j in reversed(chain):
                prefix = made[j] = f"{prefix}/{tags[tag[j]]}[{pos[j]}]"
            return prefix

        return [made[i] if i in made else path(i) for i in map(int, nodes)]

    def node(self, xpath: str) -> int:
        """Array index of the node at ``xpath``.

        Raises
        ------
        KeyError
            If the document has no node at that path.
        ValueError
            If ``xpath`` is not a well-formed positional path.
        """
        [found] = self.nodes_at([normalize_xpath(xpath)])
        if found < 0:
            raise KeyError(f"document {self.docid!r} has no node {quoted(xpath)}")
        return found

    #: A document's XPaths are looked up in its index (:meth:`node_index`) when they are at least this many
    #: steps in all per 100 of its nodes; fewer are walked down from the root (:meth:`nodes_at`), with no index
    #: built: a run naming a few elements of each document does not pay an index entry (about 300 bytes and
    #: 1 µs) for every element of every document it names.
    WALK_STEPS_PER_100_NODES = 8

    def nodes_at(self, paths: list[tuple], keep: bool = True) -> list[int]:
        """The node at each path of :func:`normalize_xpath` steps (-1 where the document has none).  The steps
        walked are counted over calls: a document asked for many paths one at a time gets its index.  With
        ``keep`` False (a caller asking for all it needs at once) an index built for the paths is not kept."""
        if self._index is None:
            walked = self._walked + sum(map(len, paths))
            if 100 * walked < self.WALK_STEPS_PER_100_NODES * len(self.tag):
                self._walked = walked
                return [self._walk(p) for p in paths]
            if not keep:
                index = self._build_index()
                return [index.get(p, -1) for p in paths]
        index = self.node_index()
        return [index.get(p, -1) for p in paths]

    def _walk(self, steps: tuple) -> int:
        """The node at ``steps``, found level by level within the subtree of the step before (-1: none)."""
        if not steps or steps[0] != (self.tags[self.tag[0]], 1):
            return -1
        depth, tag, position = self.depth, self.tag, self.position
        cur, lo, hi = 0, 1, len(tag)
        for level, (name, pos) in enumerate(steps[1:], start=2):
            try:
                code = self.tags.index(name)
            except ValueError:
                return -1
            hit = np.flatnonzero((depth[lo:hi] == level) & (tag[lo:hi] == code) & (position[lo:hi] == pos))
            if not len(hit):
                return -1
            cur = lo + int(hit[0])
            below = np.flatnonzero(depth[cur + 1 : hi] <= level)
            lo, hi = cur + 1, cur + 1 + int(below[0]) if len(below) else hi
        return cur

    def node_index(self) -> dict[tuple, int]:
        """Every node's index keyed by its :func:`normalize_xpath` steps (built once)."""
        if self._index is None:
            self._index = self._build_index()
        return self._index

    def _build_index(self) -> dict[tuple, int]:
        tags, tag, pos, par = self.tags, self.tag.tolist(), self.position.tolist(), self.parent.tolist()
        keys: list[tuple] = []
        for i in range(len(tag)):
            step = ((tags[tag[i]], pos[i]),)
            keys.append(step if par[i] < 0 else keys[par[i]] + step)
        return {k: i for i, k in enumerate(keys)}

    # -- construction helpers ----------------------------------------------
    @classmethod
    def from_nested(cls, docid: str, root: tuple, source: str | None = None) -> "DocumentTree":
        """Build a tree from ``(tag, text, [children...])`` tuples.

        ``text`` is the element's own text before its first child; this
        helper is for tests and examples (no tails).
        """
        tags: dict[str, int] = {}
        tag, parent, depth, position, start, end = [], [], [], [], [], []
        offset = 0

        def visit(node: tuple, par: int, d: int, pos: int) -> None:
            nonlocal offset
            name, text, kids = node
            i = len(tag)
            tag.append(tags.setdefault(name, len(tags)))
            parent.append(par)
            depth.append(d)
            position.append(pos)
            start.append(offset)
            end.append(0)
            offset += len(text)
            seen: dict[str, int] = {}
            for kid in kids:
                seen[kid[0]] = seen.get(kid[0], 0) + 1
                visit(kid, i, d + 1, seen[kid[0]])
            end[i] = offset

        visit(root, -1, 1, 1)
        return cls(docid, tuple(tags), tag, parent, depth, position, start, end, source)


def resolve_node(documents, docid: str, xpath: str, source=None, line: int | None = None, context: str = "") -> int:
    """The node index of ``(docid, xpath)`` among ``documents`` (a mapping docid -> DocumentTree): the one place
    where a document and an XPath become a node, with one error text for every reader and command.

    Raises
    ------
    UnknownNodeError
        Naming ``source:line`` (and ``context``, e.g. "route 'r1' step 3") when the document is not among
        ``documents`` or has no such node.

    Examples
    --------
    >>> doc = DocumentTree.from_nested("d", ("a", "", [("b", "x", [])]))
    >>> resolve_node({"d": doc}, "d", "/a/b")
    1
    >>> resolve_node({"d": doc}, "d", "/a/c", "run.txt", 7)
    Traceback (most recent call last):
    ...
    graphsr.errors.UnknownNodeError: run.txt:7: document 'd' has no node /a/c: expected an XPath that exists in the collection
    """
    where = f"{context}: " if context else ""
    doc = documents.get(docid)
    if doc is None:
        raise UnknownNodeError(
            f"{where}unknown document {docid!r}: expected a document of the collection", source, line
        )
    try:
        return doc.node(xpath)
    except (KeyError, ValueError):
        shown = (
            xpath if xpath.isprintable() and not any(c.isspace() for c in xpath) and len(xpath) < 200 else quoted(xpath)
        )
        raise UnknownNodeError(
            f"{where}document {docid!r} has no node {shown}: expected an XPath that exists in the collection",
            source,
            line,
        ) from None


class PlainDocuments(Mapping):
    """Every document of ``docids`` as a single element (:meth:`DocumentTree.single`), each made when first
    asked for: the flat measures never ask, the element families only for the documents they score."""

    def __init__(self, docids: set[str]):
        self._docids = docids
        self._made: dict[str, DocumentTree] = {}

    def __getitem__(self, docid: str) -> DocumentTree:
        doc = self._made.get(docid)
        if doc is None:
            if docid not in self._docids:
                raise KeyError(docid)
            doc = self._made[docid] = DocumentTree.single(docid)
        return doc

    def __contains__(self, docid) -> bool:
        return docid in self._docids

    def __iter__(self):
        return iter(self._docids)

    def __len__(self) -> int:
        return len(self._docids)


def containing_node(doc: DocumentTree, start: int, end: int) -> int:
    """The smallest node of ``doc`` whose text range ``[start, end)`` holds the range ``[start, end)`` given:
    where a passage or chunk that is not an element resolves to a node (the section or paragraph a reader opens
    to read it; a range equal to a node's is that node, the deepest of nodes sharing it).  A range past the
    document's text resolves to the root.

    Examples
    --------
    >>> doc = DocumentTree.from_nested("d", ("a", "", [("b", "xxxx", []), ("c", "yyy", [("e", "zz", [])])]))
    >>> [containing_node(doc, s, e) for s, e in ((0, 2), (0, 4), (3, 6), (4, 6), (7, 9), (8, 9), (4, 9))]
    [1, 1, 0, 2, 3, 3, 2]
    """
    return int(containing_nodes(doc, [start], [end])[0])


def containing_nodes(doc: DocumentTree, start, end) -> np.ndarray:
    """:func:`containing_node` of each range ``[start[k], end[k])`` at once (one rule, with array operations):
    the last node (pre-order) starting at or before ``start``, then its ancestors until one holds the range.

    >>> doc = DocumentTree.from_nested("d", ("a", "", [("b", "xxxx", []), ("c", "yyy", [("e", "zz", [])])]))
    >>> containing_nodes(doc, [0, 0, 3, 4, 7, 8, 4], [2, 4, 6, 6, 9, 9, 9]).tolist()
    [1, 1, 0, 2, 3, 3, 2]
    """
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    node = np.searchsorted(doc.start, start, side="right") - 1
    parent = doc.parent.astype(np.int64)

    def short(at, n):  # still below the root, and not holding its range
        m = np.maximum(n, 0)
        return (n > 0) & ~((doc.end[m] >= end[at]) & (doc.start[m] <= start[at]))

    at = np.flatnonzero(short(np.arange(len(node)), node))
    while len(at):
        node[at] = parent[node[at]]
        at = at[short(at, node[at])]
    return np.maximum(node, 0)
