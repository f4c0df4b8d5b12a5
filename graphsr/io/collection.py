"""Streaming reader of collections into :class:`~graphsr.core.DocumentTree`: XML, and beside it Markdown,
plain text and HTML documents (``.md``, ``.markdown``, ``.txt``, ``.html``, ``.htm``: read by
:mod:`graphsr.io.textdocs`, which defines their text).

A collection is a directory of XML files (searched recursively for the names
:data:`XML_SUFFIXES` lists: ``.xml``, ``.svg``, ``.xhtml``, ``.musicxml``, ...,
and zipped MusicXML ``.mxl``), a single XML file, or an archive of them: tar
(``.tar``, ``.tar.gz``, ``.tgz``, ...) or zip (``.zip``); one document per file,
``docid`` = file-name stem.  A ``.mxl`` file is one document, the score its
``META-INF/container.xml`` names.  Files are chosen by name, never by sniffing
their bytes: a collection's documents are what a listing shows.  Documents are
parsed one at a time with lxml and turned into arrays, so memory does not
grow with the collection.

Text offsets follow the INEX convention (docs/conventions.md): Unicode characters
of text content only, tags excluded; every text node counts, whitespace
included, so ``doc.end[0]`` equals ``len(root.xpath('string()'))``.
Comments and processing instructions are not text (their tails are).
Entities are not expanded (a safety measure against entity-expansion
attacks): a reference to an entity declared in the document's DTD counts as
one character, as docs/conventions.md asks.  Predefined entities and character
references are ordinary characters.
"""

from __future__ import annotations

import functools
import os
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from lxml import etree

from ..errors import CollectionError
from .budget import check_document, check_text_document, check_text_size, file_chunks
from .listings import kept_listings
from ..core.document import DocumentTree
from .progress import progress_bar
from .tar_listing import tar_members
from .textdocs import parse_text_document, text_format
from .walk import _drop_script_text, accelerated, html_tree, py_tree_from_element, text_content, tree_from_element

__all__ = [
    "CollectionSource",
    "list_collection",
    "iter_documents",
    "read_document",
    "parse_document",
    "tree_from_element",
    "py_tree_from_element",
    "accelerated",
    "html_tree",
    "read_document_text",
    "archive_kind",
]

_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")
_ZIP_SUFFIXES = (".zip",)

#: The names of XML documents in a directory or archive (lower-cased endings): XML and the vocabularies whose
#: files are XML by another extension.
XML_SUFFIXES = (
    ".xml",
    ".svg",
    ".xhtml",
    ".xht",
    ".musicxml",
    ".mei",
    ".tei",
    ".dbk",
    ".rdf",
    ".owl",
    ".xsd",
    ".xsl",
    ".xslt",
    ".kml",
    ".gpx",
    ".atom",
    ".rss",
    ".opf",
    ".ncx",
    ".xlf",
    ".xliff",
    ".page",
)

#: Zipped MusicXML: one document per file, the score its container names.
_MXL = ".mxl"


_PARSER: etree.XMLParser | None = None


def _parser() -> etree.XMLParser:
    """The XML parser every document is read with (created once, reused)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = etree.XMLParser(
            huge_tree=True, resolve_entities=False, no_network=True, load_dtd=False, remove_blank_text=False
        )
    return _PARSER


@dataclass(frozen=True, slots=True)
class CollectionSource:
    """One document of a collection: its id and where to read it from (slots: a listing of 66,000 members
    held each one's attribute dict for the whole load)."""

    docid: str
    path: str
    member: str | None = None  # name inside a tar archive
    size: int = 0  # bytes (0: unknown), for progress measured in what is left to read
    offset: int = -1  # where a tar member's bytes start in the (uncompressed) archive; -1: unknown

    @property
    def name(self) -> str:
        """File name used in messages."""
        return self.path if self.member is None else f"{self.path}!{self.member}"


def _stem(name: str) -> str:
    base = os.path.basename(name)
    return base[:-4] if base.lower().endswith(".xml") else os.path.splitext(base)[0]


def _is_xml(name: str) -> bool:
    """Whether a file is a document of the collection: XML by its name, or Markdown, text or HTML
    (:mod:`graphsr.io.textdocs`)."""
    return name.lower().endswith(XML_SUFFIXES) or text_format(name) is not None


def _mxl_score(path) -> str:
    """The member of a zipped MusicXML file (.mxl) that holds the score: the first rootfile its
    ``META-INF/container.xml`` names, else its one XML member outside META-INF."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "META-INF/container.xml" in names:
                root = etree.fromstring(z.read("META-INF/container.xml"), _parser())
                for el in root.iter():
                    if isinstance(el.tag, str) and etree.QName(el).localname == "rootfile" and el.get("full-path"):
                        full = el.get("full-path")
                        if full not in names:
                            raise CollectionError(
                                f"its container names the score {full!r}, which it does not hold", path
                            )
                        return full
            scores = [n for n in names if not n.startswith("META-INF/") and _is_xml(n)]
    except (zipfile.BadZipFile, OSError, etree.XMLSyntaxError) as exc:
        raise CollectionError(f"cannot read zipped MusicXML (.mxl): {' '.join(str(exc).split())}", path) from None
    if len(scores) != 1:
        raise CollectionError(
            f"cannot tell the score of a zipped MusicXML file: no META-INF/container.xml and "
            f"{len(scores)} XML members; expected one",
            path,
        )
    return scores[0]


def list_collection(path: str | os.PathLike) -> list[CollectionSource]:
    """List the documents of a collection without parsing them.

    Parameters
    ----------
    path : path-like
        A directory (searched recursively for ``*.xml`` and the other
        document files), a document file, a tar or zip archive of them, or a
        JSON lines corpus (``*.jsonl``: one document a line, ``doc_id`` or
        ``_id``, ``text`` and its ``format``: markdown, text, html or xml;
        default text).

    Returns
    -------
    list of CollectionSource
        Sorted by path, so every run reads the documents in the same order.

    Raises
    ------
    CollectionError
        If the path does not exist, holds no XML file, or two files share a
        document id (file-name stem).
    """
    kept = kept_listings()
    key = os.path.realpath(path) if kept is not None else ""
    if kept is not None and key in kept:
        return list(kept[key])
    p = Path(path)
    if not p.exists():
        raise CollectionError("collection not found: expected a directory, an XML file or a tar archive", p)
    sources = _sources(p)
    if not sources:
        raise CollectionError(
            f"no documents found: expected at least one file named *.xml, *.mxl, "
            f"{', '.join('*' + x for x in XML_SUFFIXES[1:])}, or Markdown, text or HTML (*.md, "
            "*.markdown, *.txt, *.html, *.htm)",
            p,
        )
    seen: dict[str, CollectionSource] = {}
    for s in sources:
        if s.docid in seen:
            raise CollectionError(
                f"duplicate document id {s.docid!r}: also in {seen[s.docid].name}; "
                "expected one file per document id (the file-name stem)",
                s.name,
            )
        seen[s.docid] = s
    if kept is not None:
        kept[key] = list(sources)
    return sources


def _sources(p: Path) -> list[CollectionSource]:
    """The documents of a directory, a zipped MusicXML score, a JSON lines corpus, a zip or tar archive, or one
    file, as :func:`list_collection` lists them (unchecked)."""
    name = str(p).lower()
    from .node_collection import is_nodes_collection, nodes_sources
    from .nq_collection import is_nq_collection, nq_sources

    if is_nq_collection(p):  # Natural Questions: each example's page a document
        return nq_sources(p, CollectionSource)
    if is_nodes_collection(p):  # a RAG framework's nodes: each document's tree of them
        return nodes_sources(p, CollectionSource)
    if p.is_dir():
        from .tree_files import tree_files

        files = sorted(
            (e.path, e.stat().st_size) for e in tree_files(p) if _is_xml(e.name) or e.name.lower().endswith(_MXL)
        )
        return [
            CollectionSource(_stem(f), f, _mxl_score(f) if f.lower().endswith(_MXL) else None, size)
            for f, size in files
        ]
    if name.endswith(_MXL):
        return [CollectionSource(_stem(str(p)), str(p), _mxl_score(p), p.stat().st_size)]
    if name.endswith(_JSONL_SUFFIXES):
        return _jsonl_sources(p)
    kind = archive_kind(p)
    if kind == "zip":
        return _zip_sources(p)
    if kind == "tar":
        from .archive_limits import check_member, limits

        names = tar_members(p, _is_xml)
        bounds = limits()
        for member, size, _ in names:  # (a compressed tar's expansion is bounded as it is read)
            check_member(p, member, size, None, CollectionError, bounds)
        archive = str(p)
        return [CollectionSource(_stem(n), archive, n, size, offset) for n, size, offset in names]
    return [CollectionSource(_stem(str(p)), str(p), None, p.stat().st_size)]


def archive_kind(path: str | os.PathLike) -> str | None:
    """``'zip'`` or ``'tar'`` for an archive of documents (by its name: ``.zip``; ``.tar``, ``.tar.gz``, ``.tgz``,
    ``.tar.bz2``, ``.tar.xz``), None for anything else (a zipped MusicXML score is one document)."""
    name = str(path).lower()
    if name.endswith(_ZIP_SUFFIXES):
        return "zip"
    if name.endswith(_TAR_SUFFIXES):
        return "tar"
    return None


def _zip_sources(p: Path) -> list[CollectionSource]:
    """The documents of a zip archive, each member's sizes checked before anything is read."""
    import zipfile

    from .archive_limits import check_member, limits

    try:
        with zipfile.ZipFile(p) as z:
            infos = [i for i in z.infolist() if not i.is_dir() and _is_xml(i.filename)]
    except (zipfile.BadZipFile, OSError) as exc:
        raise CollectionError(f"cannot read zip archive: {' '.join(str(exc).split())}", p) from None
    bounds = limits()
    for i in infos:  # (before anything is read)
        check_member(p, i.filename, i.file_size, i.compress_size, CollectionError, bounds)
    names = sorted((i.filename, i.file_size) for i in infos)
    archive = str(p)  # one string for every member
    return [CollectionSource(_stem(n), archive, n, size) for n, size in names]


def _xml_message(exc) -> str:
    """lxml's message on one line, without its own position suffix (libxml2's advice to use XML_PARSE_HUGE
    replaced where graphsr sets it already: its depth bound holds even then)."""
    import re

    msg = (exc.msg or str(exc)).splitlines()[0].strip()
    depth = re.match(r"Excessive depth in document: (\d+)", msg)
    if depth:
        return (
            f"elements nested deeper than {depth.group(1)} levels, libxml2's bound for any document (graphsr "
            "parses with its large-document option, XML_PARSE_HUGE, already)"
        )
    return msg.rstrip(",").strip()


def _encoding_error(path, data: bytes | None = None) -> CollectionError:
    """The line of the first byte that is not UTF-8, for a document whose bytes do not match its encoding."""
    try:
        if data is None:
            with open(path, "rb") as fh:
                data = fh.read()
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return CollectionError(
            f"expected UTF-8 text (the XML default or declared encoding), got byte 0x{data[exc.start]:02x}", path, line
        )
    except OSError as exc:
        return CollectionError(f"cannot read file: {exc.strerror}", path)
    return CollectionError("the bytes do not match the document's declared encoding", path)


def parse_document(data: bytes, docid: str, source: str | None = None) -> DocumentTree:
    """Parse one XML document from bytes into a :class:`DocumentTree`.

    Raises
    ------
    CollectionError
        If the bytes are not well-formed XML (with the line of the error).
    """
    check_document(len(data), lambda: (data,), source or docid)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        if "encoding" in (exc.msg or "").lower():
            raise _encoding_error(source or docid, data) from None
        line = exc.lineno if exc.lineno else None
        raise CollectionError(
            f"malformed XML: {_xml_message(exc)}; expected a well-formed document", source or docid, line
        ) from None
    return tree_from_element(root, docid, source)


def read_document(source: CollectionSource, _tars: dict | None = None) -> DocumentTree:
    """Read and parse one document of a collection (XML, or Markdown, text or HTML by its name)."""
    if _is_nq(source):
        from .nq_collection import read_nq_page

        return read_nq_page(source, _tars).tree
    if _is_nodes(source):
        from .node_collection import read_nodes_tree

        return read_nodes_tree(source)
    kind = text_format(source.member or source.path)
    if kind is not None:
        if source.member is not None:  # (what an archive's member would cost, before it is read)
            check_text_size(source.size, source.name)
        data = _read_bytes(source, _tars)
        check_text_document(data, source.name)
        if kind == "html":
            return html_tree(data, source.docid, source.name)
        return parse_text_document(data, kind, source.docid, source.name, not _in_corpus(source))
    if source.member is not None:
        check_document(source.size, lambda: (), source.name, count=False)  # (before it is read)
        return parse_document(_read_bytes(source, _tars), source.docid, source.name)

    try:
        size = os.path.getsize(source.path)
    except OSError:
        size = 0  # (the parse says why it cannot read the file)
    check_document(size, file_chunks(source.path), source.path)
    try:
        root = etree.parse(source.path, _parser()).getroot()
    except etree.XMLSyntaxError as exc:
        if "encoding" in (exc.msg or "").lower():
            raise _encoding_error(source.path) from None
        raise CollectionError(
            f"malformed XML: {_xml_message(exc)}; expected a well-formed document", source.path, exc.lineno or None
        ) from None
    except OSError as exc:
        if "encoding" in str(exc).lower():
            raise _encoding_error(source.path) from None
        raise CollectionError(f"cannot read file: {' '.join(str(exc).split())}", source.path) from None
    return tree_from_element(root, source.docid, source.path)


#: A corpus of documents as JSON lines: ``{"doc_id" (or BEIR's "_id"), "text", "format"}`` a document.
_JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


def _jsonl_sources(path: Path) -> list[CollectionSource]:
    """The documents of a JSON lines corpus (:func:`graphsr.io.corpus_source.record_fields`: ``doc_id``, ``_id``
    or ``docid``; ``text`` or ``body``; ``format``), in file order."""
    from .corpus_records import FORMATS, record_fields

    out = []
    first: dict[str, int] = {}  # each document id's line
    for k, (line, r) in enumerate(_corpus_records(str(path))):
        docid, text, kind = record_fields(r, path, line)
        if first.setdefault(docid, line) != line:
            raise CollectionError(
                f"duplicate document id {docid!r}: also on line {first[docid]}; expected one line per document id",
                path,
                line,
            )
        out.append(CollectionSource(docid, str(path), f"{docid}{FORMATS[kind]}", len(text), k))
    return out


def _corpus_records(path: str) -> list[tuple[int, dict]]:
    """The records of a JSON lines corpus, read once per file and state (its texts are read again by
    document)."""
    st = os.stat(path)
    return _cached_records(path, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=2)
def _cached_records(path: str, mtime: int, size: int) -> list[tuple[int, dict]]:
    from .records import read_records

    return read_records(path, CollectionError)


@functools.cache
def _special_members() -> tuple[str, str]:
    """The member suffixes of a Natural Questions page and of a RAG framework's nodes (imported once, when first
    asked: their readers are not imported with this module)."""
    from .node_collection import NODES_MEMBER
    from .nq_collection import NQ_MEMBER

    return NQ_MEMBER, NODES_MEMBER


def _is_nq(source: CollectionSource) -> bool:
    """Whether a document is a Natural Questions page (:mod:`graphsr.io.nq_collection`)."""
    return source.member is not None and source.member.endswith(_special_members()[0]) and source.offset > 0


def _is_nodes(source: CollectionSource) -> bool:
    """Whether a document is a RAG framework's hierarchy of nodes (:mod:`graphsr.io.node_collection`)."""
    return source.member is not None and source.member.endswith(_special_members()[1]) and source.offset == -1


def _in_corpus(source: CollectionSource) -> bool:
    """Whether a document is a line of a JSON lines corpus (its text is the line's, taken as it is)."""
    return source.path.lower().endswith(_JSONL_SUFFIXES)


def _read_bytes(source: CollectionSource, tars: dict | None = None) -> bytes:
    if _in_corpus(source):
        from .corpus_records import record_fields

        line, record = _corpus_records(source.path)[source.offset]
        return record_fields(record, source.path, line)[1].encode("utf-8")
    if source.member is None:
        try:
            with open(source.path, "rb") as fh:
                return fh.read()
        except OSError as exc:
            raise CollectionError(f"cannot read file: {exc.strerror}", source.path) from None
    zipped = source.path.lower().endswith((*_ZIP_SUFFIXES, _MXL))
    if tars is None:
        if zipped:
            return _Zip(source.path).read(source, close=True)
        with tarfile.open(source.path) as tar:
            return tar.extractfile(source.member).read()
    tar = tars.get(source.path)
    if tar is None:
        tar = tars[source.path] = _Zip(source.path) if zipped else _SeekableTar(source.path)
    return tar.read(source)


class _Zip:
    """A zip archive (or a zipped MusicXML file) whose members are read by name, kept open between reads."""

    def __init__(self, path: str):
        import zipfile

        self._path = path
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise CollectionError(f"cannot read zip archive: {' '.join(str(exc).split())}", path) from None

    def read(self, source: "CollectionSource", close: bool = False) -> bytes:
        import zipfile

        from .archive_limits import check_member

        try:
            info = self._zip.getinfo(source.member)
            check_member(self._path, info.filename, info.file_size, info.compress_size, CollectionError)
            return self._zip.read(info)
        except (zipfile.BadZipFile, KeyError, OSError, EOFError) as exc:
            raise CollectionError(
                f"cannot read zip member {source.member}: {' '.join(str(exc).split())}", self._path
            ) from None
        finally:
            if close:
                self.close()

    def close(self) -> None:
        self._zip.close()


class _SeekableTar:
    """A tar archive whose members are read in any order in linear time.

    Documents are read in name order, which need not be the archive's; in a compressed archive every
    backward seek restarts decompression from the start (30,000 members of a gzip tar out of order took
    minutes).  So a compressed archive is decompressed once, in one forward pass, into a temporary plain tar
    (deleted when closed), in which seeking is free; a plain tar is read in place.  A member whose data offset
    the listing recorded is read with one seek (no second pass over the headers); any other through tarfile,
    looked up in a dict (tarfile's own look-up scans its member list: quadratic over a pass).
    """

    def __init__(self, path: str):
        import shutil
        import tempfile

        self._path, self._tar, self._members = path, None, None
        lower = str(path).lower()
        if lower.endswith(".tar"):
            self._fh = open(path, "rb")
            return
        opener = {".gz": "gzip", ".tgz": "gzip", ".bz2": "bz2", ".xz": "lzma"}[Path(lower).suffix]
        from .archive_limits import open_bounded

        self._fh = tempfile.TemporaryFile()  # deleted when closed
        try:
            with open_bounded(path, CollectionError, opener) as packed:  # (no more than the ratio allows)
                shutil.copyfileobj(packed, self._fh, 1 << 20)
        except (OSError, EOFError) as exc:
            self._fh.close()
            raise CollectionError(f"cannot read tar archive: {' '.join(str(exc).split())}", path) from None
        except CollectionError:
            self._fh.close()
            raise

    def read(self, source: CollectionSource) -> bytes:
        if source.offset >= 0:
            self._fh.seek(source.offset)
            data = self._fh.read(source.size)
            if len(data) != source.size:
                raise CollectionError(
                    f"cannot read tar archive: member {source.member} is cut off ({len(data)} of {source.size} bytes)",
                    self._path,
                )
            return data
        if self._tar is None:
            self._fh.seek(0)
            self._tar = tarfile.open(fileobj=self._fh)
            self._members = {m.name: m for m in self._tar.getmembers()}  # the last of a name, as tarfile does
        return self._tar.extractfile(self._members[source.member]).read()

    def close(self) -> None:
        if self._tar is not None:
            self._tar.close()
        self._fh.close()


def iter_documents(
    path: str | os.PathLike | Iterable[CollectionSource],
    *,
    docids: Callable[[str], bool] | None = None,
    progress: bool = False,
    desc: str = "reading collection",
    known: Mapping[str, DocumentTree] | None = None,
) -> Iterator[DocumentTree]:
    """Stream the documents of a collection, one :class:`DocumentTree` at a time.

    Parameters
    ----------
    path : path-like or iterable of CollectionSource
        The collection (see :func:`list_collection`) or an already listed one.
    docids : callable, optional
        A predicate on document ids; documents for which it is false are not
        parsed.
    progress : bool
        Show a progress bar (on stderr).
    known : mapping, optional
        Trees of documents of this collection read already (by document id): yielded as they are, not read
        again.

    Yields
    ------
    DocumentTree

    Raises
    ------
    CollectionError
        For an empty collection, duplicate document ids (both before any
        document is parsed) or malformed XML (file and line).
    """
    sources = list_collection(path) if isinstance(path, (str, os.PathLike)) else list(path)
    if docids is not None:
        sources = [s for s in sources if docids(s.docid)]
    sized = all(s.size > 0 for s in sources)  # progress in bytes read (a steady rate whatever the sizes), or files
    bar = progress_bar(sum(s.size for s in sources) if sized else len(sources), desc, progress, "B" if sized else "doc")
    tars: dict = {}
    elements = 0
    try:
        for src in sources:
            doc = known.get(src.docid) if known else None
            if doc is None:
                doc = read_document(src, tars)
            elements += len(doc)
            bar.update(src.size if sized else 1)
            bar.note(f"{elements:,} elements")
            yield doc
    finally:
        for tar in tars.values():
            tar.close()
        bar.close()


def read_document_text(source: CollectionSource, _tars: dict | None = None) -> str:
    """A document's text, into which its offsets count (docs/conventions.md): the decoded file for Markdown and
    plain text; the text content for HTML (no script or style text) and XML (internal entities expanded; a
    reference left unexpanded is one character, U+FFFD here, as the walkers count it)."""
    if _is_nq(source):
        from .nq_collection import read_nq_page

        return read_nq_page(source, _tars).text
    if _is_nodes(source):
        from .node_collection import read_nodes_text

        return read_nodes_text(source)
    kind = text_format(source.member or source.path)
    return text_of(_read_bytes(source, _tars), kind, source.name, not _in_corpus(source))


def text_of(data: bytes, kind: str | None, name: str, newlines: bool = True) -> str:
    """The text of a document's bytes in format ``kind`` (:func:`graphsr.io.textdocs.text_format`'s; None for
    XML), as :func:`read_document_text` defines it; ``newlines`` reads CRLF and CR as LF in Markdown and text."""
    from .textdocs import _decoded

    if kind in ("markdown", "text"):
        return _decoded(data, name, newlines)
    if kind == "html":
        import lxml.html

        try:
            root = lxml.html.document_fromstring(data)
        except etree.ParserError:
            return ""  # (a page of nothing, as html_tree reads it)
        _drop_script_text(root)
    else:
        try:
            root = etree.fromstring(bytes(data), _parser())
        except etree.XMLSyntaxError as exc:
            raise CollectionError(
                f"malformed XML: {_xml_message(exc)}; expected a well-formed document", name, exc.lineno or None
            ) from None
        from .entities import expand_internal_entities

        expand_internal_entities(root, name)
    return text_content(root)
