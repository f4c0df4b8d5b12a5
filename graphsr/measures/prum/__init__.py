"""The PRUM family: Precision-Recall with User Modelling (Piwowarski, Gallinari and Dupret, TOIS 2007) on
element runs, exact (no normal approximation), with structural, no-browsing, SR-model or learned navigation.

>>> from graphsr.measures.prum import PRUM
>>> PRUM(r=2, nav="none")
PRUM(r=2,nav=none)
"""

from ..provider import register_provider
from .kernel import prum_by_recall
from .measures import MAPRUM, NAVS, PRUM
from .provider import PRUMProvider

__all__ = ["PRUM", "MAPRUM", "NAVS", "prum_by_recall", "PRUMProvider"]

register_provider(PRUMProvider())
