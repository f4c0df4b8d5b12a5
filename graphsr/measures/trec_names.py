"""trec_eval's measure names, the graphsr measures they stand for, and the labels trec_eval prints for them
(read by the measure parser, ``graphsr measures`` and the trec_eval-style output)."""

from __future__ import annotations

from typing import Any

__all__ = ["TREC_NAMES", "TREC_NICKNAMES", "trec_label"]

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = tuple(k / 10 for k in range(11))

_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)

#: trec_eval's measure names: (graphsr name, what the name's suffix sets, trec_eval's default values[, the
#: graphsr parameters the name fixes]).  A suffix ``cutoff`` or ``recall``/``mult`` gives one measure per value
#: (``P.5,10``, ``iprec_at_recall.0.5``); ``beta`` and ``coefficients`` give the measure's parameters
#: (``set_F.0.5``, ``utility.2,-1,0,0``).
TREC_NAMES: dict[str, tuple] = {
    "num_q": ("NumQ", None, ()),
    "num_ret": ("NumRet", None, ()),
    "num_rel": ("NumRel", None, ()),
    "num_rel_ret": ("NumRelRet", None, ()),
    "map": ("AP", None, ()),
    "gm_map": ("GMAP", None, ()),
    "Rprec": ("Rprec", None, ()),
    "bpref": ("Bpref", None, ()),
    "recip_rank": ("RR", None, ()),
    "iprec_at_recall": ("IPrec", "recall", _RECALLS),
    "P": ("P", "cutoff", _CUTOFFS),
    "recall": ("R", "cutoff", _CUTOFFS),
    "infAP": ("infAP", None, ()),
    "gm_bpref": ("GMBpref", None, ()),
    "Rprec_mult": ("RprecMult", "mult", _MULTS),
    "utility": ("Utility", "coefficients", ()),
    "11pt_avg": ("IPrecAvg", None, ()),
    "binG": ("binG", None, ()),
    "G": ("G", None, ()),
    "ndcg": ("nDCG", None, ()),
    "ndcg_rel": ("nDCGRel", None, ()),
    "Rndcg": ("RnDCG", None, ()),
    "ndcg_cut": ("nDCG", "cutoff", _CUTOFFS),
    "map_cut": ("AP", "cutoff", _CUTOFFS),
    "relative_P": ("RelP", "cutoff", _CUTOFFS),
    "success": ("Success", "cutoff", (1, 5, 10)),
    "set_P": ("SetP", None, ()),
    "set_relative_P": ("SetP", None, (), {"relative": True}),
    "set_recall": ("SetR", None, ()),
    "set_map": ("SetAP", None, ()),
    "set_F": ("SetF", "beta", ()),
    "num_nonrel_judged_ret": ("NumNonRelJudgedRet", None, ()),
    "yaap": ("YAAP", None, ()),
}

#: trec_eval's nicknames for sets of measures, in the order trec_eval prints them (less its runid, which graphsr
#: prints anyway, and relstring, a string per topic; ``graphsr trec_eval`` prints those too).
TREC_NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P"),
    "all_trec": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
                 "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
                 "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
            "set_map", "set_F"),
}


def trec_label(name: str, value: Any = None) -> str:
    """trec_eval's printed name of measure ``name`` at ``value`` (``P_5``, ``iprec_at_recall_0.50``).

    >>> trec_label("P", 5), trec_label("iprec_at_recall", 0.5), trec_label("map")
    ('P_5', 'iprec_at_recall_0.50', 'map')
    """
    if value is None:
        return name
    return f"{name}_{float(value):.2f}" if TREC_NAMES[name][1] in ("recall", "mult") else f"{name}_{int(value)}"
