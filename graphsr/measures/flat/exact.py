"""The flat measures trec_eval computes, scored by their ``graphsr trec_eval`` kernels topic by topic: the exact
path of any flat measure whose trec_eval name declares a kernel (:meth:`~graphsr.measures.flat.measures._Flat.exact`)
and that has no vectorised kernel of its own."""

from __future__ import annotations

import math

import numpy as np

from ..trec_eval.kernels import NOT_IN_POOL, UNJUDGED, Ranked, grade_counts
from .ranking import relevant

__all__ = ["trec_kernel"]


def trec_kernel(m, rk, j) -> np.ndarray:
    """Per-topic values of ``m`` from the run's :class:`~.ranking.Ranking` and the :class:`~.judgments.Judgments`,
    each topic as ``graphsr trec_eval`` sees it (items above the grade level relevant; not assessed: not in the
    pool; a negative grade: in the pool, unjudged; an item retrieving nothing new: not in the pool)."""
    if m.params.get("judged_only"):
        rk = rk.judged_only
    threshold = m.params.get("rel")
    grade, assessed = rk.grade, j.grade
    graded = np.isfinite(grade)
    if (grade[graded] == np.round(grade[graded])).all() and (assessed == np.round(assessed)).all():
        level = 1 if threshold is None else math.ceil(threshold)
    else:  # fractional grades: relevant ones are grade 1, the other judged ones 0
        level = 1
        grade = np.where(graded & (grade >= 0), relevant(grade, threshold).astype(float), grade)
        assessed = np.where(assessed >= 0, relevant(assessed, threshold).astype(float), assessed)
    rel = np.where(
        np.isnan(grade) | np.isneginf(grade), NOT_IN_POOL, np.where(grade < 0, UNJUDGED, np.nan_to_num(grade, neginf=0))
    ).astype(np.int64)
    starts = rk.starts()
    order = np.argsort(j.topic, kind="stable")
    jt, jg = j.topic[order], assessed[order]
    jstarts = np.searchsorted(jt, np.arange(j.num_topics + 1))
    kernel = m.exact()
    params = m.kernel_params()
    docs = m.params.get("docs", 0) or 0
    out = np.zeros(rk.num_topics)
    for t in range(rk.num_topics):
        g = jg[jstarts[t] : jstarts[t + 1]]
        out[t] = kernel(Ranked(rel[starts[t] : starts[t + 1]], *grade_counts(g[g >= 0]), level, docs), params)[0]
    return out
