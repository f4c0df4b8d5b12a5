"""A file's first record, and the tests on it that tell formats apart (:mod:`graphsr.io.formats` decides with
them; readers ask them too): the bottom of the readers, importing none of them."""

from __future__ import annotations

import os

from ..errors import GraphsrInputError, RouteLogError
from ._lines import iter_blocks

__all__ = [
    "first_record",
    "xpath_like",
    "spans_record",
    "is_submission",
    "routes_format",
    "routes_format_of_name",
    "JSONL_SUFFIXES",
    "is_nq_record",
    "is_nodes_record",
]


def first_record(
    path: str | os.PathLike, error: type[GraphsrInputError] = GraphsrInputError, comments: bool = True
) -> str | None:
    """The first line of ``path`` that holds a record (decoded leniently, byte order mark removed), or None.

    Blank lines are skipped, and lines starting with ``#`` when ``comments`` is true.
    """
    key = _file_key(path, comments)
    if key is not None and key in _FIRST:
        return _FIRST[key]
    blocks = iter_blocks(path, error, block=_FIRST_BLOCK)
    found = None
    try:
        for block in blocks:
            for raw in block.split(b"\n"):
                line = raw.decode("utf-8", "replace")
                stripped = line.strip()
                if stripped and not (comments and stripped.startswith("#")):
                    found = line + "\n"
                    break
            if found is not None:
                break
    finally:
        blocks.close()
    if key is not None:
        if len(_FIRST) >= 64:
            _FIRST.clear()
        _FIRST[key] = found
    return found


#: Bytes read at a time for a first record (a file's formats are told from it several times a command: each read
#: takes a block; 64 KB rather than the readers' 1 MB).
_FIRST_BLOCK = 64 << 10

#: First records read in this process, by file and state (:func:`_file_key`).
_FIRST: dict = {}


def _file_key(path, comments: bool):
    """A regular file's identity and state (its first record is read again when it changes), or None."""
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (os.fspath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, comments)


def xpath_like(field: str) -> bool:
    """Whether a run line's seventh field is meant as an XPath (an element run) rather than something after the
    run id, which trec_eval ignores (an integer offset of a passage run, a note)."""
    return "/" in field or "[" in field


#: The header columns that make a CSV/TSV file span judgments (graphsr's, or Chroma's questions_df.csv).
_SPAN_HEADERS = ({"query_id", "doc_id", "start", "end"}, {"question", "references", "corpus_id"})


def spans_record(record: str) -> bool:
    """Whether a first record opens span judgments: a JSON object, or a header naming their columns."""
    text = record.strip()
    if text.startswith("{"):
        return True
    names = {c.strip().strip('"').lower() for c in text.replace("\t", ",").split(",")}
    return any(h <= names for h in _SPAN_HEADERS)


def is_submission(record: str) -> bool:
    """Whether a first record opens an INEX XML submission."""
    return record.lstrip().startswith("<")


#: Names of navigation logs in JSON lines (before an optional ``.gz``); any other name is read by content.
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


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


def is_nq_record(record: str | None) -> bool:
    """Whether a first record is a Natural Questions example (original or simplified): a JSON object holding its
    example id, its candidates and its page (``document_html`` or ``document_text``)."""
    if record is None or not record.lstrip().startswith("{"):
        return False
    return (
        '"example_id"' in record
        and '"long_answer_candidates"' in record
        and ('"document_html"' in record or '"document_text"' in record)
    )


def is_nodes_record(record: str | None) -> bool:
    """Whether a first record is a RAG framework's node or document (LlamaIndex's, LangChain's, Haystack's:
    :mod:`graphsr.io.retrieved`), not a span or a corpus record."""
    if record is None or not record.lstrip().startswith("{"):
        return False
    llama = '"id_"' in record and '"relationships"' in record  # (a Document's dict has no offsets)
    return llama or any(k in record for k in ('"start_char_idx"', '"page_content"', '"split_idx_start"', '"parent_id"'))
