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
navigation is ``P@k``).  Relevance values are in [0, 1] (SR's scale).

>>> import graphsr
>>> qrels = {"q1": {"d1": 1, "d2": 0}}
>>> run = {"q1": {"d1": 2.0, "d2": 1.0, "d3": 0.5}}
>>> graphsr.calc_aggregate(["P@2", "AP", "SRP@2"], qrels, run)
{P@2: 0.5, AP: 1.0, SRP@2: 0.5}
>>> [tuple(m) for m in graphsr.iter_calc(["P@1"], qrels, run)]
[('q1', P@1, 1.0)]
"""

from __future__ import annotations

import os
from typing import Iterator, NamedTuple, Sequence

from .errors import GraphsrInputError

__all__ = ["Metric", "as_qrels", "as_run", "calc_aggregate", "iter_calc", "calc_frame"]

_ROOT = "/doc[1]"


class Metric(NamedTuple):
    """One per-topic value, as ir_measures' ``iter_calc`` yields it."""

    query_id: str
    measure: object
    value: float


def _frame_columns(frame, needed: tuple[str, ...], what: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise GraphsrInputError(f"{what} as a DataFrame needs the columns {', '.join(needed)}; missing "
                                f"{', '.join(missing)}")


def as_qrels(qrels):
    """Element or FOL assessments from any of the accepted shapes (see the module docstring)."""
    from .model.fol import FOLQrels
    from .model.qrels import ElementQrels, QrelsRow

    if isinstance(qrels, (ElementQrels, FOLQrels)):
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        from .io.fol import qrels_format, read_fol_qrels
        from .io.qrels import read_element_qrels

        return read_fol_qrels(qrels) if qrels_format(qrels) == "fol" else read_element_qrels(qrels)
    if isinstance(qrels, dict):
        rows = [QrelsRow(str(q), str(d), _ROOT, float(v)) for q, docs in qrels.items() for d, v in docs.items()]
    else:
        _frame_columns(qrels, ("query_id", "doc_id", "relevance"), "qrels")
        xp = qrels["xpath"] if "xpath" in qrels.columns else [_ROOT] * len(qrels)
        rows = [QrelsRow(str(q), str(d), str(x), float(v))
                for q, d, x, v in zip(qrels["query_id"], qrels["doc_id"], xp, qrels["relevance"])]
    if not rows:
        raise GraphsrInputError("the qrels are empty")
    return ElementQrels.from_rows(rows, "qrels")


def as_run(run, name: str = "run"):
    """An element or passage run from any of the accepted shapes (see the module docstring)."""
    from .model.fol import FOLRun
    from .model.run import Run, RunRow

    if isinstance(run, (Run, FOLRun)):
        return run
    if isinstance(run, (str, os.PathLike)):
        from .io.fol import read_passage_run, run_format
        from .io.runs import read_run

        return read_run(run) if run_format(run) == "element" else read_passage_run(run)
    if isinstance(run, dict):
        lines = [(str(q), str(d), _ROOT, float(s), None) for q, docs in run.items() for d, s in docs.items()]
    else:
        _frame_columns(run, ("query_id", "doc_id", "score"), "a run")
        xp = run["xpath"] if "xpath" in run.columns else [_ROOT] * len(run)
        ids = run["run_id"] if "run_id" in run.columns else [None] * len(run)
        lines = [(str(q), str(d), str(x), float(s), i)
                 for q, d, x, s, i in zip(run["query_id"], run["doc_id"], xp, run["score"], ids)]
        named = {i for *_, i in lines if i is not None}
        if len(named) == 1:
            name = str(named.pop())
    by_topic: dict[str, dict[tuple[str, float], list[str]]] = {}
    for q, d, x, s, _ in lines:  # a (document, score) of a topic is one result; its xpaths its nodes
        by_topic.setdefault(q, {}).setdefault((d, s), []).append(x)
    rows = []
    for q, results in by_topic.items():
        order = sorted(results, key=lambda ds: (ds[1], ds[0]), reverse=True)  # trec_eval: score, then doc_id, desc
        for rank, (d, s) in enumerate(order, start=1):
            rows += [RunRow(q, d, rank, s, x) for x in results[(d, s)]]
    return Run.from_rows(rows, name, None, (name,))


def _context(qrels, runs, collection, model, measures):
    from .evaluation.context import element_context
    from .measures.provider import ScoringContext
    from .model.document import DocumentTree
    from .model.qrels import ElementQrels

    if not isinstance(qrels, ElementQrels) and all(not hasattr(r, "results") for r in runs):
        return None  # passage assessments and runs need nothing
    docids = qrels.docids() if isinstance(qrels, ElementQrels) else set()
    docids = docids.union(*(r.docids() for r in runs if hasattr(r, "results")))
    if collection is not None:
        return element_context(docids, measures=measures, collection=collection, model=model)
    docs = {d: DocumentTree.from_nested(d, ("doc", "", [])) for d in docids}  # plain documents: one element each
    import numpy as np

    return ScoringContext(docs, lambda d: np.zeros(1), "none", num_elements=len(docs))


def calc_frame(measures: Sequence, qrels, runs, collection=None, model: str | None = None, all_topics: bool = False):
    """Per-topic values of one run or several as a DataFrame ``run, measure, topic, value`` (``all`` rows left
    out)."""
    from .evaluation.entry import evaluate

    run_list = runs if isinstance(runs, (list, tuple)) else [runs]
    q = as_qrels(qrels)
    rs = [as_run(r, f"run{k}" if len(run_list) > 1 else "run") for k, r in enumerate(run_list)]
    return evaluate(q, rs, list(measures), _context(q, rs, collection, model, measures),
                    all_topics=all_topics).to_frame()


def iter_calc(measures: Sequence, qrels, run, collection=None, model: str | None = None) -> Iterator[Metric]:
    """Per-topic values as ir_measures yields them: ``Metric(query_id, measure, value)``."""
    from .evaluation.entry import evaluate

    q, r = as_qrels(qrels), as_run(run)
    res = evaluate(q, [r], list(measures), _context(q, [r], collection, model, measures)).runs[0]
    for m, values in res.values.items():
        for t, v in zip(res.topics, values.tolist()):
            yield Metric(t, m, float(v))


def calc_aggregate(measures: Sequence, qrels, run, collection=None, model: str | None = None) -> dict:
    """Each measure's aggregate over the topics, ``{measure: value}``, as ``ir_measures.calc_aggregate``."""
    from .evaluation.entry import evaluate

    q, r = as_qrels(qrels), as_run(run)
    res = evaluate(q, [r], list(measures), _context(q, [r], collection, model, measures)).runs[0]
    return {m: float(res.mean(m)) for m in res.values}
