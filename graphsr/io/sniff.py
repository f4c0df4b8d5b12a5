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

from ..errors import GraphsrInputError, QrelsFormatError, RouteLogError, RunFormatError
from ._lines import iter_blocks

__all__ = ["qrels_format", "run_format", "routes_format", "routes_format_of_name", "xpath_like", "first_record"]

#: Names of navigation logs in JSON lines (before an optional ``.gz``); any other name is read by content.
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


def first_record(
    path: str | os.PathLike, error: type[GraphsrInputError] = GraphsrInputError, comments: bool = True
) -> str | None:
    """The first line of ``path`` that holds a record (decoded leniently, byte order mark removed), or None.

    Blank lines are skipped, and lines starting with ``#`` when ``comments`` is true.
    """
    blocks = iter_blocks(path, error)
    try:
        for block in blocks:
            for raw in block.split(b"\n"):
                line = raw.decode("utf-8", "replace")
                stripped = line.strip()
                if stripped and not (comments and stripped.startswith("#")):
                    return line + "\n"
    finally:
        blocks.close()
    return None


def xpath_like(field: str) -> bool:
    """Whether a run line's seventh field is meant as an XPath (an element run) rather than something after the
    run id, which trec_eval ignores (an integer offset of a passage run, a note)."""
    return "/" in field or "[" in field


#: The header columns that make a CSV/TSV file span judgments (graphsr's, or Chroma's questions_df.csv).
_SPAN_HEADERS = ({"query_id", "doc_id", "start", "end"}, {"question", "references", "corpus_id"})


def _spans_record(record: str) -> bool:
    """Whether a first record opens span judgments: a JSON object, or a header naming their columns."""
    text = record.strip()
    if text.startswith("{"):
        return True
    names = {c.strip().strip('"').lower() for c in text.replace("\t", ",").split(",")}
    return any(h <= names for h in _SPAN_HEADERS)


def qrels_format(path: str | os.PathLike) -> str:
    """``'fol'`` for INEX passage (FOL) qrels, ``'spans'`` for span judgments, ``'element'`` for element and TREC
    qrels, from the first record.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".qrels", delete=False) as f:
    ...     _ = f.write("# INEX passages\\n2010001 Q0 12345 1 0 240 240\\n")
    >>> qrels_format(f.name)
    'fol'
    """
    record = first_record(path, QrelsFormatError)
    if record is not None and _spans_record(record):
        return "spans"
    f = record.split() if record else []
    if len(f) >= 5 and f[3].lstrip("-").isdigit() and f[4].isdigit():
        return "fol"
    return "element"


def run_format(path: str | os.PathLike) -> str:
    """``'xml'`` (INEX submission), ``'fol'`` (passage run), ``'spans'`` (a chunk run of spans, JSON lines),
    ``'element'``, or ``'empty'`` (no record), from the first record.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".run", delete=False) as f:
    ...     _ = f.write("2010001 Q0 12345 1 9.5 myrun /article[1]/sec[2]\\n")
    >>> run_format(f.name)
    'element'
    """
    record = first_record(path, RunFormatError)
    if record is None:
        return "empty"
    if record.lstrip().startswith("{"):
        return "spans"
    f = record.split()
    if f[0].startswith("<"):
        return "xml"
    if len(f) == 8 and not xpath_like(f[6]):  # offset and length where an element run has an XPath
        return "fol"
    return "element"


def routes_format(path: str | os.PathLike) -> str:
    """``'jsonl'`` or ``'csv'`` for a navigation log, from its name or its first line."""
    if routes_format_of_name(path) == "jsonl":
        return "jsonl"
    record = first_record(path, RouteLogError, comments=False)
    return "jsonl" if record is not None and record.lstrip().startswith("{") else "csv"


def routes_format_of_name(path: str | os.PathLike) -> str:
    """``'jsonl'`` for a navigation log named as JSON lines (a file being written is known by its name), else
    ``'csv'``."""
    return "jsonl" if str(path).lower().removesuffix(".gz").endswith(JSONL_SUFFIXES) else "csv"
