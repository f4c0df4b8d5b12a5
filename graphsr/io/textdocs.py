"""Markdown, plain text and HTML documents as document trees, beside XML.

Chunk retrieval runs over corpora of Markdown, text and web pages; graphsr reads them as it reads XML: one
document per file (``docid`` = file-name stem), each a tree of elements carrying character offsets
``[start, end)`` into **the document's text**, defined once per format:

``markdown`` (``.md``, ``.markdown``) and ``text`` (``.txt``)
    The decoded file itself (UTF-8): an element's offsets are Python string indices into it, as chunkers and
    Chroma's chunking evaluation count them, markup characters included.  A Markdown document is read by its
    block structure with CommonMark's reference parser (cmark-gfm, with GitHub's tables): the root
    ``document``; a ``section`` for each heading outside lists and quotes, holding the heading (``h1`` ...
    ``h6``) and what follows until a heading of the same or a higher level; ``p``, ``ul``/``ol`` and ``li``,
    ``pre`` (fenced and indented code), ``blockquote``, ``table`` and its rows ``tr``, ``hr`` (raw HTML blocks
    and table cells are not elements).  Each element
    covers whole lines: from the start of its first line to the start of the line after its last (so its
    trailing newline is its own, and an element contains its children).  A text document is ``document`` with a
    ``p`` for each run of non-blank lines.
``html`` (``.html``, ``.htm``)
    Its text content, as for XML (the INEX convention: text characters only, tags excluded), read through
    lxml.html, which reads real-world HTML (unclosed tags, missing ``<html>``); the text of ``script`` and
    ``style`` is not text (their elements stay).  (Read by :func:`graphsr.io.walk.html_tree`, with
    the XML reader's walker.)

Summaries, the store, navigation models, coverage and the view work on these trees as on XML trees.
"""

from __future__ import annotations

import re

import numpy as np

from ..core.document import DocumentTree
from ..errors import CollectionError

__all__ = ["TEXT_FORMATS", "text_format", "parse_text_document", "markdown_tree", "text_tree"]

#: The file-name endings read as each text format.
TEXT_FORMATS = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html", ".htm": "html"}

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: The blocks cmark marks with their source lines that become elements (table cells and raw HTML do not: every
#: element covers whole lines).
_BLOCKS = {"p", "ul", "ol", "li", "blockquote", "pre", "table", "tr", "hr", "h1", "h2", "h3", "h4", "h5", "h6"}
_SOURCEPOS = re.compile(r"(\d+):(\d+)-(\d+):(\d+)")


def text_format(name: str) -> str | None:
    """The text format a file name says (``markdown``, ``text``, ``html``), or None (XML or another file)."""
    lower = name.lower()
    for suffix, kind in TEXT_FORMATS.items():
        if lower.endswith(suffix):
            return kind
    return None


def _decoded(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig") if data.startswith(b"\xef\xbb\xbf") else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CollectionError(f"expected UTF-8 text, got byte 0x{data[exc.start]:02x}", source, line) from None


def parse_text_document(data: bytes, kind: str, docid: str, source: str | None = None) -> DocumentTree:
    """A Markdown or text document's tree (see the module docstring) from its bytes (HTML, read with lxml as
    XML is: :func:`graphsr.io.walk.html_tree`)."""
    name = source or docid
    text = _decoded(data, name)
    return markdown_tree(text, docid, name) if kind == "markdown" else text_tree(text, docid, name)


def _line_starts(text: str) -> np.ndarray:
    """Where each line starts (as CommonMark counts lines: \\r\\n, \\r and \\n end one), then ``len(text)``."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    if starts[-1] != len(text):
        starts.append(len(text))
    return np.asarray(starts, dtype=np.int64)


class _Builder:
    """Elements in pre-order: tag, parent, start, end; positions and depths from them."""

    def __init__(self, docid: str, source: str | None):
        self.docid, self.source = docid, source
        self.tags: dict[str, int] = {}
        self.tag: list[int] = []
        self.parent: list[int] = []
        self.start: list[int] = []
        self.end: list[int] = []

    def add(self, tag: str, parent: int, start: int, end: int) -> int:
        self.tag.append(self.tags.setdefault(tag, len(self.tags)))
        self.parent.append(parent)
        self.start.append(start)
        self.end.append(end)
        return len(self.tag) - 1

    def tree(self) -> DocumentTree:
        n = len(self.tag)
        depth = [1] * n
        position = [1] * n
        seen: dict[tuple[int, int], int] = {}
        for i in range(1, n):
            p = self.parent[i]
            depth[i] = depth[p] + 1
            key = (p, self.tag[i])
            position[i] = seen[key] = seen.get(key, 0) + 1
        return DocumentTree(
            self.docid, tuple(self.tags), self.tag, self.parent, depth, position, self.start, self.end, self.source
        )


def _cmark_blocks(text: str):
    """The document's blocks as cmark-gfm (CommonMark's reference parser, with GitHub's tables) reads them:
    an lxml tree of its HTML, each block carrying its source lines (``data-sourcepos``)."""
    import cmarkgfm
    import lxml.html
    from cmarkgfm.cmark import Options

    html = cmarkgfm.markdown_to_html_with_extensions(text, options=Options.CMARK_OPT_SOURCEPOS, extensions=["table"])
    return lxml.html.fragment_fromstring(html, create_parent="div")


def markdown_tree(text: str, docid: str, source: str | None = None) -> DocumentTree:
    """A Markdown document's block tree, offsets into ``text`` (see the module docstring)."""
    lines = _line_starts(text)
    last = len(lines) - 1

    def at(line: int) -> int:  # the start of 0-based line ``line`` (the end of the text past the last)
        return int(lines[min(max(line, 0), last)])

    b = _Builder(docid, source)
    root = b.add("document", -1, 0, len(text))
    sections: list[tuple[int, int]] = []  # (heading level, element) of open sections

    def walk(el, parent: int, top: bool) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue
            pos = _SOURCEPOS.fullmatch(child.get("data-sourcepos") or "")
            if child.tag not in _BLOCKS or pos is None:
                walk(child, parent, False)  # (thead, tbody: their rows hang on the table)
                continue
            first, end_line, end_col = int(pos.group(1)) - 1, int(pos.group(3)) - 1, int(pos.group(4))
            start, end = at(first), at(end_line + (1 if end_col > 0 else 0))
            end = max(end, at(first + 1))  # (a block ends at the end of its last line at least)
            if top and child.tag[0] == "h" and child.tag[1:].isdigit():
                level = int(child.tag[1])
                while sections and sections[-1][0] >= level:
                    b.end[sections.pop()[1]] = start
                section = b.add("section", sections[-1][1] if sections else root, start, len(text))
                sections.append((level, section))
                b.add(child.tag, section, start, end)
                continue
            owner = sections[-1][1] if top and sections else parent
            walk(child, b.add(child.tag, owner, start, end), False)

    walk(_cmark_blocks(text), root, True)
    return b.tree()


def text_tree(text: str, docid: str, source: str | None = None) -> DocumentTree:
    """A plain text document: ``document``, and a ``p`` for each run of non-blank lines (whole lines)."""
    lines = _line_starts(text)
    b = _Builder(docid, source)
    root = b.add("document", -1, 0, len(text))
    first = None
    for k in range(len(lines) - 1):
        blank = not text[lines[k] : lines[k + 1]].strip()
        if not blank and first is None:
            first = k
        elif blank and first is not None:
            b.add("p", root, int(lines[first]), int(lines[k]))
            first = None
    if first is not None:
        b.add("p", root, int(lines[first]), len(text))
    return b.tree()
