"""The PRUM family: Precision-Recall with User Modelling (Piwowarski, Gallinari and Dupret, TOIS 2007) on
element runs, exact (no normal approximation), with structural, no-browsing, SR-model or learned navigation.

>>> from graphsr.measures.prum import PRUM
>>> PRUM(r=2, nav="none")
PRUM(r=2,nav=none)
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .kernel import prum_by_recall
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {"PRUMProvider": "provider"}, [*_declared.__all__, "prum_by_recall"]
)
