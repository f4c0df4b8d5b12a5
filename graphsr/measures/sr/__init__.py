"""The SR family: Structural Relevance SR@k and SRP@k (CIKM 2008) on element runs.

>>> from graphsr.measures.sr import SRP
>>> SRP @ 10
SRP@10
"""

from ..provider import lazy_family_provider
from .measures import SR, SRP, compute_sr_family, sr_components

__all__ = ["SR", "SRP", "compute_sr_family", "sr_components", "SRProvider"]

__getattr__ = lazy_family_provider(__name__, "sr", "SRProvider")
