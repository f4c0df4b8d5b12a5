"""Runs scored as ``graphsr eval`` reports them: the measures asked for, those taken beside them (``--also``,
and the share of characters never judged, for judgments that judge some text only) kept apart, and each run
named over the runs scored."""

from __future__ import annotations

from .results import Results

__all__ = ["score_runs"]


def score_runs(qrels, runs: list, requests, context, options) -> tuple[Results, list, dict, Results]:
    """Every run scored in one pass (a refused run refuses only itself), each named over the runs scored, with
    the measures ``options.also`` names beside those asked (returned apart) and, for span or chunk judgments, each
    run's mean share of unjudged characters (``options``: :class:`~graphsr.evaluation.inputs.Options`)."""
    from ..measures.parse import parse_requests
    from .entry import evaluate as score, run_labels

    asked = {r.measure for r in requests}
    wanted = parse_requests(list(options.also))
    also = [r for r in wanted if r.measure not in asked]
    unjudged_measure = _unjudged_measure(qrels, requests + also)
    extra = also + ([unjudged_measure] if unjudged_measure is not None else [])
    results = score(qrels, runs, requests + extra, context, keep_going=True, **options.scoring())
    scored = {r.source: r for r in results.runs}
    kept = [run for run in runs if run.name in scored]
    for run, label in zip(kept, run_labels(kept)):  # named over the runs scored, as if the others were not given
        scored[run.name].name = label
    apart = _apart(results, extra, [r for r in wanted if r.measure in asked])
    unjudged = {}
    if getattr(qrels, "judged_spans", None) is not None:
        unjudged = _unjudged_shares(results if unjudged_measure is None else apart, kept)
    return results, kept, unjudged, apart


def _unjudged_measure(qrels, requests):
    """The measure of unjudged characters to take beside those asked, for judgments that judge some text only
    (None where they judge every character, or it is asked already)."""
    if getattr(qrels, "judged_spans", None) is None:
        return None
    from ..measures.parse import Requested
    from ..measures.span import unjudged_chars

    if any(r.measure == unjudged_chars for r in requests):
        return None
    return Requested(str(unjudged_chars), unjudged_chars)


def _apart(results: Results, extra: list, shared: list) -> Results:
    """The values of the measures ``extra`` (requests not asked for) moved out of ``results`` into results of
    their own, with those of ``shared`` (asked for too: copied)."""
    from .results import RunResult

    moved = list(dict.fromkeys(r.measure for r in extra))
    copied = [m for m in dict.fromkeys(r.measure for r in shared) if m not in moved]
    runs = []
    for r in results.runs:
        values = {m: r.values.pop(m) for m in moved if m in r.values}
        values.update({m: r.values[m] for m in copied if m in r.values})
        overall = {m: r.overall.pop(m) for m in moved if m in r.overall}
        overall.update({m: r.overall[m] for m in copied if m in r.overall})
        runs.append(RunResult(r.name, r.topics, values, [], overall, r.run_id, r.source))
    results.measures = [m for m in results.measures if m not in moved]
    if results.requests is not None:
        results.requests = [q for q in results.requests if q.measure not in moved]
    return Results(runs, moved + copied, results.model, list(extra) + list(shared))


def _unjudged_shares(results: Results, runs: list) -> dict:
    """Each run's mean share of unjudged characters over the topics it has lines for."""
    import numpy as np

    from ..measures.span import unjudged_chars

    by_name = {run.name: run for run in runs}
    out = {}
    for r in results.runs:
        run = by_name.get(r.source or "")
        own = set(run.topics) if run is not None else set(r.topics)
        mine = [v for t, v in zip(r.topics, r.values[unjudged_chars].tolist()) if t in own]
        out[r.name] = float(np.mean(mine)) if mine else 0.0
    return out
