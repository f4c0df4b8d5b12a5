"""The passage family: the official INEX measures of inex_eval 3.1 (iP, MAiP, gP, gR, MAgP, the counts and
ratios) of passage runs, and of element runs as the text their elements cover.

>>> from graphsr.measures.fol import MAgP
>>> MAgP(task="t2i")
MAgP(task=t2i)
"""

from ..._lazy import lazy_namespace
from . import measures as _declared
from .inputs import PassageInputs
from .measures import *  # noqa: F403 (the family's measures, as its declarations name them)
from .measures import CHARACTER_TASKS, SCORE_PARAM

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {"PassageProvider": "provider", "passage_inputs": "provider"},
    [*_declared.__all__, "PassageInputs", "SCORE_PARAM", "CHARACTER_TASKS"],
)
