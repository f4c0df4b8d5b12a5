"""One model of what an evaluation is given, and the one function that scores it.

:class:`Inputs` names the files and objects once -- assessments, runs, the collection, the chunk map, the
navigation sources, and the formats declared where a file's first record would say otherwise -- and
:class:`Options` says how runs are scored and how messages name options.  :func:`evaluate` is what ``graphsr
eval`` runs and what a script calls::

    from graphsr.evaluation.inputs import Inputs, Options, evaluate
    done = evaluate(Inputs("qrels.txt", ["a.run", "b.run"], chunks="segments/"), ["MAiP", "ChromaIoU"])

In order, and nothing large read before what the options say is checked:

1. :meth:`Inputs.check` -- formats named, options that apply to these assessments, the measures against the
   assessments' kind (detected from the first record, :mod:`graphsr.io.formats`);
2. the chunk map's working set (:func:`read_chunks`): the chunks the assessments and runs name, and every chunk of
   the documents judged -- never the whole map;
3. the assessments, reading of the collection only the documents they and the runs touch
   (:mod:`graphsr.io.corpus_source`);
4. each run in its own format (:func:`graphsr.io.formats.detect`), a run that cannot be read or scored refused
   on its own (:attr:`FileEvaluation.errors`), the others scored in one pass -- with, for span and chunk
   judgments, each run's share of retrieved characters never judged (:attr:`FileEvaluation.unjudged`).
"""

from __future__ import annotations

import os
from .._records import record, field, replace
from typing import Any, Mapping, Sequence

from ..errors import GraphsrInputError
from ..io.working_set import read_chunks, run_documents
from .results import Results
from .scored import score_runs

__all__ = ["Inputs", "Options", "FileEvaluation", "evaluate", "read_chunks", "assessments_kind"]


@record
class FileEvaluation:
    """What :func:`evaluate` gives back: the results of the runs scored (in the order given), the refusals of the
    others (one :class:`~graphsr.errors.GraphsrInputError` each), what was read, per run scored the mean share
    of the characters it retrieved that no judgment covers (span and chunk judgments only), and the values of the
    measures :attr:`Options.also` named, taken in the same pass (``also``)."""

    results: Results
    errors: list = field(default_factory=list)
    qrels: Any = None
    runs: list = field(default_factory=list)
    context: Any = None
    unjudged: dict = field(default_factory=dict)
    also: Results | None = None


#: The formats an assessments file and a run file may be declared in, where the first record would say otherwise.
QRELS_FORMATS = ("element", "fol", "spans")
RUN_FORMATS = ("element", "fol", "xml", "spans")


@record(frozen=True)
class Options:
    """How runs are scored once read (the keywords of :func:`~graphsr.evaluation.entry.evaluate`), how element
    runs' navigation is built (``nav``, ``effort``, ``progress``, ``workers``: see
    :func:`~graphsr.evaluation.context.element_context`), how messages name options (``wording``: keys of
    :data:`~graphsr.measures.provider.PYTHON_WORDING`; None: as a Python caller gives them), and measures to take
    in the same pass without reporting them (``also``: a figure's curves, :attr:`FileEvaluation.also`)."""

    all_topics: bool = True
    order: str = "file"
    lenient: bool = False
    unknown: str = "error"
    ties: str | None = None
    nav: str = "elements"
    effort: str = "count"
    progress: bool = False
    workers: int = 1
    wording: Mapping[str, str] | None = None
    also: tuple = ()

    def scoring(self) -> dict:
        """The keywords of :func:`~graphsr.evaluation.entry.evaluate`."""
        return {
            "all_topics": self.all_topics,
            "order": self.order,
            "lenient": self.lenient,
            "unknown": self.unknown,
            "ties": self.ties,
        }


@record(frozen=True)
class Inputs:
    """What an evaluation is given (see the module docstring): paths, or objects already read."""

    qrels: Any
    runs: Sequence = ()
    collection: Any = None
    chunks: Any = None
    model: str | None = None
    store: str | None = None
    routes: Any = None
    routes_model: str | None = None
    qrels_format: str | None = None
    run_format: str | None = None
    #: The judge of the assessments' judgments that name none (:mod:`graphsr.core.judges`), and the kinds of
    #: judge whose judgments the evaluation reads (None: all).
    qrels_judge: str = "person"
    judges: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "runs", tuple(self.runs) if isinstance(self.runs, (list, tuple)) else (self.runs,))

    def sources(self) -> dict:
        """The navigation sources given (plain TREC inputs refuse them)."""
        given = (
            ("collection", self.collection),
            ("store", self.store),
            ("model", self.model),
            ("routes", self.routes),
            ("routes_model", self.routes_model),
        )
        return {k: v for k, v in given if v is not None}

    def kind(self) -> str:
        """The assessments' kind, from their first record (:func:`assessments_kind`)."""
        return assessments_kind(self.qrels, self.qrels_format, self.chunks)

    def check(self, measures, options: "Options | None" = None) -> list:
        """Everything checkable before any large read: the declared formats, options that apply to these
        assessments, and the measures against the assessments' kind.  The measures parsed (``Requested``).

        Raises
        ------
        GraphsrInputError
            One line naming the option or the measure.
        """
        from ..core.kinds import PASSAGES
        from ..measures.parse import parse_requests
        from ..measures.provider import provider_of
        from .context import check_sources

        options = options or Options()
        wording = options.wording
        if self.qrels_format is not None and self.qrels_format not in QRELS_FORMATS:
            raise GraphsrInputError(
                f"the assessments' format must be one of {', '.join(QRELS_FORMATS)}, got {self.qrels_format!r}"
            )
        if self.run_format is not None and self.run_format not in RUN_FORMATS:
            raise GraphsrInputError(
                f"the runs' format must be one of {', '.join(RUN_FORMATS)}, got {self.run_format!r}"
            )
        requests = parse_requests(measures)
        kind = self.kind()
        if kind != PASSAGES and self.run_format not in (None, "element"):
            raise GraphsrInputError(
                f"runs in the {self.run_format} format are scored against passage assessments or span "
                f"judgments, not {kind} assessments"
            )
        ms = list(dict.fromkeys(r.measure for r in requests))
        sources = (self.collection, self.model, self.store, None, self.routes, self.routes_model, options.nav)
        if kind == PASSAGES:
            as_elements = [m for m in ms if provider_of(m).NAME not in _PASSAGE_FAMILIES]
            for name in self.sources():
                if name != "collection" and not as_elements:
                    raise GraphsrInputError(
                        f"{_named(name, wording)} applies to the element measures (SR, ESR, ...), "
                        "not to the passage measures asked for"
                    )
            if as_elements and self.collection:
                check_sources(as_elements, *sources, wording)
        # (element assessments: the sources are checked once the runs are read -- small, and a run that cannot be
        # read refuses only itself -- and before the collection is: element_context)
        return requests

    def assessments(self, wording=None, chunk_map=None, trees: dict | None = None):
        """The assessments read (format detected once, or as declared; with a chunk map, TREC qrels of its chunk
        ids projected onto characters); of the collection only the documents judged and those the runs name
        (with ``trees``, a dict, their trees are kept there: the element measures then read them no more)."""
        from ..io.frames import as_qrels

        if chunk_map is None:
            chunk_map = read_chunks(self.chunks, self.qrels, self.runs, self.qrels_format, self.run_format)
        if not _is_path(self.qrels):
            return as_qrels(self.qrels)
        from ..io import formats

        fmt = formats.detect(self.qrels, formats.ASSESSMENTS, self.qrels_format, chunk_map is not None)
        if fmt.name not in ("spans", "chunk ids"):
            return fmt.read(str(self.qrels), formats.Given(keep=self.judges, judge=self.qrels_judge))
        also = run_documents(self.runs, chunk_map, self.run_format) if self.collection else frozenset()
        given = formats.Given(
            collection=self.collection or None,
            chunks=chunk_map,
            also=also,
            trees=trees,
            keep=self.judges,
            judge=self.qrels_judge,
        )
        return fmt.read(str(self.qrels), given)


def assessments_kind(qrels, fmt: str | None = None, chunks=None) -> str:
    """The kind of assessments a file holds, from its first record, without reading it (so that what is asked of
    them is checked before any large read): passages for FOL qrels, span judgments, and TREC qrels with a chunk
    map; TREC documents for 4 fields; elements otherwise.  Assessments in memory: their own kind."""
    from ..core.kinds import ANSWERS, DOCUMENTS, ELEMENTS, PASSAGES

    if not _is_path(qrels):
        return getattr(qrels, "kind", ELEMENTS)
    from ..io import formats

    found = formats.detect(qrels, formats.ASSESSMENTS, fmt, chunks is not None)
    if found.returns == "FOLQrels":
        return PASSAGES
    if found.returns == "NQAssessments":
        return ANSWERS
    record = formats.first_record(qrels)
    from ..io.qrels import names_judge

    return DOCUMENTS if record is not None and (len(record.split()) == 4 or names_judge(record)) else ELEMENTS


def evaluate(inputs: Inputs, measures, options: Options = Options()) -> FileEvaluation:
    """Score the runs of ``inputs`` with ``measures`` (strings, graphsr or ir_measures measure objects, or
    ``Requested``) as ``graphsr eval`` does (see the module docstring).

    Raises
    ------
    GraphsrInputError
        What cannot be read or scored for every run: the assessments, an option that does not apply, a measure
        these assessments cannot give.  A run refused alone is in :attr:`FileEvaluation.errors`.

    Where the judgments name a model as the judge of some (:mod:`graphsr.core.judges`), each run's results also
    hold ``judged_by_model`` and ``judged_by_model@k`` (:mod:`graphsr.evaluation.judged`).
    """
    from ..io.listings import listings_kept

    with listings_kept():  # (the collection listed once, for the judgments and the trees alike)
        done = _evaluate(inputs, measures, options)
        if inputs.judges is None and done.results.runs:  # (all the judgments read: who judged them, told)
            from .judged import add_judge_shares

            add_judge_shares(inputs, done.results, options, _evaluate)
        return done


def _evaluate(inputs: Inputs, measures, options: Options) -> FileEvaluation:
    from ..core.kinds import ANSWERS, PASSAGES

    requests = inputs.check(measures, options)
    chunk_map = read_chunks(inputs.chunks, inputs.qrels, inputs.runs, inputs.qrels_format, inputs.run_format)
    trees: dict | None = {} if inputs.collection and _as_elements(requests) else None  # (read once: spans, SR)
    qrels = inputs.assessments(options.wording, chunk_map, trees)
    if qrels.kind == PASSAGES:
        done = _passages(qrels, inputs, requests, options, chunk_map, trees)
    elif qrels.kind == ANSWERS:
        from .answers import score_answers

        results, errors, runs = score_answers(qrels, inputs, requests, options)
        done = FileEvaluation(results, _in_run_order(errors, inputs.runs), qrels, runs)
    else:
        if chunk_map is not None:
            raise GraphsrInputError(
                f"{_named('chunks', options.wording)} applies to span judgments and chunk judgments, not to "
                f"{qrels.kind} assessments"
            )
        done = _elements(qrels, inputs, requests, options)
    return done


def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


# ---- scoring ----------------------------------------------------------------------------------------------------

#: The families that score passage inputs as passages; the others score them as the collection's elements.
_PASSAGE_FAMILIES = ("fol", "span")


def _docids(run) -> set:
    """The documents a passage or element run names."""
    return set(run.docid.tolist()) if hasattr(run, "doc_code") else set(run.docids())


def _in_run_order(errors: list, paths) -> list:
    """The refusals in the order their runs were given (an error naming no run last)."""
    place = {str(p): k for k, p in enumerate(paths)}
    return sorted(errors, key=lambda e: place.get(str(getattr(e, "path", None) or ""), len(place)))


def _option(name: str, wording) -> str:
    """How option ``name`` is given where the user is (``--collection DIR``, ``collection=PATH``)."""
    from ..measures.provider import worded

    return worded(wording, f"option:{name}")


def _named(name: str, wording) -> str:
    """Option ``name`` as the subject of a message (``--collection``, ``collection=PATH``)."""
    return _option(name, wording).split(" ")[0]


def _elements(qrels, inputs: Inputs, requests, options: Options) -> FileEvaluation:
    from ..io.runs import read_run
    from ..measures.provider import ScoringContext
    from .context import element_context

    wording = options.wording
    ms = list(dict.fromkeys(r.measure for r in requests))
    runs, errors = [], []
    for path in inputs.runs:
        try:  # a run with no assessed topic is an error, as in trec_eval; the others are still scored
            run = read_run(path, vocabulary=qrels)
            _check_common_topics(qrels, run)
            runs.append(run)
        except GraphsrInputError as exc:
            errors.append(exc)
    if not runs:
        return FileEvaluation(Results([], ms, requests=requests), errors, qrels)
    context = _plain_context(qrels, runs, ms, inputs.sources(), wording)
    if context is None:
        docids = qrels.docids().union(*(r.docids() for r in runs))
        context = element_context(docids, measures=ms, wording=wording, **_context_keywords(inputs, options))
    context = replace(context, wording=wording) if isinstance(context, ScoringContext) else context
    results, scored, unjudged, apart = score_runs(qrels, runs, requests, context, options)
    return FileEvaluation(
        results, _in_run_order(errors + results.errors, inputs.runs), qrels, scored, context, unjudged, apart
    )


def _context_keywords(inputs: Inputs, options: Options) -> dict:
    """The keywords :func:`~graphsr.evaluation.context.element_context` takes."""
    return {
        "collection": inputs.collection,
        "model": inputs.model,
        "store": inputs.store,
        "routes": inputs.routes,
        "routes_model": inputs.routes_model,
        "nav": options.nav,
        "effort": options.effort,
        "progress": options.progress,
        "workers": options.workers,
    }


def _plain_context(qrels, runs, measures, given: dict, wording):
    """TREC document qrels and runs (4 and 6 fields): each document one element, no collection, no navigation;
    None for element inputs."""
    from ..core.kinds import is_plain
    from ..measures.interop import plain_context

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


def _as_elements(requests) -> list:
    """The measures asked for that score passage inputs as the collection's elements (SR, ESR, ...)."""
    from ..measures.provider import provider_of

    return [m for m in dict.fromkeys(r.measure for r in requests) if provider_of(m).NAME not in _PASSAGE_FAMILIES]


def _passages(qrels, inputs: Inputs, requests, options: Options, chunks, trees=None) -> FileEvaluation:
    """Passage assessments: each run read in its format (element runs and XML submissions through the documents
    they name), scored by the passage families, and by the element families as the collection's elements (the
    trees of the documents read for the assessments, ``trees``, not read again)."""
    ms = list(dict.fromkeys(r.measure for r in requests))
    as_elements = _as_elements(requests)
    found, errors = _run_formats(inputs, chunks is not None)
    element_runs = _element_runs(found, inputs.collection, options.wording)
    documents = _named_documents(found, element_runs, inputs.collection, options.progress)
    runs = _passage_runs(found, element_runs, qrels, documents, chunks, options, errors, inputs.collection)
    context = _passage_context(qrels, runs, documents, chunks, as_elements, inputs, options, trees)
    if not runs:
        return FileEvaluation(Results([], ms, requests=requests), errors, qrels, [], context)
    results, scored, unjudged, apart = score_runs(qrels, runs, requests, context, replace(options, unknown="error"))
    return FileEvaluation(
        results, _in_run_order(errors + results.errors, inputs.runs), qrels, scored, context, unjudged, apart
    )


def _run_formats(inputs: Inputs, chunks: bool) -> tuple[dict, list]:
    """Each run file's format (detected once, or as declared), and the refusals of those that cannot be read."""
    from ..io import formats

    found: dict = {}
    errors: list = []
    for path in inputs.runs:
        if not _is_path(path):  # a run read already (a FOLRun: retrieved_run, read_chunk_run): scored as it is
            found[path] = None
            continue
        try:
            found[path] = formats.detect(path, formats.RUN, inputs.run_format, chunks)
        except GraphsrInputError as exc:  # an unreadable run: refused, the others still scored
            errors.append(exc)
    return found, errors


def _element_runs(found: dict, collection, wording) -> dict:
    """The element runs among passage runs, read (they need the collection to become character ranges)."""
    from ..io import formats

    element_runs = {
        p: f.read(str(p), formats.Given()) for p, f in found.items() if f is not None and f.name == "element"
    }
    if element_runs and not collection:
        raise GraphsrInputError(
            f"{next(iter(element_runs))}: an element run scored against FOL assessments needs "
            f"{_option('collection', wording)} to map its elements to character ranges"
        )
    return element_runs


def _named_documents(found: dict, element_runs: dict, collection, progress: bool):
    """The documents XML submissions and element runs name, from the collection (None where none is named)."""
    if not collection:
        return None
    from ..io.fol import submission_files

    wanted = set().union(
        *(submission_files(p) for p, f in found.items() if f is not None and f.name == "xml"),
        *(r.docids() for r in element_runs.values()),
    )
    if not wanted:
        return None
    from .collection import load_collection

    return load_collection(collection, [], keep=wanted, progress=progress).documents


def _passage_runs(
    found: dict, element_runs: dict, qrels, documents, chunks, options: Options, errors: list, collection=None
) -> list:
    """Every run read in its format, in the order given (a refusal into ``errors``; ``collection``: where a run of
    a framework's nodes finds its hierarchy)."""
    from ..io import formats

    given = formats.Given(
        collection=collection, chunks=chunks, vocab=qrels.vocab, documents=documents, unknown=options.unknown
    )
    runs = []
    for path, fmt in found.items():
        try:
            if fmt is None:
                runs.append(path)
            else:
                runs.append(element_runs[path] if fmt.name == "element" else fmt.read(str(path), given))
        except GraphsrInputError as exc:
            errors.append(exc)
    return runs


def _passage_context(
    qrels, runs: list, documents, chunks, as_elements: list, inputs: Inputs, options: Options, trees=None
):
    """What the measures read: the documents named, the chunk map; with element measures and a collection, the
    documents and navigation they score the passages as elements in."""
    from ..measures.provider import ScoringContext

    keep = {"order": options.order, "lenient": options.lenient, "wording": options.wording, "chunks": chunks}
    if not (runs and as_elements and inputs.collection):
        return ScoringContext(documents, **keep)
    from .context import element_context

    docids = set(qrels.docid.tolist()).union(*(_docids(r) for r in runs))
    context_options = _context_keywords(inputs, options)
    built = element_context(docids, measures=as_elements, wording=options.wording, known=trees, **context_options)
    return replace(built, **keep)
