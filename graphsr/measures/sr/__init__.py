"""The SR family: Structural Relevance SR@k and SRP@k (CIKM 2008) on element runs.

>>> from graphsr.measures.sr import SRP
>>> SRP @ 10
SRP@10
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)

__getattr__, __dir__, __all__ = lazy_namespace(__name__, {"SRProvider": "provider"}, _declared.__all__)
