"""Natural Questions examples written the way NQ writes them, from a tree of HTML nodes: the page's HTML, its
tokens (block tags and words, each with its UTF-8 bytes; inline tags are no token, as in NQ), its long-answer
candidates (paragraphs, tables, rows, lists, items, definition lists) with ``top_level``, and annotations naming
candidates and words.  Used by tools/make_nq_sample.py and the page tests."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, field

#: NQ's long-answer candidates.
CANDIDATES = ("p", "table", "tr", "ul", "ol", "li", "dl", "dd", "dt")
#: Tags that are tokens of their own (NQ keeps headings, paragraphs, tables and lists).
BLOCK = CANDIDATES + ("h1", "h2", "h3", "td", "th")
_WORD = re.compile(r"&[A-Za-z]+;|&#[0-9]+;|\w+|[^\w\s]")


@dataclass(eq=False)
class Node:
    tag: str
    children: list = field(default_factory=list)
    attrs: str = ""
    close: bool = True  # False: no end tag written (HTML the parser repairs)
    # filled in by write():
    start_byte: int = -1
    end_byte: int = -1
    start_token: int = -1
    end_token: int = -1


def el(tag: str, *children, attrs: str = "", close: bool = True) -> Node:
    return Node(tag, list(children), attrs, close)


@dataclass
class Written:
    html: str
    tokens: list[dict]
    nodes: list[Node]  # every node, in document order

    def candidates(self) -> list[Node]:
        return [n for n in self.nodes if n.tag in CANDIDATES]

    def candidate_index(self, node: Node) -> int:
        return self.candidates().index(node)

    def words(self, node: Node, phrase: str) -> tuple[int, int]:
        """The tokens of the first occurrence of ``phrase`` (its words) inside ``node``."""
        want = [t for t in _WORD.findall(phrase)]
        text = [html_lib.unescape(t) for t in want]
        toks = self.tokens
        for i in range(node.start_token, node.end_token - len(text) + 1):
            if [toks[j]["token"] for j in range(i, i + len(text))] == text and not any(
                toks[j]["html_token"] for j in range(i, i + len(text))
            ):
                return i, i + len(text)
        raise ValueError(f"{phrase!r} not in the node")


def write(root: Node, head: str = "") -> Written:
    """The page of ``root`` (a body's children go in ``root``), with a head holding ``head`` (a script, a title)."""
    out: list[bytes] = []
    tokens: list[dict] = []
    nodes: list[Node] = []
    size = 0

    def put(text: str) -> tuple[int, int]:
        nonlocal size
        b = text.encode("utf-8")
        out.append(b)
        size += len(b)
        return size - len(b), size

    put(f"<html><head>{head}</head><body>")

    def visit(node: Node) -> None:
        nodes.append(node)
        a, b = put(f"<{node.tag}{' ' + node.attrs if node.attrs else ''}>")
        node.start_byte, node.start_token = a, len(tokens)
        if node.tag in BLOCK:
            tokens.append({"token": f"<{node.tag.capitalize()}>", "start_byte": a, "end_byte": b, "html_token": True})
        for child in node.children:
            if isinstance(child, Node):
                visit(child)
                continue
            for m in _WORD.finditer(child):
                start = size + len(child[: m.start()].encode("utf-8"))
                end = start + len(m.group().encode("utf-8"))
                tokens.append(
                    {"token": html_lib.unescape(m.group()), "start_byte": start, "end_byte": end, "html_token": False}
                )
            put(child)
        if node.close:
            a, b = put(f"</{node.tag}>")
            if node.tag in BLOCK:
                tokens.append(
                    {"token": f"</{node.tag.capitalize()}>", "start_byte": a, "end_byte": b, "html_token": True}
                )
        node.end_byte, node.end_token = size, len(tokens)

    for child in root.children:
        visit(child)
    put("</body></html>")
    return Written(b"".join(out).decode("utf-8"), tokens, nodes)


def span(node: Node) -> dict:
    return {k: getattr(node, k) for k in ("start_byte", "end_byte", "start_token", "end_token")}


NULL = {"start_byte": -1, "end_byte": -1, "start_token": -1, "end_token": -1}


def example(eid: int, question: str, title: str, page: Written, annotations: list[dict]) -> dict:
    """An NQ example in the original format."""
    cands = page.candidates()
    inside = [
        any(o is not c and o.start_byte <= c.start_byte and c.end_byte <= o.end_byte for o in cands) for c in cands
    ]
    return {
        "example_id": eid,
        "question_text": question,
        "question_tokens": question.split(),
        "document_title": title,
        "document_url": f"https://example.org/graphsr-nq/{title.replace(' ', '_')}",
        "document_html": page.html,
        "document_tokens": page.tokens,
        "long_answer_candidates": [dict(span(c), top_level=not nested) for c, nested in zip(cands, inside)],
        "annotations": annotations,
    }


def annotation(page: Written, long: Node | None, shorts=(), yes_no: str = "NONE", aid: int = 0) -> dict:
    """One annotator's marks: a candidate node (None: no long answer), short answers as ``(node, phrase)``."""
    if long is None:
        la = dict(NULL, candidate_index=-1)
    else:
        la = dict(span(long), candidate_index=page.candidate_index(long))
    sa = []
    for node, phrase in shorts:
        i, j = page.words(node, phrase)
        t = page.tokens
        sa.append(
            {"start_byte": t[i]["start_byte"], "end_byte": t[j - 1]["end_byte"], "start_token": i, "end_token": j}
        )
    return {"annotation_id": aid, "long_answer": la, "short_answers": sa, "yes_no_answer": yes_no}


def simplified(record: dict) -> dict:
    """The example in ``simplify_nq_data.py``'s format (tokens joined by blanks, blanks inside a token made ``_``;
    token offsets only)."""

    def no_bytes(s: dict) -> dict:
        return {k: v for k, v in s.items() if k not in ("start_byte", "end_byte")}

    return {
        "example_id": record["example_id"],
        "question_text": record["question_text"],
        "document_url": record["document_url"],
        "document_text": " ".join(t["token"].replace(" ", "_") for t in record["document_tokens"]),
        "long_answer_candidates": [no_bytes(c) for c in record["long_answer_candidates"]],
        "annotations": [
            dict(a, long_answer=no_bytes(a["long_answer"]), short_answers=[no_bytes(s) for s in a["short_answers"]])
            for a in record["annotations"]
        ],
    }
