"""A file of a RAG framework's nodes (and documents) as a collection: each document's tree is its nodes nested as
the parser built them (:class:`~graphsr.io.retrieved.NodeHierarchy`), its text the document's record where the
file holds one."""

from __future__ import annotations

import functools
import os

from ..errors import CollectionError, GraphsrInputError
from .first_records import first_record, is_nodes_record

__all__ = ["NODES_MEMBER", "is_nodes_collection", "hierarchy_of", "nodes_sources", "read_nodes_tree", "read_nodes_text"]

#: The suffix of a hierarchy document's member name (``<doc>.nodes``): how readers tell such a document.
NODES_MEMBER = ".nodes"


def is_nodes_collection(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a JSON lines file of a framework's nodes (by its first record)."""
    if not os.path.isfile(path):
        return False
    try:
        return is_nodes_record(first_record(path, CollectionError))
    except CollectionError:
        return False


@functools.lru_cache(maxsize=2)
def _hierarchy(path: str, mtime: int, size: int):
    from .retrieved import read_hierarchy

    try:
        return read_hierarchy(path)
    except CollectionError:
        raise
    except GraphsrInputError as exc:
        raise CollectionError(exc.message, path, exc.line) from None


def hierarchy_of(path: str | os.PathLike):
    """The :class:`~graphsr.io.retrieved.NodeHierarchy` of a nodes file (read once per file and state)."""
    st = os.stat(path)
    return _hierarchy(str(path), st.st_mtime_ns, st.st_size)


def nodes_sources(path: str | os.PathLike, source: type) -> list:
    """One ``source`` (:class:`~graphsr.io.collection.CollectionSource`) per document of the hierarchy."""
    h = hierarchy_of(path)
    return [source(doc, str(path), doc + NODES_MEMBER, len(h.texts.get(doc, "")), -1) for doc in h.documents()]


def read_nodes_tree(source):
    """The tree of a hierarchy's document."""
    return hierarchy_of(source.path).tree(source.docid)[0]


def read_nodes_text(source) -> str:
    """The text of a hierarchy's document, from its document record."""
    text = hierarchy_of(source.path).texts.get(source.docid)
    if text is None:
        raise CollectionError(
            f"no text of document {source.docid}: the nodes file holds its nodes, not it (add the document's record: "
            "LlamaIndex's Document.to_dict(), or {doc_id, text})",
            source.path,
        )
    return text
