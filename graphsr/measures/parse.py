"""Measure names as people type them: graphsr's, ir_measures' and trec_eval's.

* graphsr's canonical strings, ``Name(param=value,...)@cutoff`` or
  ``Name[value]`` (``SRP@10``, ``iP[0.01]``, ``P(rel=2)@5``), which are also
  ir_measures' (``nDCG(gains={0:0,1:1,2:3})@10``, ``IPrec@0.5``,
  ``NumRet(rel=1)``), and their registered aliases (``MAP``, ``AiP``);
* ir_measures' measure objects (``ir_measures.P@5``), converted to graphsr's;
* trec_eval's names: ``map``, ``P_5``, ``P.5,10``, ``recall_100``,
  ``ndcg_cut_10``, ``map_cut_10``, ``recip_rank``, ``Rprec``, ``bpref``,
  ``success_1``, ``iprec_at_recall_0.50``, ``num_ret``, ``num_rel``,
  ``num_rel_ret``, ``num_q``; a bare ``P`` (``recall``, ``ndcg_cut``, ...)
  and the nicknames ``official`` and ``all_trec`` name several measures, as
  in trec_eval (:func:`parse_requests` expands them).

A name is matched exactly first, then without regard to case where that
names one measure (``srp@5`` is ``SRP@5``); an unknown name gets the closest
known ones as suggestions.  A measure asked for under an alias or a trec_eval
name is reported under that name (:class:`Requested`): ``-m AP -m MAP``
prints both rows, ``-m map`` prints ``map`` as trec_eval does.

>>> parse_measure("map"), parse_measure("P_5"), parse_measure("ndcg_cut_10"), parse_measure("IPrec@0.5")
(AP, P@5, nDCG@10, IPrec@0.5)
>>> [r.label for r in parse_requests(["P.5,10", "MAP", "AP", "iprec_at_recall_0.50"])]
['P_5', 'P_10', 'MAP', 'AP', 'iprec_at_recall_0.50']
>>> parse_measure("srp@5")
SRP@5
>>> parse_measure("SPR@5")
Traceback (most recent call last):
...
graphsr.errors.MeasureNameError: unknown measure 'SPR'; did you mean SRP@5, SR@5, SRPRUM@5? ('graphsr measures' lists every measure)
"""

from __future__ import annotations

import re
from .._records import record
from typing import Any, Iterable

from ..errors import MeasureNameError
from .base import Measure, known_names, registered, registry
from .trec_table import TREC_NAMES, TREC_NICKNAMES, trec_label  # noqa: F401 (re-exported)

__all__ = [
    "Requested",
    "parse_measure",
    "parse_measures",
    "parse_requests",
    "relabel",
    "TREC_NAMES",
    "TREC_NICKNAMES",
    "trec_label",
]


@record(frozen=True)
class Requested:
    """A measure as it was asked for: the name it is reported under (``label``) and the measure."""

    label: str
    measure: Measure

    def __str__(self) -> str:
        return self.label


_NAME = r"[A-Za-z][A-Za-z0-9_.]*"
_MEASURE = re.compile(
    r"^\s*(?P<name>" + _NAME + r")"
    r"(?:\[(?P<bracket>[^\[\]]*)\])?"
    r"(?:\((?P<params>[^()]*)\))?"
    r"(?:\[(?P<bracket2>[^\[\]]*)\])?"
    r"(?:@(?P<cutoff>[^\s]+))?\s*$"
)
_NUM = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_TREC = re.compile(
    r"^\s*(?P<name>map_cut|ndcg_cut|iprec_at_recall|relative_P|Rprec_mult|recall|success|set_F|"
    r"utility|P)"
    rf"(?:[._](?P<values>{_NUM}(?:,{_NUM})*))?\s*$",
    re.IGNORECASE,
)
_IRCL = re.compile(r"^\s*ircl_prn\.(\d+(?:\.\d*)?)(.*)$", re.S)


def parse_measure(text) -> Measure:
    """Parse one measure (a string, a graphsr measure or an ir_measures measure object).

    Parameters
    ----------
    text : str, Measure or ir_measures measure

    Returns
    -------
    Measure
        Its ``repr`` is the canonical form of ``text``.

    Raises
    ------
    MeasureNameError
        For a malformed string, an unknown name (with the closest known
        ones), a bad parameter, a missing required cut-off, or a trec_eval
        name that names several measures (``P.5,10``: see
        :func:`parse_requests`).

    Examples
    --------
    >>> parse_measure("SRP@10"), parse_measure("SR"), parse_measure("NSRCG(l=1,m=2)@10")
    (SRP@10, SR, NSRCG(m=2)@10)
    >>> parse_measure("nDCG(gains={0:0,1:1,2:3})@10"), parse_measure("NumRelRet")
    (nDCG(gains={2:3})@10, NumRelRet)
    """
    requested = _parse_one(text)
    if len(requested) != 1:
        raise MeasureNameError(
            f"{text!r} names {len(requested)} measures ({', '.join(r.label for r in requested)})"
            "; give one, or ask for the list with graphsr.measures.parse_requests or -m"
        )
    return requested[0].measure


def parse_measures(texts: Iterable) -> list[Measure]:
    """Parse several measures, keeping their order and dropping repeats (trec_eval names of several measures
    are expanded, as :func:`parse_requests` does)."""
    out: list[Measure] = []
    for r in parse_requests(texts):
        if r.measure not in out:
            out.append(r.measure)
    return out


def parse_requests(texts: Iterable) -> list[Requested]:
    """The measures asked for, each with the name it is reported under, in order, repeats dropped.

    A string naming several measures (``P.5,10``, a bare ``P``, ``official``,
    ``all_trec``) gives each under trec_eval's name; an alias or a trec_eval
    name is kept as the label; anything else is labelled with its canonical
    string.

    >>> [(r.label, r.measure) for r in parse_requests(["map", "success.1,5", "SRP@5"])]
    [('map', AP), ('success_1', Success@1), ('success_5', Success@5), ('SRP@5', SRP@5)]
    """
    if isinstance(texts, (str, Measure, Requested)) or _is_ir_measure(texts):
        texts = [texts]
    out: list[Requested] = []
    for t in texts:
        for r in _parse_one(t):
            if r not in out:
                out.append(r)
    return out


# -- the parts -------------------------------------------------------------------------------------------------
def relabel(requests: list[Requested], measures: list[Measure]) -> list[Requested]:
    """``requests`` with their measures replaced by ``measures`` (the same measures with options applied,
    e.g. ``--task``): a measure that changed is reported under its new canonical name."""
    out = []
    for r, m in zip(requests, measures):
        out.append(r if m == r.measure else Requested(repr(m), m))
    return list(dict.fromkeys(out))


def _parse_one(text) -> list[Requested]:
    if isinstance(text, Requested):
        return [text]
    if isinstance(text, Measure):
        m = text.validate()
        return [Requested(repr(m), m)]
    if _is_ir_measure(text):
        m = _from_ir_measures(text)
        return [Requested(repr(m), m)]
    if not isinstance(text, str):
        raise MeasureNameError(
            f"expected a measure: a string such as 'P@10', a graphsr measure or an ir_measures "
            f"measure, got {type(text).__name__} {text!r}"
        )
    stripped = text.strip()
    if stripped in TREC_NICKNAMES:
        return [r for name in TREC_NICKNAMES[stripped] for r in _trec(name, None)]
    stripped = _official_alias(stripped)
    m = _MEASURE.match(stripped)
    if stripped in TREC_NAMES and (
        TREC_NAMES[stripped][1] is not None  # a bare P: P_5 ... P_1000
        or m is None
    ):  # a name no graphsr name looks like: 11pt_avg
        return _trec(stripped, None)
    if m is not None and _registered(m.group("name"), exact=True) is not None:
        return [_from_match(m, stripped, exact=True)]
    t = _TREC.match(stripped)
    if t is not None:
        return _trec(_trec_key(t.group("name")), t.group("values"), typed=stripped)
    if _bare_trec(m, exact=True) is not None:  # map, ndcg, bpref, ...
        return _trec(_bare_trec(m, exact=True), None)
    if m is None:
        raise MeasureNameError(f"cannot parse measure {text!r}; expected Name, Name@k or Name(param=value,...)@k")
    if _registered(m.group("name"), exact=False) is not None:
        return [_from_match(m, stripped, exact=False)]
    if _bare_trec(m, exact=False) is not None:
        return _trec(_bare_trec(m, exact=False), None)
    raise MeasureNameError(_unknown(m.group("name"), stripped[m.end("name") :]))


def _trec_key(name: str, exact: bool = False) -> str | None:
    """trec_eval's spelling of measure name ``name`` (matched without regard to case unless ``exact``)."""
    if name in TREC_NAMES:
        return name
    return None if exact else next((k for k in TREC_NAMES if k.lower() == name.lower()), None)


def _bare_trec(m: re.Match | None, exact: bool) -> str | None:
    """The trec_eval name ``m`` is, when it is one written bare (no parameters, brackets or cut-off)."""
    if m is None or any(m.group(g) for g in ("params", "bracket", "bracket2", "cutoff")):
        return None
    return _trec_key(m.group("name"), exact)


def _trec(name: str, values: str | None, typed: str | None = None) -> list[Requested]:
    """The measures trec_eval's ``name`` (with ``values`` after its ``.`` or ``_``) names, under trec_eval's
    printed names."""
    target, param, defaults, *fixed = TREC_NAMES[name]
    fixed = dict(fixed[0]) if fixed else {}
    if param is None:
        if values:
            raise MeasureNameError(f"{typed or name!r}: trec_eval's {name} takes no parameter")
        return [Requested(name, _build(target, fixed, None))]
    if param in ("beta", "coefficients"):  # the measure's own parameters
        return [_own_parameters(name, values, typed, target, param, fixed)]
    floats = param in ("recall", "mult")
    vals = _trec_values(name, values, typed, param, floats) if values else list(defaults)
    out = []
    for v in vals:
        if floats:
            m = _build(target, {**fixed, param: v}, None)
        else:
            m = _build(target, fixed, v)
        out.append(Requested(trec_label(name, v), m))
    return out


def _own_parameters(name: str, values: str | None, typed: str | None, target: str, param: str, fixed: dict):
    """trec_eval's set_F with its beta, or utility with its four coefficients (none: the defaults)."""
    if not values:
        return Requested(name, _build(target, fixed, None))
    try:
        vals = [float(v) for v in values.split(",")]
    except ValueError:
        raise MeasureNameError(f"{typed or name!r}: expected numbers after {name}.") from None
    if param == "beta":
        if len(vals) != 1:
            raise MeasureNameError(f"{typed or name!r}: set_F takes one parameter, beta")
        return Requested(f"{name}_{values}", _build(target, {**fixed, "beta": vals[0]}, None))
    if len(vals) != 4:
        raise MeasureNameError(
            f"{typed or name!r}: utility takes 4 coefficients (relevant retrieved, "
            "non-relevant retrieved, relevant missed, non-relevant missed)"
        )
    return Requested(f"{name}_{values}", _build(target, {**fixed, **dict(zip("abcd", vals))}, None))


def _trec_values(name: str, values: str, typed: str | None, param: str, floats: bool) -> list:
    """The recall levels, multiples of R or rank cut-offs after trec_eval's ``name``."""
    try:
        return [float(v) if floats else int(v) for v in values.split(",") if v]
    except ValueError:
        what = "recall levels" if param == "recall" else "multiples of R" if param == "mult" else "rank cut-offs"
        raise MeasureNameError(f"{typed or name!r}: expected {what} after {name}") from None


def _build(name: str, params: dict, cutoff) -> Measure:
    return _class(name)(cutoff=cutoff, **params).validate()


def _class(name: str) -> type[Measure]:
    cls = registered(name)
    assert cls is not None, name  # (a name _registered found)
    return cls


def _registered(name: str, exact: bool) -> str | None:
    """The name ``name`` is registered under; without ``exact``, matched without regard to case when that
    names one measure."""
    if registered(name) is not None:
        return name
    if exact:
        return None
    found = [k for k in known_names() if k.lower() == name.lower()]
    return found[0] if len({registered(k) for k in found}) == 1 else None


def _from_match(m: re.Match, text: str, exact: bool) -> Requested:
    name = _registered(m.group("name"), exact)
    cls = _class(name)
    params: dict[str, Any] = {}
    if m.group("params"):
        for part in _split_params(m.group("params")):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise MeasureNameError(f"{text!r}: expected parameters as name=value, got {part!r}")
            params[key.strip()] = _value(value.strip(), text)
    cutoff = None
    if m.group("bracket") is not None and m.group("bracket2") is not None:
        raise MeasureNameError(f"{text!r}: give one [value]")
    bracket = m.group("bracket") if m.group("bracket2") is None else m.group("bracket2")
    if bracket is not None:  # Name[value]: the measure's bracket parameter, e.g. iP[0.01]
        key = cls.BRACKET
        if key is None and not cls.BRACKET_CUTOFF:
            raise MeasureNameError(f"{text!r}: {name} takes no [value]")
        if key is None:  # the official tool's gP[5] is gP@5
            if m.group("cutoff") is not None:
                raise MeasureNameError(f"{text!r}: give the cut-off once, as [k] or @k")
            try:
                cutoff = int(bracket)
            except ValueError:
                raise MeasureNameError(f"{text!r}: expected an integer rank in [ ]") from None
        else:
            params[key] = _value(bracket.strip(), text)
    at = m.group("cutoff")
    if at is not None:
        if cls.AT_PARAM != "cutoff":
            try:
                params[cls.AT_PARAM] = float(at)
            except ValueError:
                raise MeasureNameError(f"{text!r}: expected a number after @, got {at!r}") from None
        else:
            try:
                cutoff = int(at)
            except ValueError:
                raise MeasureNameError(f"{text!r}: expected an integer cut-off after @, got {at!r}") from None
    measure = cls(cutoff=cutoff, **params).validate()
    # an alias is reported under the name asked for
    label = name + repr(measure)[len(cls.NAME) :] if name != cls.NAME else repr(measure)
    return Requested(label, measure)


def _split_params(text: str) -> list[str]:
    """``a=1,gains={0:1,2:3},b='x,y'`` split at the commas outside braces and quotes."""
    parts, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return [p for p in parts if p.strip()]


def _value(s: str, text: str = "") -> Any:
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1]
    if s.startswith("{"):
        if not s.endswith("}"):
            raise MeasureNameError(f"{text!r}: expected a mapping such as {{0:0,1:1,2:3}}, got {s!r}")
        out = {}
        for item in s[1:-1].split(","):
            if not item.strip():
                continue
            k, colon, v = item.partition(":")
            kv, vv = _value(k.strip()), _value(v.strip())
            if not colon or isinstance(kv, str) or isinstance(vv, str):
                raise MeasureNameError(f"{text!r}: expected number:number pairs in {s!r}, got {item.strip()!r}")
            out[kv] = vv
        return out
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return s


def _official_alias(text: str) -> str:
    """The official tool's ``ircl_prn.0.10`` is ``ircl_prn[0.10]``."""
    m = _IRCL.match(text)
    return f"ircl_prn[{m.group(1)}]{m.group(2)}" if m else text


def _unknown(name: str, rest: str) -> str:
    import difflib

    names = list(registry()) + list(TREC_NAMES)
    by_lower: dict[str, str] = {}
    for n in names:
        by_lower.setdefault(n.lower(), n)
    low = name.lower()
    close = difflib.get_close_matches(low, list(by_lower), n=6, cutoff=0.6)
    close = sorted(
        close,
        key=lambda c: (
            sorted(c) != sorted(low),  # the same letters, e.g. swapped, first
            -difflib.SequenceMatcher(None, low, c).ratio(),
        ),
    )[:3]
    if close:
        shown = [_suggestion(by_lower[c], rest) for c in close]
        return (
            f"unknown measure {name!r}; did you mean {', '.join(dict.fromkeys(shown))}? ('graphsr measures' lists "
            "every measure)"
        )
    return f"unknown measure {name!r}; known measures: {', '.join(sorted(registry(), key=str.lower))}"


def _suggestion(name: str, rest: str) -> str:
    """``name`` with what followed the unknown name (``@5``, parameters) when it takes them."""
    if rest:
        try:
            _parse_one(name + rest)
            return name + rest
        except MeasureNameError:
            pass
    return name


# -- ir_measures' measure objects ------------------------------------------------------------------------------
def _is_ir_measure(obj) -> bool:
    """An ir_measures measure object (duck-typed: no import of ir_measures)."""
    return (
        not isinstance(obj, (Measure, str))
        and isinstance(getattr(obj, "params", None), dict)
        and isinstance(getattr(obj, "NAME", None), str)
        and hasattr(obj, "SUPPORTED_PARAMS")
    )


def _from_ir_measures(obj) -> Measure:
    name = _registered(obj.NAME, exact=False)
    if name is None:
        raise MeasureNameError(
            f"ir_measures' {obj!r} has no graphsr counterpart; graphsr computes "
            f"{', '.join(sorted(registry(), key=str.lower))}"
        )
    cls = _class(name)
    if cls.IR_DIFFERS:
        raise MeasureNameError(f"ir_measures' {obj!r} is not graphsr's {cls.NAME}: {cls.IR_DIFFERS}")
    params = dict(obj.params)
    at = getattr(obj, "AT_PARAM", "cutoff")
    cutoff = params.pop("cutoff", None)
    if at != "cutoff" and at != cls.AT_PARAM:
        raise MeasureNameError(f"ir_measures' {obj!r}: its @ sets {at}, graphsr's {cls.NAME} takes {cls.AT_PARAM}")
    try:
        return cls(cutoff=cutoff, **params).validate()
    except MeasureNameError as exc:
        raise MeasureNameError(f"ir_measures' {obj!r}: {exc}") from None
