"""The ESR family: Extended Structural Relevance (ESRP, ESRR, SRiP, SRiR, NSRCG, SRPRUM, ...) on element runs
with navigation learned from route steps.

>>> from graphsr.measures.esr import ESRP
>>> ESRP @ 5
ESRP@5
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .kernel import ESRInputs, esr_curves, esr_curves_many
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {"ESRProvider": "provider"}, ["ESRInputs", "esr_curves", "esr_curves_many", *_declared.__all__]
)
