"""The INEX 2002-2005 element measures as registered measure objects (see :mod:`.kernel`).

``GRP(quant=)[x]`` (inex-2002), ``GRPng(quant=,base=)[x]`` (inex-2003),
``xCG(quant=,alpha=,ideal=)@k``, ``nxCG(...)@k``, ``ep(...)[x]`` and
``MAep(...)`` (XCG).  ``quant``: the quantisation of (e, s) assessments
(default ``gen``; left out for graded assessments, whose values are used as
they are); GRPng quantises exhaustivity and specificity apart (``gen``: 3,
2, 1, 0 -> 1, 2/3, 1/3, 0; ``strict``) and needs (e, s) assessments.
``ideal``: the ideal recall-base of XCG (``kazai``, the INEX default;
``piwowarski`` or ``assessed``).  ``alpha``: XCG's overlap tolerance (1,
INEX 2005's choice: a result seen before earns nothing).
"""

from __future__ import annotations

from ...errors import MeasureNameError
from ...core.quantisation import canonical_quantisation, check_quantisation
from ..base import Measure, Param, register
from ..ideal import IDEAL_METHODS

__all__ = ["GRP", "GRPng", "xCG", "nxCG", "ep", "MAep"]

_QUANT = Param(
    str,
    None,
    "quantisation of (e, s) assessments: strict | gen (generalised) | sog | 33:1/23:0.9/... (default gen)",
    canonical_quantisation,
)
_X = Param(float, None, "recall level", range="(0, 1]")
_XCG = {
    "quant": _QUANT,
    "alpha": Param(float, 1.0, "overlap tolerance (1: a seen result earns 0)", range="[0, 1]"),
    "ideal": Param(str, "kazai", "ideal recall-base: kazai | piwowarski | assessed", choices=IDEAL_METHODS),
}


class _ElementINEX(Measure):
    FAMILY = "xcg"
    CUTOFF = "none"
    BOUNDS = (0.0, 1.0)
    DEFAULT_QUANT = "gen"  # for (e, s) assessments; graded values are used as they are
    QUANTISED = True  # quant= is one of the quantisation functions (GRPng quantises each dimension apart)
    NEEDS_SIZE = False  # reads the size of the whole collection (GRP: the unranked rest is searched)

    def config(self) -> tuple:
        """The recall-base it is scored against: (quantisation, ideal recall-base)."""
        return self["quant"], self.params.get("ideal", "assessed")

    def topic_value(self, v) -> float:
        """Its value for one topic, from the provider's view of the topic (``v``: the topic's items, assessments
        and a cache of the curves measures share)."""
        raise NotImplementedError  # pragma: no cover - each measure below

    def validate(self) -> "Measure":
        super().validate()
        quant = self.params.get("quant")
        if quant is not None and self.QUANTISED:
            try:
                check_quantisation(quant)
            except ValueError as exc:
                raise MeasureNameError(f"{self.NAME}: {exc}") from None
        if "x" in self.SUPPORTED_PARAMS and self["x"] is None:  # (the ranges of x and alpha are declared)
            raise MeasureNameError(f"{self.NAME} needs a recall level, e.g. {self.NAME}[0.5]")
        return self


class _GRP(_ElementINEX):
    NAME = "GRP"
    DESCRIPTION = "inex-2002: Raghavan's precall of quantised values at recall x (Kazai-Lalmas A.1)"
    BRACKET = "x"
    EMPTY = None  # the rest of the collection is searched, as in Raghavan's definition
    SUPPORTED_PARAMS = {"x": _X, "quant": _QUANT}
    NEEDS_SIZE = True

    def topic_value(self, v) -> float:
        from .arrays import grp_items

        return grp_items(v.entry, v.flat, v.entries, v.tops, self["x"], v.unranked)


class _GRPng(_ElementINEX):
    NAME = "GRPng"
    DESCRIPTION = "inex-2003: size- and overlap-aware precision at recall x (Kazai-Lalmas A.2)"
    BRACKET = "x"
    GRADES = True
    SUPPORTED_PARAMS = {
        "x": _X,
        "quant": Param(
            str,
            "gen",
            "per-dimension quantisation: gen (generalised) | strict",
            canonical_quantisation,
            choices=("gen", "strict"),
        ),
        "base": Param(str, "leaves", "recall base: leaves (Rel^U) | all", choices=("leaves", "all")),
    }

    QUANTISED = False

    def config(self) -> tuple:
        return None, "assessed"

    def topic_value(self, v) -> float:
        from .arrays import grpng_items

        recall, precision = v.cached(
            ("ng", self["quant"], self["base"]),
            lambda: grpng_items(v.entry, v.flat, v.doc, v.entries, v.tops, v.arrays, self["quant"], self["base"]),
        )
        reached = recall >= self["x"] - 1e-12
        return float(precision[reached].max()) if reached.any() else 0.0


class _XCGFamily(_ElementINEX):
    """The XCG measures: read the run's cumulated gain ``cg`` and the ideal one ``ci`` (:meth:`from_gains`)."""

    def topic_value(self, v) -> float:
        import numpy as np

        from .arrays import xcg_item_gains
        from .kernel import ideal_gain_vector

        cg, ci = v.cached(
            ("xcg", self.config(), self["alpha"]),
            lambda: (
                np.cumsum(xcg_item_gains(v.entry, v.flat, v.doc, v.entries, v.tops, v.arrays, self["alpha"])),
                ideal_gain_vector(v.base),
            ),
        )
        return self.from_gains(cg, ci)

    def from_gains(self, cg, ci) -> float:
        raise NotImplementedError  # pragma: no cover - each measure below


def _at(gains, k: int) -> float:
    return float(gains[min(k, len(gains)) - 1]) if len(gains) else 0.0


class _xCG(_XCGFamily):
    NAME = "xCG"
    DESCRIPTION = "cumulated XML gain to rank k (Kazai-Lalmas A.3 Eq 6-9)"
    CUTOFF = "required"
    BOUNDS = None
    SUPPORTED_PARAMS = dict(_XCG)

    def from_gains(self, cg, ci) -> float:
        return _at(cg, self.cutoff)


class _nxCG(_XCGFamily):
    NAME = "nxCG"
    DESCRIPTION = "xCG@k over the ideal gain vector's (Kazai-Lalmas A.3)"
    CUTOFF = "required"
    BOUNDS = None  # at most 1 for runs without overlap; overlapping results with alpha < 1 may exceed it
    SUPPORTED_PARAMS = dict(_XCG)

    def from_gains(self, cg, ci) -> float:
        ideal = _at(ci, self.cutoff)
        return _at(cg, self.cutoff) / ideal if ideal > 0 else 0.0


class _ep(_XCGFamily):
    NAME = "ep"
    DESCRIPTION = "effort-precision at gain-recall x: ideal rank / run rank reaching x of the ideal gain"
    BRACKET = "x"
    BOUNDS = None
    SUPPORTED_PARAMS = {"x": _X, **_XCG}

    def from_gains(self, cg, ci) -> float:
        from .kernel import effort_precision

        return effort_precision(cg, ci, self["x"])


class _MAep(_XCGFamily):
    NAME = "MAep"
    DESCRIPTION = "effort-precision averaged over gain-recall (sum ep * gain-recall gained at each rank)"
    BOUNDS = None
    SUPPORTED_PARAMS = dict(_XCG)

    def from_gains(self, cg, ci) -> float:
        from .kernel import mean_average_ep

        return mean_average_ep(cg, ci)


for _cls in (_GRP, _GRPng, _xCG, _nxCG, _ep, _MAep):
    register(_cls)

GRP, GRPng, xCG, nxCG, ep, MAep = _GRP(), _GRPng(), _xCG(), _nxCG(), _ep(), _MAep()
