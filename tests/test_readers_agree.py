"""The C walker and the pure-Python walker compute the same trees and key hashes;
parallel and sequential summaries are equal."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from graphsr.io import collection as coll
from graphsr.io import iter_documents
from graphsr.summaries import SummaryBuilder, build_summary, summarize_collection
from graphsr.summaries._keys import key_hashes

from .conftest import write

needs_c = pytest.mark.skipif(not coll.accelerated(), reason="the optional C walker is not built")

TAGS = ["a", "b", "sec", "p", "x:q", "ü", "y:p", "its:t"]
TEXTS = ["", "x", "héllo wörld", "€😀", "  \n ", "a&amp;b", "<![CDATA[<c>]]>", "<!-- c -->", "<?pi d?>"]


@st.composite
def xml_docs(draw, depth=0):
    tag = draw(st.sampled_from(TAGS))
    kids = draw(st.lists(xml_docs(depth + 1), max_size=0 if depth > 3 else 4)) if depth <= 3 else []
    parts = [draw(st.sampled_from(TEXTS))]
    for k in kids:
        parts += [k, draw(st.sampled_from(TEXTS))]
    return f"<{tag}>{''.join(parts)}</{tag}>"


def _wrap(body: str, default: bool = False) -> bytes:
    """The bodies under one root: without a default namespace, or in one that ``y:`` also names (a label goes
    by namespace: ``y:p`` and ``p`` are then one label), with a well-known namespace bound to ``its:``."""
    ns = ' xmlns="urn:d" xmlns:y="urn:d"' if default else ' xmlns:y="urn:y"'
    return (f'<root xmlns:x="urn:x"{ns} xmlns:its="http://www.w3.org/2005/11/its">' + body + "</root>").encode()


@pytest.mark.slow
@needs_c
@settings(max_examples=200, deadline=None)
@given(st.lists(xml_docs(), min_size=1, max_size=3), st.booleans())
def test_c_and_python_walkers_agree(bodies, default):
    root = etree.fromstring(_wrap("".join(bodies), default), coll._parser())
    c = coll.tree_from_element(root, "d")
    py = coll.py_tree_from_element(root, "d")
    assert c.tags == py.tags
    for name in ("tag", "parent", "depth", "position", "start", "end"):
        assert np.array_equal(getattr(c, name), getattr(py, name)), name
    assert c.end[0] == len(root.xpath("string()"))
    codes, hashes = key_hashes(py)
    assert np.array_equal(c.key_hashes[0], codes)
    assert np.array_equal(c.key_hashes[1], hashes)


@needs_c
@settings(max_examples=100, deadline=None)
@given(st.lists(xml_docs(), min_size=1, max_size=3), st.booleans(), st.booleans())
def test_c_and_python_texts_agree_and_hold_the_offsets(bodies, default, html):
    """The text in C is the text joined in Python, whatever the text, CDATA, comments, processing instructions and
    entity references; each element's [start, end) holds its own text there; as XML and as HTML (lxml.html)."""
    from lxml import html as lxml_html

    from graphsr.io import walk

    data = _wrap("".join(bodies), default)
    root = lxml_html.document_fromstring(data) if html else etree.fromstring(data, coll._parser())
    text = walk.text_content(root)
    assert text == "".join(walk._text_parts(root))
    tree = coll.py_tree_from_element(root, "d")
    assert len(text) == tree.end[0]
    for i, el in enumerate(e for e in root.iter() if isinstance(e.tag, str)):
        assert text[tree.start[i] : tree.end[i]] == "".join(walk._text_parts(el))


@needs_c
def test_walkers_expand_internal_entities_and_count_external_ones_as_one():
    """An entity the document declares is expanded, as a resolving parser expands it (tests/test_entities.py);
    one it does not (declared in an external DTD, or external) stays a reference of one character."""
    xml = b'<!DOCTYPE a [<!ENTITY e "long text"><!ENTITY x SYSTEM "x.xml">]><a>x&e;<b>&e;&x;</b></a>'
    c = coll.tree_from_element(etree.fromstring(xml, coll._parser()), "d")
    py = coll.py_tree_from_element(etree.fromstring(xml, coll._parser()), "d")
    assert c.length.tolist() == py.length.tolist() == [20, 10]
    from graphsr.io import walk

    root = etree.fromstring(xml, coll._parser())
    coll.py_tree_from_element(root, "d")  # (expands the internal entities)
    assert walk.text_content(root) == "".join(walk._text_parts(root)) == "xlong textlong text\ufffd"


def test_c_walker_required_in_ci():
    if os.environ.get("GRAPHSR_REQUIRE_C") == "1":
        assert coll.accelerated(), "CI expects the C walker to be built"


def _random_collection(tmp_path, n=40, seed=3):
    rng = np.random.default_rng(seed)
    d = tmp_path / "rc"
    for i in range(n):
        secs = "".join(
            "<sec>"
            + "".join("<p>t</p>" for _ in range(rng.integers(0, 3)))
            + ("<ss1><p>u</p></ss1>" if rng.random() < 0.4 else "")
            + "</sec>"
            for _ in range(rng.integers(1, 4))
        )
        extra = "<fig/>" if rng.random() < 0.2 else ""
        write(d / f"{i:03d}.xml", f"<article><name>n{i}</name><bdy>{secs}{extra}</bdy></article>")
    return d


@pytest.mark.parametrize("kind", ["p*", "p*|c", "c", "tag"])
def test_parallel_equals_sequential(tmp_path, kind):
    d = _random_collection(tmp_path)
    seq = build_summary(iter_documents(d), kind)
    par = summarize_collection(d, [kind], workers=2, chunk_docs=7)[kind]
    assert par.labels() == seq.labels()
    assert par.extent_size.tolist() == seq.extent_size.tolist()
    assert par.content_length.tolist() == seq.content_length.tolist()
    e1 = sorted(
        zip(seq.edge_src.tolist(), seq.edge_dst.tolist(), seq.edge_pairs.tolist(), seq.edge_child_length.tolist())
    )
    e2 = sorted(
        zip(par.edge_src.tolist(), par.edge_dst.tolist(), par.edge_pairs.tolist(), par.edge_child_length.tolist())
    )
    assert e1 == e2
    assert par.num_documents == seq.num_documents == 40


def test_summaries_of_python_trees_equal_c_trees(tmp_path):
    d = _random_collection(tmp_path, n=15)
    docs_c = list(iter_documents(d))
    docs_py = [
        coll.py_tree_from_element(etree.parse(str(p), coll._parser()).getroot(), p.stem)
        for p in sorted(d.glob("*.xml"))
    ]
    for kind in ["p*", "p*|c", "c", "tag"]:
        a, b = build_summary(docs_c, kind), build_summary(docs_py, kind)
        assert a.labels() == b.labels() and a.extent_size.tolist() == b.extent_size.tolist()


def test_merge_rejects_other_kind():
    a, b = SummaryBuilder("p*"), SummaryBuilder("tag")
    with pytest.raises(ValueError, match="cannot merge"):
        a.merge(b.state())
