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
        rows = [QrelsRow(str(q), str(d), DOCUMENT_NODE, float(v)) for q, docs in qrels.items() for d, v in docs.items()]
    else:
        _frame_columns(qrels, ("query_id", "doc_id", "relevance"), "qrels")
        xp = _strings(qrels["xpath"]) if "xpath" in qrels.columns else [DOCUMENT_NODE] * len(qrels)
        rows = [QrelsRow(q, d, x, v) for q, d, x, v in zip(_strings(qrels["query_id"]), _strings(qrels["doc_id"]), xp,
                                                          _floats(qrels["relevance"], "qrels", "relevance"))]
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
        lines = [(str(q), str(d), DOCUMENT_NODE, float(s)) for q, docs in run.items() for d, s in docs.items()]
        by_topic: dict[str, dict[tuple[str, float], list[str]]] = {}
        for q, d, x, s in lines:  # a (document, score) of a topic is one result; its xpaths its nodes
            by_topic.setdefault(q, {}).setdefault((d, s), []).append(x)
        rows = []
        for q, results in by_topic.items():
            order = sorted(results, key=lambda ds: (ds[1], ds[0]), reverse=True)  # trec_eval: score, doc_id desc
            for rank, (d, s) in enumerate(order, start=1):
                rows += [RunRow(q, d, rank, s, x) for x in results[(d, s)]]
        return Run.from_rows(rows, name, None, (name,))
    _frame_columns(run, ("query_id", "doc_id", "score"), "a run")
    if "run_id" in run.columns:
        named = set(run["run_id"].dropna().astype(str).unique().tolist())
        if len(named) == 1:
            name = named.pop()
    return _frame_run(run, name)


def _frame_run(frame, name: str):
    """A run from a DataFrame, grouped and ranked with pandas: a (topic, document, score) is one result, its
    XPaths its nodes; per topic by score, then doc_id, both descending (trec_eval's order)."""
    import numpy as np
    import pandas as pd

    from ..errors import DuplicateResultError, RunFormatError
    from ..model.document import canonical_xpath
    from ..model.run import Run, TreeResult

    xp = _strings(frame["xpath"]) if "xpath" in frame.columns else [DOCUMENT_NODE] * len(frame)
    canonical = {}
    for x in set(xp):
        try:
            canonical[x] = canonical_xpath(x)
        except ValueError as exc:
            raise RunFormatError(f"a run: {exc}") from None
    q = _strings(frame["query_id"])
    df = pd.DataFrame({"q": pd.Categorical(q, categories=list(dict.fromkeys(q))), "d": _strings(frame["doc_id"]),
                       "s": _floats(frame["score"], "a run", "score"), "x": [canonical[x] for x in xp]})
    twice = df.duplicated(["q", "d", "s", "x"])
    if twice.any():
        row = df[twice].iloc[0]
        raise DuplicateResultError(f"a run: topic {row.q}: node {row.d} {row.x} appears twice in one result "
                                   "(same document and score); expected each node once")
    df = df.sort_values(["q", "s", "d"], ascending=[True, False, False], kind="stable")  # nodes keep file order
    t_code = df["q"].cat.codes.to_numpy()
    docs, scores, xpaths = df["d"].to_numpy(dtype=object), df["s"].to_numpy(), df["x"].tolist()
    starts = np.ones(len(df), dtype=bool)
    starts[1:] = (t_code[1:] != t_code[:-1]) | (docs[1:] != docs[:-1]) | (scores[1:] != scores[:-1])
    names = df["q"].cat.categories.astype(str).tolist()
    bounds = np.flatnonzero(starts).tolist() + [len(df)]
    doc_list, score_list, codes = docs.tolist(), scores.tolist(), t_code.tolist()
    heads = df[starts]
    if heads.duplicated(["q", "d"]).any():  # a document at two scores: the same result twice if the same nodes
        seen: dict[tuple, float] = {}
        for a, b in zip(bounds[:-1], bounds[1:]):
            t, d, sc, nodes = names[codes[a]], doc_list[a], score_list[a], tuple(xpaths[a:b])
            key = (t, d, frozenset(nodes))
            if key in seen:
                raise DuplicateResultError(f"a run: topic {t}: the same result ({d} {', '.join(nodes)}) has scores "
                                           f"{seen[key]:g} and {sc:g}; expected each result once (as trec_eval "
                                           "refuses duplicate documents)")
            seen[key] = sc
    results: dict[str, list] = {}
    make = TreeResult._trusted
    for a, b in zip(bounds[:-1], bounds[1:]):
        t = names[codes[a]]
        ranked = results.get(t)
        if ranked is None:
            ranked = results[t] = []
        ranked.append(make(t, len(ranked) + 1, doc_list[a], tuple(xpaths[a:b]), score_list[a]))
    return Run(name, results, None, (name,))
