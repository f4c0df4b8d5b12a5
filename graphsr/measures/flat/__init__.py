"""The flat baselines (trec_eval's P@k, R@k, AP/MAP, nDCG@k) on element or document runs, so that no second
tool is needed beside SR.

>>> from graphsr.measures.flat import P
>>> P @ 5
P@5
"""

from ..provider import register_provider
from .measures import AP, R, P, compute_flat_family, nDCG
from .provider import FlatProvider

__all__ = ["P", "R", "AP", "nDCG", "compute_flat_family", "FlatProvider"]

register_provider(FlatProvider())
