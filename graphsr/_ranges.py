"""Ranges of numbers in interval notation (``"(0, 1]"``, ``"[1, inf)"``), the one way graphsr declares where a
number it reads may lie: a measure parameter (:class:`graphsr.measures.base.Param`), a command-line option
(:func:`graphsr.cli._common.number`).  nan and the infinities lie in no range.  Imports nothing, so that a
command's parser can use it without loading what the command computes with.

>>> admits("(0, 1]", 1.0), admits("(0, 1]", 0.0), admits("[0, inf)", float("inf")), admits(None, float("nan"))
(True, False, False, False)
"""

from __future__ import annotations

import math

__all__ = ["interval", "admits"]


def interval(text: str) -> tuple[float, float, bool, bool]:
    """``"(0, 1]"`` as (low, high, low open, high open); a malformed text raises ValueError."""
    t = text.strip()
    if len(t) < 5 or t[0] not in "[(" or t[-1] not in "])" or t.count(",") != 1:
        raise ValueError(f"expected an interval such as (0, 1], got {text!r}")
    lo, hi = (float(x) for x in t[1:-1].split(","))
    return lo, hi, t[0] == "(", t[-1] == ")"


def admits(text: str | None, v: float) -> bool:
    """Whether the number ``v`` lies in the interval ``text`` (None: any finite number)."""
    try:
        if not math.isfinite(v):
            return False
    except (TypeError, OverflowError):
        return False
    if text is None:
        return True
    lo, hi, lo_open, hi_open = interval(text)
    return (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)
