"""The PRUM measures as registered measure objects (PRUM paper, Eq 5-8; see :mod:`.kernel`).

* ``PRUM(r=R)`` -- precision when the user wants ``R`` ideal elements (Eq 5);
  ``PRUM[X]`` (also ``PRUM(x=X)``) -- at recall level ``X`` in (0, 1], that is
  ``R = ceil(X |I|)``; ``MAPRUM`` -- the mean of PRUM over ``R = 1 .. |I|``.
* ``nav``: how the user browses from a consulted element (``P(x -> y)``):
  ``structural`` (Eq 9: the length ratio of nested elements, 0 otherwise, 1
  for ``x = y``; lengths are the characters of an element's text),
  ``none`` (no browsing: Raghavan's precision, Appendix B), ``model`` (the
  SR navigation of ``--model``: ``P(x -> y) = 1 - pi(S(y))`` within a
  document) or ``routes`` (learned from route steps, ``--routes`` /
  ``--routes-model``).  A tree result leads to ``y`` if any of its nodes
  does (noisy-or, the paper's Hypothesis 2.2).
* ``ideal``: the ideal elements -- ``assessed`` (every assessed element with
  a value > 0), ``kazai`` or ``piwowarski`` (:mod:`graphsr.measures.ideal`);
  ``quant``: the quantisation of INEX (e, s) assessments (default ``gen``).

A topic without ideal elements scores 0.
"""

from __future__ import annotations

from ...errors import MeasureNameError
from ...core.quantisation import canonical_quantisation, check_quantisation
from ..base import Measure, Param, register
from ..ideal import IDEAL_METHODS

__all__ = ["PRUM", "MAPRUM", "NAVS"]

NAVS = ("structural", "none", "model", "routes")

_COMMON = {
    "nav": Param(str, "structural", "structural (Eq 9) | none | model (--model) | routes (--routes)", choices=NAVS),
    "ideal": Param(str, "assessed", "ideal elements: assessed | kazai | piwowarski", choices=IDEAL_METHODS),
    "quant": Param(
        str,
        None,
        "quantisation of (e, s) assessments: strict | gen (generalised) | sog | 33:1/23:0.9/... (default gen)",
        canonical_quantisation,
    ),
}


class _PRUMMeasure(Measure):
    FAMILY = "prum"
    CUTOFF = "none"
    BOUNDS = (0.0, 1.0)
    EMPTY = None  # an empty run still finds ideal elements in the unranked part, by chance
    DEFAULT_QUANT = "gen"  # for (e, s) assessments; graded values are used as they are
    SUPPORTED_PARAMS = dict(_COMMON)

    def validate(self) -> "Measure":
        super().validate()  # (nav and ideal are checked against their declared choices)
        if self["quant"] is not None:
            try:
                check_quantisation(self["quant"])
            except ValueError as exc:
                raise MeasureNameError(f"{self.NAME}: {exc}") from None
        return self

    def key(self) -> tuple:
        """What the values are computed from: measures sharing it share one pass."""
        return self["nav"], self["ideal"], self["quant"]


class _PRUM(_PRUMMeasure):
    NAME = "PRUM"
    DESCRIPTION = "precision when the user wants r ideal elements, or at recall level x (PRUM Eq 5-8)"
    BRACKET = "x"
    SUPPORTED_PARAMS = {
        "r": Param(int, 1, "ideal elements the user wants", range="[1, inf)"),
        "x": Param(float, None, "recall level: r = ceil(x |I|)", range="(0, 1]"),
        **_COMMON,
    }

    def validate(self) -> "Measure":
        super().validate()
        if self["x"] is not None and "r" in self.given:  # (the ranges of x and r are declared with them)
            raise MeasureNameError("PRUM: give r (ideal elements) or x (a recall level), not both")
        return self

    def value(self, curve, size: int) -> float:
        """PRUM from the topic's curve of PRUM by r (``curve[r - 1]``) over its ``size`` ideal elements: at r, or
        at r = ceil(x size); 0 past the ideal elements."""
        import math

        r = math.ceil(self["x"] * size - 1e-12) if self["x"] is not None else self["r"]
        return float(curve[min(r, size) - 1]) if r <= size else 0.0

    def _shown(self) -> list[str]:  # r is not written when x is given: x sets it
        shown = super()._shown()
        return [s for s in shown if not s.startswith("r=")] if self["x"] is not None else shown


class _MAPRUM(_PRUMMeasure):
    NAME = "MAPRUM"
    DESCRIPTION = "mean of PRUM over r = 1 .. |I| (PRUM Eq 5)"

    def value(self, curve, size: int) -> float:
        """The mean of the topic's curve of PRUM by r."""
        return float(curve.mean())


register(_PRUM)
register(_MAPRUM)

PRUM, MAPRUM = _PRUM(), _MAPRUM()
