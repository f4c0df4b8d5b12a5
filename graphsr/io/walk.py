"""Parsed XML (and HTML) elements into :class:`~graphsr.core.DocumentTree` arrays: the walker every reader
of :mod:`graphsr.io.collection` uses, in C where ``graphsr.io._walk`` was built and in Python otherwise (both
compute the same arrays; tests/test_readers_agree.py holds them to it).

Offsets follow the INEX convention (docs/conventions.md): Unicode characters of text content only, tags
excluded; an element starts at the current offset, its ``text`` follows, then each child's subtree and that
child's ``tail``.  A document's internal entities are expanded first, as a resolving parser would.
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from ..core.document import DocumentTree
from ..errors import CollectionError

__all__ = [
    "KNOWN_PREFIXES",
    "derived_prefix",
    "accelerated",
    "tree_from_element",
    "py_tree_from_element",
    "html_tree",
]


#: Prefixes element labels show for well-known namespaces, whatever prefix a file binds them to (the C walker,
#: graphsr/io/_walk.c, holds the same table; a test checks both label every entry alike).
KNOWN_PREFIXES = {
    "http://projectmallard.org/1.0/": "mal",
    "http://projectmallard.org/ui/1.0/": "ui",
    "http://projectmallard.org/if/1.0/": "if",
    "http://projectmallard.org/experimental/": "e",
    "http://www.w3.org/2005/11/its": "its",
    "http://www.w3.org/1999/xlink": "xlink",
    "http://www.w3.org/1999/xhtml": "html",
    "http://www.w3.org/1998/Math/MathML": "mml",
    "http://www.w3.org/2000/svg": "svg",
    "http://www.w3.org/2001/XInclude": "xi",
    "http://docbook.org/ns/docbook": "db",
    "http://www.tei-c.org/ns/1.0": "tei",
    "http://creativecommons.org/ns#": "cc",
    "http://web.resource.org/cc/": "cc0",
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://purl.org/dc/terms/": "dcterms",
    "http://purl.org/dc/dcmitype/": "dcmitype",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
    "http://www.w3.org/2000/01/rdf-schema#": "rdfs",
    "http://www.w3.org/2002/07/owl#": "owl",
    "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd": "sodipodi",
    "http://inkscape.sourceforge.net/DTD/sodipodi-0.dtd": "sodipodi0",
    "http://www.inkscape.org/namespaces/inkscape": "inkscape",
    "http://www.w3.org/2001/XMLSchema-instance": "xsi",
    "http://www.w3.org/2001/XMLSchema": "xs",
    "http://www.w3.org/1999/XSL/Transform": "xsl",
    "http://www.w3.org/2005/Atom": "atom",
    "http://www.music-encoding.org/ns/mei": "mei",
    "http://www.opengis.net/kml/2.2": "kml",
    "http://www.topografix.com/GPX/1/1": "gpx",
    "http://ns.adobe.com/AdobeIllustrator/10.0/": "i",
    "http://ns.adobe.com/Extensibility/1.0/": "x",
    "http://ns.adobe.com/SaveForWeb/1.0/": "sfw",
    "http://ns.adobe.com/Graphs/1.0/": "graph",
    "http://ns.adobe.com/Variables/1.0/": "v",
    "http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/": "a",
    "http://ns.adobe.com/xap/1.0/": "xmp",
    "http://ns.adobe.com/pdf/1.3/": "pdf",
    "http://ns.adobe.com/photoshop/1.0/": "photoshop",
    "http://www.bohemiancoding.com/sketch/ns": "sketch",
    "http://www.serif.com/": "serif",
    "http://www.w3.org/XML/1998/namespace": "xml",
}


def derived_prefix(uri: str) -> str:
    """The prefix of a namespace not in :data:`KNOWN_PREFIXES`: ``ns`` and the 32-bit FNV-1a hash of its URI
    (UTF-8) in hex, so that one URI gets one prefix in every file, process and load, whatever each file binds.

    >>> derived_prefix("urn:example")
    'ns0f7da228'
    """
    h = 0x811C9DC5
    for byte in uri.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"ns{h:08x}"


def _qname(el, root_ns: str | None) -> str:
    """An element's label, by namespace rather than by how the file spells it: the local name for no namespace
    or the document element's own namespace (default or prefixed alike: XPaths written without prefixes
    resolve), else a prefix fixed by the namespace URI alone (:data:`KNOWN_PREFIXES`, else
    :func:`derived_prefix`)."""
    qn = etree.QName(el)
    if qn.namespace is None or qn.namespace == root_ns:
        return qn.localname
    prefix = KNOWN_PREFIXES.get(qn.namespace) or derived_prefix(qn.namespace)
    return f"{prefix}:{qn.localname}"


try:
    from ._walk import text as _c_text
    from ._walk import walk as _c_walk
except ImportError:  # the optional C walker was not built
    _c_walk = _c_text = None


def accelerated() -> bool:
    """Whether the C walker (``graphsr.io._walk``) is in use."""
    return _c_walk is not None


def tree_from_element(root, docid: str, source: str | None = None) -> DocumentTree:
    """Turn a parsed lxml element into a :class:`DocumentTree` (one pass).

    Uses the C walker when it was built, else :func:`py_tree_from_element`;
    both compute the same arrays.
    """
    from .entities import expand_internal_entities

    expand_internal_entities(root, source or docid)  # the document's own entities, as a resolving parser would
    if _c_walk is None:
        return _py_walk(root, docid, source)
    tags, ints, offsets, codes, hashes = _c_walk(root)
    return DocumentTree._trusted(
        docid, tags, ints[0], ints[1], ints[2], ints[3], offsets[0], offsets[1], source, (codes, hashes)
    )


def py_tree_from_element(root, docid: str, source: str | None = None) -> DocumentTree:
    """Pure-Python walker: a parsed lxml element to a :class:`DocumentTree` (the document's internal entities
    expanded first, as :func:`tree_from_element` expands them).

    Offsets: an element starts at the current offset, its ``text`` follows,
    then each child's subtree and that child's ``tail``.
    """
    from .entities import expand_internal_entities

    expand_internal_entities(root, source or docid)
    return _py_walk(root, docid, source)


def _py_walk(root, docid: str, source: str | None = None) -> DocumentTree:
    tags: dict[str, int] = {}
    tag: list[int] = []
    parent: list[int] = []
    depth: list[int] = []
    position: list[int] = []
    start: list[int] = []
    end: list[int] = []
    Comment, PI, Entity = etree.Comment, etree.ProcessingInstruction, etree.Entity

    root_ns = etree.QName(root).namespace

    def name_of(el) -> str:
        t = el.tag
        return t if t[0] != "{" else _qname(el, root_ns)

    def open_node(el, par: int, d: int, pos: int, offset: int) -> int:
        i = len(tag)
        name = name_of(el)
        tid = tags.get(name)
        if tid is None:
            tid = tags[name] = len(tags)
        tag.append(tid)
        parent.append(par)
        depth.append(d)
        position.append(pos)
        start.append(offset)
        end.append(offset)
        return i

    offset = 0
    i = open_node(root, -1, 1, 1, offset)
    t = root.text
    if t:
        offset += len(t)
    # stack entries: (index, element, child iterator, per-tag sibling counter, depth)
    stack: list[tuple] = [(i, root, iter(root), {}, 1)]
    while stack:
        i, el, it, counter, d = stack[-1]
        child = next(it, None)
        if child is None:
            end[i] = offset
            stack.pop()
            if stack:
                t = el.tail
                if t:
                    offset += len(t)
            continue
        ct = child.tag
        if ct is Comment or ct is PI:
            t = child.tail
            if t:
                offset += len(t)
            continue
        if ct is Entity:
            offset += 1
            t = child.tail
            if t:
                offset += len(t)
            continue
        name = name_of(child)
        pos = counter.get(name, 0) + 1
        counter[name] = pos
        j = open_node(child, i, d + 1, pos, offset)
        t = child.text
        if t:
            offset += len(t)
        stack.append((j, child, iter(child), {}, d + 1))
    i32, i64 = np.int32, np.int64  # (the dtypes DocumentTree holds its columns in)
    return DocumentTree(
        docid,
        tuple(tags),
        np.asarray(tag, dtype=i32),
        np.asarray(parent, dtype=i32),
        np.asarray(depth, dtype=i32),
        np.asarray(position, dtype=i32),
        np.asarray(start, dtype=i64),
        np.asarray(end, dtype=i64),
        source,
    )


_NOT_TEXT = ("script", "style")


def html_tree(data: bytes, docid: str, source: str | None = None) -> DocumentTree:
    """A web page's tree through lxml.html (real-world HTML read as browsers read it), offsets into its text
    content; ``script`` and ``style`` hold no text."""
    import lxml.html

    try:
        root = lxml.html.document_fromstring(data)
    except etree.ParserError as exc:
        if "empty" not in str(exc).lower():
            raise CollectionError(f"cannot read HTML: {' '.join(str(exc).split())}", source or docid) from None
        root = lxml.html.document_fromstring(b"<html></html>")  # a page of nothing (or comments): as browsers show it
    except ValueError as exc:
        raise CollectionError(f"cannot read HTML: {' '.join(str(exc).split())}", source or docid) from None
    _drop_script_text(root)
    return tree_from_element(root, docid, source)


def _drop_script_text(root) -> None:
    """A page's ``script`` and ``style`` emptied: their code is not its text (the elements stay)."""
    for el in list(root.iter(*_NOT_TEXT)):
        el.text = None
        for child in list(el):
            el.remove(child)


def text_content(root) -> str:
    """The text of an element's subtree (its own tail not included), into which the walkers' offsets count:
    text and CDATA as they are, an entity reference left unexpanded as U+FFFD, no comment or processing
    instruction.  In C where the walker was built (one pass over lxml's nodes, no element objects made), else
    joined from :func:`_text_parts`; both give the same string (tests/test_readers_agree.py)."""
    if _c_text is not None:
        return _c_text(root)
    return "".join(_text_parts(root))


def _text_parts(el):
    """The text of an element's subtree in document order, as the walkers count it."""
    if el.text and isinstance(el.tag, str):
        yield el.text
    for child in el:
        if isinstance(child.tag, str):
            yield from _text_parts(child)
        elif child.tag is etree.Entity:
            yield "\ufffd"
        if child.tail:
            yield child.tail
