"""The official INEX passage measures as registered measure objects (inex_eval 3.1's every line).

================================  ==========================================
``iP[x]``                         interpolated precision at recall ``x`` (focused, thorough)
``MAiP`` (per topic ``AiP``)      mean of iP over the 101 levels 0.00 .. 1.00
``ircl_prn[x]``                   interpolated precision at level x: 101 levels (focused, thorough),
                                  11 levels of generalized recall (ric, t2i, bic)
``gP@k``, ``gR@k``                generalized precision / recall at article rank k (also ``gP[k]``)
``MAgP`` (per topic ``AgP``)      mean average generalized precision
``num_ret``, ``num_rel``,         articles retrieved / relevant / relevant retrieved; characters
``num_rel_ret``, ``ret_size``,    retrieved / highlighted / highlighted retrieved (``all``: sums)
``rel_size``, ``rel_ret_size``
``art_prec``, ``art_rec``,        article and character precision, recall and F1 (focused,
``art_f1``, ``char_prec``,        thorough)
``char_rec``, ``char_f1``
================================  ==========================================

Every measure takes ``task``: ``focused`` (the default of iP, MAiP, counts and
ratios), ``thorough``, ``ric`` (Relevant in Context, the default of gP, gR,
MAgP), ``t2i`` (RiC scored by tolerance to irrelevance) or ``bic`` (Best in
Context).  Article scores take ``beta`` (ric), ``irr`` (t2i, tolerance in
characters) and ``n`` (bic), declared with their defaults in
:mod:`graphsr.measures.fol.params`; ``gP`` and
``gR`` take ``beyond``: ``last`` (default, the official tool: a topic with
fewer than k article ranks reports the value at its last one) or ``zero``
(ranks past the last count as scoring 0, so gP divides by k).  The arithmetic
and the official tool's conventions are in :mod:`graphsr.measures.fol.inputs` and
the modules it names.

>>> from graphsr.measures import parse_measure
>>> parse_measure("iP[0.01]"), parse_measure("iP(x=0.1)"), parse_measure("MAgP(task=bic,n=500)")
(iP[0.01], iP[0.10], MAgP(task=bic))
>>> parse_measure("gP[5]"), parse_measure("ircl_prn.0.10(task=ric)"), parse_measure("AiP")
(gP@5, ircl_prn[0.10](task=ric), MAiP)
"""

from __future__ import annotations

import numpy as np

from ...errors import MeasureNameError, RunRuleError
from .params import SCORE_PARAMS
from ..base import Measure, Param, format_param as _fmt, register
from .context import article_ranking, generalized
from .focused import character_stats, interpolated_precision
from .inputs import PassageInputs
from .rules import first_violation

__all__ = [
    "iP",
    "MAiP",
    "gP",
    "gR",
    "MAgP",
    "ircl_prn",
    "compute_fol_family",
    "TASKS",
    "RULES_OF_TASK",
    "COUNTS",
    "RATIOS",
    "PassageValues",
    "headline_measures",
    "IP_CURVE",
    "OFFICIAL_FOCUSED",
    "OFFICIAL_CONTEXT",
    "OFFICIAL_RUN",
    "OFFICIAL_TOPICS",
    "SCORE_PARAM",
    "CHARACTER_TASKS",
]

TASKS = ("focused", "thorough", "ric", "t2i", "bic")
CHARACTER_TASKS = ("focused", "thorough")
CONTEXT_TASKS = ("ric", "t2i", "bic")
#: The rules the official tool enforces per task (inex-rules §0), strict and with --lenient.
RULES_OF_TASK = {
    "focused": {"overlap"},
    "thorough": set(),
    "ric": {"overlap", "interleave"},
    "t2i": {"overlap", "interleave"},
    "bic": {"interleave", "repeat"},
}
LENIENT_RULES_OF_TASK = {
    "focused": set(),
    "thorough": set(),
    "ric": {"interleave"},
    "t2i": {"interleave"},
    "bic": {"interleave"},
}
#: The parameter each task's article score reads, with its default (declared in graphsr.measures.fol.params).
SCORE_PARAM = {
    "ric": ("beta", SCORE_PARAMS["beta"].default),
    "t2i": ("irr", SCORE_PARAMS["irr"].default),
    "bic": ("n", SCORE_PARAMS["n"].default),
}

#: The official tool's counts and ratios, in the order it prints them (and its kernels give them).
_COUNT_TEXT = {
    "num_ret": "articles retrieved",
    "num_rel": "relevant articles (with highlighted text) judged",
    "num_rel_ret": "relevant articles retrieved",
    "ret_size": "characters retrieved (thorough: new characters of relevant articles, all of others; bic: 0)",
    "rel_size": "highlighted characters judged",
    "rel_ret_size": "highlighted characters retrieved (bic: 0)",
}
_RATIO_TEXT = {
    "art_prec": "article precision: relevant retrieved / retrieved",
    "art_rec": "article recall: relevant retrieved / relevant",
    "art_f1": "harmonic mean of art_prec and art_rec",
    "char_prec": "character precision: highlighted retrieved / retrieved",
    "char_rec": "character recall: highlighted retrieved / highlighted",
    "char_f1": "harmonic mean of char_prec and char_rec",
}
COUNTS = tuple(_COUNT_TEXT)
RATIOS = tuple(_RATIO_TEXT)
#: The labels of the official tool's lines that are no measure: the run's id, the number of topics.
OFFICIAL_RUN, OFFICIAL_TOPICS = "runid", "num_q"


class _Passage(Measure):
    """A passage measure: ``task`` and, where the score is read, the task's score parameter."""

    FAMILY = "fol"
    BOUNDS = (0.0, 1.0)
    TASKS: tuple = TASKS
    DEFAULT_TASK = "focused"
    SCORED = False  # reads the article scores (beta, irr, n)
    CUTOFF = "none"
    OVERALL: str | None = None  # the PassageInputs attribute its "all" value is (not the sum or mean of topics)
    #: The official tool's name of its per-topic value (``AiP`` for MAiP), a name it answers to as well.
    TOPIC_LABEL: str | None = None

    def from_characters(self, stats, aip, T):
        """Per-topic values of a focused or thorough task, from the character statistics (and AiP)."""
        raise NotImplementedError(f"{self.NAME} scores no character task")  # pragma: no cover - TASKS say so

    def from_articles(self, gen, col, ranking):
        """Per-topic values of a RiC, T2I or BiC task, from the article ranking and its generalized curves."""
        raise NotImplementedError(f"{self.NAME} scores no in-context task")  # pragma: no cover - TASKS say so

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        params = {"task": Param(str, cls.DEFAULT_TASK, " | ".join(cls.TASKS), choices=tuple(cls.TASKS))}
        if cls.SCORED:
            params.update(SCORE_PARAMS)
        params.update(cls.EXTRA_PARAMS)
        cls.SUPPORTED_PARAMS = params

    EXTRA_PARAMS: dict = {}

    def validate(self) -> "Measure":
        super().validate()
        task = self["task"]  # (one of its declared choices)
        if self.SCORED:
            for t, (name, _) in SCORE_PARAM.items():
                if name in self.given and t != task:
                    raise MeasureNameError(f"{self.NAME}: {name} applies to task={t}, not task={task}")
        return self

    def key(self) -> tuple:
        """What this measure's values are computed from (measures sharing it share one pass)."""
        task = self["task"]
        score = None
        if task in SCORE_PARAM:
            name, default = SCORE_PARAM[task]
            score = self[name] if self.SCORED else default
        return task, score

    def _shown(self) -> list[str]:
        out = []
        if self["task"] != self.DEFAULT_TASK:
            out.append(f"task={self['task']}")
        if self.SCORED and self["task"] in SCORE_PARAM:
            name, default = SCORE_PARAM[self["task"]]
            if self[name] != default:
                out.append(f"{name}={_fmt(self[name])}")
        for k, p in self.EXTRA_PARAMS.items():
            if k != self.BRACKET and self[k] != p.default:
                out.append(f"{k}={_fmt(self[k])}")
        return out

    def _bracket(self) -> str:  # the official tool's two places for its recall levels: iP[0.10]
        x = self.params.get(self.BRACKET) if self.BRACKET else None
        if x is None:
            return ""
        on_grid = abs(x * 100 - round(x * 100)) < 1e-9
        return f"[{x:.2f}]" if on_grid else f"[{x!r}]"


class _Level(_Passage):
    """A measure read at a recall level ``x`` in [0, 1]."""

    BRACKET = "x"
    EXTRA_PARAMS = {"x": Param(float, None, "recall level", range="[0, 1]")}

    def validate(self) -> "Measure":
        super().validate()
        x = self.params.get("x")
        if x is None:  # (its range is declared with the parameter)
            raise MeasureNameError(f"{self.NAME} needs a recall level, e.g. {self.NAME}[0.10]")
        return self


class _IP(_Level):
    NAME = "iP"
    DESCRIPTION = "interpolated character precision at recall level x (INEX focused/thorough, official tool)"
    TASKS = CHARACTER_TASKS

    def from_characters(self, stats, aip, T):
        return interpolated_precision(stats, self["x"], T)


class _Ircl(_Level):
    NAME = "ircl_prn"
    DESCRIPTION = (
        "interpolated precision at level x: 101 character-recall levels (focused, thorough) or 11 "
        "article-recall levels of gP (ric, t2i, bic); the official tool's ircl_prn.x lines"
    )
    SCORED = True

    def validate(self) -> "Measure":
        super().validate()
        steps = 100 if self["task"] in CHARACTER_TASKS else 10
        if abs(self["x"] * steps - round(self["x"] * steps)) > 1e-9:
            raise MeasureNameError(
                f"ircl_prn: task {self['task']} has levels in steps of {1 / steps:g}, got {self['x']!r}"
            )
        return self

    def from_characters(self, stats, aip, T):
        return stats.levels[:, round(self["x"] * 100)].copy()

    def from_articles(self, gen, col, ranking):
        return gen()["ircl"][:, round(self["x"] * 10)]


class _MAiP(_Passage):
    NAME = "MAiP"
    TOPIC_LABEL = "AiP"
    DESCRIPTION = "mean interpolated precision over the 101 recall levels 0.00 .. 1.00 (per topic: AiP)"
    TASKS = CHARACTER_TASKS

    def from_characters(self, stats, aip, T):
        return aip


class _Generalized(_Passage):
    TASKS = CONTEXT_TASKS
    DEFAULT_TASK = "ric"
    CUTOFF = "required"
    BRACKET_CUTOFF = True  # gP[5] reads as gP@5, the official tool's name
    EXTRA_PARAMS = {
        "beyond": Param(
            str,
            "last",
            "a topic with fewer than k article ranks: last (its value at "
            "the last rank, as the official tool) or zero (divide by k)",
            choices=("last", "zero"),
        )
    }

    def from_articles(self, gen, col, ranking):
        return gen(self["beyond"])[self.CURVE][:, col[self.cutoff]]


class _gP(_Generalized):
    NAME = "gP"
    CURVE = "precision"  # (of generalized()'s curves)
    DESCRIPTION = "generalized precision at article rank k (INEX RiC/T2I/BiC)"
    SCORED = True


class _gR(_Generalized):
    NAME = "gR"
    CURVE = "recall"
    DESCRIPTION = "generalized recall at article rank k: relevant articles found / judged (INEX RiC/T2I/BiC)"


class _MAgP(_Passage):
    NAME = "MAgP"
    TOPIC_LABEL = "AgP"
    DESCRIPTION = "mean average generalized precision (INEX RiC/T2I/BiC; per topic: AgP); @k: first k articles"
    TASKS = CONTEXT_TASKS
    DEFAULT_TASK = "ric"
    SCORED = True
    CUTOFF = "optional"

    def from_articles(self, gen, col, ranking):
        return gen("last", self.cutoff)["average"]


class _Count(_Passage):
    INTEGER = True
    AGGREGATE = "sum"
    BOUNDS = None

    COLUMN = 0  # its place among the official tool's counts (COUNTS)

    def from_characters(self, stats, aip, T):
        return stats.counts[self.COLUMN]

    def from_articles(self, gen, col, ranking):
        return ranking.counts[self.COLUMN]


class _Ratio(_Passage):
    TASKS = CHARACTER_TASKS

    COLUMN = 0  # its place among the official tool's ratios (RATIOS)

    def from_characters(self, stats, aip, T):
        return stats.ratios[self.COLUMN]


_classes = [_IP, _Ircl, _MAiP, _gP, _gR, _MAgP]
for _column, (_name, _text) in enumerate(_COUNT_TEXT.items()):
    _overall = {"num_rel": "qrels_rel_articles", "rel_size": "qrels_rel_chars"}.get(_name)  # every qrels topic
    _classes.append(
        type(
            f"_{_name}",
            (_Count,),
            {
                "NAME": _name,
                "COLUMN": _column,
                "DESCRIPTION": _text + "; all: sum",
                "EMPTY": None if _overall else 0.0,
                "OVERALL": _overall,
            },
        )
    )
for _column, (_name, _text) in enumerate(_RATIO_TEXT.items()):
    _classes.append(type(f"_{_name}", (_Ratio,), {"NAME": _name, "COLUMN": _column, "DESCRIPTION": _text}))
for _cls in _classes:
    register(_cls, *filter(None, [_cls.TOPIC_LABEL]))

iP, MAiP, gP, gR, MAgP, ircl_prn = _IP(), _MAiP(), _gP(), _gR(), _MAgP(), _Ircl()


#: What the official tool's headline is for a focused run, and for a RiC, T2I or BiC run.
#: The official tool's headline measures: of the focused and thorough tasks (iP at four recall levels, MAiP),
#: and of the in-context tasks (MAgP, gP and gR at seven cut-offs).
OFFICIAL_FOCUSED = tuple(f"iP[{x:.2f}]" for x in (0.0, 0.01, 0.05, 0.10)) + ("MAiP",)
_CONTEXT_RANKS = (1, 2, 3, 5, 10, 25, 50)
OFFICIAL_CONTEXT = ("MAgP",) + tuple(f"gP@{k}" for k in _CONTEXT_RANKS) + tuple(f"gR@{k}" for k in _CONTEXT_RANKS)
#: The 101-point interpolated precision curve.
IP_CURVE = tuple(f"iP[{j / 100:.2f}]" for j in range(101))


def headline_measures(task: str = "focused", curve: bool = False) -> list[Measure]:
    """The headline measures of ``task`` (with ``curve``, the 101-point iP curve too), as measures of that
    task with default parameters."""
    if task in CHARACTER_TASKS:
        levels = [0.0, 0.01, 0.05, 0.10]
        if curve:
            levels += [j / 100 for j in range(101) if round(j / 100, 2) not in levels]
        out = [_IP(x=x) for x in levels[:4]] + [_MAiP()] + [_IP(x=x) for x in levels[4:]]
    else:
        out = [_MAgP(), *(_gP(cutoff=k) for k in _CONTEXT_RANKS), *(_gR(cutoff=k) for k in _CONTEXT_RANKS)]
        if curve:
            out += [_IP(x=j / 100) for j in range(101)]
    out = [m.validate() for m in out]
    return [m(task=task) if task in m.TASKS and task != m.DEFAULT_TASK else m for m in out]


class PassageValues:
    """Per-topic values of passage measures, their ``all`` values, and what was noticed."""

    def __init__(self, values: dict, overall: dict, notes: dict):
        self.values, self.overall, self.notes = values, overall, notes


def _seq_mean(v: np.ndarray) -> float:
    """Mean summed left to right, as the official tool's loop (so the last digits agree too)."""
    return (sum(v.tolist()) / len(v)) if len(v) else 0.0


def compute_fol_family(measures: list[Measure], x: PassageInputs, lenient: bool = False) -> PassageValues:
    """Per-topic and ``all`` values of passage measures.

    Raises
    ------
    RunRuleError
        When the run breaks a rule the official tool enforces for one of the
        measures' tasks (an overlapping passage, interleaved articles, a
        second BiC result for an article); ``result``/``earlier`` index ``x``.
        With ``lenient`` only interleaving is refused (RiC, T2I, BiC).
    """
    T = len(x.topics)
    rules = LENIENT_RULES_OF_TASK if lenient else RULES_OF_TASK
    kinds = set().union(*(rules[m["task"]] for m in measures)) if measures else set()
    v = first_violation(x, kinds) if kinds else None
    if v is not None:
        tasks = sorted({m["task"] for m in measures if v.kind in rules[m["task"]]})
        raise RunRuleError(v.kind, v.result, v.earlier, tasks)
    notes: dict = {}
    if lenient:  # what the official tool would have refused, for the warning
        strict = set().union(*(RULES_OF_TASK[m["task"]] for m in measures)) - kinds if measures else set()
        refused = first_violation(x, strict) if strict else None
        if refused is not None:
            notes["refused"] = refused
    groups: dict[tuple, list[Measure]] = {}
    for m in measures:
        groups.setdefault(m.key(), []).append(m)
    out: dict[Measure, np.ndarray] = {}
    overall: dict[Measure, float] = {}
    for (task, score), ms in groups.items():
        if task in CHARACTER_TASKS:
            stats = character_stats(x, thorough=task == "thorough", lenient=lenient)
            notes["skipped"] = notes.get("skipped", 0) + stats.skipped
            notes["impossible"] = notes.get("impossible", 0) + stats.impossible
            aip = np.cumsum(stats.levels, axis=1)[:, -1] / 101.0 if T else np.zeros(0)
            for m in ms:
                out[m] = m.from_characters(stats, aip, T)
            continue
        kw = {k: p.default for k, p in SCORE_PARAMS.items()}
        kw[SCORE_PARAM[task][0]] = score
        ranking = article_ranking(x, task, lenient=lenient, **kw)
        if ranking.extra_results:
            notes["extra_results"] = ranking.extra_results
        cutoffs = sorted({m.cutoff for m in ms if isinstance(m, _Generalized)}) or [1]
        col = {k: i for i, k in enumerate(cutoffs)}
        gens: dict = {}

        def gen(beyond: str = "last", agp_cutoff=None):
            if (beyond, agp_cutoff) not in gens:
                gens[beyond, agp_cutoff] = generalized(ranking, x.topic_rel_articles, cutoffs, beyond, agp_cutoff)
            return gens[beyond, agp_cutoff]

        for m in ms:
            out[m] = m.from_articles(gen, col, ranking)
            if m.OVERALL:  # inex-rules §3.3: "all" sums every topic of the qrels
                overall[m] = float(getattr(x, m.OVERALL))
    for m in measures:
        if m not in overall:
            overall[m] = float(out[m].sum()) if m.AGGREGATE == "sum" else _seq_mean(out[m])
    return PassageValues({m: out[m] for m in measures}, overall, notes)
