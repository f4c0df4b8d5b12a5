"""Markdown, plain text and HTML documents as document trees, beside XML.

Chunk retrieval runs over corpora of Markdown, text and web pages; graphsr reads them as it reads XML: one
document per file (``docid`` = file-name stem), each a tree of elements carrying character offsets
``[start, end)`` into **the document's text**, defined once per format:

``markdown`` (``.md``, ``.markdown``) and ``text`` (``.txt``)
    The file as Python's text mode reads it (``open(path, encoding="utf-8").read()``: CRLF and CR read as LF, a
    byte-order mark kept as U+FEFF): an element's offsets are Python string indices into it, as chunkers and
    Chroma's chunking evaluation count them, markup characters included.  A Markdown document is read by its
    block structure with CommonMark's reference parser (cmark-gfm, with GitHub's tables, its syntax tree read
    by :mod:`graphsr.io.cmark_ast`): the root ``document``; ``frontmatter`` (YAML's ``---`` or TOML's ``+++``
    opening the file); a ``section`` for each heading outside lists and quotes, holding the heading (``h1`` ...
    ``h6``) and what follows until a heading of the same or a higher level; ``p``, ``ul``/``ol`` and ``li``,
    ``pre`` (fenced and indented code), ``blockquote``, ``table`` and its rows ``tr``, ``hr`` (raw HTML blocks,
    table cells and a tight list's paragraphs are not elements).  Each element covers whole lines: from the
    start of its first line to the start of the line after its last non-blank one (so its trailing newline is
    its own, and an element contains its children), cmark's positions repaired where they slip
    (:func:`markdown_tree`).  A text document is ``document`` with a ``p`` for each run of non-blank lines.
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

__all__ = ["TEXT_FORMATS", "text_format", "parse_text_document", "markdown_tree", "markdown_blocks", "text_tree"]

#: The file-name endings read as each text format.
TEXT_FORMATS = {".md": "markdown", ".markdown": "markdown", ".txt": "text", ".html": "html", ".htm": "html"}

_TEXT_SUFFIXES = tuple(TEXT_FORMATS)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def text_format(name: str) -> str | None:
    """The text format a file name says (``markdown``, ``text``, ``html``), or None (XML or another file)."""
    lower = name.lower()
    if not lower.endswith(_TEXT_SUFFIXES):
        return None
    for suffix, kind in TEXT_FORMATS.items():
        if lower.endswith(suffix):
            return kind
    return None


def _decoded(data: bytes, source: str, newlines: bool = True) -> str:
    """A Markdown or text file's text, as Python's ``open(path, encoding="utf-8").read()`` gives it (what chunkers
    and Chroma's evaluation read): UTF-8, a byte-order mark kept as the character U+FEFF, and CRLF and CR line
    breaks read as LF (``newlines``; a JSON lines corpus's texts are taken as they are)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise CollectionError(
                "a UTF-16 file (its byte-order mark says so); graphsr reads Markdown and text as UTF-8, as Python's "
                "open(path, encoding='utf-8') does: convert it (iconv -f UTF-16 -t UTF-8)",
                source,
            ) from None
        line = data.count(b"\n", 0, exc.start) + 1
        raise CollectionError(f"expected UTF-8 text, got byte 0x{data[exc.start]:02x}", source, line) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if newlines and "\r" in text else text


def parse_text_document(
    data: bytes, kind: str, docid: str, source: str | None = None, newlines: bool = True
) -> DocumentTree:
    """A Markdown or text document's tree (see the module docstring) from its bytes (HTML, read with lxml as
    XML is: :func:`graphsr.io.walk.html_tree`); ``newlines``: CRLF and CR read as LF (:func:`_decoded`)."""
    name = source or docid
    text = _decoded(data, name, newlines)
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


#: cmark's blocks that become elements, by its kind; a heading is ``h1`` .. ``h6``, a list ``ul`` or ``ol``.  Raw
#: HTML blocks and table cells are not elements.
_TAGS = {
    "paragraph": "p",
    "code_block": "pre",
    "thematic_break": "hr",
    "block_quote": "blockquote",
    "item": "li",
    "table": "table",
    "table_header": "tr",
    "table_row": "tr",
}
_QUOTE_MARK = re.compile(r"[ \t]*>[ \t]?")  # (after the indentation of the list items around it)
#: The raw HTML blocks that end on the line of a terminator (CommonMark 4.6, kinds 1 to 5): opening, terminator.
_HTML_CLOSERS = [
    (
        re.compile(r"<(?:script|pre|style|textarea)(?:[\s>]|$)", re.I),
        re.compile(r"</(?:script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r"<!--"), re.compile(r"-->")),
    (re.compile(r"<\?"), re.compile(r"\?>")),
    (re.compile(r"<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"<!\[CDATA\["), re.compile(r"\]\]>")),
]
_UNDERLINE = re.compile(r"=+|-+")  # (a setext heading's, its line stripped)
_ITEM_MARK = re.compile(r"[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|(?=\n)|$)")
#: A table's delimiter row (GitHub's tables): cells of hyphens with optional colons, separated by pipes.
_DELIMITER_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
#: A link reference definition's start (CommonMark 4.7): a label of up to 999 characters, then a colon.
_DEFINITION = re.compile(
    r"[ ]{0,3}\[(?:[^\\\[\]]|\\.){0,999}\]:[ \t]*\n?[ \t]*"
    r"(?:<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)"
    r"(?:(?:[ \t]+|[ \t]*\n[ \t]*)(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?"
    r"[ \t]*(?:\n|$)",
    re.DOTALL,
)
#: Front matter: a first line of ``---`` (YAML, closed by ``---`` or ``...``) or ``+++`` (TOML, closed by
#: ``+++``), as Jekyll, Hugo, MkDocs and GitHub read it.
_FRONT_MATTER = {"---": ("---", "..."), "+++": ("+++",)}


def _front_matter_lines(text: str, starts: np.ndarray) -> int:
    """How many lines of ``text`` its front matter spans (0: none): from a first line ``---`` or ``+++`` (a
    byte-order mark before it allowed) to the first closing line."""
    lines = len(starts) - 1
    if lines < 2:
        return 0
    opening = text[starts[0] : starts[1]].lstrip("\ufeff").rstrip()
    closers = _FRONT_MATTER.get(opening)
    if closers is None:
        return 0
    for k in range(1, lines):
        if text[starts[k] : starts[k + 1]].rstrip() in closers:
            return k + 1
    return 0


def _quote_marks(line: str, quotes: int) -> int:
    """How many of ``quotes`` block quote markers open ``line``."""
    at, found = 0, 0
    while found < quotes:
        m = _QUOTE_MARK.match(line, at)
        if m is None:
            break
        at, found = m.end(), found + 1
    return found


def _unquoted(line: str, quotes: int, markers: int = 0) -> str:
    """A line without the ``>`` markers of the ``quotes`` block quotes around it, and the first ``markers`` list
    item markers where it is their items' first line."""
    at = 0
    while quotes or markers:
        m = _QUOTE_MARK.match(line, at) if quotes else None
        if m is not None:
            quotes -= 1
        else:
            m = _ITEM_MARK.match(line, at) if markers else None
            if m is None:
                break
            markers -= 1
        at = m.end()
    return line[at:]


def markdown_tree(text: str, docid: str, source: str | None = None) -> DocumentTree:
    """A Markdown document's block tree, offsets into ``text`` (see the module docstring).

    cmark-gfm's blocks (:mod:`graphsr.io.cmark_ast`), with its source lines repaired where it is known to slip:
    a paragraph starts after its link reference definitions; a leaf block does not keep trailing lines that are
    blank inside its block quotes (an indented code block's, a thematic break's before an empty ``>`` line); a
    table interrupting a paragraph starts at its header row (the line above its delimiter row); a block lies
    within its parent and after its previous sibling, and ends where its next sibling starts.  Front matter is
    an element of its own, ``frontmatter``, read by cmark as blank lines.  The tree is then checked: an element
    that is empty or does not nest is one error naming the file and line (never an internal error later).

    Raises
    ------
    CollectionError
        For a document whose blocks do not make a tree (not seen on real Markdown; tested on generated).
    """
    starts = _line_starts(text)
    last = len(starts) - 1
    front, parsed, first, end = markdown_blocks(text, starts)

    def at(line: int) -> int:  # the start of 0-based line ``line`` (the end of the text past the last)
        return int(starts[min(max(line, 0), last)])

    b = _Builder(docid, source)
    root = b.add("document", -1, 0, len(text))
    if front:
        b.add("frontmatter", root, 0, at(front))
    sections: list[tuple[int, int]] = []  # (heading level, element) of open sections
    element = {0: root}  # block index -> element, for the blocks that are elements (the others hang on a parent)
    for i, block in enumerate(parsed):
        if i == 0:
            continue
        parent = block.parent
        while parent not in element:  # (a raw HTML block is no element)
            parent = parsed[parent].parent
        start, stop = at(first[i]), at(end[i])
        if block.kind == "heading":
            tag = f"h{block.level}"
        elif block.kind == "list":
            tag = "ol" if block.level else "ul"
        else:
            tag = _TAGS.get(block.kind)
        if tag is None or (block.kind == "paragraph" and in_tight_list(parsed, i)):
            continue  # (a paragraph of a tight list's item is the item's text, not an element: HTML shows no <p>)
        if parent == 0 and block.kind == "heading":  # a heading outside lists and quotes opens a section
            while sections and sections[-1][0] >= block.level:
                b.end[sections.pop()[1]] = start
            section = b.add("section", sections[-1][1] if sections else root, start, len(text))
            sections.append((block.level, section))
            element[i] = b.add(tag, section, start, stop)
            continue
        owner = sections[-1][1] if parent == 0 and sections else element[parent]
        element[i] = b.add(tag, owner, start, stop)
    _check_nesting(b, text, source or docid)
    return b.tree()


def markdown_blocks(text: str, starts: np.ndarray | None = None):
    """``(front, blocks, first, end)``: the lines front matter spans (0: none), cmark-gfm's blocks of ``text``
    (:func:`graphsr.io.cmark_ast.blocks`, the document first) and each block's first and end line (0-based, the end
    exclusive), repaired (see :func:`markdown_tree`); every block, the paragraphs of tight lists' items and raw
    HTML blocks included."""
    from .cmark_ast import blocks as cmark_blocks

    starts = _line_starts(text) if starts is None else starts
    front = _front_matter_lines(text, starts)
    parsed = cmark_blocks("\n" * front + text[starts[front] :] if front else text)
    first, end = _repaired_lines(parsed, text, starts, front)
    return front, parsed, first, end


def in_tight_list(parsed, i: int) -> bool:
    """Whether block ``i`` is a paragraph directly in an item of a tight list."""
    item = parsed[parsed[i].parent]
    return item.kind == "item" and parsed[item.parent].tight


def _repaired_lines(parsed, text: str, starts: np.ndarray, front: int) -> tuple[list[int], list[int]]:
    """Each block's first line and end line (0-based, exclusive), cmark's repaired (see :func:`markdown_tree`)."""
    r = _Repair(parsed, text, starts, front)
    for i in range(1, len(parsed)):
        kind = parsed[i].kind
        if kind == "table":
            r.table(i)
        elif kind == "html_block":
            r.html_block(i)
        elif parsed[i].fence:
            r.fence(i)
        elif kind in ("paragraph", "heading") and r.first[i] >= 0:
            r.paragraph_or_heading(i)
    r.trim_ends()
    r.nest()
    return r.first, r.end


class _Repair:
    """The lines of cmark's blocks (``first``, ``end``), repaired block by block (see :func:`markdown_tree`)."""

    def __init__(self, parsed, text: str, starts: np.ndarray, front: int):
        self.parsed, self.text, self.starts, self.front = parsed, text, starts, front
        self.lines = len(starts) - 1
        n = len(parsed)
        self.first = [b.first for b in parsed]
        self.end = [b.end for b in parsed]
        self.first[0], self.end[0] = front, self.lines
        self.quotes = [0] * n
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i in range(1, n):
            p = parsed[i].parent
            self.quotes[i] = self.quotes[p] + (parsed[p].kind == "block_quote")
            self.children[p].append(i)

    def text_line(self, k: int) -> str:  # (its line break read as one \n)
        if not 0 <= k < self.lines:
            return ""
        return _LINE_BREAK.sub("\n", self.text[self.starts[k] : self.starts[k + 1]])

    def line(self, k: int, q: int, markers: int = 0) -> str:
        return _unquoted(self.text_line(k), q, markers)

    def head(self, i: int) -> str:  # a block's first line, without the markers of its quotes and of the items it opens
        markers, a = 0, self.parsed[i].parent
        while a > 0:
            markers += self.parsed[a].kind == "item" and self.first[a] == self.first[i]
            a = self.parsed[a].parent
        return self.line(self.first[i], self.quotes[i], markers)

    def after_definitions(self, i: int) -> None:  # a paragraph's (a setext heading's) text starts after them
        top = self.head(i)
        if top.lstrip().startswith("["):
            self.first[i] = _after_definitions(self.first[i], self.end[i], top, self.quotes[i], self.line)

    def table(self, i: int) -> None:
        """A table's header row is the line above its delimiter row."""
        q = self.quotes[i]
        for k in range(max(self.first[i], self.front), min(self.end[i], self.lines)):
            if "|" in self.line(k, q) and _DELIMITER_ROW.fullmatch(self.line(k, q).rstrip("\n")):
                self.first[i] = max(k - 1, self.front)
                header = next((c for c in self.children[i] if self.parsed[c].kind == "table_header"), None)
                if header is not None:
                    self.first[header], self.end[header] = k - 1, k
                break

    def html_block(self, i: int) -> None:
        """One that ends at a terminator ends on its line (cmark says 0 or the line before)."""
        opening = self.head(i).lstrip()
        closer = next((c for o, c in _HTML_CLOSERS if o.match(opening)), None)
        if closer is not None:
            k = self.first[i]
            while k < self.lines - 1 and not closer.search(
                self.line(k, self.quotes[i]) if k > self.first[i] else opening[1:]
            ):
                k += 1
            self.end[i] = k + 1

    def fence(self, i: int) -> None:
        """A fenced block never closed runs to its container's end, blank lines included ..."""
        q, end = self.quotes[i], self.end
        closing = self.line(end[i] - 1, q).strip()
        if end[i] - 1 == self.first[i] or not (
            closing.startswith(self.parsed[i].fence) and not closing.strip(closing[0])
        ):
            # (... but past its container's end only over blank lines, and not into a line outside its quotes:
            # cmark may count the line after either)
            outer = end[self.parsed[i].parent]
            k = outer
            while k < end[i] and not self.line(k, q).strip():
                k += 1
            end[i] = max(min(end[i], k), outer)
            while end[i] - 1 > self.first[i] and _quote_marks(self.text_line(end[i] - 1), q) < q:
                end[i] -= 1

    def paragraph_or_heading(self, i: int) -> None:
        """After link reference definitions; an ATX heading is its line, a setext heading ends at its underline."""
        self.after_definitions(i)
        if self.parsed[i].kind != "heading":
            return
        first, end, q = self.first, self.end, self.quotes[i]
        if self.head(i).lstrip().startswith("#"):
            end[i] = first[i] + 1
        else:
            k = first[i] + 1
            while k < min(end[i], self.lines) and not _UNDERLINE.fullmatch(self.line(k, q).strip()):
                k += 1
            end[i] = min(k + 1, max(end[i], first[i] + 1))

    def trim_ends(self) -> None:
        """An element ends at its last line that is not blank inside its quotes: cmark counts an indented code
        block's trailing blank lines, a thematic break's empty ``>`` line after it, a list item's blank lines
        before the next item; a fenced code block's blank lines before its end are its content (kept), and a
        container ends after its children (bottom-up)."""
        first, end = self.first, self.end
        for i in range(len(self.parsed) - 1, 0, -1):
            if self.parsed[i].fence:
                continue
            container = self.parsed[i].kind in ("block_quote", "list", "item")
            inner = self.lines if container else self.quotes[i]  # (a container's lines may hold quote markers)
            floor = max([first[i] + 1] + [end[c] for c in self.children[i] if container])
            end[i] = max(end[i], floor) if container else end[i]  # (an open fence's lines are its item's too)
            while end[i] - 1 >= floor and not self.line(end[i] - 1, inner).strip():
                end[i] -= 1

    def nest(self) -> None:
        """Within the parent, before the next sibling (top-down: a parent is placed first); a start cmark lost (a
        paragraph a table interrupted: 0:0) is the first line after the sibling before that is neither blank nor
        a link reference definition."""
        first, end = self.first, self.end
        for p in range(len(self.parsed)):
            kids = self.children[p]
            high = end[p]
            for c in reversed(kids):
                if first[c] >= 0:
                    first[c] = min(max(first[c], first[p]), high)
                end[c] = high if end[c] < 0 or end[c] > high else end[c]
                high = first[c] if first[c] >= 0 else high
            low = first[p]
            for c in kids:
                if first[c] < 0:
                    first[c] = low
                    while first[c] < end[c] - 1 and not self.line(first[c], self.lines).strip():
                        first[c] += 1
                    if self.parsed[c].kind == "paragraph":
                        self.after_definitions(c)
                low = end[c]


def _after_definitions(first: int, end: int, head: str, quotes: int, line) -> int:
    """The first line of a paragraph that is not part of the link reference definitions opening it (CommonMark
    4.7: cmark counts them as the paragraph's); ``head`` its first line's text, without its containers' markers.
    A paragraph keeps its last line."""
    lines = [head] + [line(j, quotes) for j in range(first + 1, end)]
    k = 0
    while k < len(lines) - 1:
        m = _DEFINITION.match("".join(x.lstrip(" \t") for x in lines[k:]))  # (a paragraph's lines: indent ignored)
        used = m.group(0).count("\n") if m is not None else 0
        if not used or k + used >= len(lines):
            break
        k += used
    return first + k


def _check_nesting(b: "_Builder", text: str, source: str) -> None:
    """Refuse, in one line naming the file and line, elements that are empty or do not nest: each element is
    non-empty (but an empty document's root), lies within its parent and after its previous sibling."""
    last_child: dict[int, int] = {}
    for i in range(1, len(b.tag)):
        p = b.parent[i]
        start, end = b.start[i], b.end[i]
        prev = last_child.get(p)
        if not (b.start[p] <= start < end <= b.end[p]) or (prev is not None and b.end[prev] > start):
            tag = next(t for t, k in b.tags.items() if k == b.tag[i])
            raise CollectionError(
                f"the Markdown reader made a {tag} element [{start}, {end}) that is "
                + ("empty" if start >= end else "not within its parent or overlaps the one before")
                + "; please report this document",
                source,
                text.count("\n", 0, start) + 1,
            )
        last_child[p] = i


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
