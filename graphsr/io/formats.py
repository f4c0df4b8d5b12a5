"""Every format graphsr reads an evaluation's assessments and runs in, declared once: its name, its role, the
test on its first record that detects it, what reading it needs and the core type it returns, and its reader.

Detection happens here and nowhere else (:func:`detect`): a file is classified the same way by every command and
by the Python API.  A format is tried in the order of :data:`FORMATS`; a declared format (``--qrels-format``,
``--run-format``) is taken as declared.  ``graphsr formats`` (and :func:`table`) lists them.

============  ============  ================================================  =====================
role          format        detected by (first record)                        returns
============  ============  ================================================  =====================
assessments   spans         a JSON object, or a CSV/TSV header naming span    FOLQrels
                            columns (graphsr's, or Chroma's questions)
assessments   fol           INEX passage qrels: integers in fields 4 and 5    FOLQrels
assessments   chunk ids     TREC qrels, with a chunk map given                FOLQrels
assessments   element       TREC qrels, with or without an XPath; TREC        ElementQrels
                            diversity qrels are told apart while read (a
                            document judged under several subtopics)
run           empty         no record at all                                  FOLRun
run           xml           an INEX XML submission (``<``)                    FOLRun
run           spans         a JSON object: a chunk run of spans               FOLRun
run           fol           8 fields, offset and length after the run id      FOLRun
run           chunk ids     a TREC run, with a chunk map given                FOLRun
run           element       a TREC run, with or without an XPath              Run
============  ============  ================================================  =====================

Chunk maps (:mod:`graphsr.io.chunk_source`) and collections (:mod:`graphsr.io.collection`,
:mod:`graphsr.io.corpus_source`) are told apart by their names; navigation logs by
:func:`graphsr.io.sniff.routes_format`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import GraphsrInputError, QrelsFormatError, RunFormatError
from .first_records import first_record, spans_record, xpath_like

__all__ = [
    "ASSESSMENTS",
    "RUN",
    "Given",
    "InputFormat",
    "FORMATS",
    "detect",
    "read",
    "names",
    "table",
    "first_record",
    "spans_record",
    "xpath_like",
]

ASSESSMENTS = "assessments"
RUN = "run"


@dataclass(frozen=True)
class Given:
    """What reading a file may take beside it: the collection (a path or ``{doc_id: text}``), the chunk map's
    working set, the assessments' vocabulary a run shares, the documents an XML submission is resolved in, what
    to do with a chunk the map lacks, and the documents whose lengths runs are checked against (``also``)."""

    collection: Any = None
    chunks: Any = None
    vocab: Any = None
    documents: Any = None
    unknown: str = "error"
    also: frozenset = field(default_factory=frozenset)


@dataclass(frozen=True)
class Probe:
    """What detection looks at: the path, its first record (None: no record) and whether a chunk map is given."""

    path: str
    record: str | None
    chunks: bool

    @property
    def fields(self) -> list[str]:
        return self.record.split() if self.record else []


@dataclass(frozen=True)
class InputFormat:
    """One format: its ``name`` within its ``role``, the test detecting it, the core type it returns, what reading
    it needs, and its reader ``read(path, given)``."""

    name: str
    role: str
    returns: str
    detected_by: str
    test: Callable[[Probe], bool]
    read: Callable[[str, Given], Any]
    needs: str = ""


def _spans_record(p: Probe) -> bool:
    return p.record is not None and spans_record(p.record)


def _fol_qrels(p: Probe) -> bool:
    f = p.fields
    return len(f) >= 5 and f[3].lstrip("-").isdigit() and f[4].isdigit()


def _fol_run(p: Probe) -> bool:
    f = p.fields
    return len(f) == 8 and not xpath_like(f[6])


def _read_spans(path: str, g: Given):
    from .spans import read_spans

    return read_spans(path, g.collection, vocab=g.vocab, also=g.also)


def _read_fol_qrels(path: str, g: Given):
    from .fol import read_fol_qrels

    return read_fol_qrels(path)


def _read_chunk_qrels(path: str, g: Given):
    from .spans import read_chunk_qrels

    return read_chunk_qrels(path, g.chunks, g.collection, vocab=g.vocab, also=g.also)


def _read_element_qrels(path: str, g: Given):
    from .qrels import read_element_qrels

    return read_element_qrels(path)


def _read_submission(path: str, g: Given):
    from .fol import read_inex_submission

    return read_inex_submission(path, g.documents, vocab=g.vocab)


def _read_chunk_run(path: str, g: Given):
    from .chunks import read_chunk_run

    return read_chunk_run(path, g.chunks, vocab=g.vocab, unknown=g.unknown)


def _read_fol_run(path: str, g: Given):
    from .fol import read_fol_run

    return read_fol_run(path, vocab=g.vocab)


def _read_run(path: str, g: Given):
    from .runs import read_run

    return read_run(path, vocabulary=g.vocab)


def _always(p: Probe) -> bool:
    return True


#: Every format, in the order detection tries them within a role.
FORMATS: tuple[InputFormat, ...] = (
    InputFormat(
        "spans",
        ASSESSMENTS,
        "FOLQrels",
        "a JSON object, or a CSV/TSV header naming span columns",
        _spans_record,
        _read_spans,
        "the collection, to check ranges (optional)",
    ),
    InputFormat(
        "fol", ASSESSMENTS, "FOLQrels", "INEX passage qrels: integers in fields 4 and 5", _fol_qrels, _read_fol_qrels
    ),
    InputFormat(
        "chunk ids",
        ASSESSMENTS,
        "FOLQrels",
        "TREC qrels, with a chunk map given",
        lambda p: p.chunks,
        _read_chunk_qrels,
        "the chunk map; the collection, to check ranges (optional)",
    ),
    InputFormat(
        "element",
        ASSESSMENTS,
        "ElementQrels",
        "TREC qrels with or without an XPath (diversity qrels told apart while read)",
        _always,
        _read_element_qrels,
    ),
    InputFormat(
        "empty",
        RUN,
        "FOLRun",
        "no record at all (scored as retrieving nothing, with a warning)",
        lambda p: p.record is None,
        _read_fol_run,
    ),
    InputFormat(
        "xml",
        RUN,
        "FOLRun",
        "an INEX XML submission",
        lambda p: bool(p.fields) and p.fields[0].startswith("<"),
        _read_submission,
        "the collection's documents its elements name",
    ),
    InputFormat(
        "spans",
        RUN,
        "FOLRun",
        "a JSON object: a chunk run of spans",
        lambda p: p.record is not None and p.record.lstrip().startswith("{"),
        _read_chunk_run,
    ),
    InputFormat("fol", RUN, "FOLRun", "8 fields: offset and length after the run id", _fol_run, _read_fol_run),
    InputFormat(
        "chunk ids",
        RUN,
        "FOLRun",
        "a TREC run, with a chunk map given",
        lambda p: p.chunks,
        _read_chunk_run,
        "the chunk map",
    ),
    InputFormat("element", RUN, "Run", "a TREC run with or without an XPath", _always, _read_run),
)


def names(role: str) -> tuple[str, ...]:
    """The formats of ``role``, in detection order."""
    return tuple(f.name for f in FORMATS if f.role == role)


def _of(role: str, name: str) -> InputFormat:
    for f in FORMATS:
        if f.role == role and f.name == name:
            return f
    raise GraphsrInputError(f"the {role}' format must be one of {', '.join(names(role))}, got {name!r}")


def detect(path: str | os.PathLike, role: str, declared: str | None = None, chunks: bool = False) -> InputFormat:
    """The format of the file at ``path`` in ``role`` (``declared``: as declared; a declared ``element`` with a
    chunk map is its chunk ids), from its first record (see the module docstring).

    Raises
    ------
    QrelsFormatError, RunFormatError
        A file that cannot be read.
    """
    if declared is not None:
        fmt = _of(role, declared)
        return _of(role, "chunk ids") if chunks and declared == "element" else fmt
    error = QrelsFormatError if role == ASSESSMENTS else RunFormatError
    probe = Probe(str(path), first_record(path, error), chunks)
    return next(f for f in FORMATS if f.role == role and f.test(probe))


def read(path: str | os.PathLike, role: str, given: Given = Given(), declared: str | None = None, fmt=None):
    """The file read by the reader of its format (``fmt``: an :class:`InputFormat` already detected)."""
    fmt = fmt or detect(path, role, declared, given.chunks is not None)
    return fmt.read(str(path), given)


def table() -> list[tuple[str, str, str, str, str]]:
    """``(role, format, detected by, returns, needs)`` of every format, for ``graphsr measures``-like listings."""
    return [(f.role, f.name, f.detected_by, f.returns, f.needs) for f in FORMATS]
