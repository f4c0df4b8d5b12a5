"""The SR family: Structural Relevance SR@k and SRP@k (CIKM 2008) on element runs.

>>> from graphsr.measures.sr import SRP
>>> SRP @ 10
SRP@10
"""

from ..provider import register_provider
from .measures import SR, SRP, compute_sr_family, sr_components
from .provider import SRProvider

__all__ = ["SR", "SRP", "compute_sr_family", "sr_components", "SRProvider"]

register_provider(SRProvider())
