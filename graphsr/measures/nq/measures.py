"""The NQ family's measures, declared once (the arithmetic is in :mod:`graphsr.measures.nq.kernel`): Natural
Questions' official figures as ``nq_eval.py`` computes them.

======================  =========================================================================================
``NQlongF1``            F1 of the long answers at the score threshold that maximises it (``long-best-threshold-f1``)
``NQlongP``, ``NQlongR``  precision and recall at that threshold; ``NQlongR[0.75]`` the greatest recall at a
                        precision of at least 0.75 (``long-recall-at-precision>=0.75``), ``NQlongP[0.75]`` the
                        precision there
``NQshortF1`` ...       the same of the short answers (spans, or a yes/no answer)
======================  =========================================================================================

``votes`` is how many annotators must mark an answer for the gold to have one (``nq_eval``'s
``--long_non_null_threshold`` and ``--short_non_null_threshold``, both 2).  The ``all`` value is the official
figure over every example; an example's own value is 1 where its answer counts at that threshold and is correct,
0 otherwise (what a paired test over examples compares).
"""

from __future__ import annotations

from ..base import Measure, Param, register

__all__ = ["NQlongF1", "NQlongP", "NQlongR", "NQshortF1", "NQshortP", "NQshortR"]

_VOTES = Param(int, 2, "annotators who must mark an answer for the gold to have one", range="[1, inf)")
_AT = Param(float, None, "a precision target: the greatest recall at that precision or more", range="(0, 1]")


class _NQ(Measure):
    FAMILY = "nq"
    CUTOFF = "none"
    BOUNDS = (0.0, 1.0)
    EMPTY = 0.0
    ANY_SCALE = True
    #: Which answer (``long`` or ``short``) and which figure of it (``f1``, ``precision``, ``recall``).
    ANSWER = ""
    FIGURE = ""
    SUPPORTED_PARAMS = {"votes": _VOTES}

    def key(self) -> tuple:
        """The threshold it is read at: the best F1's, or a precision target's."""
        return self.ANSWER, self.params.get("at"), self.params["votes"]


class _AtPrecision(_NQ):
    BRACKET = "at"
    SUPPORTED_PARAMS = {"at": _AT, "votes": _VOTES}


#: The letters a figure is named by.
_LETTERS = {"f1": "F1", "precision": "P", "recall": "R"}


def _declare(answer: str, figure: str, base: type, what: str) -> type:
    name = f"NQ{answer}{_LETTERS[figure]}"
    extra = "" if base is _NQ else "; [t]: at the greatest recall of precision at least t"
    cls = type(
        f"_{name}",
        (base,),
        {
            "NAME": name,
            "ANSWER": answer,
            "FIGURE": figure,
            "DESCRIPTION": f"Natural Questions' {what} of the {answer} answers at the best-F1 score threshold "
            f"(nq_eval){extra}",
        },
    )
    register(cls)
    return cls


_CLASSES = [
    _declare(answer, figure, _NQ if figure == "f1" else _AtPrecision, what)
    for answer in ("long", "short")
    for figure, what in (("f1", "F1"), ("precision", "precision"), ("recall", "recall"))
]

NQlongF1, NQlongP, NQlongR, NQshortF1, NQshortP, NQshortR = (cls() for cls in _CLASSES)
