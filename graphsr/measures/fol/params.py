"""The parameters of the passage measures that read article scores, declared once: the measures take them
(``MAgP(task=ric,beta=0.5)``) and ``graphsr eval`` sets them with ``--beta``, ``--irr`` and ``--bep-distance``."""

from __future__ import annotations

from ..base import Param

__all__ = ["SCORE_PARAMS", "BETA", "IRR", "BEP_DISTANCE"]

BETA = Param(float, 0.25, "ric: weight of recall in the per-article F-measure", range="(0, inf)")
IRR = Param(int, 300, "t2i: non-highlighted characters a reader tolerates", range="[0, inf)")
BEP_DISTANCE = Param(float, 500.0, "bic: characters within which an entry point scores", range="(0, inf)")

#: The score parameters by the name a measure takes them under.
SCORE_PARAMS = {"beta": BETA, "irr": IRR, "n": BEP_DISTANCE}
