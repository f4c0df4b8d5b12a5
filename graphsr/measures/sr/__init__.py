"""The SR family: Structural Relevance SR@k and SRP@k (CIKM 2008) on element runs.

>>> from graphsr.measures.sr import SRP
>>> SRP @ 10
SRP@10
"""

from ..._lazy import lazy_namespace
from .._index import declared_by

# The family's declared names (graphsr.measures._index, generated from its declarations) and its other parts,
# each loaded on first use: importing the family loads none of them.
__getattr__, __dir__, __all__ = lazy_namespace(__name__, {**declared_by(__name__), **{"SRProvider": "provider"}})
