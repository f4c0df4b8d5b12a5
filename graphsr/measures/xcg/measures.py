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
from ...model.quantisation import canonical_quantisation, check_quantisation
from ..base import Measure, Param, register
from ..ideal import IDEAL_METHODS

__all__ = ["GRP", "GRPng", "xCG", "nxCG", "ep", "MAep"]

_QUANT = Param(str, None, "quantisation of (e, s) assessments: strict | gen (generalised) | sog | 33:1/23:0.9/... "
                          "(default gen)", canonical_quantisation)
_X = Param(float, None, "recall level", range="(0, 1]")
_XCG = {"quant": _QUANT, "alpha": Param(float, 1.0, "overlap tolerance (1: a seen result earns 0)", range="[0, 1]"),
        "ideal": Param(str, "kazai", "ideal recall-base: kazai | piwowarski | assessed")}


class _ElementINEX(Measure):
    FAMILY = "xcg"
    CUTOFF = "none"
    BOUNDS = (0.0, 1.0)
    DEFAULT_QUANT = "gen"  # for (e, s) assessments; graded values are used as they are

    def validate(self) -> "Measure":
        super().validate()
        quant = self.params.get("quant")
        if quant is not None and self.NAME != "GRPng":
            try:
                check_quantisation(quant)
            except ValueError as exc:
                raise MeasureNameError(f"{self.NAME}: {exc}") from None
        if "x" in self.SUPPORTED_PARAMS:
            if self["x"] is None:
                raise MeasureNameError(f"{self.NAME} needs a recall level, e.g. {self.NAME}[0.5]")
            if not 0.0 < self["x"] <= 1.0:
                raise MeasureNameError(f"{self.NAME}: the recall level must be in (0, 1], got {self['x']!r}")
        if "alpha" in self.SUPPORTED_PARAMS and not 0.0 <= self["alpha"] <= 1.0:
            raise MeasureNameError(f"{self.NAME}: alpha must be in [0, 1], got {self['alpha']!r}")
        if "ideal" in self.SUPPORTED_PARAMS and self["ideal"] not in IDEAL_METHODS:
            raise MeasureNameError(f"{self.NAME}: ideal must be one of {', '.join(IDEAL_METHODS)}, got "
                                   f"{self['ideal']!r}")
        return self


class _GRP(_ElementINEX):
    NAME = "GRP"
    DESCRIPTION = "inex-2002: Raghavan's precall of quantised values at recall x (Kazai-Lalmas A.1)"
    BRACKET = "x"
    EMPTY = None  # the rest of the collection is searched, as in Raghavan's definition
    SUPPORTED_PARAMS = {"x": _X, "quant": _QUANT}


class _GRPng(_ElementINEX):
    NAME = "GRPng"
    DESCRIPTION = "inex-2003: size- and overlap-aware precision at recall x (Kazai-Lalmas A.2)"
    BRACKET = "x"
    GRADES = True
    SUPPORTED_PARAMS = {"x": _X, "quant": Param(str, "gen", "per-dimension quantisation: gen (generalised) | strict",
                                                   canonical_quantisation),
                        "base": Param(str, "leaves", "recall base: leaves (Rel^U) | all")}

    def validate(self) -> "Measure":
        super().validate()
        if self["quant"] not in ("gen", "strict"):
            raise MeasureNameError(f"GRPng: quant must be gen or strict, got {self['quant']!r}")
        if self["base"] not in ("leaves", "all"):
            raise MeasureNameError(f"GRPng: base must be leaves or all, got {self['base']!r}")
        return self


class _xCG(_ElementINEX):
    NAME = "xCG"
    DESCRIPTION = "cumulated XML gain to rank k (Kazai-Lalmas A.3 Eq 6-9)"
    CUTOFF = "required"
    BOUNDS = None
    SUPPORTED_PARAMS = dict(_XCG)


class _nxCG(_ElementINEX):
    NAME = "nxCG"
    DESCRIPTION = "xCG@k over the ideal gain vector's (Kazai-Lalmas A.3)"
    CUTOFF = "required"
    BOUNDS = None  # at most 1 for runs without overlap; overlapping results with alpha < 1 may exceed it
    SUPPORTED_PARAMS = dict(_XCG)


class _ep(_ElementINEX):
    NAME = "ep"
    DESCRIPTION = "effort-precision at gain-recall x: ideal rank / run rank reaching x of the ideal gain"
    BRACKET = "x"
    BOUNDS = None
    SUPPORTED_PARAMS = {"x": _X, **_XCG}


class _MAep(_ElementINEX):
    NAME = "MAep"
    DESCRIPTION = "effort-precision averaged over gain-recall (sum ep * gain-recall gained at each rank)"
    BOUNDS = None
    SUPPORTED_PARAMS = dict(_XCG)


for _cls in (_GRP, _GRPng, _xCG, _nxCG, _ep, _MAep):
    register(_cls)

GRP, GRPng, xCG, nxCG, ep, MAep = _GRP(), _GRPng(), _xCG(), _nxCG(), _ep(), _MAep()
