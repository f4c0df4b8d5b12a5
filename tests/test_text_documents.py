"""Markdown, plain text and HTML documents as trees (graphsr/io/textdocs.py): offsets are Python string indices
of the decoded file (Markdown, text) or of the text content (HTML), checked on random documents whose blocks
are known; real-world HTML with unclosed tags reads; a directory of them is a collection every command reads."""

from __future__ import annotations

import json

import lxml.etree
import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.cli.main import main
from graphsr.io import iter_documents
from graphsr.io.collection import html_tree
from graphsr.io.textdocs import markdown_tree, text_tree

WORDS = (
    st.text(st.sampled_from("abcdefghij XYZ,.;éü"), min_size=1, max_size=20)
    .map(str.strip)
    .filter(lambda w: w and w[0].isalpha())
)


def _line(words) -> str:
    return " ".join(words)


# a Markdown block: (kind, lines of source); the kinds' tags in graphsr's tree
BLOCKS = st.one_of(
    st.tuples(st.just("p"), st.lists(st.lists(WORDS, min_size=1, max_size=4).map(_line), min_size=1, max_size=3)),
    st.tuples(st.just("h"), st.tuples(st.integers(1, 3), st.lists(WORDS, min_size=1, max_size=3).map(_line))),
    st.tuples(st.just("ul"), st.lists(st.lists(WORDS, min_size=1, max_size=3).map(_line), min_size=1, max_size=4)),
    st.tuples(st.just("pre"), st.lists(st.lists(WORDS, min_size=1, max_size=3).map(_line), min_size=0, max_size=3)),
    st.tuples(
        st.just("blockquote"), st.lists(st.lists(WORDS, min_size=1, max_size=3).map(_line), min_size=1, max_size=3)
    ),
)


def _markdown(blocks, newline: str):
    """The document's text and, for each block, (tag, start, end) as graphsr defines them: whole lines."""
    text, spans = "", []
    for k, (kind, body) in enumerate(blocks):
        if k:
            text += newline  # a blank line between blocks
        start = len(text)
        if kind == "p":
            lines = body
        elif kind == "h":
            lines = ["#" * body[0] + " " + body[1]]
        elif kind == "ul":  # (another bullet than the block before's: two lists, not one)
            lines = ["-*+"[k % 3] + " " + item for item in body]
        elif kind == "pre":
            lines = ["```"] + body + ["```"]
        else:
            lines = ["> " + line for line in body]
        text += "".join(line + newline for line in lines)
        spans.append(
            ({"h": f"h{body[0]}" if kind == "h" else None}.get("h") if kind == "h" else kind, start, len(text))
        )
    return text, spans


@settings(max_examples=150, deadline=None)
@given(st.lists(BLOCKS, min_size=1, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_markdown_blocks_are_their_source_lines(blocks, newline):
    text, spans = _markdown(blocks, newline)
    doc = markdown_tree(text, "d")
    assert (int(doc.start[0]), int(doc.end[0])) == (0, len(text))
    tags = [doc.tags[t] for t in doc.tag]
    # each block, in order, is an element covering exactly its lines (sections and list items aside)
    top = [
        (tags[i], int(doc.start[i]), int(doc.end[i]))
        for i in range(len(doc))
        if tags[i] not in ("section", "document", "li") and doc.tags[doc.tag[doc.parent[i]]] in ("section", "document")
    ]
    assert top == spans
    for i in range(1, len(doc)):  # every element inside its parent, on whole lines
        p = doc.parent[i]
        assert doc.start[p] <= doc.start[i] <= doc.end[i] <= doc.end[p]
        assert doc.start[i] == 0 or text[doc.start[i] - 1] in "\n\r"
    for i in range(len(doc)):
        if tags[i] == "li":
            assert text[doc.start[i] : doc.end[i]][:2] in ("- ", "* ", "+ ")
        if tags[i] == "section":  # a section starts with its heading
            assert text[doc.start[i] : doc.end[i]].lstrip().startswith("#")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.lists(WORDS, min_size=1, max_size=3).map(_line), min_size=1, max_size=3), min_size=1, max_size=6
    ),
    st.integers(1, 3),
)
def test_text_paragraphs_are_runs_of_lines(paragraphs, gap):
    text, spans = "", []
    for k, lines in enumerate(paragraphs):
        if k:
            text += "\n" * gap
        start = len(text)
        text += "\n".join(lines) + "\n"
        spans.append((start, len(text)))
    doc = text_tree(text, "t")
    assert [(int(doc.start[i]), int(doc.end[i])) for i in range(1, len(doc))] == spans
    assert all(text[s:e].strip() == "\n".join(p) for (s, e), p in zip(spans, paragraphs))


_TAGS = ["p", "div", "b", "i", "span", "li", "ul", "td", "tr", "table", "br", "script", "style", "h1"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([f"<{t}>" for t in _TAGS] + [f"</{t}>" for t in _TAGS]),
            WORDS,
            st.just("<!-- c -->"),
            st.just("&amp;"),
            st.just("a<b"),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_html_offsets_are_its_text_contents(parts):
    """Tag soup, unclosed tags and all: each element's [start, end) is where its text content sits in the
    document's text content (script and style holding none), read by lxml.html independently."""
    data = "".join(parts).encode()
    doc = html_tree(data, "h")
    try:
        root = lxml.html.document_fromstring(data)
    except lxml.etree.ParserError:  # a page of nothing: one element, no text
        assert doc.xpaths() == ["/html[1]"] and int(doc.end[0]) == 0
        return
    for el in list(root.iter("script", "style")):
        el.text = None
        for child in list(el):
            el.remove(child)
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    assert len(elements) == len(doc)
    whole = root.text_content()
    assert int(doc.end[0]) == len(whole)
    for k, el in enumerate(elements):
        assert whole[doc.start[k] : doc.end[k]] == el.text_content(), (k, el.tag)


def test_html_with_unclosed_tags_reads():
    """No <html>, <head> or <body>, no closing tag: read as a browser reads it (a <p> ends where the next
    begins)."""
    doc = html_tree(b"<title>T</title><p>one <b>bold<p>two<li>x<li>y", "h")
    assert doc.xpaths() == [
        "/html[1]",
        "/html[1]/head[1]",
        "/html[1]/head[1]/title[1]",
        "/html[1]/body[1]",
        "/html[1]/body[1]/p[1]",
        "/html[1]/body[1]/p[1]/b[1]",
        "/html[1]/body[1]/p[2]",
        "/html[1]/body[1]/li[1]",
        "/html[1]/body[1]/li[2]",
    ]
    assert doc.length.tolist() == [14, 1, 1, 13, 8, 4, 3, 1, 1]


def test_a_directory_of_markdown_text_and_html_is_a_collection(tmp_path, capsys):
    c = tmp_path / "c"
    c.mkdir()
    (c / "guide.md").write_text("# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\n- a\n- b\n")
    (c / "notes.txt").write_text("first paragraph\nstill first\n\nsecond\n")
    (c / "page.html").write_text("<h1>Page</h1><p>text<script>x()</script>")
    docs = {d.docid: d for d in iter_documents(c)}
    assert set(docs) == {"guide", "notes", "page"}
    assert docs["guide"].xpaths()[:4] == [
        "/document[1]",
        "/document[1]/section[1]",
        "/document[1]/section[1]/h1[1]",
        "/document[1]/section[1]/p[1]",
    ]
    assert main(["summary", str(c), "--kind", "p*"]) == 0
    out = capsys.readouterr().out
    assert "/document/section/section" in out and "/html/body/p" in out
    url = f"local:{tmp_path / 'store'}"
    try:
        assert (
            main(["store", "load", str(c), "--name", "docs", "--elements", "all", "--store", url, "--no-progress"]) == 0
        )
        assert "3 documents" in capsys.readouterr().out
    finally:
        main(["store", "stop", "--store", url])


def test_a_json_lines_corpus_is_a_collection(tmp_path):
    """One document a line, its format declared (BEIR's _id read as the id); offsets into each text as a file of
    that format gives them; a line without id or text, an unknown format, an id twice: one line each."""
    import graphsr.io
    from graphsr.errors import CollectionError

    rows = [
        {"doc_id": "a", "text": "# Title\n\nPara one.\n\n- x\n- y\n", "format": "markdown"},
        {"_id": "b", "title": "not text", "text": "First.\n\nSecond para.\n"},
        {"doc_id": "c", "text": "<p>Hello <b>world<p>again", "format": "html"},
    ]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    texts = graphsr.io.document_texts(corpus)
    assert texts == {"a": rows[0]["text"], "b": rows[1]["text"], "c": "Hello worldagain"}
    trees = {t.docid: t for t in graphsr.iter_documents(corpus)}
    for doc in ("a", "b"):
        (tmp_path / f"{doc}.{'md' if doc == 'a' else 'txt'}").write_text(texts[doc])
        (alone,) = list(graphsr.iter_documents(tmp_path / f"{doc}.{'md' if doc == 'a' else 'txt'}"))
        t = trees[doc]
        assert [(t.xpath(i), int(t.start[i]), int(t.end[i])) for i in range(len(t))] == [
            (alone.xpath(i), int(alone.start[i]), int(alone.end[i])) for i in range(len(alone))
        ]
    assert int(trees["c"].end[0]) == len("Hello worldagain")
    for bad, match in (
        ({"doc_id": "x"}, r"doc_id \(or _id, docid\) and a text \(or body\)"),
        ({"doc_id": "x", "text": "t", "format": "pdf"}, "expected a format"),
        (rows[0], "duplicate document id 'a'"),
    ):
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(rows[0]) + "\n" + json.dumps(bad) + "\n")
        with pytest.raises(CollectionError, match=match) as e:
            graphsr.io.list_collection(path)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("collection", ["markdown", "shakespeare", "mobydick", "chroma"])
def test_a_documents_root_spans_its_whole_text(collection):
    """A document's text is what its offsets count in, and its root holds all of it: the length the span readers
    take from a tree read for SR (graphsr.io.spans.document_lengths) is its text's length, in every format the
    bundled collections hold (Markdown from real projects and in a tar archive, XML plays and a novel)."""
    from pathlib import Path

    from graphsr.data import sample
    from graphsr.io.collection import list_collection, read_document, read_document_text

    path = Path(__file__).parent / "data" / "markdown" / "real" if collection == "markdown" else None
    sources = list_collection(path or sample(collection)["collection"])
    assert sources
    for s in sources:
        tree = read_document(s)
        assert (int(tree.start[0]), int(tree.end[0])) == (0, len(read_document_text(s))), s.docid


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["<p>x</p>", "<b>é😀</b>", "&amp;", "<script>q</script>", "<!-- c -->", "t "]), max_size=8)
)
def test_an_html_pages_root_spans_its_whole_text(parts):
    data = f"<html><body>{''.join(parts)}</body></html>".encode()
    tree = html_tree(data, "d")
    from graphsr.io.collection import text_of

    assert (int(tree.start[0]), int(tree.end[0])) == (0, len(text_of(data, "html", "d")))
