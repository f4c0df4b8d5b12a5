"""Reading XML collections: trees, XPaths, INEX character offsets and bad input."""

from __future__ import annotations

import tarfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from graphsr.errors import CollectionError
from graphsr.io import iter_documents, list_collection, parse_document
from graphsr.summaries import summarize_collection

from .conftest import write


def test_offsets_follow_inex_text_convention():
    xml = b"<a>ab<b>cd</b>e<!-- no --><c/>f&amp;<?pi x?>g<d><![CDATA[<h>]]></d>\n</a>"
    doc = parse_document(xml, "t")
    assert doc.tag_names() == ["a", "b", "c", "d"]
    # text of a: "ab" + "cd" + "e" + "" + "f&" + "g" + "<h>" + "\n"
    assert doc.start.tolist() == [0, 2, 5, 8]
    assert doc.end.tolist() == [12, 4, 5, 11]
    root = etree.fromstring(xml)
    assert doc.end[0] == len(root.xpath("string()"))


def test_xpaths_are_positional_per_tag():
    doc = parse_document(b"<r><s/><p/><s><p/><p/></s></r>", "t")
    assert doc.xpaths() == ["/r[1]", "/r[1]/s[1]", "/r[1]/p[1]", "/r[1]/s[2]", "/r[1]/s[2]/p[1]", "/r[1]/s[2]/p[2]"]
    assert doc.depth.tolist() == [1, 2, 2, 2, 3, 3]
    assert doc.parent.tolist() == [-1, 0, 0, 0, 3, 3]
    assert doc.preorder.tolist() == [1, 2, 3, 4, 5, 6]
    assert doc.node("/r/s[2]/p[2]") == 5
    assert doc.node("/r[1]/s[2]/p[2]") == 5
    with pytest.raises(KeyError):
        doc.node("/r/s[3]")


def test_unicode_characters_not_bytes():
    doc = parse_document("<a>héllo <b>wörld</b></a>".encode("utf-8"), "u")
    assert doc.length.tolist() == [11, 5]


def test_a_declared_entity_is_its_text_and_an_undeclared_one_one_character():
    """An entity the document declares is expanded (its text is text); one declared in a DTD that is not read
    stays a reference, counted as one character (the INEX collections' convention)."""
    xml = b'<!DOCTYPE a [<!ENTITY ent "expanded text">]><a>x&ent;y</a>'
    assert parse_document(xml, "e").length.tolist() == [15]
    xml = b'<!DOCTYPE a SYSTEM "a.dtd"><a>x&ent;y</a>'
    assert parse_document(xml, "e").length.tolist() == [3]


def test_namespaced_tags_use_prefix():
    """A label depends on the namespace URI, never on the prefix a file binds: a well-known URI has its fixed
    prefix, any other one derived from the URI; the document element's own namespace is bare (XPaths written
    without prefixes resolve)."""
    from graphsr.io.walk import derived_prefix

    m = derived_prefix("urn:m")
    doc = parse_document(b'<r xmlns:m="urn:m"><m:x>t</m:x></r>', "ns")
    assert doc.xpaths() == ["/r[1]", f"/r[1]/{m}:x[1]"]
    for text in (b'<r xmlns:q="urn:m"><q:x>t</q:x></r>', b'<r><x xmlns="urn:m">t</x></r>'):
        assert parse_document(text, "ns").xpaths() == ["/r[1]", f"/r[1]/{m}:x[1]"]
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:c="http://creativecommons.org/ns#" '
        b'xmlns:sp="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"><metadata><c:Work/>'
        b'<Work xmlns="http://creativecommons.org/ns#"/></metadata><sp:namedview/>'
        b'<namedview xmlns="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/></svg>'
    )
    assert parse_document(svg, "s").tag_names() == [
        "svg",
        "metadata",
        "cc:Work",
        "cc:Work",
        "sodipodi:namedview",
        "sodipodi:namedview",
    ]


def test_the_c_and_python_walkers_label_every_known_namespace_alike():
    from lxml import etree

    from graphsr.io.walk import KNOWN_PREFIXES, accelerated, py_tree_from_element

    if not accelerated():
        pytest.skip("the C walker is not built")
    known = {u: p for u, p in KNOWN_PREFIXES.items() if p != "xml"}  # (no element is in the xml namespace)
    body = "".join(f'<x{i} xmlns="{uri}"/>' for i, uri in enumerate([*known, "urn:other", "tag:x,2026"]))
    text = f"<r>{body}</r>".encode()
    c = parse_document(text, "k").tag_names()
    assert c == py_tree_from_element(etree.fromstring(text), "k").tag_names()
    assert c[1 : len(known) + 1] == [f"{p}:x{i}" for i, p in enumerate(known.values())]


def test_malformed_xml_names_file_and_line(tmp_path):
    f = write(tmp_path / "c" / "bad.xml", "<a>\n<b>\n</a>\n")
    with pytest.raises(CollectionError) as exc:
        list(iter_documents(tmp_path / "c"))
    assert exc.value.path.endswith("bad.xml")
    assert exc.value.line == 3
    assert "malformed XML" in str(exc.value)
    assert str(f) in str(exc.value)


def test_empty_file_is_malformed(tmp_path):
    write(tmp_path / "c" / "empty.xml", "")
    with pytest.raises(CollectionError, match="malformed XML"):
        list(iter_documents(tmp_path / "c"))


def test_empty_directory(tmp_path):
    (tmp_path / "none").mkdir()
    write(tmp_path / "none" / "notes.csv", "not a document")
    with pytest.raises(CollectionError, match="no documents found.*Markdown, text or HTML"):
        list_collection(tmp_path / "none")


def test_missing_path(tmp_path):
    with pytest.raises(CollectionError, match="not found"):
        list_collection(tmp_path / "nowhere")


def test_duplicate_document_ids(tmp_path):
    write(tmp_path / "c" / "x" / "42.xml", "<a/>")
    write(tmp_path / "c" / "y" / "42.xml", "<b/>")
    with pytest.raises(CollectionError, match="duplicate document id '42'"):
        list_collection(tmp_path / "c")


def test_directory_is_read_recursively_in_sorted_order(tmp_path):
    write(tmp_path / "c" / "b" / "2.xml", "<a>two</a>")
    write(tmp_path / "c" / "a" / "1.xml", "<a>one</a>")
    docs = list(iter_documents(tmp_path / "c"))
    assert [d.docid for d in docs] == ["1", "2"]
    assert docs[0].source.endswith("1.xml")


def test_tar_archive(tmp_path):
    src = tmp_path / "src"
    write(src / "p" / "7.xml", "<a><b>x</b></a>")
    write(src / "p" / "8.xml", "<a>yy</a>")
    archive = tmp_path / "coll.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(src / "p", arcname="p")
    docs = list(iter_documents(archive))
    assert [(d.docid, int(d.end[0])) for d in docs] == [("7", 1), ("8", 2)]


def test_single_file_collection(tmp_path):
    f = write(tmp_path / "one.xml", "<a><b/></a>")
    (doc,) = list(iter_documents(f))
    assert doc.docid == "one" and len(doc) == 2


def test_docid_filter_skips_parsing(tmp_path):
    write(tmp_path / "c" / "1.xml", "<a/>")
    write(tmp_path / "c" / "2.xml", "<broken")
    docs = list(iter_documents(tmp_path / "c", docids=lambda d: d == "1"))
    assert [d.docid for d in docs] == ["1"]


def test_shakespeare_lengths_match_lxml_string():
    from graphsr.data import sample

    coll = sample("shakespeare")["collection"]
    for doc in iter_documents(coll):
        root = etree.parse(str(next(coll.glob(doc.docid + ".xml")))).getroot()
        els = list(root.iter())
        assert len(els) == len(doc)
        lengths = np.array([len(e.xpath("string()")) for e in els])
        assert np.array_equal(lengths, doc.length)
        break


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2", "w:xz", "w"])
def test_archives_out_of_name_order_read_as_their_directory(tmp_path, mode):
    """Members stored in reverse name order (compressed or not) are read in one forward pass into a temporary
    plain tar, and give the documents, in name order, that the same files in a directory give."""
    import tarfile

    from graphsr.io import iter_documents

    folder = tmp_path / "coll"
    folder.mkdir()
    for k in range(12):
        (folder / f"d{k:02d}.xml").write_text(f"<a><b>{'x' * k}</b>{'<c/>' * (k % 3)}</a>")
    suffix = {"w:gz": ".tar.gz", "w:bz2": ".tar.bz2", "w:xz": ".tar.xz", "w": ".tar"}[mode]
    archive = tmp_path / f"coll{suffix}"
    with tarfile.open(archive, mode) as tar:
        for f in sorted(folder.iterdir(), reverse=True):
            tar.add(f, arcname=f.name)
    view = lambda docs: [(d.docid, d.parent.tolist(), d.end.tolist()) for d in docs]
    assert view(iter_documents(archive)) == view(iter_documents(folder))
    # members read by their recorded data offsets, or (offset unknown: sparse members) through tarfile's headers
    import dataclasses

    from graphsr.io import list_collection
    from graphsr.summaries import summarize_collection

    sources = list_collection(archive)
    assert all(s.offset > 0 for s in sources)
    unknown = [dataclasses.replace(s, offset=-1) for s in sources]
    assert view(iter_documents(unknown)) == view(iter_documents(folder))
    # worker processes keep their archives open from chunk to chunk, and agree with one process
    one = summarize_collection(archive, ["p*"])["p*"]
    two = summarize_collection(archive, ["p*"], workers=2, chunk_docs=3)["p*"]
    assert [one.label(s) for s in range(len(one))] == [two.label(s) for s in range(len(two))]
    assert one.extent_size.tolist() == two.extent_size.tolist()


@pytest.mark.parametrize("walker", ["c", "python"])
def test_labels_go_by_namespace_not_by_prefix(walker):
    """Mallard pages write their own namespace as the default and, in places, with a prefix bound to it
    (<credit> and <mal:credit>): one label, the local name, so one summary partition; a well-known other
    namespace gets its fixed prefix whatever the file binds; an unknown one a prefix derived from its URI."""
    from graphsr.io import collection as coll
    from graphsr.io.walk import derived_prefix

    xml = (
        b'<page xmlns="http://projectmallard.org/1.0/" xmlns:x="http://www.w3.org/2001/XInclude">'
        b'<info><credit>a</credit><mal:credit xmlns:mal="http://projectmallard.org/1.0/">b</mal:credit>'
        b'<x:include/><q:n xmlns:q="urn:q"/></info></page>'
    )
    root = etree.fromstring(xml, coll._parser())
    if walker == "c" and not coll.accelerated():
        pytest.skip("the C walker is not built")
    doc = (coll.tree_from_element if walker == "c" else coll.py_tree_from_element)(root, "p")
    assert doc.xpaths() == [
        "/page[1]",
        "/page[1]/info[1]",
        "/page[1]/info[1]/credit[1]",
        "/page[1]/info[1]/credit[2]",
        "/page[1]/info[1]/xi:include[1]",
        f"/page[1]/info[1]/{derived_prefix('urn:q')}:n[1]",
    ]


def _mixed_collection(root):
    """A directory of XML under other names (SVG, XHTML, MusicXML, zipped MusicXML) and text files to skip."""
    import zipfile

    root.mkdir()
    (root / "icon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><g><path d="M0"/></g></svg>')
    (root / "page.XHTML").write_text('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>t</p></body></html>')
    (root / "sub").mkdir()
    (root / "sub" / "score.musicxml").write_text("<score-partwise><part><measure>m</measure></part></score-partwise>")
    (root / "notes.csv").write_text("not a document")
    with zipfile.ZipFile(root / "zipped.mxl", "w") as z:
        z.writestr(
            "META-INF/container.xml",
            '<container><rootfiles><rootfile full-path="s/zipped.musicxml" '
            'media-type="application/vnd.recordare.musicxml+xml"/></rootfiles>'
            "</container>",
        )
        z.writestr("s/zipped.musicxml", "<score-partwise><part><measure/><measure/></part></score-partwise>")
    return root


def test_a_directory_holds_xml_under_every_name_a_vocabulary_gives_it(tmp_path):
    coll = _mixed_collection(tmp_path / "c")
    sources = list_collection(coll)
    assert [s.docid for s in sources] == ["icon", "page", "score", "zipped"]
    docs = {d.docid: d for d in iter_documents(coll)}
    assert docs["zipped"].xpaths() == [
        "/score-partwise[1]",
        "/score-partwise[1]/part[1]",
        "/score-partwise[1]/part[1]/measure[1]",
        "/score-partwise[1]/part[1]/measure[2]",
    ]
    assert docs["page"].tag_names()[:2] == ["html", "body"] and docs["icon"].tag_names() == ["svg", "g", "path"]
    one = list_collection(coll / "zipped.mxl")
    assert [(s.docid, s.member) for s in one] == [("zipped", "s/zipped.musicxml")]


def test_a_zip_archive_is_a_collection_as_a_directory_and_a_tar_are(tmp_path):
    import io
    import tarfile
    import zipfile

    coll = tmp_path / "c"
    coll.mkdir()
    texts = {f"d{i:02d}.xml": f"<a><b>{i}</b>{'<c/>' * i}</a>" for i in range(12)}
    texts["sub/pic.svg"] = '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'
    for name, text in texts.items():
        (coll / name).parent.mkdir(parents=True, exist_ok=True)
        (coll / name).write_text(text)
    with zipfile.ZipFile(tmp_path / "c.zip", "w") as z:
        for name, text in texts.items():
            z.writestr(name, text)
        z.writestr("README", "skipped")
    with tarfile.open(tmp_path / "c.tar.gz", "w:gz") as tar:
        for name, text in texts.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))

    def read(path, workers=1):
        s = summarize_collection(path, ["p*"], workers=workers, chunk_docs=3)["p*"]
        return [s.label(k) for k in range(len(s))], s.extent_size.tolist()

    want = read(coll)
    assert read(tmp_path / "c.zip") == want == read(tmp_path / "c.tar.gz")
    assert read(tmp_path / "c.zip", workers=2) == want
    assert [d.xpaths() for d in iter_documents(tmp_path / "c.zip")] == [d.xpaths() for d in iter_documents(coll)]


@pytest.mark.parametrize(
    "content,expected",
    [
        (b"not a zip", "cannot read zipped MusicXML (.mxl)"),
        ("two", "no META-INF/container.xml and 2 XML members; expected one"),
        ("missing", "its container names the score 'gone.musicxml', which it does not hold"),
    ],
)
def test_a_broken_mxl_is_one_error(tmp_path, content, expected):
    import zipfile

    path = tmp_path / "s.mxl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        with zipfile.ZipFile(path, "w") as z:
            if content == "two":
                z.writestr("a.xml", "<a/>")
                z.writestr("b.musicxml", "<b/>")
            else:
                z.writestr(
                    "META-INF/container.xml",
                    '<container><rootfiles><rootfile full-path="gone.musicxml"/></rootfiles></container>',
                )
    with pytest.raises(CollectionError, match=expected.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        list_collection(path)


@st.composite
def _trees(draw, depth=0):
    tag = draw(st.sampled_from(["a", "b", "c"]))
    children = draw(st.lists(_trees(depth=depth + 1), max_size=4)) if depth < 4 else []
    return f"<{tag}>{''.join(children)}</{tag}>"


@given(_trees())
@settings(max_examples=200, deadline=None)
def test_the_stores_xpaths_from_depths_and_tags_are_the_documents(xml):
    """The local store rebuilds a document's XPaths from its elements' depths and tags alone (store.services):
    they are the ones the parsed document gives."""
    from graphsr.store.trees import _xpaths

    doc = parse_document(xml.encode(), "t")
    assert _xpaths(doc.depth.tolist(), doc.tag_names()) == doc.xpaths()
