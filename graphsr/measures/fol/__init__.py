"""The passage family: the official INEX measures of inex_eval 3.1 (iP, MAiP, gP, gR, MAgP, the counts and
ratios) of passage runs, and of element runs as the text their elements cover.

>>> from graphsr.measures.fol import MAgP
>>> MAgP(task="t2i")
MAgP(task=t2i)
"""

from ..._lazy import lazy_namespace
from .inputs import PassageInputs
from .measures import (
    CHARACTER_TASKS,
    COUNTS,
    IP_CURVE,
    RATIOS,
    SCORE_PARAM,
    TASKS,
    MAgP,
    MAiP,
    compute_fol_family,
    gP,
    gR,
    headline_measures,
    iP,
    ircl_prn,
)

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {"PassageProvider": "provider", "passage_inputs": "provider"},
    [
        "PassageInputs",
        "iP",
        "MAiP",
        "gP",
        "gR",
        "MAgP",
        "ircl_prn",
        "compute_fol_family",
        "headline_measures",
        "TASKS",
        "CHARACTER_TASKS",
        "SCORE_PARAM",
        "COUNTS",
        "RATIOS",
        "IP_CURVE",
    ],
)
