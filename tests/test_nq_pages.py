"""Natural Questions pages as document trees: every candidate an element, NQ's bytes as characters of the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import CollectionError
from graphsr.io.nq_pages import page_of, page_tree

from .nq_html import Node, annotation, el, example, simplified, write

_PIECES = list("ab xyz.,'") + ["é", "ß", "漢", "字", "ё", "😀", "&amp;", "&lt;", "&#233;", "—", "  "]
_TEXT = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12).map("".join).filter(lambda s: s.strip())


def _inline():
    return st.one_of(_TEXT, _TEXT.map(lambda t: el("b", t)), _TEXT.map(lambda t: el("a", t, attrs='href="#x"')))


def _flow(depth: int):
    """Block content a parser keeps as written (no repair)."""
    inline = st.lists(_inline(), min_size=1, max_size=3)
    p = inline.map(lambda c: el("p", *c))
    if depth <= 0:
        return p
    inner = st.lists(st.one_of(p, _TEXT), min_size=1, max_size=2)
    deeper = st.lists(st.one_of(p, _TEXT, st.deferred(lambda: _flow(depth - 1))), min_size=1, max_size=2)
    li = deeper.map(lambda c: el("li", *c))
    ul = st.lists(li, min_size=1, max_size=3).map(lambda c: el(*(["ul"] + c)))
    ol = st.lists(li, min_size=1, max_size=2).map(lambda c: el(*(["ol"] + c)))
    td = deeper.map(lambda c: el("td", *c))
    tr = st.lists(td, min_size=1, max_size=3).map(lambda c: el(*(["tr"] + c)))
    table = st.lists(tr, min_size=1, max_size=3).map(lambda c: el(*(["table"] + c)))
    dl = st.tuples(inline, inner).map(lambda x: el("dl", el("dt", *x[0]), el("dd", *x[1])))
    return st.one_of(p, ul, ol, table, dl)


_PAGES = st.lists(st.one_of(_flow(2), _TEXT.map(lambda t: el("h2", t))), min_size=1, max_size=4).map(
    lambda blocks: Node("body", blocks)
)


def _record(body: Node, head: str = "<script>var x = '<p>';</script>") -> dict:
    return example(1, "q", "t", write(body, head), [])


@settings(max_examples=120, deadline=None)
@given(_PAGES)
def test_every_candidate_is_its_element_and_every_word_its_characters(body):
    record = _record(body)
    page = page_of(record)
    words = [t for t in record["document_tokens"] if not t["html_token"]]
    tree = page_tree(page, offsets=[b for t in words for b in (t["start_byte"], t["end_byte"])])
    assert tree.disagree == 0
    doc = tree.tree
    tags = doc.tag_names()
    for k, c in enumerate(record["long_answer_candidates"]):
        node = int(tree.candidate_node[k])
        assert node >= 0
        assert (int(doc.start[node]), int(doc.end[node])) == tree.chars(c["start_byte"], c["end_byte"])
        tag = record["document_tokens"][c["start_token"]]["token"].strip("<>").lower()
        assert tags[node] == tag
    for t in words:  # a word's bytes are its characters in the page's text
        a, b = tree.chars(t["start_byte"], t["end_byte"])
        assert tree.text[a:b] == t["token"]
    assert len(tree.text) == int(doc.end[0])
    points = sorted({b for t in words for b in (t["start_byte"], t["end_byte"])})
    chars = [tree.char(b) for b in points]
    assert chars == sorted(chars)  # later bytes, later characters


@settings(max_examples=40, deadline=None)
@given(_PAGES)
def test_the_simplified_page_has_the_same_tree(body):
    """The simplified format (tokens joined by blanks) reads as a page of the same elements, candidates the
    same nodes."""
    record = _record(body, "")
    full = page_tree(page_of(record))
    simple = page_tree(page_of(simplified(record)))
    assert simple.disagree == 0
    assert [full.tree.xpath(int(n)) for n in full.candidate_node] == [
        simple.tree.xpath(int(n)) for n in simple.candidate_node
    ]


def test_a_candidate_the_parser_ends_early_is_still_its_element():
    """An unclosed paragraph before a list: lxml ends the paragraph where the list starts; the candidate is that
    paragraph still, counted as a disagreement."""
    p = el("p", "before ", close=False)
    body = Node("body", [p, el("ul", el("li", "one")), el("p", "after")])
    record = _record(body)
    record["long_answer_candidates"][0]["end_byte"] = record["long_answer_candidates"][1]["end_byte"]
    tree = page_tree(page_of(record))
    assert tree.disagree == 1
    assert tree.tree.xpath(int(tree.candidate_node[0])) == "/html[1]/body[1]/p[1]"


def test_a_candidate_off_a_tag_is_the_smallest_element_holding_it():
    body = Node("body", [el("p", "alpha beta"), el("p", "gamma")])
    record = _record(body)
    record["long_answer_candidates"][0]["start_byte"] += 3  # inside the paragraph's text
    tree = page_tree(page_of(record))
    assert tree.disagree == 1
    assert tree.tree.xpath(int(tree.candidate_node[0])) == "/html[1]/body[1]/p[1]"


def test_an_offset_inside_a_tag_is_refused():
    body = Node("body", [el("p", "alpha", attrs='class="x"')])
    record = _record(body)
    with pytest.raises(CollectionError, match="no text"):
        page_tree(page_of(record), offsets=[record["long_answer_candidates"][0]["start_byte"] + 4])


def test_annotations_name_candidates_and_words():
    row = el("tr", el("td", "Hamlet"), el("td", "Prince of Denmark"))
    table = el("table", el("tr", el("th", "Name"), el("th", "Role")), row)
    page = write(Node("body", [el("p", "Persons of the play."), table]))
    ann = annotation(page, row, [(row, "Prince of Denmark")])
    assert ann["long_answer"]["candidate_index"] == page.candidate_index(row)
    tree = page_tree(page_of(example(1, "q", "t", page, [ann])))
    sa = ann["short_answers"][0]
    got = page_tree(page_of(example(1, "q", "t", page, [ann])), offsets=[sa["start_byte"], sa["end_byte"]])
    a, b = got.chars(sa["start_byte"], sa["end_byte"])
    assert got.text[a:b] == "Prince of Denmark"
    assert tree.tree.xpath(int(tree.candidate_node[page.candidate_index(row)])) == "/html[1]/body[1]/table[1]/tr[2]"
