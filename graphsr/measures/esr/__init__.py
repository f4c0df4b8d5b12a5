"""The ESR family: Extended Structural Relevance (ESRP, ESRR, SRiP, SRiR, NSRCG, SRPRUM, ...) on element runs
with navigation learned from route steps.

>>> from graphsr.measures.esr import ESRP
>>> ESRP @ 5
ESRP@5
"""

from ..._lazy import lazy_namespace
from .kernel import ESRInputs, esr_curves, esr_curves_many
from .measures import (
    ESRP,
    ESRR,
    MAESRP,
    MASRiP,
    MASRiP2,
    NSRCG,
    NSRCG2,
    SRPRUM,
    SRiP,
    SRiP2,
    SRiR,
    SRiR2,
    compute_esr_family,
    mean_interpolated,
)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {"ESRProvider": "provider"},
    [
        "ESRInputs",
        "esr_curves",
        "esr_curves_many",
        "ESRP",
        "ESRR",
        "SRiP",
        "SRiR",
        "SRiP2",
        "SRiR2",
        "NSRCG",
        "NSRCG2",
        "SRPRUM",
        "MASRiP",
        "MASRiP2",
        "MAESRP",
        "compute_esr_family",
        "mean_interpolated",
    ],
)
