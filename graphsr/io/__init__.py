"""Streaming readers: XML collections, runs, assessments.

Every reader reports bad input as a :class:`~graphsr.errors.GraphsrInputError`
subclass naming the file, the line and what was expected.  Names load on
first use, so a command that reads passage runs never imports lxml.
"""

from __future__ import annotations

from .._lazy import lazy_namespace

_LAZY = {
    "CollectionSource": "collection",
    "iter_documents": "collection",
    "list_collection": "collection",
    "parse_document": "collection",
    "read_document": "collection",
    "qrels_format": "sniff",
    "read_fol_qrels": "fol",
    "read_fol_run": "fol",
    "read_inex_submission": "fol",
    "read_passage_run": "fol",
    "run_format": "sniff",
    "routes_format": "sniff",
    "submission_files": "fol",
    "read_element_qrels": "qrels",
    "RouteLogError": "routes",
    "read_routes": "routes",
    "read_run": "runs",
    "write_run": "runs",
    "read_spans": "spans",
    "document_texts": "spans",
    "read_document_text": "collection",
    "read_chunk_run": "chunks",
    "read_chunk_map": "chunks",
    "read_chunk_qrels": "spans",
}

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY)
