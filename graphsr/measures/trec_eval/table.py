"""trec_eval's measure list (9.0.8's, and the three 10.0 adds), the one declaration of trec_eval's measures in
graphsr: each measure's shape (how its parameters read and its values are named), defaults, how topics are
averaged and whether a topic's value is printed, in trec_eval's order (the order it prints in), its sets
(``official``, ``all_trec``, ``set``; 10.0's ``all_trec`` has its new measures), the release that added it, and
the graphsr measure it stands for in ``graphsr eval`` and the API (``P.5,10`` is ``P@5`` and ``P@10``).
``graphsr trec_eval`` reads it as trec_eval does; :mod:`graphsr.measures.parse` reads the graphsr side
(:data:`TREC_NAMES`, :data:`TREC_NICKNAMES`, :func:`trec_label`), and ``graphsr measures`` lists it.

A measure is asked for as trec_eval asks: ``NAME`` or ``NAME.PARAMS`` (``P.5,10``, ``ndcg.1=0.5,2=2``,
``set_F.0.5``); :func:`parse_requests` reads a list of them into :class:`Selected` measures with their
parameters, or raises :class:`TrecMeasureError` with trec_eval's message and exit status.

>>> [s.names for s in select_measures(["P.5,10", "rbp.p=0.8"], version="10.0")]
[('P_5', 'P_10'), ('rbp_p=0.8',)]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = [
    "TrecMeasure",
    "Selected",
    "MEASURES",
    "SETS",
    "UNSUPPORTED",
    "TrecMeasureError",
    "select_measures",
    "VERSIONS",
    "TREC_NAMES",
    "TREC_NICKNAMES",
    "trec_label",
]


@dataclass(frozen=True)
class TrecMeasure:
    """One of trec_eval's measures.

    ``shape``: ``long`` (a count, printed as an integer), ``float``, ``cut_long`` (integer cut-offs, one value
    each: ``P_5``), ``cut_float`` (fractional cut-offs: ``iprec_at_recall_0.10``), ``floats`` (numeric
    parameters, one value: ``set_F``), ``pairs`` (``grade=gain`` parameters, one value: ``ndcg``), ``runid``,
    ``relstring``.  ``average``: ``mean``, ``gm`` (geometric mean), ``sum`` or ``none``; ``per_topic``: printed
    for each topic with ``-q``.  ``graphsr``: the graphsr measure the name stands for (None: only ``graphsr
    trec_eval`` computes it); ``suffix``: what a name's suffix sets there -- ``cutoff``, ``recall`` or ``mult``
    (one measure per value: ``P.5,10``; the defaults are trec_eval's), ``beta`` or ``coefficients`` (the
    measure's parameters: ``set_F.0.5``); ``fixed``: graphsr parameters the name fixes (``set_relative_P``).
    """

    name: str
    shape: str
    default: tuple = ()
    average: str = "mean"
    per_topic: bool = True
    description: str = ""
    reads: str | None = "qrels"  # the qrels format it reads (-R): qrels, qrels_jg, or None (runid, num_q)
    graphsr: str | None = None
    suffix: str | None = None
    fixed: tuple = ()
    since: str = "9.0.8"  # the trec_eval release that added it


#: The trec_eval releases ``graphsr trec_eval`` behaves as (the first is the default).
VERSIONS = ("9.0.8", "10.0")


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

#: Every measure trec_eval computes from qrels and TREC results, in its order.
MEASURES = {
    m.name: m
    for m in (
        TrecMeasure(
            "runid", "runid", average="none", per_topic=False, description="the run's id (its last line's)", reads=None
        ),
        TrecMeasure(
            "num_q",
            "long",
            average="count",
            per_topic=False,
            description="topics averaged over",
            reads=None,
            graphsr="NumQ",
        ),
        TrecMeasure("num_ret", "long", average="sum", description="documents retrieved", graphsr="NumRet"),
        TrecMeasure("num_rel", "long", average="sum", description="relevant documents (grade >= -l)", graphsr="NumRel"),
        TrecMeasure(
            "num_rel_ret", "long", average="sum", description="relevant documents retrieved", graphsr="NumRelRet"
        ),
        TrecMeasure("map", "float", description="mean average precision", graphsr="AP"),
        TrecMeasure(
            "gm_map",
            "float",
            average="gm",
            per_topic=False,
            description="geometric mean of average precision (floor 0.00001)",
            graphsr="GMAP",
        ),
        TrecMeasure(
            "Rprec", "float", description="precision after R (the number of relevant) documents", graphsr="Rprec"
        ),
        TrecMeasure(
            "bpref",
            "float",
            description="binary preference: judged non-relevant ranked above relevant",
            graphsr="Bpref",
        ),
        TrecMeasure("recip_rank", "float", description="reciprocal rank of the first relevant document", graphsr="RR"),
        TrecMeasure(
            "iprec_at_recall",
            "cut_float",
            _RECALLS,
            description="interpolated precision at recall levels",
            graphsr="IPrec",
            suffix="recall",
        ),
        TrecMeasure("P", "cut_long", _CUTS, description="precision at cut-offs", graphsr="P", suffix="cutoff"),
        TrecMeasure(
            "relstring",
            "relstring",
            (10.0,),
            average="none",
            description="the grades of the first N documents as characters (per topic only)",
        ),
        TrecMeasure("recall", "cut_long", _CUTS, description="recall at cut-offs", graphsr="R", suffix="cutoff"),
        TrecMeasure(
            "infAP",
            "float",
            description="inferred average precision (pool samples: grade -1 unjudged)",
            graphsr="infAP",
        ),
        TrecMeasure(
            "gm_bpref",
            "float",
            average="gm",
            per_topic=False,
            description="geometric mean of bpref (floor 0.00001)",
            graphsr="GMBpref",
        ),
        TrecMeasure(
            "Rprec_mult",
            "cut_float",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            description="precision at multiples of R",
            graphsr="RprecMult",
            suffix="mult",
        ),
        TrecMeasure(
            "utility",
            "floats",
            (1.0, -1.0, 0.0, 0.0),
            description="a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret (with -N)",
            graphsr="Utility",
            suffix="coefficients",
        ),
        TrecMeasure(
            "11pt_avg",
            "floats",
            _RECALLS,
            description="interpolated precision averaged over recall levels",
            graphsr="IPrecAvg",
        ),
        TrecMeasure("binG", "float", description="binary G", graphsr="binG"),
        TrecMeasure("G", "pairs", description="G (graded, cost-discounted gain)", graphsr="G"),
        TrecMeasure(
            "ndcg", "pairs", description="normalised discounted cumulative gain (gains: grade=gain)", graphsr="nDCG"
        ),
        TrecMeasure("ndcg_rel", "pairs", description="nDCG averaged over the relevant documents", graphsr="nDCGRel"),
        TrecMeasure("Rndcg", "pairs", description="nDCG averaged at the R levels of each grade", graphsr="RnDCG"),
        TrecMeasure(
            "ndcg_cut",
            "cut_long",
            _CUTS,
            description="nDCG at cut-offs (grades as gains)",
            graphsr="nDCG",
            suffix="cutoff",
        ),
        TrecMeasure(
            "map_cut", "cut_long", _CUTS, description="average precision at cut-offs", graphsr="AP", suffix="cutoff"
        ),
        TrecMeasure(
            "relative_P",
            "cut_long",
            _CUTS,
            description="precision at cut-offs over min(cut-off, R)",
            graphsr="RelP",
            suffix="cutoff",
        ),
        TrecMeasure(
            "success",
            "cut_long",
            (1, 5, 10),
            description="a relevant document in the first k",
            graphsr="Success",
            suffix="cutoff",
        ),
        TrecMeasure("set_P", "float", description="precision of the whole retrieved set", graphsr="SetP"),
        TrecMeasure(
            "set_relative_P",
            "float",
            description="set precision over min(retrieved, R)",
            graphsr="SetP",
            fixed=(("relative", True),),
        ),
        TrecMeasure("set_recall", "float", description="recall of the whole retrieved set", graphsr="SetR"),
        TrecMeasure("set_map", "float", description="set precision times set recall", graphsr="SetAP"),
        TrecMeasure(
            "set_F",
            "floats",
            (1.0,),
            description="F-measure of the set (parameter: beta)",
            graphsr="SetF",
            suffix="beta",
        ),
        TrecMeasure(
            "num_nonrel_judged_ret",
            "long",
            average="sum",
            description="judged non-relevant retrieved",
            graphsr="NumNonRelJudgedRet",
        ),
        TrecMeasure(
            "prefs_num_prefs_poss",
            "long",
            average="sum",
            reads="prefs",
            description="preferences possible (-R prefs, qrels_prefs)",
        ),
        TrecMeasure(
            "prefs_num_prefs_ful",
            "long",
            average="sum",
            reads="prefs",
            description="preferences fulfilled (both or one of the documents retrieved)",
        ),
        TrecMeasure(
            "prefs_num_prefs_ful_ret",
            "long",
            average="sum",
            reads="prefs",
            description="preferences fulfilled with both documents retrieved",
        ),
        TrecMeasure("prefs_simp", "float", reads="prefs", description="preferences fulfilled over possible"),
        TrecMeasure(
            "prefs_pair",
            "float",
            reads="prefs",
            description="over document pairs, the share of the groups' preferences between them the ranking fulfils",
        ),
        TrecMeasure("prefs_avgjg", "float", reads="prefs", description="prefs_simp per judgment group, averaged"),
        TrecMeasure(
            "prefs_avgjg_Rnonrel",
            "float",
            reads="prefs",
            description="prefs_avgjg with as many non-relevant documents as relevant ones",
        ),
        TrecMeasure("prefs_simp_ret", "float", reads="prefs", description="prefs_simp over retrieved pairs only"),
        TrecMeasure("prefs_pair_ret", "float", reads="prefs", description="prefs_pair over retrieved pairs only"),
        TrecMeasure("prefs_avgjg_ret", "float", reads="prefs", description="prefs_avgjg over retrieved pairs only"),
        TrecMeasure(
            "prefs_avgjg_Rnonrel_ret",
            "float",
            reads="prefs",
            description="prefs_avgjg_Rnonrel over retrieved documents only",
        ),
        TrecMeasure(
            "prefs_simp_imp", "float", reads="prefs", description="prefs_simp over pairs with a document retrieved"
        ),
        TrecMeasure(
            "prefs_pair_imp", "float", reads="prefs", description="prefs_pair over pairs with a document retrieved"
        ),
        TrecMeasure(
            "prefs_avgjg_imp", "float", reads="prefs", description="prefs_avgjg over pairs with a document retrieved"
        ),
        TrecMeasure(
            "map_avgjg",
            "float",
            description="average precision, averaged over the judgment groups (-R qrels_jg)",
            reads="qrels_jg",
        ),
        TrecMeasure(
            "P_avgjg",
            "cut_long",
            _CUTS,
            description="precision at cut-offs, averaged over the judgment groups (-R qrels_jg)",
            reads="qrels_jg",
        ),
        TrecMeasure(
            "Rprec_mult_avgjg",
            "cut_float",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            description="precision at multiples of R, averaged over the judgment groups (-R qrels_jg)",
            reads="qrels_jg",
        ),
        TrecMeasure(
            "yaap", "float", description="yet another AP: log((1 + AP sum) / (1 + R - AP sum))", graphsr="YAAP"
        ),
        TrecMeasure(
            "rbp",
            "pairs",
            description="rank-biased precision (parameters p=persistence, default 0.9, and "
            "grade=gain; gains over 1 or below 0 rescaled to [0, 1])",
            graphsr="RBP",
            since="10.0",
        ),
        TrecMeasure(
            "rbp_resid",
            "pairs",
            description="RBP's residual: what unjudged documents and the ranks past the "
            "ranking could add (0 when no document retrieved is unjudged; parameter p)",
            graphsr="RBPResid",
            since="10.0",
        ),
        TrecMeasure(
            "unj",
            "cut_long",
            (5, 10, 20),
            description="unjudged documents in the first k, over k",
            graphsr="Unj",
            suffix="cutoff",
            since="10.0",
        ),
    )
}

#: trec_eval's named sets of measures (9.0.8's; :func:`sets` gives a release's).
SETS = {
    "official": (
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
    ),
    "set": (
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
    ),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
    "all_prefs": (
        "runid",
        "num_q",
        "prefs_num_prefs_poss",
        "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret",
        "prefs_simp",
        "prefs_pair",
        "prefs_avgjg",
        "prefs_avgjg_Rnonrel",
        "prefs_simp_ret",
        "prefs_pair_ret",
        "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret",
        "prefs_simp_imp",
        "prefs_pair_imp",
        "prefs_avgjg_imp",
    ),
    "prefs": (
        "runid",
        "num_q",
        "prefs_num_prefs_poss",
        "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret",
        "prefs_simp",
        "prefs_pair",
        "prefs_avgjg",
    ),
    "all_trec": (
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
        "relstring",
        "recall",
        "infAP",
        "gm_bpref",
        "utility",
        "11pt_avg",
        "ndcg",
        "relative_P",
        "Rprec_mult",
        "success",
        "map_cut",
        "ndcg_cut",
        "ndcg_rel",
        "Rndcg",
        "binG",
        "G",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
        "num_nonrel_judged_ret",
    ),
}


def measures(version: str = "9.0.8") -> dict[str, TrecMeasure]:
    """The measures of trec_eval release ``version``, in its order."""
    return {k: m for k, m in MEASURES.items() if VERSIONS.index(m.since) <= VERSIONS.index(version)}


def sets(version: str = "9.0.8") -> dict[str, tuple]:
    """The named sets of trec_eval release ``version`` (10.0's all_trec has unj, rbp and rbp_resid after
    recall)."""
    if version == "9.0.8":
        return SETS
    at = SETS["all_trec"].index("recall") + 1
    return {**SETS, "all_trec": SETS["all_trec"][:at] + ("unj", "rbp", "rbp_resid") + SETS["all_trec"][at:]}


def _graphsr_names() -> dict[str, tuple]:
    """The trec_eval names ``graphsr eval`` reads: (graphsr name, what the suffix sets, the values a bare name
    stands for[, the graphsr parameters the name fixes]) by trec_eval name."""
    out: dict[str, tuple] = {}
    for m in MEASURES.values():
        if m.graphsr is None:
            continue
        values = m.default if m.suffix in ("cutoff", "recall", "mult") else ()
        out[m.name] = (m.graphsr, m.suffix, values, dict(m.fixed)) if m.fixed else (m.graphsr, m.suffix, values)
    return out


#: trec_eval's measure names as graphsr measures (derived from :data:`MEASURES`): ``graphsr eval -m P.5,10``.
TREC_NAMES: dict[str, tuple] = _graphsr_names()

#: trec_eval's sets as ``graphsr eval`` reads them: their measures that graphsr computes, in trec_eval's order.
TREC_NICKNAMES: dict[str, tuple[str, ...]] = {
    nick: tuple(n for n in MEASURES if n in SETS[nick] and n in TREC_NAMES) for nick in ("official", "all_trec", "set")
}


def trec_label(name: str, value=None) -> str:
    """trec_eval's printed name of measure ``name`` at ``value`` (``P_5``, ``iprec_at_recall_0.50``).

    >>> trec_label("P", 5), trec_label("iprec_at_recall", 0.5), trec_label("map")
    ('P_5', 'iprec_at_recall_0.50', 'map')
    """
    if value is None:
        return name
    return f"{name}_{float(value):.2f}" if TREC_NAMES[name][1] in ("recall", "mult") else f"{name}_{int(value)}"


#: trec_eval's measures graphsr does not compute (none: every measure of trec_eval 9.0.8's list is computed).
UNSUPPORTED: tuple = ()


class TrecMeasureError(Exception):
    """A measure trec_eval refuses: ``trec_lines`` its messages, ``code`` its exit status, ``message`` graphsr's
    line."""

    def __init__(self, message: str, trec_lines: list[str], code: int):
        super().__init__(message)
        self.message, self.trec_lines, self.code = message, trec_lines, code


@dataclass
class Selected:
    """A measure to compute: its parameters and the names its values print under."""

    measure: TrecMeasure
    params: tuple
    names: tuple[str, ...]


def select_measures(texts: list[str], version: str = "9.0.8") -> list[Selected]:
    """The measures ``-m`` options ask for (``official`` when none), in the order trec_eval ``version`` prints
    them, each with the parameters of the first ``-m`` that gives it some."""
    known, named = measures(version), sets(version)
    marked: set[str] = set()
    given: dict[str, str] = {}
    for text in texts or ["official"]:
        name, dot, params = text.partition(".")
        if dot and not params:
            raise TrecMeasureError(
                f"-m {text}: expected parameters after '.', e.g. P.5,10",
                [f"trec_eval: improper measure in parameter '{name}'", f"trec_eval: illegal measure '{name}'"],
                1,
            )
        if name in UNSUPPORTED:
            raise TrecMeasureError(
                f"-m {name}: trec_eval's preference measures read preference files (-R prefs, "
                "qrels_prefs), which graphsr does not read",
                [f"trec_eval: illegal measure '{name}'"],
                1,
            )
        names = named.get(name, (name,))
        if any(n not in known for n in names):
            if name in MEASURES:
                raise TrecMeasureError(
                    f"-m {name}: trec_eval {version} has no {name} (it came with "
                    f"{MEASURES[name].since}: give --trec_eval_version={MEASURES[name].since})",
                    [f"trec_eval: illegal measure '{name}'"],
                    1,
                )
            raise TrecMeasureError(
                f"-m {text}: no trec_eval measure or set of that name (see 'graphsr trec_eval -h')",
                [f"trec_eval: illegal measure '{name}'"],
                1,
            )
        if dot:
            given.setdefault(name, params)
        marked.update(names)
    return [_select(known[n], given.get(n), version) for n in known if n in marked]


def _select(m: TrecMeasure, text: str | None, version: str = "9.0.8") -> Selected:
    """A measure with the parameters ``text`` gives, each number read as trec_eval reads it (C's ``atol``,
    ``atof``: ``23.4`` as a cut-off is 23, ``5 `` is 5).  Where no number starts a parameter trec_eval reads 0:
    a cut-off of 0 it refuses itself; any other graphsr refuses, as it refuses non-finite parameters (trec_eval
    computes with them)."""
    from ...io.cnumbers import c_atof, c_atol

    def refuse(why: str, trec: str) -> TrecMeasureError:
        return TrecMeasureError(
            f"-m {m.name}.{text}: {why}", [trec, f"trec_eval: Cannot initialize measure '{m.name}'"], 2
        )

    def number(part: str) -> float:
        value = c_atof(part)
        if value is None:
            raise refuse(f"{part!r} is not a number (trec_eval would read it as 0)", "trec_eval: malformed parameters")
        if not math.isfinite(value):
            raise refuse("parameters must be finite numbers", "trec_eval: malformed parameters")
        return value

    params = m.default
    if text is not None and m.shape in ("cut_long", "cut_float", "floats"):
        parts = text.split(",")
        if m.shape == "cut_long":
            params = tuple(sorted(c_atol(p) or 0 for p in parts))
            if params[0] <= 0:
                unread = [p for p in parts if c_atol(p) is None]
                why = f"{unread[0]!r} is not a whole number (read as 0)" if unread else "cut-offs must be positive"
                raise refuse(why, "trec_eval: Negative cutoff detected")
        else:
            params = tuple(number(p) for p in parts)
            if m.shape == "cut_float":
                params = tuple(sorted(params))
        if m.shape != "floats" and any(a == b for a, b in zip(params, params[1:])):
            raise refuse("a cut-off is given twice", "trec_eval: duplicate cutoffs detected")
        if m.name == "utility" and len(params) != 4:  # (trec_eval finds it scoring the first topic: status 4)
            raise TrecMeasureError(
                f"-m utility.{text}: utility takes 4 coefficients (relevant retrieved, "
                "non-relevant retrieved, relevant missed, non-relevant missed)",
                [
                    "trec_eval.calc_utility: improper number of coefficients",
                    "trec_eval: Can't calculate measure 'utility'",
                ],
                4,
            )
    elif text is not None and m.shape == "pairs":
        if not _pairs_well_formed(text):
            raise refuse(
                "expected grade=gain pairs separated by commas, e.g. 1=1,2=3",
                f"trec_eval: malformed pair parameters in '{text}'",
            )
        pairs = []
        for part in text.split(","):
            grade, _, gain = part.partition("=")
            if grade == "p" and m.name in ("rbp", "rbp_resid"):
                p = number(gain)
                if not 0 <= p < 1:
                    raise refuse(
                        f"p={gain}: the persistence is a probability below 1", "trec_eval: malformed parameters"
                    )
                pairs.append((grade, p))
                continue
            if c_atol(grade) is None:
                raise refuse(
                    f"grade {grade!r} is not a whole number (trec_eval would read it as 0)",
                    "trec_eval: malformed parameters",
                )
            if version != "9.0.8" and not re.fullmatch(r"[-+]?[0-9]+", grade):
                raise refuse(
                    f"grade {grade!r} is not a whole number (trec_eval {version} ignores it)",
                    "trec_eval: malformed parameters",
                )
            pairs.append((grade, number(gain)))
        params = tuple(pairs)
    elif text is not None and m.shape == "relstring":
        params = (number(text),)
    elif text is not None:
        params = m.default  # trec_eval ignores parameters of measures that take none
    return Selected(m, params, _names(m, params, text))


def _pairs_well_formed(text: str) -> bool:
    """trec_eval's check of ``grade=gain`` pairs: no two commas or two equals signs without the other between
    them, and an equals sign last."""
    last = ","
    for ch in text:
        if ch == ",":
            if last == ",":
                return False
            last = ","
        elif ch == "=":
            if last == "=":
                return False
            last = "="
    return last == "="


def _names(m: TrecMeasure, params, text: str | None) -> tuple[str, ...]:
    if m.shape == "cut_long":
        return tuple(f"{m.name}_{c}" for c in params)
    if m.shape == "cut_float":
        return tuple(f"{m.name}_{c:3.2f}"[: len(m.name) + 9] for c in params)
    if m.shape in ("floats", "pairs", "relstring") and text is not None:
        return (f"{m.name}_{text}",)
    return (m.name,)
