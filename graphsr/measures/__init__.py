"""Measures: pure, vectorised functions over :class:`RankedNodes`, and their names.

>>> from graphsr.measures import parse_measure, SRP
>>> parse_measure("SRP@5") == SRP @ 5
True
"""

from __future__ import annotations

import numpy as np

from .base import Measure, Param, parse_measure, parse_measures, register, registry
from .inputs import RankedNodes
from .esr_family import (ESRP, ESRR, NSRCG, NSRCG2, SRPRUM, SRiP, SRiP2, SRiR, SRiR2,
                         compute_esr_family)
from .esr_vectorised import ESRInputs
from .sr import SR, SRP, compute_sr_family, sr_components

__all__ = ["Measure", "Param", "parse_measure", "parse_measures", "register", "registry", "RankedNodes",
           "SR", "SRP", "sr_components", "compute", "ESRInputs", "ESRP", "ESRR", "SRiP", "SRiR", "SRiP2", "SRiR2",
           "NSRCG", "NSRCG2", "SRPRUM"]


def compute(measures: list[Measure], ranked: RankedNodes,
            esr: dict[str, ESRInputs] | None = None) -> dict[Measure, np.ndarray]:
    """Per-topic values of each measure (topics in ``ranked.topics`` order).

    Measures of one family share a single pass over the ranking.  ESR
    measures need ``esr``: ``{"binary": ESRInputs, "length": ESRInputs}``
    (see :mod:`graphsr.measures.esr_family`).
    """
    by_family: dict[str, list[Measure]] = {}
    for m in measures:
        m.validate()
        by_family.setdefault(m.FAMILY, []).append(m)
    out: dict[Measure, np.ndarray] = {}
    for family, ms in by_family.items():
        if family == "sr":
            out.update(compute_sr_family(ms, ranked))
        elif family == "esr":
            if esr is None:
                from ..errors import GraphsrInputError

                raise GraphsrInputError(f"{', '.join(map(str, ms))}: ESR measures need node assessments and a "
                                        "navigation model of route steps")
            out.update(compute_esr_family(ms, esr))
        else:  # passage measures need assessments as character ranges: evaluate() converts and scores them
            from ..errors import GraphsrInputError

            raise GraphsrInputError(f"{', '.join(map(str, ms))}: {family} measures are scored by "
                                    "graphsr.evaluation.evaluate (or evaluate_passages), not from ranked nodes")
    return {m: out[m] for m in measures}
