"""Scoring files: assessments and runs given as paths, every format detected once, every family through
:func:`~graphsr.evaluation.entry.evaluate`.

:func:`evaluate_files` is what ``graphsr eval`` runs (the command only parses
its options and prints what comes back) and what a script calls to score
files as the command does:

* the assessments are read once, their format detected
  (:func:`graphsr.io.sniff.qrels_format`): element (or TREC document) qrels,
  INEX passage (FOL) qrels, or span judgments (checked against the
  collection's texts); with a chunk map (``chunks``), TREC qrels of chunk ids
  projected onto characters (:func:`graphsr.io.spans.read_chunk_qrels`);
* each run is read in its own format (:func:`graphsr.io.sniff.run_format`):
  an element or TREC document run, a passage run, an INEX XML submission, a
  chunk run of spans; with a chunk map, a TREC run of chunk ids;
* the context is what the measures need: nothing for TREC documents and the
  flat measures, a collection and navigation for element runs
  (:func:`~graphsr.evaluation.context.element_context`), the documents XML
  submissions and element runs name for passage assessments;
* a run that cannot be read or scored is refused on its own: the others are
  scored, and the refusals come back as :attr:`FileEvaluation.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..errors import GraphsrInputError
from .results import Results

__all__ = [
    "FileEvaluation",
    "FileRequest",
    "Sources",
    "ScoringOptions",
    "assessments_kind",
    "read_assessments",
    "read_chunks",
    "evaluate_files",
]


@dataclass
class FileEvaluation:
    """What :func:`evaluate_files` gives back: the results of the runs scored (in the order given), the
    refusals of the others (one :class:`~graphsr.errors.GraphsrInputError` each), and what was read."""

    results: Results
    errors: list = field(default_factory=list)
    qrels: object = None
    runs: list = field(default_factory=list)
    context: object = None


@dataclass(frozen=True)
class Sources:
    """Where element runs' documents and navigation come from (the keywords of
    :func:`~graphsr.evaluation.context.element_context`)."""

    collection: object = None
    model: str | None = None
    store: str | None = None
    routes: object = None
    routes_model: str | None = None
    nav: str = "elements"
    effort: str = "count"
    progress: bool = False
    workers: int = 1

    def given(self) -> dict:
        """The sources a user gave (plain TREC inputs refuse them)."""
        return {
            k: v
            for k, v in (
                ("collection", self.collection),
                ("store", self.store),
                ("model", self.model),
                ("routes", self.routes),
                ("routes_model", self.routes_model),
            )
            if v is not None
        }

    def context_keywords(self) -> dict:
        """The keywords :func:`~graphsr.evaluation.context.element_context` takes."""
        return {
            "collection": self.collection,
            "model": self.model,
            "store": self.store,
            "routes": self.routes,
            "routes_model": self.routes_model,
            "nav": self.nav,
            "effort": self.effort,
            "progress": self.progress,
            "workers": self.workers,
        }


@dataclass(frozen=True)
class ScoringOptions:
    """How runs are scored once read (the keywords of :func:`~graphsr.evaluation.entry.evaluate`)."""

    all_topics: bool = True
    order: str = "file"
    lenient: bool = False
    unknown: str = "error"
    ties: str | None = None


@dataclass(frozen=True)
class FileRequest:
    """One :func:`evaluate_files` call, passed down whole: the measures asked for, the sources, the scoring
    options, the chunk map, the runs' declared format, and how messages name options (``wording``: keys of
    :data:`~graphsr.measures.provider.PYTHON_WORDING`; the command line passes the words of its options)."""

    measures: Sequence
    sources: Sources = Sources()
    options: ScoringOptions = ScoringOptions()
    chunks: Mapping | None = None
    run_format: str | None = None
    wording: Mapping[str, str] | None = None


#: The formats an assessments file and a run file may be declared in (``qrels_format``, ``run_format``), where the
#: first record would say otherwise (:mod:`graphsr.io.sniff` detects them by default).
QRELS_FORMATS = ("element", "fol", "spans")
RUN_FORMATS = ("element", "fol", "xml", "spans")


def assessments_kind(qrels, fmt: str | None = None, chunks=None) -> str:
    """The kind of assessments a file holds, from its first record, without reading it (so that what is asked of
    them is checked before any large read): passages for FOL qrels, span judgments, and TREC qrels with a chunk
    map; TREC documents for 4 fields; elements otherwise.  Assessments in memory: their own kind."""
    from ..core.kinds import DOCUMENTS, ELEMENTS, PASSAGES

    if not _is_path(qrels):
        return getattr(qrels, "kind", ELEMENTS)
    from ..io.sniff import first_record, qrels_format

    if (fmt or qrels_format(qrels)) in ("fol", "spans") or chunks is not None:
        return PASSAGES
    record = first_record(qrels)
    return DOCUMENTS if record is not None and len(record.split()) == 4 else ELEMENTS


def read_assessments(
    qrels,
    collection=None,
    chunks=None,
    wording: Mapping[str, str] | None = None,
    fmt: str | None = None,
    runs: Sequence = (),
    run_format: str | None = None,
):
    """Assessments from a path (element, TREC or FOL qrels, or span judgments read against ``collection``;
    detected once, or in the format ``fmt`` says, one of :data:`QRELS_FORMATS`; with a chunk map ``chunks``,
    TREC qrels of its chunk ids projected onto characters) or any shape :func:`graphsr.io.frames.as_qrels`
    takes.  Of the collection only the documents judged and those the run files ``runs`` name are read."""
    import os

    from ..io.frames import as_qrels

    if fmt is not None and fmt not in QRELS_FORMATS:
        raise GraphsrInputError(f"the assessments' format must be one of {', '.join(QRELS_FORMATS)}, got {fmt!r}")
    chunk_map = read_chunks(chunks, qrels, runs, fmt, run_format)
    qrels = _span_assessments(qrels, collection, chunk_map, wording, fmt, _run_docs(runs, chunk_map, run_format))
    if fmt in ("element", "fol") and isinstance(qrels, (str, os.PathLike)):
        from ..io.fol import read_fol_qrels
        from ..io.qrels import read_element_qrels

        return read_fol_qrels(qrels) if fmt == "fol" else read_element_qrels(qrels)
    return as_qrels(qrels)


def evaluate_files(
    qrels,
    runs: Sequence,
    measures,
    *,
    collection=None,
    model: str | None = None,
    store: str | None = None,
    routes=None,
    routes_model: str | None = None,
    nav: str = "elements",
    effort: str = "count",
    all_topics: bool = True,
    order: str = "file",
    lenient: bool = False,
    unknown: str = "error",
    progress: bool = False,
    workers: int = 1,
    wording: Mapping[str, str] | None = None,
    chunks=None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    ties: str | None = None,
) -> FileEvaluation:
    """Score run files against assessments as ``graphsr eval`` does.

    Parameters
    ----------
    qrels : path-like or assessments
        Element, TREC document or INEX FOL assessments (format detected), or an object
        :func:`read_assessments` made.
    runs : sequence of path-like
        Run files, each in its own format (detected).
    measures : sequence of str, Measure or Requested
        What to compute (see :func:`graphsr.evaluation.entry.evaluate`).
    collection, model, store, routes, routes_model, nav, effort, progress, workers
        Where documents and navigation come from, for element runs (see
        :func:`~graphsr.evaluation.context.element_context`); ``collection`` also maps the elements of
        XML submissions and element runs to characters for FOL assessments.
    all_topics, order, lenient, unknown
        As :func:`~graphsr.evaluation.entry.evaluate`.
    wording : mapping, optional
        How messages name options, where the user is (keys of
        :data:`~graphsr.measures.provider.PYTHON_WORDING`; None: as a Python caller gives them; the command
        line passes its own).
    chunks : path-like or mapping, optional
        A chunk map (:func:`graphsr.io.chunks.read_chunk_map`): TREC runs are runs of its chunk ids, TREC
        qrels judgments of them, and Chroma's measures without a cut-off count its chunks.
    qrels_format, run_format : str, optional
        The format of the assessments file (:data:`QRELS_FORMATS`) and of every run file
        (:data:`RUN_FORMATS`), where it is not to be detected from the first record.
    ties : {'trec_eval', 'average'}, optional
        Results tied in score (see :func:`~graphsr.evaluation.entry.evaluate`).

    Returns
    -------
    FileEvaluation
    """
    from ..core.kinds import PASSAGES

    if run_format is not None and run_format not in RUN_FORMATS:
        raise GraphsrInputError(f"the runs' format must be one of {', '.join(RUN_FORMATS)}, got {run_format!r}")
    chunk_map = read_chunks(chunks, qrels, runs, qrels_format, run_format)
    qrels = read_assessments(qrels, collection, chunk_map, wording, qrels_format, runs, run_format)
    request = FileRequest(
        measures,
        Sources(collection, model, store, routes, routes_model, nav, effort, progress, workers),
        ScoringOptions(all_topics, order, lenient, unknown, ties),
        chunk_map,
        run_format,
        wording,
    )
    if qrels.kind == PASSAGES:
        return _passages(qrels, runs, request)
    if run_format not in (None, "element"):
        raise GraphsrInputError(
            f"runs in the {run_format} format are scored against passage assessments or span "
            f"judgments, not {qrels.kind} assessments"
        )
    if chunk_map is not None:
        raise GraphsrInputError(
            f"{_named('chunks', wording)} applies to span judgments and chunk judgments, not to "
            f"{qrels.kind} assessments"
        )
    return _elements(qrels, runs, request)


#: The families that score passage inputs as passages; the others score them as the collection's elements.
_PASSAGE_FAMILIES = ("fol", "span")


def _docids(run) -> set:
    """The documents a passage or element run names."""
    return set(run.docid.tolist()) if hasattr(run, "doc_code") else set(run.docids())


def read_chunks(chunks, qrels=None, runs: Sequence = (), qrels_format: str | None = None, run_format=None):
    """A chunk map: a mapping or None as it is; from a path (a file or a directory of shards), the chunks the
    inputs touch (:meth:`graphsr.io.chunk_source.ChunkSource.working_set`: those the assessments ``qrels`` and the
    run files ``runs`` name, and every chunk of the documents judged), or, given no inputs, the whole map."""
    if chunks is None or isinstance(chunks, Mapping):
        return chunks
    from ..io.chunk_source import ChunkSource

    source = ChunkSource(chunks)
    if qrels is None and not runs:
        return source.whole()
    judged, docs = _judged(qrels, qrels_format)
    named = set().union(*(_run_chunk_ids(p, run_format) for p in runs))
    return source.working_set(named, docs_of=judged, docs=docs)


def _is_path(x) -> bool:
    import os

    return isinstance(x, (str, os.PathLike))


def _judged(qrels, fmt: str | None) -> tuple[set, set]:
    """The chunk ids TREC qrels judge, and the documents span judgments (or assessments in memory) judge."""
    if qrels is None:
        return set(), set()
    if not _is_path(qrels):
        docid = getattr(qrels, "docid", None)
        return set(), set() if docid is None else {str(d) for d in docid.tolist()}
    from ..io.sniff import qrels_format

    fmt = fmt or qrels_format(qrels)
    if fmt == "element":
        return _third_fields(qrels), set()
    if fmt == "spans":
        from ..errors import QrelsFormatError
        from ..io.records import iter_records

        return set(), {str(r.get("doc_id", r.get("corpus_id"))) for _, r in iter_records(qrels, QrelsFormatError)}
    return set(), set()


def _third_fields(path) -> set:
    """The ids in the third field of a TREC file's lines (a run's documents, qrels' documents); a file that cannot
    be read names none (its reader refuses it in its turn)."""
    from ..io._lines import iter_fields

    try:
        return {f[2] for _, f in iter_fields(path, GraphsrInputError) if len(f) >= 3}
    except GraphsrInputError:
        return set()


def _run_chunk_ids(path, run_format: str | None) -> set:
    """The chunk ids a TREC run of chunk ids names (none for a run in another format)."""
    if not _is_path(path):
        return set()
    from ..io.sniff import run_format as sniffed

    try:
        fmt = run_format or sniffed(path)
    except GraphsrInputError:
        return set()
    return _third_fields(path) if fmt == "element" else set()


def _run_docs(runs: Sequence, chunk_map, run_format: str | None) -> set:
    """The documents the passage run files ``runs`` name: through the chunk map for runs of chunk ids, their
    ``doc_id`` for runs of spans (what their ranges are checked against)."""
    from ..io.sniff import run_format as sniffed

    docs: set = set()
    for path in runs:
        if not _is_path(path):
            continue
        try:
            fmt = run_format or sniffed(path)
        except GraphsrInputError:
            continue
        if fmt == "element" and chunk_map is not None:
            docs |= {chunk_map[c][0] for c in _third_fields(path) if c in chunk_map}
        elif fmt == "spans":
            from ..io.records import iter_records

            try:
                docs |= {str(r.get("doc_id")) for _, r in iter_records(path, GraphsrInputError)}
            except GraphsrInputError:
                continue
    return docs


def _span_assessments(qrels, collection, chunk_map, wording, fmt: str | None = None, also=frozenset()):
    """Span judgments (or, with a chunk map, TREC qrels of chunk ids) read against the texts of the documents
    they and the runs (``also``) touch; without a collection, against no text (``lengths_known`` False: the
    ranges are not checked and T2I, which reads documents to their ends, is refused); any other assessments as
    they are."""
    if not _is_path(qrels):
        return qrels
    from ..io.sniff import qrels_format

    fmt = fmt or qrels_format(qrels)
    if fmt != "spans" and (chunk_map is None or fmt != "element"):
        return qrels
    from ..io.spans import read_chunk_qrels, read_spans

    if not collection:
        if fmt == "spans":
            return read_spans(qrels, None)
        return read_chunk_qrels(qrels, chunk_map, None)
    return (
        read_spans(qrels, collection, also=also)
        if fmt == "spans"
        else read_chunk_qrels(qrels, chunk_map, collection, also=also)
    )


def _in_run_order(errors: list, paths) -> list:
    """The refusals in the order their runs were given (an error naming no run last)."""
    place = {str(p): k for k, p in enumerate(paths)}
    return sorted(errors, key=lambda e: place.get(getattr(e, "path", None), len(place)))


def _option(name: str, wording) -> str:
    """How option ``name`` is given where the user is (``--collection DIR``, ``collection=PATH``)."""
    from ..measures.provider import worded

    return worded(wording, f"option:{name}")


def _named(name: str, wording) -> str:
    """Option ``name`` as the subject of a message (``--collection``, ``collection=PATH``)."""
    return _option(name, wording).split(" ")[0]


def _scored(qrels, runs: list, requests, context, options: ScoringOptions) -> tuple[Results, list]:
    """Every run scored (a refused run refuses only itself), each named over the runs scored."""
    from dataclasses import asdict

    from .entry import evaluate, run_labels

    results = evaluate(qrels, runs, requests, context, keep_going=True, **asdict(options))
    scored = {r.source: r for r in results.runs}
    kept = [run for run in runs if run.name in scored]
    for run, label in zip(kept, run_labels(kept)):  # named over the runs scored, as if the others were not given
        scored[run.name].name = label
    return results, kept


def _elements(qrels, paths, request: FileRequest) -> FileEvaluation:
    from dataclasses import replace

    from ..io.runs import read_run
    from ..measures.parse import parse_requests
    from ..measures.provider import ScoringContext
    from .context import element_context

    wording = request.wording
    requests = parse_requests(request.measures)
    ms = list(dict.fromkeys(r.measure for r in requests))
    runs, errors = [], []
    for path in paths:
        try:  # a run with no assessed topic is an error, as in trec_eval; the others are still scored
            run = read_run(path, vocabulary=qrels)
            _check_common_topics(qrels, run)
            runs.append(run)
        except GraphsrInputError as exc:
            errors.append(exc)
    if not runs:
        return FileEvaluation(Results([], ms, requests=requests), errors, qrels)
    context = _plain_context(qrels, runs, ms, request.sources.given(), wording)
    if context is None:
        docids = qrels.docids().union(*(r.docids() for r in runs))
        context = element_context(docids, measures=ms, wording=wording, **request.sources.context_keywords())
    context = replace(context, wording=wording) if isinstance(context, ScoringContext) else context
    results, scored = _scored(qrels, runs, requests, context, request.options)
    return FileEvaluation(results, _in_run_order(errors + results.errors, paths), qrels, scored, context)


def _plain_context(qrels, runs, measures, given: dict, wording):
    """TREC document qrels and runs (4 and 6 fields): each document one element, no collection, no navigation;
    None for element inputs."""
    from ..measures.interop import plain_context
    from ..core.kinds import is_plain

    plain = [is_plain(qrels)] + [is_plain(r) for r in runs]
    if not any(plain):
        return None
    if not all(plain):
        odd = [r.source for r, p in zip(runs, plain[1:]) if p != plain[0]]
        raise GraphsrInputError(
            f"{', '.join(odd)}: TREC document qrels (4 fields) are scored with TREC document "
            "runs (6 fields), element qrels with element runs (7 fields)"
        )
    named = [_named(k, wording) for k in given]
    if named:
        raise GraphsrInputError(
            f"{named[0]}: TREC document qrels and runs are plain documents, each one element "
            "without navigation; they need no collection or model"
        )
    return plain_context(qrels, runs, measures)


def _check_common_topics(qrels, run) -> None:
    """A run with no topic in common with the assessments is an error, as in trec_eval (with -c too)."""
    if set(run.topics) & set(qrels.topics):
        return
    from ..core.topics import topic_sort_key

    def some(topics):
        shown = sorted(topics, key=topic_sort_key)
        return ", ".join(shown[:5]) + (" ..." if len(shown) > 5 else "")

    raise GraphsrInputError(
        f"{run.source or run.name}: no topic in common with the assessments "
        f"{qrels.source or ''}: the run has topics {some(run.topics) or '(none)'}, the "
        f"assessments {some(qrels.topics)}"
    )


def _passages(qrels, paths, request: FileRequest) -> FileEvaluation:
    from dataclasses import replace

    from ..io.fol import read_fol_run, read_inex_submission, submission_files
    from ..io.sniff import run_format as sniffed
    from ..measures.parse import parse_requests
    from ..measures.provider import ScoringContext, provider_of

    sources, options, wording, chunks = request.sources, request.options, request.wording, request.chunks
    collection, run_format = sources.collection, request.run_format
    requests = parse_requests(request.measures)
    ms = list(dict.fromkeys(r.measure for r in requests))
    as_elements = [m for m in ms if provider_of(m).NAME not in _PASSAGE_FAMILIES]  # (SR, ESR, ... over elements)
    for name in sources.given():
        if name != "collection" and not as_elements:
            raise GraphsrInputError(
                f"{_named(name, wording)} applies to the element measures (SR, ESR, ...), "
                "not to the passage measures asked for"
            )
    errors, formats = [], {}
    for path in paths:
        try:
            formats[path] = run_format or sniffed(path)
        except GraphsrInputError as exc:  # an unreadable run: refused, the others still scored
            errors.append(exc)
    element_runs = {}
    if chunks is not None:  # (TREC runs are runs of the map's chunk ids)
        formats = {p: "chunks" if f == "element" else f for p, f in formats.items()}
    if "element" in formats.values():
        from ..io.runs import read_run

        element_runs = {p: read_run(p) for p, f in formats.items() if f == "element"}
    if element_runs and not collection:
        raise GraphsrInputError(
            f"{next(iter(element_runs))}: an element run scored against FOL assessments needs "
            f"{_option('collection', wording)} to map its elements "
            "to character ranges"
        )
    documents = None
    if collection:
        wanted = set().union(
            *(submission_files(p) for p, f in formats.items() if f == "xml"),
            *(r.docids() for r in element_runs.values()),
        )
        if wanted:
            from .collection import load_collection

            documents = load_collection(collection, [], keep=wanted, progress=sources.progress).documents
    context = ScoringContext(documents, order=options.order, lenient=options.lenient, wording=wording, chunks=chunks)
    runs = []
    for path in paths:
        fmt = formats.get(path)
        if fmt is None:
            continue
        try:
            if fmt == "element":
                runs.append(element_runs[path])
            elif fmt == "xml":
                runs.append(read_inex_submission(path, documents, vocab=qrels.vocab))
            elif fmt in ("spans", "chunks"):
                from ..io.chunks import read_chunk_run

                runs.append(read_chunk_run(path, chunks, vocab=qrels.vocab, unknown=options.unknown))
            else:
                runs.append(read_fol_run(path, vocab=qrels.vocab))
        except GraphsrInputError as exc:
            errors.append(exc)
    if not runs:
        return FileEvaluation(Results([], ms, requests=requests), errors, qrels, [], context)
    if as_elements and collection:  # the documents and navigation the element measures read
        from .context import element_context

        docids = set(qrels.docid.tolist()).union(*(_docids(r) for r in runs))
        built = element_context(docids, measures=as_elements, wording=wording, **sources.context_keywords())
        context = replace(built, order=options.order, lenient=options.lenient, wording=wording, chunks=chunks)
    results, scored = _scored(qrels, runs, requests, context, replace(options, unknown="error"))
    return FileEvaluation(results, _in_run_order(errors + results.errors, paths), qrels, scored, context)
