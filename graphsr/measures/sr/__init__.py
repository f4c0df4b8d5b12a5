"""The SR family: Structural Relevance SR@k and SRP@k (CIKM 2008) on element runs.

>>> from graphsr.measures.sr import SRP
>>> SRP @ 10
SRP@10
"""

from ..._lazy import lazy_namespace
from .measures import SR, SRP, compute_sr_family, sr_components

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__, {"SRProvider": "provider"}, ["SR", "SRP", "compute_sr_family", "sr_components"]
)
