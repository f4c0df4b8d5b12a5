"""Streaming readers: XML collections, runs, assessments.

Every reader reports bad input as a :class:`~graphsr.errors.GraphsrInputError`
subclass naming the file, the line and what was expected.
"""

from .collection import CollectionSource, iter_documents, list_collection, parse_document, read_document
from .fol import (qrels_format, read_fol_qrels, read_fol_run, read_inex_submission, read_passage_run, run_format,
                  submission_files)
from .qrels import read_element_qrels
from .routes import RouteLogError, read_routes
from .runs import read_run

__all__ = ["CollectionSource", "iter_documents", "list_collection", "parse_document", "read_document",
           "read_element_qrels", "read_run", "read_routes", "RouteLogError", "read_fol_qrels", "read_fol_run",
           "read_inex_submission", "read_passage_run", "qrels_format", "run_format", "submission_files"]
