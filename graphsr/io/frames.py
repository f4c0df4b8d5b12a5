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

from ..model.document import PLAIN_DOCUMENT_NODE

__all__ = ["as_qrels", "as_run"]


def _frame_columns(frame, needed: tuple[str, ...], what: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise GraphsrInputError(f"{what} as a DataFrame needs the columns {', '.join(needed)}; missing "
                                f"{', '.join(missing)}")


def _strings(column) -> list[str]:
    return column.astype(str).tolist()


def _floats(column, what: str, name: str) -> list[float]:
    try:
        return column.astype(float).tolist()
    except (TypeError, ValueError):
        raise GraphsrInputError(f"{what}: expected numbers in the column {name}") from None


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
        rows = [QrelsRow(str(q), str(d), PLAIN_DOCUMENT_NODE, float(v))
                for q, docs in qrels.items() for d, v in docs.items()]
    else:
        _frame_columns(qrels, ("query_id", "doc_id", "relevance"), "qrels")
        xp = _strings(qrels["xpath"]) if "xpath" in qrels.columns else [PLAIN_DOCUMENT_NODE] * len(qrels)
        rows = [QrelsRow(q, d, x, v) for q, d, x, v in zip(_strings(qrels["query_id"]), _strings(qrels["doc_id"]), xp,
                                                          _floats(qrels["relevance"], "qrels", "relevance"))]
    if not rows:
        raise GraphsrInputError("the qrels are empty")
    return ElementQrels.from_rows(rows, "qrels")


def as_run(run, name: str = "run"):
    """An element or passage run from any of the accepted shapes (see the module docstring)."""
    from ..model.fol import FOLRun
    from ..model.run import Run
    from .runs import run_from_columns

    if isinstance(run, (Run, FOLRun)):
        return run
    if isinstance(run, (str, os.PathLike)):
        from .fol import read_passage_run, run_format
        from .runs import read_run

        return read_run(run) if run_format(run) == "element" else read_passage_run(run)
    if isinstance(run, dict):
        pairs = [(str(q), str(d), float(s)) for q, docs in run.items() for d, s in docs.items()]
        return run_from_columns([q for q, _, _ in pairs], [d for _, d, _ in pairs], [s for _, _, s in pairs], None,
                                name)
    _frame_columns(run, ("query_id", "doc_id", "score"), "a run")
    if "run_id" in run.columns:
        named = set(run["run_id"].dropna().astype(str).unique().tolist())
        if len(named) == 1:
            name = named.pop()
    xp = _strings(run["xpath"]) if "xpath" in run.columns else None
    return run_from_columns(_strings(run["query_id"]), _strings(run["doc_id"]), _floats(run["score"], "a run", "score"),
                            xp, name)
