"""Scoring runs: collection + assessments + navigation model -> per-topic values.

Topic set: by default the topics that are both in the run and assessed
(as trec_eval); run topics without assessments are reported, not scored.
With ``all_topics=True`` (the CLI's ``-c``) every assessed topic is
averaged and a topic the run lacks scores 0.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np

from ..measures import compute, parse_measures
from ..measures.base import Measure
from ..model.document import DocumentTree
from ..model.qrels import ElementQrels
from ..model.run import Run
from ..navigation.model import ModelSpec, NoNavigation, build_sr_model, parse_model_spec
from ..summaries.summary import Summary
from ..model.topics import select_topics
from .resolve import Diagnostics, check_qrels, ranked_nodes
from .results import Results, RunResult

__all__ = ["LoadedCollection", "load_collection", "evaluate", "navigation_for"]


@dataclass
class LoadedCollection:
    """What one pass over a collection keeps: summaries and the documents that matter.

    Attributes
    ----------
    summaries : dict of str to Summary
        One per requested kind.
    documents : dict of str to DocumentTree
        The documents that runs or assessments name (all, if asked).
    sids : dict of (kind, docid) to ndarray
        SID of each node of each kept document, per summary kind.
    """

    summaries: dict[str, Summary] = field(default_factory=dict)
    documents: dict[str, DocumentTree] = field(default_factory=dict)
    sids: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    num_documents: int = 0


def load_collection(path: str | os.PathLike, kinds: Iterable[str] = (), keep: set[str] | None = None,
                    progress: bool = False, workers: int = 1) -> LoadedCollection:
    """Read a collection once: build a summary of each kind, keep the documents in ``keep``.

    Parameters
    ----------
    path : path-like
        Collection directory, XML file or tar archive.
    kinds : iterable of str
        Summary kinds to build (``p*``, ``p*|c``, ``c``, ``tag``).
    keep : set of str, optional
        Document ids whose trees to keep; None keeps every document.
    progress : bool
        Progress bar on stderr.
    workers : int
        Processes for the summary pass (see
        :func:`graphsr.summaries.summarize_collection`); the kept documents
        are then read again in this process.
    """
    from ..io.collection import iter_documents, list_collection
    from ..summaries.parallel import scan_collection, summarize_collection

    sources = list_collection(path)
    out = LoadedCollection()
    kinds = list(dict.fromkeys(kinds))
    if not kinds and keep is not None:  # no summary: parse only the documents to keep
        out.num_documents = len(sources)
        out.documents = {d.docid: d for d in iter_documents(sources, docids=keep.__contains__, progress=progress)}
    elif workers > 1 and kinds:
        out.summaries = summarize_collection(sources, kinds, workers=workers, progress=progress)
        out.num_documents = len(sources)
        wanted = None if keep is None else keep.__contains__
        out.documents = {d.docid: d for d in iter_documents(sources, docids=wanted)}
    else:
        def keep_documents(chunk, builders) -> None:
            out.num_documents += len(chunk)
            out.documents.update((d.docid, d) for d in chunk if keep is None or d.docid in keep)

        out.summaries = scan_collection(sources, kinds, on_chunk=keep_documents, progress=progress)
    kept = list(out.documents.values())
    for k, summary in out.summaries.items():
        for doc, sids in zip(kept, summary.assign_many(kept)):
            out.sids[(k, doc.docid)] = sids
    return out


def navigation_for(spec: ModelSpec | str, loaded: LoadedCollection):
    """The SR navigation model a spec names, and ``seen_of(docid)`` for it."""
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    if spec.summary == "none":
        model = NoNavigation()

        def seen_of(docid: str) -> np.ndarray:
            return np.zeros(len(loaded.documents[docid]))
        return model, seen_of
    summary = loaded.summaries[spec.summary]
    model = build_sr_model(summary, spec.weight)

    def seen_of(docid: str) -> np.ndarray:
        return model.seen_probability(loaded.sids[(spec.summary, docid)])
    return model, seen_of


def evaluate(qrels: ElementQrels, runs: Sequence[Run], measures: Sequence[Measure | str],
             documents: Mapping[str, DocumentTree], seen_of, *, unknown: str = "error",
             all_topics: bool = False, model_name: str = "", route_model=None, order: str = "file",
             lenient: bool = False) -> Results:
    """Score runs against element assessments.

    Passage measures (the official INEX measures, e.g. ``MAiP``,
    ``MAgP(task=ric)``) score the same runs with elements taken as the text
    they cover (:mod:`graphsr.evaluation.fol_convert`), as INEX 2008-2010
    did; ``order`` and ``lenient`` are theirs (see
    :func:`graphsr.evaluation.fol_evaluate.evaluate_passages`).

    Parameters
    ----------
    qrels : ElementQrels
    runs : sequence of Run
    measures : sequence of Measure or str
    documents : mapping of docid to DocumentTree
        Every document the runs and qrels name.
    seen_of : callable
        ``seen_of(docid)`` -> per-node SR seen probability ``p(e;f)``.
    unknown : {'error', 'warn'}
        Unknown documents or XPaths: raise, or drop and report.
    all_topics : bool
        Average over every assessed topic (missing ones score 0).
    route_model : RouteModel, optional
        Navigation learned from route steps
        (:func:`graphsr.navigation.from_routes.route_model`); needed by the
        ESR measures.

    Returns
    -------
    Results
    """
    if unknown not in ("error", "warn"):
        raise ValueError(f"unknown must be 'error' or 'warn', got {unknown!r}")
    ms = parse_measures(list(measures))
    passage = [m for m in ms if m.FAMILY == "fol"]
    element = [m for m in ms if m.FAMILY != "fol"]
    qdiag = Diagnostics()
    judged = check_qrels(qrels, documents, unknown, qdiag)
    as_passages = _passage_scorer(qrels, documents, passage, all_topics, order, lenient) if passage else None
    out = []
    build_esr = None
    if route_model is not None and any(m.FAMILY == "esr" for m in ms):
        from .esr_inputs import ESRInputBuilder

        build_esr = ESRInputBuilder(judged, documents, route_model)
    for run in runs:
        diag = Diagnostics()
        topics, diag.run_topics_without_qrels = select_topics(run.topics, qrels.judgments, all_topics)
        doc_codes: dict[str, int] = {}
        ranked = ranked_nodes(run, judged, topics, documents, seen_of, unknown, diag, doc_codes)
        esr = build_esr(ranked, doc_codes) if build_esr is not None else None
        values = compute(element, ranked, esr) if element else {}
        result = RunResult(run.name, topics, values, diag.messages(run.name))
        if as_passages is not None:
            as_passages(run, result)
        result.values = {m: result.values[m] for m in ms}
        out.append(result)
    results = Results(out, ms, model_name)
    if out:
        out[0].warnings[:0] = qdiag.messages()
    return results


def _passage_scorer(qrels: ElementQrels, documents, measures, all_topics: bool, order: str, lenient: bool):
    """A function adding the passage measures of a run (elements as character ranges) to its RunResult."""
    from .fol_convert import passage_qrels, passage_run
    from .fol_evaluate import evaluate_passage_run

    fol_qrels = passage_qrels(qrels, documents)

    def add(run: Run, result: RunResult) -> None:
        got = evaluate_passage_run(fol_qrels, passage_run(run, documents, fol_qrels.vocab), measures, all_topics,
                                   order, lenient)
        at = {t: k for k, t in enumerate(got.topics)}
        for m in measures:
            result.values[m] = np.array([got.values[m][at[t]] if t in at else 0.0 for t in result.topics])
            result.overall[m] = got.mean(m)
        result.warnings += [w for w in got.warnings if "no assessments" not in w]

    return add
