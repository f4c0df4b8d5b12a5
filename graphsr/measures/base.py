"""Measure objects, the registry of measure names and the measure-string parser.

A measure is a small declarative object: a name, supported parameters and an
optional rank cut-off.  Its canonical string (``repr``) round-trips through
:func:`parse_measure`, and equality and hashing come from that string, so one
object serves as a dict key, a CLI argument and a report label::

    SRP@10        SR           SR@5        iP[0.01]
    Name(param=value,...)@cutoff           Name[value]

The arithmetic lives elsewhere (one package per family,
:data:`FAMILY_PACKAGES`); a measure names its family, whose provider
(:mod:`graphsr.measures.provider`) scores it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import MeasureNameError

__all__ = ["Param", "Measure", "register", "registry", "parse_measure", "parse_measures", "format_param",
           "FAMILY_PACKAGES"]


@dataclass(frozen=True)
class Param:
    """One supported parameter: its type, default and a one-line description."""

    dtype: type
    default: Any = None
    desc: str = ""


class Measure:
    """Base class of every measure.

    Subclasses set ``NAME``, ``DESCRIPTION``, ``SUPPORTED_PARAMS``,
    ``CUTOFF`` (``'optional'``, ``'required'`` or ``'none'``) and ``FAMILY``
    (the name of the module-level family that computes it).  ``INTEGER``
    marks counts (printed as integers); ``AGGREGATE`` says how the ``all``
    value is formed (``'mean'`` over topics, or ``'sum'``; :meth:`aggregate`).
    ``BOUNDS`` is the range every per-topic value lies in (None: not
    bounded, e.g. SR@k up to k); ``EMPTY`` the value of a topic the run does
    not answer (None where it depends on the assessments, e.g. the number of
    relevant articles).  ``GRADES`` marks measures that need INEX (e, s)
    assessments, not one value per element.  ``ANY_SCALE`` marks measures
    that read relevance values above 1 (TREC-style grades) as trec_eval
    does; the others need SR's [0, 1].  The registry-wide tests hold every
    measure to them.
    """

    NAME: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""
    SUPPORTED_PARAMS: ClassVar[dict[str, Param]] = {}
    CUTOFF: ClassVar[str] = "optional"
    FAMILY: ClassVar[str] = ""
    INTEGER: ClassVar[bool] = False
    AGGREGATE: ClassVar[str] = "mean"
    BOUNDS: ClassVar[tuple[float, float] | None] = None
    EMPTY: ClassVar[float | None] = 0.0
    GRADES: ClassVar[bool] = False
    ANY_SCALE: ClassVar[bool] = False

    def __init__(self, cutoff: int | None = None, **params: Any):
        if cutoff is not None:
            if self.CUTOFF == "none":
                raise MeasureNameError(f"{self.NAME} takes no @cutoff")
            if isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1:
                raise MeasureNameError(f"{self.NAME}: expected a positive integer cut-off, got {cutoff!r}")
        unknown = set(params) - set(self.SUPPORTED_PARAMS)
        if unknown:
            known = ", ".join(self.SUPPORTED_PARAMS) or "none"
            raise MeasureNameError(f"{self.NAME}: unknown parameter(s) {', '.join(sorted(unknown))}; "
                                   f"supported: {known}")
        values = {}
        for name, spec in self.SUPPORTED_PARAMS.items():
            v = params.get(name, spec.default)
            if v is not None and not isinstance(v, spec.dtype):
                try:
                    v = spec.dtype(v)
                except (TypeError, ValueError):
                    raise MeasureNameError(f"{self.NAME}: parameter {name} expects {spec.dtype.__name__}, "
                                           f"got {v!r}") from None
            values[name] = v
        self.cutoff = cutoff
        self.params = values
        self.given = frozenset(k for k, v in params.items() if v is not None)  # named, not defaulted

    # -- ir_measures-style construction ------------------------------------
    def __call__(self, **params: Any) -> "Measure":
        return type(self)(cutoff=self.cutoff, **{**{k: self.params[k] for k in self.given}, **params})

    def __matmul__(self, cutoff: int) -> "Measure":
        return type(self)(cutoff=cutoff, **{k: self.params[k] for k in self.given})

    def with_defaults(self, **params: Any) -> "Measure":
        """The same measure with ``params`` set where the measure takes them and its string left them
        unset (how command-line options such as ``--beta`` apply to ``-m`` measures)."""
        extra = {k: v for k, v in params.items()
                 if v is not None and k in self.SUPPORTED_PARAMS and k not in self.given}
        return self(**extra).validate() if extra else self

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    # -- canonical form ----------------------------------------------------
    def __repr__(self) -> str:
        shown = [f"{k}={_fmt(v)}" for k, v in self.params.items()
                 if v is not None and v != self.SUPPORTED_PARAMS[k].default]
        s = self.NAME + (f"({','.join(shown)})" if shown else "")
        return s + (f"@{self.cutoff}" if self.cutoff is not None else "")

    def __str__(self) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Measure) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def aggregate(self, values) -> float:
        """The ``all`` value of per-topic ``values``: their mean, or their sum for ``AGGREGATE = 'sum'``
        (0 without topics)."""
        if len(values) == 0:
            return 0.0
        return float(values.sum()) if self.AGGREGATE == "sum" else float(values.mean())

    def validate(self) -> "Measure":
        """Check what cannot be checked piecewise (a required cut-off)."""
        if self.CUTOFF == "required" and self.cutoff is None:
            raise MeasureNameError(f"{self.NAME} needs a rank cut-off, e.g. {self.NAME}@10")
        return self

    # -- the measure protocol of ir_measures (see graphsr.measures.interop) ------------------------------
    RUN_INPUTS: ClassVar[list[str]] = ["query_id", "doc_id", "score"]
    QREL_INPUTS: ClassVar[list[str]] = ["query_id", "doc_id", "relevance"]

    @property
    def DEFAULT(self) -> float:  # noqa: N802 (ir_measures' name)
        """The value ir_measures gives a topic the run lacks: :attr:`EMPTY` (0 where that depends on the
        assessments)."""
        return 0.0 if self.EMPTY is None else float(self.EMPTY)

    def validate_params(self) -> None:
        """ir_measures' check; a graphsr measure is checked when it is built."""
        self.validate()

    def runtime_impl(self, qrels, run):
        """Score this measure inside ir_measures (its runtime provider): ``Metric`` per topic."""
        from ir_measures import Metric

        for topic, value in RUNTIME["values"](self, qrels, run):
            yield Metric(topic, self, value)

    def aggregator(self) -> "MeasureAggregator":
        """ir_measures' aggregator: ``add(value)`` per topic, then ``result()`` (:meth:`aggregate`)."""
        return MeasureAggregator(self)


class MeasureAggregator:
    """ir_measures' aggregator protocol (``add``, ``result``) over a measure's own :meth:`Measure.aggregate`."""

    def __init__(self, measure: Measure):
        self.measure, self.values = measure, []

    def add(self, value: float) -> None:
        self.values.append(value)

    def result(self) -> float:
        import numpy as np

        return self.measure.aggregate(np.asarray(self.values, dtype=float))


# how a measure scores plain DataFrames inside ir_measures: set by graphsr.measures.interop (imported with
# graphsr.measures), which needs the providers -- modules that themselves build on this one
RUNTIME: dict[str, Any] = {}


def format_param(v: Any) -> str:
    """A parameter value as measure strings write it (``1`` for 1.0)."""
    return _fmt(v)


def _fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 1e15 else repr(v)
    return str(v)


_REGISTRY: dict[str, type[Measure]] = {}


def register(cls: type[Measure], *aliases: str) -> type[Measure]:
    """Add a measure class to the registry under its NAME (and aliases)."""
    for name in (cls.NAME, *aliases):
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise ValueError(f"measure name {name!r} registered twice")
        _REGISTRY[name] = cls
    return cls


#: The measure families: each is a package here that registers its measures and its provider
#: (:mod:`graphsr.measures.provider`) when imported.  They are named, not imported, so that this module stays
#: below them: a new family is a package of its own plus its name here.
FAMILY_PACKAGES = ("sr", "esr", "fol", "prum", "xcg", "flat")


def registry() -> dict[str, type[Measure]]:
    """Every registered measure, by name (loading the family modules on first use)."""
    import importlib

    for package in FAMILY_PACKAGES:
        importlib.import_module(f"{__package__}.{package}")
    return dict(_REGISTRY)


_MEASURE = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z0-9_.]*)"
                      r"(?:\[(?P<bracket>[^\[\]]*)\])?"
                      r"(?:\((?P<params>[^()]*)\))?"
                      r"(?:\[(?P<bracket2>[^\[\]]*)\])?"
                      r"(?:@(?P<cutoff>[^\s]+))?\s*$")


def parse_measure(text: str | Measure) -> Measure:
    """Parse a measure string such as ``SRP@10`` into a measure object.

    Parameters
    ----------
    text : str or Measure

    Returns
    -------
    Measure
        Its ``repr`` is the canonical form of ``text``.

    Raises
    ------
    MeasureNameError
        For a malformed string, an unknown name (listing the known ones), a
        bad parameter or a missing required cut-off.

    Examples
    --------
    >>> from graphsr.measures import parse_measure
    >>> parse_measure("SRP@10")
    SRP@10
    >>> parse_measure("SR")
    SR
    >>> parse_measure("NSRCG(l=1,m=2)@10")
    NSRCG(m=2)@10
    >>> parse_measure("XYZ@3")
    Traceback (most recent call last):
    ...
    graphsr.errors.MeasureNameError: unknown measure 'XYZ'; known measures: AP, AgP, AiP, ...
    """
    if isinstance(text, Measure):
        return text.validate()
    reg = registry()
    text = _official_alias(text)
    m = _MEASURE.match(text)
    if m is None:
        raise MeasureNameError(f"cannot parse measure {text!r}; expected Name, Name@k or Name(param=value,...)@k")
    name = m.group("name")
    cls = reg.get(name)
    if cls is None:
        raise MeasureNameError(f"unknown measure {name!r}; known measures: {', '.join(sorted(reg))}")
    params: dict[str, Any] = {}
    if m.group("params"):
        for part in m.group("params").split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise MeasureNameError(f"{text!r}: expected parameters as name=value, got {part!r}")
            params[key.strip()] = _value(value.strip())
    cutoff = None
    bracket = m.group("bracket") if m.group("bracket2") is None else m.group("bracket2")
    if m.group("bracket") is not None and m.group("bracket2") is not None:
        raise MeasureNameError(f"{text!r}: give one [value]")
    if bracket is not None:  # Name[value]: the measure's bracket parameter, e.g. iP[0.01]
        key = getattr(cls, "BRACKET", None)
        if key is None and not getattr(cls, "BRACKET_CUTOFF", False):
            raise MeasureNameError(f"{text!r}: {name} takes no [value]")
        if key is None:  # the official tool's gP[5] is gP@5
            if m.group("cutoff") is not None:
                raise MeasureNameError(f"{text!r}: give the cut-off once, as [k] or @k")
            try:
                cutoff = int(bracket)
            except ValueError:
                raise MeasureNameError(f"{text!r}: expected an integer rank in [ ]") from None
        else:
            params[key] = _value(bracket.strip())
    if m.group("cutoff") is not None:
        try:
            cutoff = int(m.group("cutoff"))
        except ValueError:
            raise MeasureNameError(f"{text!r}: expected an integer cut-off after @, got "
                                   f"{m.group('cutoff')!r}") from None
    return cls(cutoff=cutoff, **params).validate()


_IRCL = re.compile(r"^\s*ircl_prn\.(\d+(?:\.\d*)?)(.*)$", re.S)


def _official_alias(text: str) -> str:
    """The official tool's ``ircl_prn.0.10`` is ``ircl_prn[0.10]``."""
    m = _IRCL.match(text)
    return f"ircl_prn[{m.group(1)}]{m.group(2)}" if m else text


def _value(s: str) -> Any:
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return s


def parse_measures(texts: list[str]) -> list[Measure]:
    """Parse several measure strings, keeping their order and dropping repeats."""
    out: list[Measure] = []
    for t in texts:
        m = parse_measure(t)
        if m not in out:
            out.append(m)
    return out

