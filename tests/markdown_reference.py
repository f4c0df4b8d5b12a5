"""Markdown's blocks as a second CommonMark implementation reads them (markdown-it-py, with GitHub's tables), for
the differential tests of graphsr's Markdown reader (tests/test_markdown_trees.py) and the record of
tools/record_markdown_reference.py.

Each block is ``(tag, first line, end line)`` (0-based, the end exclusive), in document order, under graphsr's tag
names (``p``, ``h1``..``h6``, ``ul``, ``ol``, ``li``, ``blockquote``, ``pre``, ``hr``, ``table``, ``tr``; raw HTML
blocks are not listed, a tight list's paragraphs are: the parsers may differ on a list's tightness, never on where
its paragraphs lie).  Both readers end an element at its last line that is not blank inside its block quotes (a
container after its children; a fenced code block as it is): markdown-it's containers keep the blank lines before
their next sibling, cmark's leaf blocks sometimes do; the rule removes what is a convention, not a reading.
"""

from __future__ import annotations

import re

__all__ = ["reference_blocks"]

_OPEN = {
    "paragraph_open": "p",
    "bullet_list_open": "ul",
    "ordered_list_open": "ol",
    "list_item_open": "li",
    "blockquote_open": "blockquote",
    "table_open": "table",
    "tr_open": "tr",
    "heading_open": None,  # (its tag: h1 .. h6)
}
_LEAVES = {"code_block": "pre", "fence": "pre", "hr": "hr", "html_block": "html"}
_QUOTE = re.compile(r"[ \t]*>[ \t]?")


def _unquoted(line: str, quotes: int) -> str:
    at = 0
    for _ in range(quotes):
        m = _QUOTE.match(line, at)
        if not m:
            break
        at = m.end()
    return line[at:]


def reference_blocks(text: str) -> list[tuple[str, int, int]]:
    """markdown-it-py's blocks of ``text`` (see the module docstring)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    nodes: list[list] = []  # [tag, first, end, quotes, container, fence, children]
    stack: list[int] = []
    for t in md.parse(text):
        if t.nesting == -1:
            if t.type.replace("_close", "_open") in _OPEN:
                stack.pop()
            continue
        if t.type not in _OPEN and t.type not in _LEAVES:
            continue
        tag = _OPEN.get(t.type) or _LEAVES.get(t.type) or t.tag
        quotes = sum(nodes[k][0] == "blockquote" for k in stack)
        if stack:
            nodes[stack[-1]][6].append(len(nodes))
        nodes.append([tag, t.map[0], t.map[1], quotes, tag in ("ul", "ol", "li", "blockquote"), t.type == "fence", []])
        if t.nesting == 1:
            stack.append(len(nodes) - 1)
    for node in reversed(nodes):
        tag, first, end, quotes, container, fence, kids = node
        if fence:
            continue
        floor = max([first + 1] + [nodes[k][2] for k in kids if container])
        depth = len(lines) if container else quotes
        while end - 1 >= floor and not _unquoted(lines[end - 1] if end - 1 < len(lines) else "", depth).strip():
            end -= 1
        node[2] = end
    return [(n[0], n[1], n[2]) for n in nodes if n[0] != "html"]
