"""Measures: pure, vectorised functions over :class:`RankedNodes`, and their names.

>>> from graphsr.measures import parse_measure, SRP
>>> parse_measure("SRP@5") == SRP @ 5
True
"""

from __future__ import annotations

import numpy as np

from .base import Measure, Param, parse_measure, parse_measures, register, registry
from .inputs import RankedNodes
from .sr import SR, SRP, compute_sr_family, sr_components

__all__ = ["Measure", "Param", "parse_measure", "parse_measures", "register", "registry", "RankedNodes",
           "SR", "SRP", "sr_components", "compute", "FAMILIES"]

FAMILIES = {"sr": compute_sr_family}


def compute(measures: list[Measure], ranked: RankedNodes) -> dict[Measure, np.ndarray]:
    """Per-topic values of each measure (topics in ``ranked.topics`` order).

    Measures of one family share a single pass over the ranking.
    """
    by_family: dict[str, list[Measure]] = {}
    for m in measures:
        m.validate()
        by_family.setdefault(m.FAMILY, []).append(m)
    out: dict[Measure, np.ndarray] = {}
    for family, ms in by_family.items():
        out.update(FAMILIES[family](ms, ranked))
    return {m: out[m] for m in measures}
