"""The PRUM family: Precision-Recall with User Modelling (Piwowarski, Gallinari and Dupret, TOIS 2007) on
element runs, exact (no normal approximation), with structural, no-browsing, SR-model or learned navigation.

>>> from graphsr.measures.prum import PRUM
>>> PRUM(r=2, nav="none")
PRUM(r=2,nav=none)
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {**declared_by(__name__), **{"PRUMProvider": "provider", "prum_by_recall": "kernel"}}
)
