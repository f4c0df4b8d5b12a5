"""Which format an input file is in, decided in one place from its first record.

Every command and reader that accepts more than one format of a kind of file
asks here, so a file is classified the same way wherever it is read:

========  ==========================================================================
kind      formats
========  ==========================================================================
qrels     ``'element'``: ``topic iter file rel [xpath]`` (TREC qrels are the case
          without an XPath); ``'fol'``: INEX passage qrels ``topic Q0 file rel
          offset length ...``, told apart by two integers in fields 4 and 5;
          ``'spans'``: span judgments (:mod:`graphsr.io.spans`): JSON lines, or CSV/TSV
          whose header names ``query_id, doc_id, start, end`` or Chroma's ``question,
          references, corpus_id``
run       ``'element'``: ``topic Q0 file rank score run_id [xpath]``; ``'fol'``: the
          same with ``offset length`` where an element run has an XPath;
          ``'xml'``: an INEX XML submission; ``'spans'``: a chunk run of spans in JSON
          lines (:mod:`graphsr.io.chunks`); ``'empty'``: no record at all
routes    ``'jsonl'``: one JSON object per line (a name ending ``.jsonl``,
          ``.ndjson`` or ``.json``, or a first line starting with ``{``);
          ``'csv'``: a CSV file with a header
========  ==========================================================================

The first record is the first line that is not blank and, in qrels and runs,
not a ``#`` comment (trec_eval skips those too); a UTF-8 byte order mark is
ignored.  Names ending ``.gz`` are read through gzip.  A file that cannot be
read is one error of the kind's class naming it.
"""

from __future__ import annotations

import os

from .first_records import first_record, routes_format, routes_format_of_name, spans_record, xpath_like

__all__ = [
    "qrels_format",
    "run_format",
    "routes_format",
    "routes_format_of_name",
    "xpath_like",
    "first_record",
    "spans_record",
]


def qrels_format(path: str | os.PathLike) -> str:
    """``'fol'`` for INEX passage (FOL) qrels, ``'spans'`` for span judgments, ``'element'`` for element and TREC
    qrels, from the first record (:func:`graphsr.io.formats.detect`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".qrels", delete=False) as f:
    ...     _ = f.write("# INEX passages\\n2010001 Q0 12345 1 0 240 240\\n")
    >>> qrels_format(f.name)
    'fol'
    """
    from .formats import ASSESSMENTS, detect

    return detect(path, ASSESSMENTS).name


def run_format(path: str | os.PathLike) -> str:
    """``'xml'`` (INEX submission), ``'fol'`` (passage run), ``'spans'`` (a chunk run of spans, JSON lines),
    ``'element'``, or ``'empty'`` (no record), from the first record (:func:`graphsr.io.formats.detect`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".run", delete=False) as f:
    ...     _ = f.write("2010001 Q0 12345 1 9.5 myrun /article[1]/sec[2]\\n")
    >>> run_format(f.name)
    'element'
    """
    from .formats import RUN, detect

    return detect(path, RUN).name
