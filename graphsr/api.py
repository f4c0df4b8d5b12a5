"""The Python API in ir_measures' shapes: qrels and runs as DataFrames or dicts, ``calc_aggregate`` and
``iter_calc``.

Qrels: a path (element or FOL, detected), an ``ElementQrels``/``FOLQrels``, a
pandas DataFrame with ir_measures' columns ``query_id, doc_id, relevance``
(plus ``xpath`` for elements), or a dict ``{query_id: {doc_id: relevance}}``.
Runs: a path, a ``Run``/``FOLRun``, a DataFrame ``query_id, doc_id, score``
(plus ``xpath``; ``run_id`` names the run), or a dict ``{query_id: {doc_id:
score}}``; DataFrame and dict runs are ranked as trec_eval ranks them (score
descending, ties by ``doc_id`` descending).  Without an ``xpath`` a result is
its whole document; without a collection such documents are single
elements, which is how plain document runs are scored (then ``SRP@k`` without
navigation is ``P@k``).  Relevance values are in [0, 1] (SR's scale);
TREC-style grades above 1 are taken by P, R, AP and nDCG as trec_eval takes
them and refused by the others.  As in ir_measures, every assessed topic
counts (a topic the run lacks scores as an empty ranking).

graphsr's measures also work inside ir_measures itself
(``ir_measures.calc_aggregate([graphsr.parse_measure("SRP@10")], qrels, run)``;
see :mod:`graphsr.measures.interop`).

>>> import graphsr
>>> qrels = {"q1": {"d1": 1, "d2": 0}}
>>> run = {"q1": {"d1": 2.0, "d2": 1.0, "d3": 0.5}}
>>> graphsr.calc_aggregate(["P@2", "AP", "SRP@2"], qrels, run)
{P@2: 0.5, AP: 1.0, SRP@2: 0.5}
>>> [tuple(m) for m in graphsr.iter_calc(["P@1"], qrels, run)]
[('q1', P@1, 1.0)]
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Sequence

from .io.frames import as_qrels, as_run

__all__ = ["Metric", "as_qrels", "as_run", "calc_aggregate", "iter_calc", "calc_frame"]


class Metric(NamedTuple):
    """One per-topic value, as ir_measures' ``iter_calc`` yields it."""

    query_id: str
    measure: object
    value: float


def _context(qrels, runs, collection, model, measures):
    from .evaluation.context import element_context
    from .measures.interop import plain_context
    from .model.qrels import ElementQrels

    if not isinstance(qrels, ElementQrels) and all(not hasattr(r, "results") for r in runs):
        return None  # passage assessments and runs need nothing
    if collection is not None:
        docids = qrels.docids() if isinstance(qrels, ElementQrels) else set()
        docids = docids.union(*(r.docids() for r in runs if hasattr(r, "results")))
        return element_context(docids, measures=measures, collection=collection, model=model)
    return plain_context(qrels, runs)


def calc_frame(measures: Sequence, qrels, runs, collection=None, model: str | None = None, all_topics: bool = True):
    """Per-topic values of one run or several as a DataFrame ``run, measure, topic, value`` (``all`` rows left
    out); runs named by their run ids (see :func:`graphsr.evaluation.entry.run_labels`)."""
    from ._bulk import bulk
    from .evaluation.entry import evaluate

    with bulk():
        run_list = runs if isinstance(runs, (list, tuple)) else [runs]
        q = as_qrels(qrels)
        rs = [as_run(r, f"run{k}" if len(run_list) > 1 else "run") for k, r in enumerate(run_list)]
        return evaluate(q, rs, list(measures), _context(q, rs, collection, model, measures),
                        all_topics=all_topics).to_frame()


def iter_calc(measures: Sequence, qrels, run, collection=None, model: str | None = None,
              all_topics: bool = True) -> Iterator[Metric]:
    """Per-topic values as ir_measures yields them: ``Metric(query_id, measure, value)``, for every assessed
    topic (one the run lacks scores as an empty ranking, as ir_measures gives it the measure's default;
    ``all_topics=False``: the run's assessed topics only, as trec_eval without ``-c``)."""
    from ._bulk import bulk
    from .evaluation.entry import evaluate

    with bulk():
        q, r = as_qrels(qrels), as_run(run)
        res = evaluate(q, [r], list(measures), _context(q, [r], collection, model, measures),
                       all_topics=all_topics).runs[0]
    for m, values in res.values.items():
        for t, v in zip(res.topics, values.tolist()):
            yield Metric(t, m, float(v))


def calc_aggregate(measures: Sequence, qrels, run, collection=None, model: str | None = None,
                   all_topics: bool = True) -> dict:
    """Each measure's aggregate, ``{measure: value}``, as ``ir_measures.calc_aggregate``: over every
    assessed topic (``all_topics``, see :func:`iter_calc`)."""
    from ._bulk import bulk
    from .evaluation.entry import evaluate

    with bulk():
        q, r = as_qrels(qrels), as_run(run)
        res = evaluate(q, [r], list(measures), _context(q, [r], collection, model, measures),
                       all_topics=all_topics).runs[0]
        return {m: float(res.mean(m)) for m in res.values}
