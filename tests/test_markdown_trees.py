"""Markdown read as trees where cmark-gfm's source positions are off (graphsr/io/textdocs.py): every element lies in
its parent, after its previous sibling, and is non-empty; its lines are those a second CommonMark implementation
(markdown-it-py) gives the same block -- on the constructs cmark slips on (recorded by
tools/record_markdown_reference.py), on real Markdown of several dialects, and on generated Markdown (live, where
markdown-it-py is installed).  Front matter is an element of its own; offsets count as Python's text mode reads
the file (CRLF and CR as LF, a byte-order mark kept)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import CollectionError
from graphsr.io.textdocs import _Builder, _check_nesting, markdown_tree

DATA = Path(__file__).parent / "data" / "markdown"
RECORDED = json.loads((DATA / "reference.json").read_text())["cases"]
REAL = sorted(p for p in (DATA / "real").glob("*.md") if p.name != "README.md")


def blocks_of(text: str) -> list[tuple[str, int, int]]:
    """graphsr's blocks of ``text`` as (tag, first line, end line), as the reference lists them (every block the
    reader places, a tight list's paragraphs included: the parsers may differ on tightness, not on lines)."""
    from graphsr.io.textdocs import _TAGS, markdown_blocks

    _, parsed, first, end = markdown_blocks(text)
    out = []
    for i, b in enumerate(parsed[1:], 1):
        tag = (
            f"h{b.level}"
            if b.kind == "heading"
            else ("ol" if b.level else "ul")
            if b.kind == "list"
            else _TAGS.get(b.kind)
        )
        if tag is not None:
            out.append((tag, first[i], end[i]))
    return out


def assert_a_tree(text: str) -> None:
    tree = markdown_tree(text, "d")
    last: dict[int, int] = {}
    for i in range(1, len(tree.tag)):
        p = int(tree.parent[i])
        assert tree.start[p] <= tree.start[i] < tree.end[i] <= tree.end[p], i
        assert p not in last or tree.end[last[p]] <= tree.start[i], i
        assert tree.start[i] == 0 or text[tree.start[i] - 1] == "\n"  # (whole lines)
        last[p] = i


@pytest.mark.parametrize("name", [n for n in RECORDED if not n.startswith("real: ")])
def test_the_constructs_cmark_slips_on_read_as_the_second_implementation_reads_them(name):
    case = RECORDED[name]
    assert blocks_of(case["text"]) == [tuple(b) for b in case["blocks"]]
    assert_a_tree(case["text"])


def _element_texts(text: str) -> list[tuple[str, str]]:
    tree = markdown_tree(text, "d")
    return [(tree.tags[tree.tag[i]], text[tree.start[i] : tree.end[i]]) for i in range(len(tree.tag))]


def test_the_issues_cases_by_their_text():
    assert _element_texts("Intro\n| a | b |\n|---|---|\n| 1 | 2 |\n") == [
        ("document", "Intro\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
        ("p", "Intro\n"),
        ("table", "| a | b |\n|---|---|\n| 1 | 2 |\n"),
        ("tr", "| a | b |\n"),
        ("tr", "| 1 | 2 |\n"),
    ]
    assert _element_texts("---\na: 1\n---\n## B\ntext\n\n## C\nmore\n")[1:] == [
        ("frontmatter", "---\na: 1\n---\n"),
        ("section", "## B\ntext\n\n"),
        ("h2", "## B\n"),
        ("p", "text\n"),
        ("section", "## C\nmore\n"),
        ("h2", "## C\n"),
        ("p", "more\n"),
    ]
    assert _element_texts("+++\ntitle = 'x'\n+++\n# T\n")[1] == ("frontmatter", "+++\ntitle = 'x'\n+++\n")
    assert _element_texts("[a]: http://x\n[b]: http://y\nPara text\n")[1:] == [("p", "Para text\n")]
    assert _element_texts("para\n\n    code\n    more\n\n\n\nnext\n")[2] == ("pre", "    code\n    more\n")
    # (an element ends at its last line not blank inside its quotes: the empty '>' line is the quote's, no element's)
    assert _element_texts("> ---\n>\nafter\n")[1:] == [("blockquote", "> ---\n"), ("hr", "> ---\n"), ("p", "after\n")]
    # not front matter: a thematic break that is not the first line, or one never closed
    assert [t for t, _ in _element_texts("x\n\n---\na\n---\n")] == ["document", "p", "hr", "section", "h2"]
    assert [t for t, _ in _element_texts("---\nno end\n")] == ["document", "hr", "p"]


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_markdown_reads_as_a_tree_the_second_implementation_agrees_with(path):
    from graphsr.io.textdocs import _decoded

    text = _decoded(path.read_bytes(), str(path))
    assert_a_tree(text)
    ours, theirs = blocks_of(text), [tuple(b) for b in RECORDED[f"real: {path.name}"]["blocks"]]
    if path.name == "mdbook-markdown.md":
        # where the two parsers read differently (not a position): cmark-gfm reads '----' under a link reference
        # definition as a paragraph, CommonMark (and markdown-it) as a thematic break
        assert ("p", 93, 94) in ours and ("hr", 93, 94) in theirs
        ours, theirs = [b for b in ours if b != ("p", 93, 94)], [b for b in theirs if b != ("hr", 93, 94)]
    if path.name == "rust-book-appendix-b.md":
        # cmark-gfm's table stops at a row whose last pipe wrapped to the next line; markdown-it's reads on
        cut = next(k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b)
        assert ours[cut][0] == theirs[cut][0] == "table" and ours[cut][1] == theirs[cut][1]
        assert ours[cut][2] < theirs[cut][2]
        return
    assert ours == theirs


def test_front_matter_is_an_element_and_the_sections_after_it_are_whole():
    text = (DATA / "real" / "hugo-strings-contains.md").read_text(encoding="utf-8")
    tree = markdown_tree(text, "d")
    tags = [tree.tags[t] for t in tree.tag]
    assert tags[1] == "frontmatter" and text[tree.start[1] : tree.end[1]].startswith("---\ntitle:")
    assert text[tree.start[1] : tree.end[1]].endswith("\n---\n")
    assert tags.count("hr") == 0  # (read as front matter, not a thematic break and a setext heading)


def test_offsets_count_as_pythons_text_mode_reads_the_file(tmp_path):
    """CRLF and CR read as LF, a byte-order mark kept as U+FEFF: an offset counted in what
    ``open(path, encoding="utf-8").read()`` gives (a chunker's text) is graphsr's."""
    from graphsr.io import list_collection
    from graphsr.io.collection import read_document, read_document_text

    raw = "\ufeff# Title\r\n\r\nOne para\rline two\r\n\r\n- item\r\n"
    path = tmp_path / "doc.md"
    path.write_bytes(raw.encode("utf-8"))
    with open(path, encoding="utf-8") as fh:
        python = fh.read()
    [source] = list_collection(path)
    assert read_document_text(source) == python and python.startswith("\ufeff# Title\n")
    tree = read_document(source)
    assert tree.end[0] == len(python)
    texts = [(tree.tags[tree.tag[i]], python[tree.start[i] : tree.end[i]]) for i in range(1, len(tree.tag))]
    assert texts == [
        ("section", python[:]),
        ("h1", "\ufeff# Title\n"),
        ("p", "One para\nline two\n"),
        ("ul", "- item\n"),
        ("li", "- item\n"),  # (a tight list's item: its paragraph is its text, as HTML shows it)
    ]


def test_a_json_lines_corpus_keeps_its_texts_as_they_are(tmp_path):
    from graphsr.io import list_collection
    from graphsr.io.collection import read_document_text

    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"doc_id": "a", "text": "x\r\ny\r\n", "format": "markdown"}) + "\n")
    [source] = list_collection(corpus)
    assert read_document_text(source) == "x\r\ny\r\n"


def test_a_tree_that_is_not_a_tree_is_refused_with_the_file_and_line():
    b = _Builder("d", "notes.md")
    root = b.add("document", -1, 0, 20)
    b.add("p", root, 0, 10)
    b.add("p", root, 5, 12)  # overlaps the one before
    with pytest.raises(CollectionError, match=r"notes\.md:2: the Markdown reader made a p element \[5, 12\)"):
        _check_nesting(b, "0123\n56789\n" + "x" * 8, "notes.md")
    b = _Builder("d", "notes.md")
    root = b.add("document", -1, 0, 20)
    b.add("p", root, 4, 4)
    with pytest.raises(CollectionError, match="that is empty"):
        _check_nesting(b, "x" * 20, "notes.md")


# -- generated Markdown, against markdown-it-py itself ----------------------------------------------------------

_WORDS = ["alpha", "beta", "*em*", "`code`", "[link](http://x)", "gamma", "délta", "**b**", "中文", "مرحبا"]


def _para(r, lines=None):
    return "\n".join(
        " ".join(r.choice(_WORDS) for _ in range(r.randint(1, 4))) for _ in range(lines or r.randint(1, 3))
    )


def _block(r, depth):
    kind = r.choice(
        ["p", "p", "atx", "setext", "fence", "indented", "ul", "ol", "quote", "hr", "table", "ptable", "defs", "html"]
    )
    if depth > 2 and kind in ("ul", "ol", "quote"):
        kind = "p"
    if kind == "p":
        return _para(r) + "\n"
    if kind == "atx":
        return "#" * r.randint(1, 6) + " " + _para(r, 1) + r.choice(["", " ##"]) + "\n"
    if kind == "setext":
        return _para(r, r.randint(1, 2)) + "\n" + r.choice(["===", "---", "-----"]) + "\n"
    if kind == "fence":
        fence = r.choice(["```", "~~~", "````"])
        return (
            fence + r.choice(["", "py"]) + "\n" + "code line\n" * r.randint(0, 3) + r.choice(["", "\n"]) + fence + "\n"
        )
    if kind == "indented":
        return "".join("    code\n" for _ in range(r.randint(1, 3)))
    if kind == "hr":
        return r.choice(["***", "___", "- - -", "* * *"]) + "\n"
    if kind in ("table", "ptable"):
        before = _para(r, 1) + "\n" if kind == "ptable" else ""
        return before + "| a | b |\n|---|:-:|\n" + "".join("| 1 | 2 |\n" for _ in range(r.randint(0, 3)))
    if kind == "defs":
        titles = ["", ' "title"', "\n  'title'", " (t)"]
        return (
            "".join(f"[d{i}]: http://x/{i}" + r.choice(titles) + "\n" for i in range(r.randint(1, 2))) + _para(r) + "\n"
        )
    if kind == "html":
        return r.choice(["<div>\nhtml\n</div>\n", "<!-- a\ncomment -->\n"])
    if kind in ("ul", "ol"):
        out = []
        for n in range(r.randint(1, 3)):
            marker = r.choice(["- ", "* ", "+ "]) if kind == "ul" else f"{n + 1}{r.choice('.)')} "
            body = _doc(r, depth + 1, r.randint(1, 2)).splitlines(True)
            out.append(marker + body[0] + "".join(" " * len(marker) + x if x.strip() else x for x in body[1:]))
        return "".join(out)
    body = _doc(r, depth + 1, r.randint(1, 3))  # a quote
    return "".join(("> " + x if x.strip() else r.choice([">\n", "> \n"])) for x in body.splitlines(True))


def _doc(r, depth=0, blocks=None):
    parts = []
    for _ in range(blocks or r.randint(1, 6)):
        parts += [_block(r, depth), "\n" * r.choice([0, 1, 1, 2])]
    return "".join(parts) or "x\n"


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_generated_markdown_reads_as_the_second_implementation_reads_it(seed):
    reference = pytest.importorskip("tests.markdown_reference" if __package__ else "markdown_reference")
    pytest.importorskip("markdown_it")
    text = _doc(random.Random(seed))
    if text.startswith(("---", "+++")):
        text = "x\n\n" + text  # (front matter: tested above)
    assert_a_tree(text)
    assert blocks_of(text) == reference.reference_blocks(text)


def test_a_utf16_file_is_named_as_such(tmp_path):
    from graphsr.io import list_collection
    from graphsr.io.collection import read_document

    path = tmp_path / "wide.md"
    path.write_bytes("# Title\r\n".encode("utf-16"))  # (a byte-order mark, then UTF-16LE)
    [source] = list_collection(path)
    with pytest.raises(CollectionError, match=r"wide\.md: a UTF-16 file \(its byte-order mark says so\)") as e:
        read_document(source)
    assert "\n" not in str(e.value)
