"""One entry for scoring runs with any measures: :func:`evaluate`.

The requested measures are grouped by family; each family's provider
(:mod:`graphsr.measures.provider`) says which assessments and runs it
scores and what it needs, and scores a run for the topics chosen here.  The
command line, the demo and the Python API all score through it.

Topic set: by default (``all_topics=True``, as everywhere in the Python API) every assessed topic, in natural
order, a topic the run lacks scoring as an empty ranking (trec_eval's ``-c``); ``all_topics=False`` (the command
line's default, as trec_eval's) scores the run's topics that have assessments only.  Run topics without
assessments are reported, not scored.
"""

from __future__ import annotations

from .._records import replace
from typing import Sequence

from ..errors import GraphsrInputError
from ..measures.base import Measure
from ..measures.provider import Scratch, ScoringContext, provider_of
from ..core.topics import missing_topics_warning, select_topics
from .results import Results, RunResult

__all__ = ["evaluate", "run_labels", "trec_counts", "shared_spellings"]


def run_labels(runs: Sequence) -> list[str]:
    """The names runs are reported under: each run's run id (the run id column, when every line of
    the run names the same one), or its name (the file path) when it has no single run id or shares
    it with another run given.

    >>> from graphsr.core import Run
    >>> a, b = Run("a.run", {}, run_ids=("bm25",)), Run("b.run", {}, run_ids=("x",))
    >>> run_labels([a, b, Run("c.run", {}, run_ids=("x",))])
    ['bm25', 'b.run', 'c.run']
    """
    from collections import Counter

    ids = [getattr(r, "run_id", None) for r in runs]
    taken = Counter(ids)
    return [i if i is not None and taken[i] == 1 else r.name for r, i in zip(runs, ids)]


def evaluate(
    qrels,
    runs,
    measures,
    context: ScoringContext | None = None,
    *,
    all_topics: bool = True,
    order: str | None = None,
    lenient: bool | None = None,
    unknown: str | None = None,
    keep_going: bool = False,
    ties: str | None = None,
) -> Results:
    """Score ``runs`` against ``qrels`` with ``measures``.

    Parameters
    ----------
    qrels : ElementQrels, FOLQrels, path, DataFrame or dict
        Assessments (any shape :func:`graphsr.as_qrels` takes).
    runs : sequence of runs, or one run
        Runs (any shape :func:`graphsr.as_run` takes: ``Run``, ``FOLRun``,
        paths, DataFrames, dicts).
    measures : sequence of measures
        Any registered measures (``graphsr measures``) of any families: measure
        strings (graphsr's, ir_measures' or trec_eval's names), graphsr or
        ir_measures measure objects.  Each is reported under the name asked
        for (``MAP``, ``map``, ``P_5``; see
        :func:`graphsr.measures.parse.parse_requests`).
    context : ScoringContext, optional
        Documents and navigation models
        (``graphsr.load_collection(path).context()``, or
        :func:`graphsr.evaluation.element_context`).  Plain TREC document
        assessments and runs need none (each document is one element, nothing
        is navigated), nor do passage runs against FOL assessments.
    all_topics : bool
        Average over every assessed topic, a topic the run lacks scoring as an
        empty ranking (the default, as in :func:`graphsr.calc_aggregate`;
        trec_eval's ``-c``); False: over the assessed topics each run has lines
        for (trec_eval's default, and ``graphsr eval``'s).
    order, lenient, unknown, ties
        Set the context's options of the same names (passage result order,
        scoring runs the official tool refuses, unknown element nodes; results
        tied in score: ``'trec_eval'``, the default, orders them as trec_eval
        does; ``'average'`` gives each rank measure's expected value over every
        ordering of the tied results).
    keep_going : bool
        A run that cannot be scored (a run the official tool refuses, a
        malformed line found while scoring) is left out and its error kept in
        ``Results.errors``, the other runs still scored; by default the error
        is raised.

    Returns
    -------
    Results
        Per run, per-topic values and each measure's ``all`` value (its
        aggregate, or the official tool's where a family gives it).

    Raises
    ------
    GraphsrInputError
        When a measure cannot score these assessments or runs, or the context
        lacks what it needs (one line saying what to give); for bad runs or
        assessments (file and line).

    Examples
    --------
    >>> from graphsr.core import FOLQrels, FOLRun
    >>> qrels = FOLQrels.from_columns(["1"], ["a"], [100], [10], [0], [0], [0], [10])
    >>> run = FOLRun.from_columns("r", ["1"], ["a"], [1], [1.0], [0], [20], [1])
    >>> res = evaluate(qrels, [run], ["MAiP", "char_prec"])
    >>> [round(res["r"].mean(m), 4) for m in res.measures]
    [0.5, 0.5]

    Plain TREC qrels and runs need no context:

    >>> res = evaluate({"q1": {"d1": 1, "d2": 0}}, {"q1": {"d1": 2.0, "d3": 1.0}}, ["map", "P_2"])
    >>> res.runs[0].mean(res.measures[0]), [label for label, _ in res.labels]
    (1.0, ['map', 'P_2'])
    """
    from ..io.frames import as_qrels, as_run
    from ..measures.parse import parse_requests

    qrels = as_qrels(qrels)
    if not isinstance(runs, (list, tuple)):
        runs = [runs]
    runs = [as_run(r, f"run{k}" if len(runs) > 1 else "run", vocabulary=qrels) for k, r in enumerate(runs)]
    requests = trec_counts(parse_requests(measures), qrels)
    ms: list[Measure] = list(dict.fromkeys(r.measure for r in requests))
    if not ms:
        raise GraphsrInputError("no measure to compute: give one or more, e.g. ['P@10', 'nDCG@10']")
    unbound = [m for m in ms if m.context is None]
    if context is None and unbound:
        context = _default_context(qrels, runs, unbound)
    if ties is not None and ties not in ("trec_eval", "average"):
        raise GraphsrInputError(f"ties must be 'trec_eval' or 'average', got {ties!r}")
    options = {
        k: v for k, v in (("order", order), ("lenient", lenient), ("unknown", unknown), ("ties", ties)) if v is not None
    }
    contexts, evaluators = _evaluators(ms, qrels, runs, context, options)
    out, errors = _scored_runs(qrels, runs, evaluators, all_topics, ms, keep_going)
    if out:
        out[0].warnings[:0] = [w for _, shared in contexts.values() for w in shared.warnings]
    first = next(iter(contexts.values()))[0]
    return Results(out, ms, (context if context is not None else first).model_name, requests, errors)


def _evaluators(ms: list, qrels, runs: list, context, options: dict) -> tuple[dict, list]:
    """Each context (the given one, and each bound measure's own) with the options, and the Scratch of what is
    built once from it for every family (resolved assessments: inputs built under one context never serve
    another); and each family's evaluator under its context, its measures checked against the inputs."""
    contexts: dict[int, tuple[ScoringContext, Scratch]] = {}
    groups: dict[tuple, list[Measure]] = {}
    for m in ms:
        own = m.context if m.context is not None else context
        assert own is not None  # (a context is made for the measures bound to none)
        if id(own) not in contexts:
            contexts[id(own)] = (replace(own, **options) if options else own, Scratch())
        groups.setdefault((m.FAMILY, id(own)), []).append(m)
    evaluators = []
    for (_, key), family_measures in groups.items():
        own, shared = contexts[key]
        provider = provider_of(family_measures[0])
        provider.check(family_measures, qrels, runs, own)
        evaluators.append((key, provider.evaluator(family_measures, qrels, own, shared)))
    return contexts, evaluators


def _scored_runs(qrels, runs: list, evaluators: list, all_topics: bool, ms: list, keep_going: bool):
    """Each run's result, and (with ``keep_going``) the errors of the runs that could not be scored."""
    from ..io.text_ranges import check_run_ranges

    out, errors = [], []
    judged = qrels.topics
    for run, label in zip(runs, run_labels(runs)):
        try:
            check_run_ranges(qrels, run)
            out.append(_score_run(run, label, evaluators, judged, all_topics, ms))
        except GraphsrInputError as exc:
            if not keep_going:
                raise
            errors.append(exc)
    return out, errors


def _score_run(run, label: str, evaluators, judged, all_topics: bool, ms) -> RunResult:
    topics, missing = select_topics(run.topics, judged, all_topics)
    scratches: dict[int, Scratch] = {}  # per context: the run's resolved nodes serve only the families under it
    result = RunResult(
        label,
        topics,
        {},
        [missing_topics_warning(run.name, missing)] if missing else [],
        source=run.name,
        unassessed=missing,
    )
    notes = []
    for key, ev in evaluators:
        got = ev.score(run, topics, scratches.setdefault(key, Scratch()))
        result.values.update(got.values)
        result.overall.update(got.overall)
        notes += got.warnings
        if got.run_id is not None:
            result.run_id = got.run_id
    result.warnings += [w for s in scratches.values() for w in s.warnings] + notes
    result.values = {m: result.values[m] for m in ms}
    return result


def _default_context(qrels, runs, measures) -> ScoringContext:
    """What scoring needs when no context is given: plain TREC documents are single elements, nothing
    navigated; anything else gets an empty context (a measure that needs more says what to give)."""
    from ..measures.interop import plain_context
    from ..core.kinds import is_plain

    if is_plain(qrels) and all(is_plain(r) for r in runs):
        return plain_context(qrels, runs, measures)
    return ScoringContext()


def shared_spellings() -> dict[str, str]:
    """The names two measures answer to, by kind of assessments: the official INEX tool's article counts
    (``num_ret``, ``num_rel``, ``num_rel_ret``: passage and element assessments) that trec_eval's measure list
    also has (:data:`graphsr.measures.parse.TREC_NAMES`: ``NumRet``, ``NumRel``, ``NumRelRet`` on plain TREC
    document assessments).  Read from the two declarations; none is written here."""
    return {cls.NAME: target.NAME for cls, target in _twins().items()}


def _twins() -> dict:
    """Each passage measure class whose name trec_eval's list gives another measure, and that measure's class."""
    from ..measures.base import registered, registry
    from ..measures.trec_table import MEASURES

    out = {}
    for name, cls in registry().items():
        form = MEASURES.get(name)
        if cls.FAMILY == "fol" and name == cls.NAME and form is not None and form.graphsr not in (None, name):
            out[cls] = registered(form.graphsr)
    return out


def trec_counts(requests: list, qrels) -> list:
    """The requests whose names are :func:`shared_spellings` resolved for ``qrels``: the official INEX tool's
    counts for passage and element assessments, trec_eval's for plain TREC document assessments (each result
    still found under the name asked for)."""
    if not any(r.measure.FAMILY == "fol" for r in requests):
        return requests
    from ..core.kinds import is_plain

    if not is_plain(qrels):
        return requests
    twins = _twins()
    from ..measures.parse import Requested

    out = []
    for r in requests:
        m = r.measure
        if type(m) in twins and not m.given:
            r = Requested(r.label, twins[type(m)]().validate())
        out.append(r)
    return list(dict.fromkeys(out))
