"""The tree a parser builds: a document's internal entities are expanded (elements they make are elements, in
the C walker and the Python walker alike, equal to lxml's tree with internal entities resolved); external ones
are never fetched; bombs and loops are refused in one line.  And the rule for ``xmlns=""`` inside a namespaced
document."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from graphsr.errors import CollectionError
from graphsr.io.collection import _parser, accelerated, parse_document, py_tree_from_element, tree_from_element

RESOLVING = etree.XMLParser(resolve_entities="internal", no_network=True, load_dtd=False)


def resolved(doc: bytes) -> tuple[list[str], list[int]]:
    """Each element's XPath (graphsr's spelling) and the length of its text, in lxml's resolved tree."""
    root = etree.fromstring(doc, RESOLVING)
    paths, lengths = [], []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        steps = []
        node = el
        while node is not None:
            same = [s for s in (node.getparent() if node.getparent() is not None else [node]) if s.tag == node.tag]
            steps.append(f"{etree.QName(node).localname}[{same.index(node) + 1}]")
            node = node.getparent()
        paths.append("/" + "/".join(reversed(steps)))
        lengths.append(len("".join(el.itertext())))  # (its descendants' tails, not its own)
    return paths, lengths


def walkers(doc: bytes):
    """The document as graphsr's C walker (where built) and Python walker read it."""
    out = [py_tree_from_element(etree.fromstring(doc, _parser()), "d")]
    if accelerated():
        out.append(tree_from_element(etree.fromstring(doc, _parser()), "d"))
    return out


APP = (
    b'<!DOCTYPE article [<!ENTITY app "<application>Disk Mounter</application>">]>'
    b"<article><title>&app; help</title><para>Use &app; to mount. &app;</para></article>"
)


def test_the_issues_document_has_the_six_elements_lxml_builds():
    paths, lengths = resolved(APP)
    assert len(paths) == 6
    for tree in walkers(APP):
        assert tree.xpaths() == paths
        assert [int(e - s) for s, e in zip(tree.start, tree.end)] == lengths
    assert parse_document(APP, "d").xpaths()[-1] == "/article[1]/para[1]/application[2]"


_ENTITY_TEXTS = st.sampled_from(
    [
        "plain words",
        "<b>bold</b>",
        "<b>x</b> and <i>y</i>",
        "a<c/>b",
        "&other;",
        "<e>&other;</e> tail",
        "<!-- c --><b/>",
        "<b><i>deep</i></b>",
    ]
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(["&e1;", "&e2;", "&e3;", "<p>", "</p>", "text ", "<q/>"]), min_size=1, max_size=14),
    _ENTITY_TEXTS,
    _ENTITY_TEXTS,
    _ENTITY_TEXTS,
)
def test_expanded_trees_equal_lxmls_resolved_tree(body, e1, e2, e3):
    depth, parts = 0, []
    for part in body:  # balance the <p> tags
        if part == "</p>":
            if depth == 0:
                continue
            depth -= 1
        elif part == "<p>":
            depth += 1
        parts.append(part)
    parts += ["</p>"] * depth
    doc = (
        f'<!DOCTYPE r [<!ENTITY other "<o>other</o>"><!ENTITY e1 "{e1}"><!ENTITY e2 "{e2}"><!ENTITY e3 "{e3}">]>'
        f"<r>{''.join(parts)}</r>"
    ).encode()
    paths, lengths = resolved(doc)
    for tree in walkers(doc):
        assert tree.xpaths() == paths
        assert [int(e - s) for s, e in zip(tree.start, tree.end)] == lengths


def test_an_external_entity_is_never_fetched_and_stays_a_reference(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("<leak>SECRET</leak>")
    doc = f'<!DOCTYPE a [<!ENTITY x SYSTEM "{secret.as_uri()}"><!ENTITY y "<b/>">]><a>&x;&y;</a>'.encode()
    for tree in walkers(doc):
        assert tree.xpaths() == ["/a[1]", "/a[1]/b[1]"]
        assert int(tree.end[0] - tree.start[0]) == 1  # the reference counts as one character, as before


def test_an_entity_of_an_external_dtd_stays_a_reference():
    doc = (
        b'<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "http://www.oasis-open.org/docbook/xml/4.5/'
        b'docbookx.dtd" [<!ENTITY app "<application>A</application>">]><book><p>&app;&nbsp;x</p></book>'
    )
    for tree in walkers(doc):
        assert tree.xpaths() == ["/book[1]", "/book[1]/p[1]", "/book[1]/p[1]/application[1]"]
        assert int(tree.end[1] - tree.start[1]) == 3  # "A", the reference, "x"


def _lols(levels: int, markup: bool = False) -> bytes:
    first = "<a>lol</a>" if markup else "lol"
    decls = f'<!ENTITY l0 "{first}">' + "".join(
        f'<!ENTITY l{k} "{("&l" + str(k - 1) + ";") * 10}">' for k in range(1, levels + 1)
    )
    return f"<!DOCTYPE r [{decls}]><r>&l{levels};</r>".encode()


@pytest.mark.parametrize("markup", [False, True])
def test_an_entity_bomb_is_refused_in_one_line(markup):
    with pytest.raises(CollectionError) as info:
        parse_document(_lols(9, markup), "bomb")
    assert "\n" not in str(info.value) and ("amplification" in str(info.value) or "times its size" in str(info.value))


def test_a_few_nested_entities_are_fine():
    tree = parse_document(_lols(2, markup=True), "d")
    assert len(tree) == 1 + 100


def test_no_namespace_elements_in_a_namespaced_document_are_named_and_counted_as_its_own():
    """The rule, decided: graphsr's XPaths name a document's own vocabulary by local names, and elements with
    ``xmlns=""`` inside it are counted with it (the second div is div[2] whatever its declaration); elements of
    another namespace carry its prefix and are counted apart."""
    doc = (
        b'<html xmlns="http://www.w3.org/1999/xhtml"><body><div/><div xmlns=""/><div/>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><g/></svg></body></html>'
    )
    for tree in walkers(doc):
        assert tree.xpaths() == [
            "/html[1]",
            "/html[1]/body[1]",
            "/html[1]/body[1]/div[1]",
            "/html[1]/body[1]/div[2]",
            "/html[1]/body[1]/div[3]",
            "/html[1]/body[1]/svg:svg[1]",
            "/html[1]/body[1]/svg:svg[1]/svg:g[1]",
        ]


def test_a_document_nested_past_libxml2s_bound_says_what_is_true():
    """libxml2 suggests XML_PARSE_HUGE for a document nested past 2,048 levels; graphsr sets it already, and
    says so rather than pass the advice on."""
    doc = b"<a>" * 3000 + b"</a>" * 3000
    with pytest.raises(CollectionError) as info:
        parse_document(doc, "deep")
    message = str(info.value)
    assert "nested deeper than 2048 levels" in message and "use XML_PARSE_HUGE" not in message
    assert "\n" not in message


def test_an_undeclared_entity_in_an_internal_entitys_text_stays_a_reference():
    """KDE's handbooks (found building bench_real's prose collection): an internal entity whose text names an
    entity of the external DTD, not loaded.  It stays a reference there too, counted as one character as in the
    document (lxml's parser resolving internal entities fails on such a document); in a document without an
    external DTD such a reference is not well-formed, and is refused."""
    doc = (
        b'<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5-Based Variant V1.1//EN" "dtd/kdedbx45.dtd" ['
        b'<!ENTITY gnu-lactic "<application>&GNU;-Lactic</application>">]>'
        b"<book><para>Play &gnu-lactic; now</para></book>"
    )
    with pytest.raises(etree.XMLSyntaxError, match="GNU"):
        resolved(doc)
    for tree in walkers(doc):
        assert tree.xpaths() == ["/book[1]", "/book[1]/para[1]", "/book[1]/para[1]/application[1]"]
        assert [int(e - s) for s, e in zip(tree.start, tree.end)] == [17, 17, 8]  # "Play ", "&GNU;-Lactic", " now"
    with pytest.raises((CollectionError, etree.XMLSyntaxError)):
        walkers(b'<!DOCTYPE book [<!ENTITY g "<a>&GNU;</a>">]><book>&g;</book>')
