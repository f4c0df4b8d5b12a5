"""The official INEX passage measures as registered measure objects.

================================  ==========================================
``iP[x]``                         interpolated precision at recall ``x`` (focused)
``MAiP``                          mean of iP over the 101 levels 0.00 .. 1.00
``gP@k``, ``gR@k``                generalized precision / recall at article rank k
``MAgP``                          mean average generalized precision
================================  ==========================================

``gP``, ``gR`` and ``MAgP`` take ``task=ric`` (Relevant in Context, the
default; ``beta``, default 0.25 as the official tool) or ``task=bic`` (Best
in Context; ``n``, default 500 characters).  The arithmetic and the official
tool's conventions are in :mod:`graphsr.measures.fol`.

>>> from graphsr.measures import parse_measure
>>> parse_measure("iP[0.01]"), parse_measure("iP(x=0.1)"), parse_measure("MAgP(task=bic,n=500)")
(iP[0.01], iP[0.10], MAgP(task=bic))
"""

from __future__ import annotations

import numpy as np

from ..errors import MeasureNameError
from .base import Measure, Param, register
from .fol import PassageInputs, article_scores, focused_curve, generalized, interpolated_precision

__all__ = ["iP", "MAiP", "gP", "gR", "MAgP", "compute_fol_family", "OFFICIAL_FOCUSED", "OFFICIAL_CONTEXT",
           "IP_CURVE"]


class _FOLMeasure(Measure):
    FAMILY = "fol"


class _IP(_FOLMeasure):
    NAME = "iP"
    DESCRIPTION = "interpolated character precision at recall level x (INEX focused, official tool)"
    SUPPORTED_PARAMS = {"x": Param(float, None, "recall level in [0, 1]")}
    CUTOFF = "none"
    BRACKET = "x"

    def validate(self) -> "Measure":
        x = self.params.get("x")
        if x is None:
            raise MeasureNameError("iP needs a recall level, e.g. iP[0.01]")
        if not 0.0 <= x <= 1.0:
            raise MeasureNameError(f"iP: the recall level must lie in [0, 1], got {x}")
        return self

    def __repr__(self) -> str:
        x = self.params.get("x")
        if x is None:
            return "iP"
        on_grid = abs(x * 100 - round(x * 100)) < 1e-9
        return f"iP[{x:.2f}]" if on_grid else f"iP[{x!r}]"


class _MAiP(_FOLMeasure):
    NAME = "MAiP"
    DESCRIPTION = "mean interpolated precision over the 101 recall levels 0.00 .. 1.00 (INEX focused)"
    CUTOFF = "none"


_CONTEXT = {"task": Param(str, "ric", "ric (Relevant in Context) or bic (Best in Context)"),
            "beta": Param(float, 0.25, "RiC: weight of recall in the per-article F-measure"),
            "n": Param(float, 500.0, "BiC: characters within which an entry point scores")}


class _Context(_FOLMeasure):
    SUPPORTED_PARAMS = _CONTEXT

    def validate(self) -> "Measure":
        super().validate()
        if self["task"] not in ("ric", "bic"):
            raise MeasureNameError(f"{self.NAME}: task must be ric or bic, got {self['task']!r}")
        if self["beta"] <= 0 or self["n"] <= 0:
            raise MeasureNameError(f"{self.NAME}: beta and n must be positive")
        return self

    def key(self) -> tuple:
        """The article scoring this measure reads (measures sharing it share one pass)."""
        return (self["task"], self["beta"] if self["task"] == "ric" else None,
                self["n"] if self["task"] == "bic" else None)

    def __repr__(self) -> str:  # show only the parameters of the task
        shown = {"task": self["task"] != "ric",
                 "beta": self["task"] == "ric" and self["beta"] != 0.25,
                 "n": self["task"] == "bic" and self["n"] != 500.0}
        from .base import _fmt

        args = ",".join(f"{k}={_fmt(self[k])}" for k in ("task", "beta", "n") if shown[k])
        return self.NAME + (f"({args})" if args else "") + (f"@{self.cutoff}" if self.cutoff is not None else "")


class _gP(_Context):
    NAME = "gP"
    DESCRIPTION = "generalized precision at article rank k (INEX RiC/BiC)"
    CUTOFF = "required"


class _gR(_Context):
    NAME = "gR"
    DESCRIPTION = "generalized recall at article rank k: relevant articles found / judged (INEX RiC/BiC)"
    CUTOFF = "required"


class _MAgP(_Context):
    NAME = "MAgP"
    DESCRIPTION = "mean average generalized precision (INEX RiC/BiC); @k: over the first k articles"
    CUTOFF = "optional"


for _cls in (_IP, _MAiP, _gP, _gR, _MAgP):
    register(_cls)

iP, MAiP, gP, gR, MAgP = _IP(), _MAiP(), _gP(), _gR(), _MAgP()

#: What the official tool prints for a focused run, and for a RiC or BiC run.
OFFICIAL_FOCUSED = ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "MAiP")
OFFICIAL_CONTEXT = ("MAgP",) + tuple(f"gP@{k}" for k in (1, 2, 3, 5, 10, 25, 50)) + tuple(
    f"gR@{k}" for k in (1, 2, 3, 5, 10, 25, 50))
#: The 101-point interpolated precision curve.
IP_CURVE = tuple(f"iP[{j / 100:.2f}]" for j in range(101))


def compute_fol_family(measures: list[Measure], x: PassageInputs) -> tuple[dict[Measure, np.ndarray], dict]:
    """Per-topic values of passage measures, and what was noticed (``impossible`` recall points
    skipped, BiC ``extra_results`` after an article's entry point).

    Raises
    ------
    InterleavedArticles
        For a RiC/BiC measure on a run whose articles are interleaved.
    """
    T = len(x.topics)
    out: dict[Measure, np.ndarray] = {}
    notes: dict = {}
    focused = [m for m in measures if m.NAME in ("iP", "MAiP")]
    if focused:
        curve = focused_curve(x)
        notes["impossible"] = curve.impossible
        for m in focused:
            out[m] = curve.levels.mean(axis=1) if m.NAME == "MAiP" else interpolated_precision(curve, m["x"], T)
    by_key: dict[tuple, list[Measure]] = {}
    for m in measures:
        if isinstance(m, _Context):
            by_key.setdefault(m.key(), []).append(m)
    for (task, beta, n), ms in by_key.items():
        ranking = article_scores(x, task, beta or 0.25, n or 500.0)
        if task == "bic":
            notes["extra_results"] = ranking.extra_results
        cutoffs = sorted({m.cutoff for m in ms if m.cutoff is not None and m.NAME != "MAgP"}) or [1]
        col = {k: i for i, k in enumerate(cutoffs)}
        full = None
        for m in ms:
            if m.NAME == "MAgP":
                out[m] = generalized(ranking, x.topic_rel_articles, [1], m.cutoff)["AgP"]
                continue
            full = full or generalized(ranking, x.topic_rel_articles, cutoffs)
            out[m] = full[m.NAME][:, col[m.cutoff]]
    return {m: out[m] for m in measures}, notes
