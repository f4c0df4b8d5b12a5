"""trec_eval's measure names, the graphsr measures they stand for, and the labels trec_eval prints for them
(read by the measure parser, ``graphsr measures`` and the trec_eval-style output)."""

from __future__ import annotations

from typing import Any

__all__ = ["TREC_NAMES", "TREC_NICKNAMES", "trec_label"]

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALLS = tuple(k / 10 for k in range(11))

#: trec_eval's measure names: (graphsr name, what the name's suffix sets, trec_eval's default values).
TREC_NAMES: dict[str, tuple[str, str | None, tuple]] = {
    "num_q": ("NumQ", None, ()),
    "num_ret": ("NumRet", None, ()),
    "num_rel": ("NumRel", None, ()),
    "num_rel_ret": ("NumRelRet", None, ()),
    "map": ("AP", None, ()),
    "Rprec": ("Rprec", None, ()),
    "bpref": ("Bpref", None, ()),
    "recip_rank": ("RR", None, ()),
    "iprec_at_recall": ("IPrec", "recall", _RECALLS),
    "P": ("P", "cutoff", _CUTOFFS),
    "recall": ("R", "cutoff", _CUTOFFS),
    "ndcg": ("nDCG", None, ()),
    "ndcg_cut": ("nDCG", "cutoff", _CUTOFFS),
    "map_cut": ("AP", "cutoff", _CUTOFFS),
    "success": ("Success", "cutoff", (1, 5, 10)),
}

#: trec_eval's nicknames for sets of measures (the parts graphsr computes; trec_eval's ``official`` also has
#: gm_map, ``all_trec`` also gm_map, infAP, utility, set_* and others graphsr does not compute).
TREC_NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P"),
    "all_trec": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank",
                 "iprec_at_recall", "P", "recall", "ndcg", "ndcg_cut", "map_cut", "success"),
}


def trec_label(name: str, value: Any = None) -> str:
    """trec_eval's printed name of measure ``name`` at ``value`` (``P_5``, ``iprec_at_recall_0.50``).

    >>> trec_label("P", 5), trec_label("iprec_at_recall", 0.5), trec_label("map")
    ('P_5', 'iprec_at_recall_0.50', 'map')
    """
    if value is None:
        return name
    return f"{name}_{float(value):.2f}" if TREC_NAMES[name][1] == "recall" else f"{name}_{int(value)}"
