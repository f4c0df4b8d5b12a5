"""Qrels and runs from the shapes ir_measures users hold: pandas DataFrames with ir_measures' columns
(``query_id, doc_id, relevance`` / ``query_id, doc_id, score``, plus ``xpath``; ``run_id`` names a run) or
dicts ``{query_id: {doc_id: value}}``; paths and graphsr's own objects pass through.

DataFrame and dict runs are ranked as trec_eval ranks them (score descending, ties by ``doc_id``
descending).  Without an ``xpath`` a result is its whole document (the node ``/doc[1]``): plain documents are
single elements.
"""

from __future__ import annotations

import os

from ..errors import GraphsrInputError

__all__ = ["as_qrels", "as_run", "DOCUMENT_NODE"]

DOCUMENT_NODE = "/doc[1]"  # a plain document as one element


def _frame_columns(frame, needed: tuple[str, ...], what: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise GraphsrInputError(f"{what} as a DataFrame needs the columns {', '.join(needed)}; missing "
                                f"{', '.join(missing)}")


def as_qrels(qrels):
    """Element or FOL assessments from any of the accepted shapes (see the module docstring)."""
    from ..model.fol import FOLQrels
    from ..model.qrels import ElementQrels, QrelsRow

    if isinstance(qrels, (ElementQrels, FOLQrels)):
        return qrels
    if isinstance(qrels, (str, os.PathLike)):
        from .fol import qrels_format, read_fol_qrels
        from .qrels import read_element_qrels

        return read_fol_qrels(qrels) if qrels_format(qrels) == "fol" else read_element_qrels(qrels)
    if isinstance(qrels, dict):
        rows = [QrelsRow(str(q), str(d), DOCUMENT_NODE, float(v)) for q, docs in qrels.items() for d, v in docs.items()]
    else:
        _frame_columns(qrels, ("query_id", "doc_id", "relevance"), "qrels")
        xp = qrels["xpath"] if "xpath" in qrels.columns else [DOCUMENT_NODE] * len(qrels)
        rows = [QrelsRow(str(q), str(d), str(x), float(v))
                for q, d, x, v in zip(qrels["query_id"], qrels["doc_id"], xp, qrels["relevance"])]
    if not rows:
        raise GraphsrInputError("the qrels are empty")
    return ElementQrels.from_rows(rows, "qrels")


def as_run(run, name: str = "run"):
    """An element or passage run from any of the accepted shapes (see the module docstring)."""
    from ..model.fol import FOLRun
    from ..model.run import Run, RunRow

    if isinstance(run, (Run, FOLRun)):
        return run
    if isinstance(run, (str, os.PathLike)):
        from .fol import read_passage_run, run_format
        from .runs import read_run

        return read_run(run) if run_format(run) == "element" else read_passage_run(run)
    if isinstance(run, dict):
        lines = [(str(q), str(d), DOCUMENT_NODE, float(s), None) for q, docs in run.items() for d, s in docs.items()]
    else:
        _frame_columns(run, ("query_id", "doc_id", "score"), "a run")
        xp = run["xpath"] if "xpath" in run.columns else [DOCUMENT_NODE] * len(run)
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
