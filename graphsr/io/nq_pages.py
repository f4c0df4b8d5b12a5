"""A Natural Questions page as a document tree whose long-answer candidates are elements, and NQ's byte offsets as
character offsets of the page's text.

NQ gives every candidate and answer as UTF-8 byte offsets into the page's HTML (``document_html``; the simplified
format gives token offsets into ``document_text``, its tokens joined by single blanks, which is read as the HTML
then, each token's bytes counted).  graphsr reads the page as it reads any web page -- lxml's HTML parser (UTF-8),
``script`` and ``style`` holding no text -- and counts offsets in characters of its text content
(docs/conventions.md).  The rules joining the two:

* **A candidate is the element whose start tag begins at its start byte.**  Where the parser ends that element
  elsewhere than the candidate's end byte (HTML it repairs: an unclosed paragraph, a row outside its table), the
  element is still the candidate -- the tree decides what is an element -- and :attr:`PageTree.disagree` counts
  it.  A candidate that does not begin at a start tag is the smallest element holding its characters, counted
  there too.
* **A byte offset is the number of characters of the page's text before it**: a marker element is put into the
  HTML at that byte before parsing and its place in the text is read off the parsed tree (then the markers are
  taken out; they hold no text, so no other offset moves).  A span ``[start, end)`` of bytes is the characters
  ``[char(start), char(end))``.  An offset inside a tag, a comment or a script (no token of NQ's is) is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.answers import Span
from ..core.document import DocumentTree, containing_node
from ..errors import CollectionError

__all__ = ["NQPage", "PageTree", "page_of", "page_tree"]

_MARK = "graphsr-nq-offset"
_ATTR = "data-graphsr-nq-candidate"
_TAG_NAME = re.compile(rb"<([A-Za-z][A-Za-z0-9:_-]*)")


@dataclass(frozen=True)
class NQPage:
    """A page as NQ gives it: its HTML's bytes, each token's ``[start, end)`` bytes, and each candidate's
    :class:`~graphsr.core.answers.Span`."""

    example_id: str
    html: bytes
    token_start: np.ndarray
    token_end: np.ndarray
    candidates: tuple[Span, ...]
    #: Whether ``html`` is NQ's own (the original format), so that spans' bytes index it; the simplified format's
    #: page is its tokens joined, which spans index by tokens only.
    own_bytes: bool = True

    def byte_range(self, span: Span) -> tuple[int, int]:
        """A non-null span's bytes in :attr:`html` (its tokens' where it gives only tokens, or the page is
        simplified)."""
        if span.has_bytes and self.own_bytes:
            return span.start_byte, span.end_byte
        if not span.has_tokens:
            raise CollectionError(
                f"example {self.example_id}: a span given by bytes only, on a simplified page (tokens only)"
            )
        if not 0 <= span.start_token < span.end_token <= len(self.token_start):
            raise CollectionError(
                f"example {self.example_id}: tokens [{span.start_token}, {span.end_token}) outside the page's "
                f"{len(self.token_start)} tokens"
            )
        return int(self.token_start[span.start_token]), int(self.token_end[span.end_token - 1])


def page_of(record: dict, where: str = "") -> NQPage:
    """The page of an NQ example (original format: ``document_html`` and ``document_tokens``; simplified:
    ``document_text``)."""
    eid = str(record.get("example_id"))
    cands = record.get("long_answer_candidates") or []
    own = True
    if "document_html" in record:
        html = str(record["document_html"]).encode("utf-8")
        tokens = record.get("document_tokens") or []
        start = np.array([t["start_byte"] for t in tokens], dtype=np.int64)
        end = np.array([t["end_byte"] for t in tokens], dtype=np.int64)
    elif "document_text" in record:
        own = False
        words = str(record["document_text"]).split(" ")
        html = " ".join(words).encode("utf-8")
        lengths = np.array([len(w.encode("utf-8")) for w in words], dtype=np.int64)
        start = np.concatenate(([0], np.cumsum(lengths + 1)[:-1])) if len(words) else np.zeros(0, np.int64)
        end = start + lengths
    else:
        raise CollectionError(f"example {eid}: no page (document_html or document_text)", where or None)
    spans = []
    for c in cands:
        try:
            spans.append(
                Span(
                    int(c.get("start_byte", -1)),
                    int(c.get("end_byte", -1)),
                    int(c.get("start_token", -1)),
                    int(c.get("end_token", -1)),
                )
            )
        except (TypeError, ValueError) as exc:
            raise CollectionError(f"example {eid}: a candidate: {exc}", where or None) from None
    return NQPage(eid, html, start, end, tuple(spans), own)


@dataclass
class PageTree:
    """A page's tree (:class:`~graphsr.core.document.DocumentTree`), its text, the node of each candidate, and
    how many candidates the parsed tree does not hold as given (:attr:`disagree`: see the module docstring)."""

    tree: DocumentTree
    text: str
    candidate_node: np.ndarray
    disagree: int
    _bytes: np.ndarray
    _chars: np.ndarray

    def char(self, byte: int) -> int:
        """The character offset of a byte offset given when the tree was built."""
        k = int(np.searchsorted(self._bytes, byte))
        if k >= len(self._bytes) or self._bytes[k] != byte:
            raise KeyError(byte)
        return int(self._chars[k])

    def chars(self, start: int, end: int) -> tuple[int, int]:
        return self.char(start), self.char(end)


def page_tree(page: NQPage, source: str | None = None, offsets=()) -> PageTree:
    """The tree of ``page``, every candidate an element, and the character offset of every candidate's bounds and
    of each byte offset in ``offsets`` (an answer's).

    Raises
    ------
    CollectionError
        An offset the parsed page has no place for (inside a tag, a comment or a script).
    """
    import lxml.html

    from .walk import _drop_script_text, text_content, tree_from_element

    html = page.html
    ranges = [page.byte_range(c) if not c.is_null else (0, 0) for c in page.candidates]
    points = sorted({b for r in ranges for b in r} | {int(b) for b in offsets})
    for b in points:
        if not 0 <= b <= len(html):
            raise CollectionError(f"example {page.example_id}: byte {b} outside the page's {len(html)} bytes", source)
    inserts: list[tuple[int, int, bytes]] = [
        (b, 0, f'<{_MARK} n="{j}"></{_MARK}>'.encode()) for j, b in enumerate(points)
    ]
    for k, (start, _) in enumerate(ranges):
        m = _TAG_NAME.match(html, start)
        if m is not None:
            inserts.append((m.end(), 1, f' {_ATTR}="{k}"'.encode()))
    inserts.sort(key=lambda x: (x[0], x[1]))
    parts, last = [], 0
    for at, _, text in inserts:
        parts.append(html[last:at])
        parts.append(text)
        last = at
    parts.append(html[last:])
    root = lxml.html.document_fromstring(b"".join(parts), parser=lxml.html.HTMLParser(encoding="utf-8"))
    _drop_script_text(root)
    marked = tree_from_element(root, page.example_id, source)
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    chars = np.full(len(points), -1, dtype=np.int64)
    found: dict[int, Any] = {}
    for i, el in enumerate(elements):
        if el.tag == _MARK:
            chars[int(el.get("n"))] = marked.start[i]
        elif el.get(_ATTR) is not None:
            found.setdefault(int(el.get(_ATTR)), el)
    if (chars < 0).any():
        b = points[int(np.flatnonzero(chars < 0)[0])]
        raise CollectionError(
            f"example {page.example_id}: byte {b} falls where the page has no text (inside a tag, a comment or "
            "a script)",
            source,
        )
    for el in root.iter(_MARK):
        el.drop_tree()  # (no text of their own: nothing else moves)
    node_of = {id(el): k for k, el in enumerate(el for el in root.iter() if isinstance(el.tag, str))}
    for el in found.values():
        del el.attrib[_ATTR]
    tree = tree_from_element(root, page.example_id, source)
    out = PageTree(
        tree,
        text_content(root),
        np.full(len(ranges), -1, dtype=np.int64),
        0,
        np.array(points, dtype=np.int64),
        chars,
    )
    for k, (start, end) in enumerate(ranges):
        if page.candidates[k].is_null:
            continue
        c0, c1 = out.chars(start, end)
        el = found.get(k)
        if el is not None:
            node = node_of[id(el)]
        else:
            node = containing_node(tree, c0, c1)
        if el is None or (int(tree.start[node]), int(tree.end[node])) != (c0, c1):
            out.disagree += 1
        out.candidate_node[k] = node
    return out
