"""The PRUM family: Precision-Recall with User Modelling (Piwowarski, Gallinari and Dupret, TOIS 2007) on
element runs, exact (no normal approximation), with structural, no-browsing, SR-model or learned navigation.

>>> from graphsr.measures.prum import PRUM
>>> PRUM(r=2, nav="none")
PRUM(r=2,nav=none)
"""

from ..provider import lazy_family_provider
from .kernel import prum_by_recall
from .measures import MAPRUM, NAVS, PRUM

__all__ = ["PRUM", "MAPRUM", "NAVS", "prum_by_recall", "PRUMProvider"]

__getattr__ = lazy_family_provider(__name__, "prum", "PRUMProvider")
