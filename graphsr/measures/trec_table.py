"""trec_eval's measure list (9.0.8's, and the three 10.0 adds), gathered from the declarations: each flat
measure's class declares its trec_eval names (:mod:`graphsr.measures.flat`) and
:mod:`graphsr.measures.trec_eval.declared` those no graphsr measure stands for.  For each: its shape (how its
parameters read and its values are named), defaults, how topics are averaged and whether a topic's value is
printed, its kernel, its place in trec_eval's order (the order it prints in), its sets (``official``,
``all_trec``, ``set``; 10.0's ``all_trec`` has its new measures), the release that added it, and the graphsr
measure it stands for in ``graphsr eval`` and the API (``P.5,10`` is ``P@5`` and ``P@10``).
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
from .._records import record, replace

from .trec_eval.declared import SET_NAMES, TREC_ONLY, TrecMeasure

__all__ = [
    "TrecMeasure",
    "Selected",
    "MEASURES",
    "SETS",
    "RUNID",
    "TOPICS",
    "UNSUPPORTED",
    "TrecMeasureError",
    "select_measures",
    "VERSIONS",
    "TREC_NAMES",
    "TREC_NICKNAMES",
    "trec_label",
]


#: The trec_eval releases ``graphsr trec_eval`` behaves as (the first is the default).
VERSIONS = ("9.0.8", "10.0")


def _gather() -> dict[str, TrecMeasure]:
    """Every trec_eval measure in trec_eval's order: the names the flat measures declare (each filled in with
    the graphsr measure it stands for) and those only ``graphsr trec_eval`` computes.  A name or a place in the
    list declared twice is a declaration error."""
    from .flat.measures import FLAT_MEASURES
    from .flat.trec_more import TREC_MORE

    forms = list(TREC_ONLY)
    for cls in FLAT_MEASURES + TREC_MORE:
        forms += [replace(form, graphsr=cls.NAME) for form in cls.TREC]
    forms.sort(key=lambda form: form.order)
    for a, b in zip(forms, forms[1:]):
        if a.order == b.order:
            raise TypeError(f"trec_eval measures {a.name} and {b.name} are declared at one place ({a.order})")
    out = {form.name: form for form in forms}
    if len(out) != len(forms):
        raise TypeError("a trec_eval measure name is declared twice")
    return out


#: Every measure trec_eval computes from qrels and TREC results, in its order.
MEASURES = _gather()

#: trec_eval's named sets of measures (9.0.8's; :func:`sets` gives a release's).
SETS = {
    nick: tuple(m.name for m in MEASURES.values() if nick in m.sets and m.since == VERSIONS[0]) for nick in SET_NAMES
}

#: The run's id, which trec_eval names where no measure it was asked for reads the qrels; the number of topics.
RUNID = next(m.name for m in MEASURES.values() if m.shape == "id")
TOPICS = next(m.name for m in MEASURES.values() if m.average == "count")


def measures(version: str = "9.0.8") -> dict[str, TrecMeasure]:
    """The measures of trec_eval release ``version``, in its order."""
    return {k: m for k, m in MEASURES.items() if VERSIONS.index(m.since) <= VERSIONS.index(version)}


def sets(version: str = "9.0.8") -> dict[str, tuple]:
    """The named sets of trec_eval release ``version`` (10.0's all_trec has its new measures), each in
    trec_eval's order."""
    known = measures(version)
    return {nick: tuple(m.name for m in known.values() if nick in m.sets) for nick in SET_NAMES}


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


@record
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
    from ..io.cnumbers import c_atof, c_atol

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
        if m.arity is not None and len(params) != m.arity:  # (trec_eval finds it scoring the first topic: status 4)
            raise TrecMeasureError(
                f"-m {m.name}.{text}: {m.name} takes {m.arity} coefficients ({m.description})",
                [
                    f"trec_eval.calc_{m.name}: improper number of coefficients",
                    f"trec_eval: Can't calculate measure '{m.name}'",
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
            if grade == "p" and m.persistence:
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
    elif text is not None and m.shape == "string":
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
    if m.shape in ("floats", "pairs", "string") and text is not None:
        return (f"{m.name}_{text}",)
    return (m.name,)
