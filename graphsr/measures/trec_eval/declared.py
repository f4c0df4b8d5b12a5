"""What a trec_eval measure is (:class:`TrecMeasure`: one of its names, as ``graphsr trec_eval`` reads and prints
it, and its kernel), and the declarations of the measures only ``graphsr trec_eval`` computes: the run's id, the
relevance string, the preference measures (``-R prefs``) and the judgment-group measures (``-R qrels_jg``).

Every other trec_eval measure is declared once, with the graphsr measure it stands for, in that measure's class
(:mod:`graphsr.measures.flat`: ``P``'s class declares ``P_k``, ``AP``'s declares ``map`` and ``map_cut_k``);
:mod:`graphsr.measures.trec_table` gathers them all into trec_eval's list.
"""

from __future__ import annotations

from ..._records import record
from typing import Callable

from . import kernels as K

__all__ = ["TrecMeasure", "SET_NAMES", "CUTS", "RECALLS", "MULTS", "TREC_ONLY"]

#: trec_eval's named sets of measures, in the order its help lists them.
SET_NAMES = ("official", "set", "qrels_jg", "all_prefs", "prefs", "all_trec")
#: The cut-offs, recall levels and multiples of R trec_eval computes a bare name at.
CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALLS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)

_EVERY = SET_NAMES
_OFFICIAL = ("official", "set", "all_trec")


@record(frozen=True)
class TrecMeasure:
    """One of trec_eval's measures.

    ``shape``: ``long`` (a count, printed as an integer), ``float``, ``cut_long`` (integer cut-offs, one value
    each: ``P_5``), ``cut_float`` (fractional cut-offs: ``iprec_at_recall_0.10``), ``floats`` (numeric
    parameters, one value: ``set_F``), ``pairs`` (``grade=gain`` parameters, one value: ``ndcg``), ``id`` (the
    run's id: runid), ``string`` (a string per topic: relstring).  ``average``: ``mean``, ``gm`` (geometric mean), ``sum``, ``count`` (the topics) or ``none``;
    ``per_topic``: printed for each topic with ``-q``.  ``kernel``: its values for one topic
    (:mod:`.kernels`; a preference measure's, :mod:`.prefs`).  ``order``: its place in trec_eval's list (the
    order it prints in); ``sets``: the named sets (:data:`SET_NAMES`) it belongs to; ``since``: the trec_eval
    release that added it.  ``graphsr``: the graphsr measure the name stands for (None: only ``graphsr
    trec_eval`` computes it; filled in where the graphsr measure declares the name); ``suffix``: what a
    name's suffix sets there -- ``cutoff``, ``recall`` or ``mult`` (one measure per value: ``P.5,10``; the
    defaults are trec_eval's), ``beta`` or ``coefficients`` (the measure's parameters: ``set_F.0.5``);
    ``fixed``: graphsr parameters the name fixes (``set_relative_P``).  ``arity``: how many parameters it
    takes, where trec_eval requires a number; ``persistence``: its pairs may give ``p=``, RBP's persistence;
    ``complete``: with ``-c``, its sum counts every topic of the qrels; ``resets``: trec_eval 10.0 sets it
    to 0 after scoring a topic the run lacks (``bare``: only when given without parameters; ``always``).
    """

    name: str
    shape: str
    default: tuple = ()
    average: str = "mean"
    per_topic: bool = True
    description: str = ""
    reads: str | None = "qrels"  # the qrels format it reads (-R): qrels, qrels_jg, prefs, or None (runid, num_q)
    kernel: Callable | None = None
    order: int = 0
    sets: tuple[str, ...] = ()
    graphsr: str | None = None
    suffix: str | None = None
    fixed: tuple = ()
    since: str = "9.0.8"
    arity: int | None = None
    persistence: bool = False
    complete: bool = False
    resets: str = ""


def _preference_kernel(name: str) -> Callable:
    """The kernel ``name`` of :mod:`.prefs`, that module imported at the kernel's first call (only ``-R prefs``
    needs it: every command that reads a measure name reads this table)."""

    def kernel(topic):
        from . import prefs

        return getattr(prefs, name)(topic)

    kernel.__name__ = kernel.__qualname__ = name
    return kernel


def _prefs(
    name: str, order: int, kernel: str, description: str, sets=("all_prefs",), shape="float", **kw
) -> TrecMeasure:
    return TrecMeasure(
        name,
        shape,
        kernel=_preference_kernel(kernel),
        order=order,
        sets=sets,
        reads="prefs",
        description=description,
        **kw,
    )


#: The measures only ``graphsr trec_eval`` computes (no graphsr measure stands for them).
TREC_ONLY = (
    TrecMeasure(
        "runid",
        "id",
        average="none",
        per_topic=False,
        description="the run's id (its last line's)",
        reads=None,
        order=0,
        sets=_EVERY,
    ),
    TrecMeasure(
        "relstring",
        "string",
        (10.0,),
        average="none",
        description="the grades of the first N documents as characters (per topic only)",
        kernel=K.relstring,
        order=12,
        sets=("all_trec",),
        resets="bare",
    ),
    _prefs(
        "prefs_num_prefs_poss",
        34,
        "possible",
        "preferences possible (-R prefs, qrels_prefs)",
        sets=("all_prefs", "prefs"),
        shape="long",
        average="sum",
    ),
    _prefs(
        "prefs_num_prefs_ful",
        35,
        "fulfilled",
        "preferences fulfilled (both or one of the documents retrieved)",
        sets=("all_prefs", "prefs"),
        shape="long",
        average="sum",
    ),
    _prefs(
        "prefs_num_prefs_ful_ret",
        36,
        "fulfilled_retrieved",
        "preferences fulfilled with both documents retrieved",
        sets=("all_prefs", "prefs"),
        shape="long",
        average="sum",
    ),
    _prefs("prefs_simp", 37, "simple", "preferences fulfilled over possible", sets=("all_prefs", "prefs")),
    _prefs(
        "prefs_pair",
        38,
        "pair",
        "over document pairs, the share of the groups' preferences between them the ranking fulfils",
        sets=("all_prefs", "prefs"),
    ),
    _prefs("prefs_avgjg", 39, "per_group", "prefs_simp per judgment group, averaged", sets=("all_prefs", "prefs")),
    _prefs(
        "prefs_avgjg_Rnonrel",
        40,
        "per_group_rnonrel",
        "prefs_avgjg with as many non-relevant documents as relevant ones",
    ),
    _prefs("prefs_simp_ret", 41, "simple_retrieved", "prefs_simp over retrieved pairs only"),
    _prefs("prefs_pair_ret", 42, "pair_retrieved", "prefs_pair over retrieved pairs only"),
    _prefs("prefs_avgjg_ret", 43, "per_group_retrieved", "prefs_avgjg over retrieved pairs only"),
    _prefs(
        "prefs_avgjg_Rnonrel_ret",
        44,
        "per_group_rnonrel_retrieved",
        "prefs_avgjg_Rnonrel over retrieved documents only",
    ),
    _prefs("prefs_simp_imp", 45, "simple_implied", "prefs_simp over pairs with a document retrieved"),
    _prefs("prefs_pair_imp", 46, "pair_implied", "prefs_pair over pairs with a document retrieved"),
    _prefs("prefs_avgjg_imp", 47, "per_group_implied", "prefs_avgjg over pairs with a document retrieved"),
    TrecMeasure(
        "map_avgjg",
        "float",
        description="average precision, averaged over the judgment groups (-R qrels_jg)",
        reads="qrels_jg",
        kernel=K.ap,
        order=48,
        sets=("qrels_jg",),
    ),
    TrecMeasure(
        "P_avgjg",
        "cut_long",
        CUTS,
        description="precision at cut-offs, averaged over the judgment groups (-R qrels_jg)",
        reads="qrels_jg",
        kernel=K.precision,
        order=49,
        sets=("qrels_jg",),
    ),
    TrecMeasure(
        "Rprec_mult_avgjg",
        "cut_float",
        MULTS,
        description="precision at multiples of R, averaged over the judgment groups (-R qrels_jg)",
        reads="qrels_jg",
        kernel=K.rprec_mult,
        order=50,
        sets=("qrels_jg",),
    ),
)
