"""Every format graphsr reads an evaluation's assessments and runs in, declared once: its name, its role, the
test on its first record that detects it, what reading it needs and the core type it returns, and its reader.

Detection happens here and nowhere else (:func:`detect`): a file is classified the same way by every command and
by the Python API.  A format is tried in the order of :data:`FORMATS`; a declared format (``--qrels-format``,
``--run-format``) is taken as declared.  ``graphsr formats`` (and :func:`table`) lists them.

============  ============  ================================================  =====================
role          format        detected by (first record)                        returns
============  ============  ================================================  =====================
assessments   natural       a Natural Questions example (original or          NQAssessments
              questions     simplified), or a directory of their shards
assessments   spans         a JSON object, or a CSV/TSV header naming span    FOLQrels
                            columns (graphsr's, or Chroma's questions)
assessments   fol           INEX passage qrels: integers in fields 4 and 5    FOLQrels
assessments   chunk ids     TREC qrels, with a chunk map given                FOLQrels
assessments   element       TREC qrels, with or without an XPath; TREC        ElementQrels
                            diversity qrels are told apart while read (a
                            document judged under several subtopics)
run           empty         no record at all                                  FOLRun
run           xml           an INEX XML submission (``<``)                    FOLRun
run           nq            ``nq_eval``'s predictions (``{"predictions"``)     NQPredictions
run           retrieved     JSON lines of a RAG framework's retrieved nodes    FOLRun
              nodes         (LlamaIndex, LangChain, Haystack)
run           spans         a JSON object: a chunk run of spans               FOLRun
run           fol           8 fields, offset and length after the run id      FOLRun
run           chunk ids     a TREC run, with a chunk map given                FOLRun
run           element       a TREC run, with or without an XPath              Run
============  ============  ================================================  =====================

The other inputs of an evaluation are declared here too, detected by their names where a first record says
nothing of them:

==============  =================  ==========================================  =======================
role            format             detected by                                 returns
==============  =================  ==========================================  =======================
chunk map       shards             a directory (MS MARCO v2.1's segments)      ChunkSource
chunk map       records            a file: JSON lines, CSV, TSV, Parquet       ChunkSource
collection      natural questions  an NQ file or directory of its shards       list[CollectionSource]
collection      retriever nodes    JSON lines of a framework's nodes           list[CollectionSource]
collection      json lines corpus  ``.jsonl``/``.json`` files, or a directory  CorpusSource
                                   of them and nothing else
collection      archive            a zip or tar archive (by name)              list[CollectionSource]
collection      documents          a directory of documents, or one file       list[CollectionSource]
navigation log  jsonl, csv         its name, else its first line               Routes
stored model    name               a model's name in the graph store           SteadyStateModel
                                   (declared by :mod:`graphsr.navigation.stored`,
                                   where its reader is)
==============  =================  ==========================================  =======================
"""

from __future__ import annotations

import functools
import os
from .._records import record, field
from typing import Any, Callable

from ..errors import GraphsrInputError, QrelsFormatError, RunFormatError
from .first_records import first_record, is_nq_record, routes_format, spans_record, xpath_like

__all__ = [
    "ASSESSMENTS",
    "RUN",
    "CHUNK_MAP",
    "COLLECTION",
    "ROUTES",
    "MODEL",
    "Given",
    "InputFormat",
    "FORMATS",
    "detect",
    "read",
    "names",
    "table",
    "register",
    "first_record",
    "spans_record",
    "xpath_like",
]

ASSESSMENTS = "assessments"
RUN = "run"
CHUNK_MAP = "chunk map"
COLLECTION = "collection"
ROUTES = "navigation log"
MODEL = "stored model"


@record(frozen=True)
class Given:
    """What reading a file may take beside it: the collection (a path or ``{doc_id: text}``), the chunk map's
    working set, the assessments' vocabulary a run shares, the documents an XML submission is resolved in, what
    to do with a chunk the map lacks, the documents whose lengths runs are checked against (``also``), and where
    to keep the trees of the documents read for their lengths (``trees``: a dict, or None not to keep them)."""

    collection: Any = None
    chunks: Any = None
    vocab: Any = None
    documents: Any = None
    unknown: str = "error"
    also: frozenset = field(default_factory=frozenset)
    trees: dict | None = None
    #: Judgments: the kinds of judge whose judgments are read (None: all), and the judge of a judgment that
    #: names none (:mod:`graphsr.core.judges`).
    keep: tuple | None = None
    judge: str = "person"

    def whole_file(self, fmt: str) -> None:
        """Refuse a choice of judges for a format whose judgments name none (a whole file is one judge's)."""
        if self.keep is not None or self.judge != "person":
            raise GraphsrInputError(
                f"judges are named in TREC qrels (a fifth field), chunk qrels and span judgments, not in {fmt} "
                "assessments"
            )


@record(frozen=True)
class Probe:
    """What detection looks at: the path, whether a chunk map is given, and (read on first use) its first record
    (None: no record)."""

    path: str
    chunks: bool = False
    error: type = GraphsrInputError

    @functools.cached_property
    def record(self) -> str | None:
        return first_record(self.path, self.error)

    @property
    def fields(self) -> list[str]:
        return self.record.split() if self.record else []

    @property
    def name(self) -> str:
        return os.path.basename(self.path.rstrip("/")).lower()

    @property
    def is_dir(self) -> bool:
        return os.path.isdir(self.path)


@record(frozen=True)
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


def _nq_examples(p: Probe) -> bool:
    if p.is_dir:
        from .nq import nq_files

        files = nq_files(p.path)
        return bool(files) and is_nq_record(first_record(files[0], p.error))
    return is_nq_record(p.record)


def _read_nq(path: str, g: Given):
    from .nq import read_nq_assessments

    g.whole_file("Natural Questions")

    return read_nq_assessments(path)


def _nq_predictions(p: Probe) -> bool:
    if p.record is None or not p.record.lstrip().startswith("{"):  # (a TREC run: nothing more read)
        return False
    from .nq import is_nq_predictions

    return is_nq_predictions(p.path)


def _read_nq_predictions(path: str, g: Given):
    from .nq import read_nq_predictions

    return read_nq_predictions(path)


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

    return read_spans(path, g.collection, vocab=g.vocab, also=g.also, trees=g.trees, keep=g.keep, judge=g.judge)


def _read_fol_qrels(path: str, g: Given):
    from .fol import read_fol_qrels

    g.whole_file("INEX passage")

    return read_fol_qrels(path)


def _read_chunk_qrels(path: str, g: Given):
    from .spans import read_chunk_qrels

    return read_chunk_qrels(
        path, g.chunks, g.collection, vocab=g.vocab, also=g.also, trees=g.trees, keep=g.keep, judge=g.judge
    )


def _read_element_qrels(path: str, g: Given):
    from .qrels import read_element_qrels

    return read_element_qrels(path, keep=g.keep, judge=g.judge)


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


def _read_chunk_map(path: str, g: Given):
    from .chunk_source import ChunkSource

    return ChunkSource(path)


def _map_file(p: Probe) -> bool:
    return not p.is_dir


def _nodes_file(p: Probe) -> bool:
    from .node_collection import is_nodes_collection

    return is_nodes_collection(p.path)


def _nq_collection(p: Probe) -> bool:
    from .nq_collection import is_nq_collection

    return is_nq_collection(p.path)


def _nodes_run(p: Probe) -> bool:
    from .first_records import is_nodes_record

    return is_nodes_record(p.record)


def _read_nodes_run(path: str, g: Given):
    from .node_collection import is_nodes_collection
    from .retrieved import retrieved_run

    nodes = g.collection if isinstance(g.collection, (str, os.PathLike)) and is_nodes_collection(g.collection) else None
    return retrieved_run(path, nodes=nodes)


def _corpus(p: Probe) -> bool:
    from .corpus_source import is_corpus

    return is_corpus(p.path)


def _read_corpus(path: str, g: Given):
    from .corpus_source import CorpusSource, corpus_files

    return CorpusSource(corpus_files(path) or [path])


def _archive(p: Probe) -> bool:
    from .collection import archive_kind

    return archive_kind(p.path) is not None


def _read_documents(path: str, g: Given):
    from .collection import list_collection

    return list_collection(path)


def _routes_of(kind: str):
    def test(p: Probe) -> bool:
        return routes_format(p.path) == kind

    return test


def _read_routes(path: str, g: Given):
    from .routes import read_routes

    return read_routes(path)


#: Every format, in the order detection tries them within a role.
FORMATS: tuple[InputFormat, ...] = (
    InputFormat(
        "natural questions",
        ASSESSMENTS,
        "NQAssessments",
        "a Natural Questions example (original or simplified format), or a directory of their shards",
        _nq_examples,
        _read_nq,
    ),
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
        "nq",
        RUN,
        "NQPredictions",
        "nq_eval's prediction JSON: an object whose first key is predictions",
        _nq_predictions,
        _read_nq_predictions,
    ),
    InputFormat(
        "retrieved nodes",
        RUN,
        "FOLRun",
        "JSON lines of LlamaIndex's nodes (NodeWithScore.to_dict()), LangChain's or Haystack's documents, each "
        "with its query_id",
        _nodes_run,
        _read_nodes_run,
        "the parser's nodes (--collection NODES), for nodes with parents",
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
    InputFormat(
        "shards",
        CHUNK_MAP,
        "ChunkSource",
        "a directory of chunk map files (MS MARCO v2.1's segments)",
        lambda p: p.is_dir,
        _read_chunk_map,
    ),
    InputFormat(
        "records",
        CHUNK_MAP,
        "ChunkSource",
        "JSON lines, CSV, TSV or Parquet (gzipped but Parquet), by name",
        _map_file,
        _read_chunk_map,
    ),
    InputFormat(
        "natural questions",
        COLLECTION,
        "list[CollectionSource]",
        "a Natural Questions file or directory of its shards: each example's page a document",
        _nq_collection,
        _read_documents,
    ),
    InputFormat(
        "retriever nodes",
        COLLECTION,
        "list[CollectionSource]",
        "JSON lines of a RAG framework's nodes and documents: each document's tree of nodes",
        _nodes_file,
        _read_documents,
    ),
    InputFormat(
        "json lines corpus",
        COLLECTION,
        "CorpusSource",
        "a .jsonl/.ndjson/.json file (gzipped or not), or a directory of them and nothing else",
        _corpus,
        _read_corpus,
    ),
    InputFormat(
        "archive",
        COLLECTION,
        "list[CollectionSource]",
        "a zip or tar archive (by name) of documents",
        _archive,
        _read_documents,
    ),
    InputFormat(
        "documents",
        COLLECTION,
        "list[CollectionSource]",
        "a directory of XML, HTML, Markdown and text files (by suffix), or one such file",
        _always,
        _read_documents,
    ),
    InputFormat(
        "jsonl",
        ROUTES,
        "Routes",
        "a name ending .jsonl/.ndjson/.json, or a first line that is a JSON object",
        _routes_of("jsonl"),
        _read_routes,
    ),
    InputFormat("csv", ROUTES, "Routes", "a CSV file with a header", _routes_of("csv"), _read_routes),
)

_ERRORS = {ASSESSMENTS: QrelsFormatError, RUN: RunFormatError}


def register(fmt: InputFormat) -> None:
    """Declare a format whose reader lives in a higher layer (a stored model: :mod:`graphsr.navigation.stored`
    declares it), once; a format of that role and name declared already is refused."""
    global FORMATS
    if any(f.role == fmt.role and f.name == fmt.name for f in FORMATS):
        raise ValueError(f"the {fmt.role} format {fmt.name!r} is declared already")
    FORMATS = FORMATS + (fmt,)


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
    probe = Probe(str(path), chunks, _ERRORS.get(role, GraphsrInputError))
    found = next((f for f in FORMATS if f.role == role and f.test(probe)), None)
    if found is None:
        raise _ERRORS.get(role, GraphsrInputError)(f"not a {role} graphsr reads", path)
    return found


def read(path: str | os.PathLike, role: str, given: Given = Given(), declared: str | None = None, fmt=None):
    """The file read by the reader of its format (``fmt``: an :class:`InputFormat` already detected)."""
    fmt = fmt or detect(path, role, declared, given.chunks is not None)
    return fmt.read(str(path), given)


def table() -> list[tuple[str, str, str, str, str]]:
    """``(role, format, detected by, returns, needs)`` of every format, for ``graphsr measures``-like listings."""
    return [(f.role, f.name, f.detected_by, f.returns, f.needs) for f in FORMATS]
