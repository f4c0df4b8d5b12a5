"""Measures: pure, vectorised functions over :class:`RankedNodes`, and their names.

>>> from graphsr.measures import parse_measure, SRP
>>> parse_measure("SRP@5") == SRP @ 5
True
"""

from __future__ import annotations

import numpy as np

from .base import Measure, Param, family_compute, parse_measure, parse_measures, register, registry
from .inputs import RankedNodes
from .esr_family import ESRP, ESRR, NSRCG, NSRCG2, SRPRUM, SRiP, SRiP2, SRiR, SRiR2
from .esr_vectorised import ESRInputs
from .sr import SR, SRP, sr_components

__all__ = ["Measure", "Param", "parse_measure", "parse_measures", "register", "registry", "RankedNodes",
           "SR", "SRP", "sr_components", "compute", "ESRInputs", "ESRP", "ESRR", "SRiP", "SRiR", "SRiP2", "SRiR2",
           "NSRCG", "NSRCG2", "SRPRUM"]


def compute(measures: list[Measure], ranked: RankedNodes,
            esr: dict[str, ESRInputs] | None = None) -> dict[Measure, np.ndarray]:
    """Per-topic values of each measure (topics in ``ranked.topics`` order).

    Measures of one family share a single pass over the ranking: each family
    computes its own (:func:`graphsr.measures.base.register_family`).  ESR
    measures need ``esr``: ``{"binary": ESRInputs, "length": ESRInputs}``
    (see :mod:`graphsr.measures.esr_family`).
    """
    by_family: dict[str, list[Measure]] = {}
    for m in measures:
        m.validate()
        by_family.setdefault(m.FAMILY, []).append(m)
    out: dict[Measure, np.ndarray] = {}
    for family, ms in by_family.items():
        out.update(family_compute(family)(ms, ranked, esr=esr))
    return {m: out[m] for m in measures}
