"""Scoring passage runs against INEX FOL assessments (focused, relevant in context, best in context).

Topic set, as the official tool: by default the topics of the run that have
assessments; ``all_topics=True`` (``-c``) averages over every judged topic, a
topic missing from the run scoring 0.  Run topics without assessments are
reported and not evaluated.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import MeasureNameError, RunFormatError
from ..measures.base import Measure, parse_measures
from ..measures.fol import InterleavedArticles, PassageInputs
from ..measures.fol_family import compute_fol_family
from ..model.fol import FOLQrels, FOLRun
from .resolve import topic_sort_key
from .results import Results, RunResult

__all__ = ["passage_inputs", "evaluate_passages"]


def passage_inputs(qrels: FOLQrels, run: FOLRun, topics: list[str]) -> tuple[PassageInputs, np.ndarray]:
    """Align a run with the assessments for ``topics``.

    Returns the inputs and, for each of their results, its row in ``run``.
    """
    import pandas as pd

    topic_index = pd.Index(list(topics), dtype=object)
    code = topic_index.get_indexer(run.topic) if len(run) else np.zeros(0, dtype=np.int64)
    idx = np.flatnonzero(code >= 0)
    res_topic = code[idx].astype(np.int64)
    docids = run.docid[idx]
    res_row = qrels.rows(run.topic[idx], docids)
    doc_code = pd.factorize(docids)[0].astype(np.int64)
    res_group = pd.factorize(res_topic * (int(doc_code.max(initial=0)) + 1) + doc_code)[0].astype(np.int64)
    start = run.offset[idx]
    end = start + run.length[idx]
    q_topic = topic_index.get_indexer(qrels.topic)
    judged = q_topic >= 0
    T = len(topics)
    rel_chars = np.bincount(q_topic[judged], weights=qrels.rel_chars[judged], minlength=T).astype(np.int64)
    rel_articles = np.bincount(q_topic[judged], weights=(qrels.rel_chars[judged] > 0), minlength=T).astype(np.int64)
    x = PassageInputs(list(topics), res_topic, res_group, res_row, start, end, qrels.rel_chars, qrels.bep,
                      qrels.pass_row, qrels.pass_start, qrels.pass_end, rel_chars, rel_articles)
    return x, idx


def evaluate_passages(qrels: FOLQrels, runs: Sequence[FOLRun], measures: Sequence[Measure | str],
                      all_topics: bool = False) -> Results:
    """Score passage runs with the official INEX measures.

    Parameters
    ----------
    qrels : FOLQrels
    runs : sequence of FOLRun
    measures : sequence of Measure or str
        ``iP[x]``, ``MAiP``, ``gP@k``, ``gR@k``, ``MAgP`` (with ``task``,
        ``beta``, ``n``).
    all_topics : bool
        Average over every judged topic (``-c``).

    Raises
    ------
    MeasureNameError
        For a measure that is not a passage measure.
    RunFormatError
        For RiC/BiC measures on a run that interleaves articles (file and line).
    """
    ms = parse_measures(list(measures))
    other = [str(m) for m in ms if m.FAMILY != "fol"]
    if other:
        raise MeasureNameError(f"{', '.join(other)}: not a passage measure; FOL assessments give iP[x], MAiP, "
                               "gP@k, gR@k and MAgP")
    judged = set(qrels.topic.tolist())
    out = []
    for run in runs:
        present = run.topics
        missing = sorted((t for t in present if t not in judged), key=topic_sort_key)
        topics = sorted(judged if all_topics else (t for t in present if t in judged), key=topic_sort_key)
        x, rows = passage_inputs(qrels, run, topics)
        try:
            values, notes = compute_fol_family(ms, x)
        except InterleavedArticles as exc:
            r = int(rows[exc.result])
            raise RunFormatError(f"topic {run.topic[r]}: article {run.docid[r]} is ranked again after other "
                                 "articles; Relevant/Best in Context runs must list each article's passages "
                                 "together", run.source, int(run.line[r])) from None
        warnings = []
        if missing:
            warnings.append(f"{run.name}: {len(missing)} run topic(s) have no assessments and are not evaluated: "
                            + ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else ""))
        if notes.get("impossible"):
            warnings.append(f"{run.name}: {notes['impossible']} passage(s) overlap a passage of the same article "
                            "ranked earlier (impossible recall points): skipped, as the official tool does")
        if notes.get("extra_results"):
            warnings.append(f"{run.name}: {notes['extra_results']} result(s) follow their article's first result; "
                            "Best in Context scores the first (the entry point) only")
        if len(run) == 0:
            warnings.append(f"{run.name}: the run is empty")
        out.append(RunResult(run.name, topics, values, warnings))
    return Results(out, ms)
