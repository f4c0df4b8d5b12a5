"""Measure objects and the registry of measure names (the parser of measure strings is
:mod:`graphsr.measures.parse`).

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

from .._records import record
from typing import Any, ClassVar

from .._interop import measure_base
from .._ranges import admits, interval
from ..errors import MeasureNameError

__all__ = ["Param", "Measure", "register", "registry", "measure_classes", "format_param", "FAMILY_PACKAGES", "GM_FLOOR"]

#: The least value a topic counts for in a geometric mean over topics (trec_eval's MIN_GEO_MEAN: gm_map, gm_bpref).
GM_FLOOR = 0.00001


@record(frozen=True)
class Param:
    """One supported parameter: its type, default and a one-line description; ``canon`` (optional) turns a
    given value into its canonical form (e.g. ``generalised`` into ``gen``), raising ``ValueError`` for a
    value the parameter cannot take; ``range`` (numbers) the interval its values lie in, in interval
    notation (``"(0, 1]"``, ``"[1, inf)"``); ``choices`` the values it takes, where they are few.  A number
    parameter is always finite (nan and inf are refused); a mapping's values are finite numbers."""

    dtype: type
    default: Any = None
    desc: str = ""
    canon: Any = None
    range: str | None = None
    choices: tuple | None = None

    def __post_init__(self):
        if self.range is not None:
            interval(self.range)  # a malformed declaration fails at import, not at use

    def admits(self, v: float) -> bool:
        """Whether the number ``v`` lies in :attr:`range` (any finite number when none is declared)."""
        return admits(self.range, v)


class Measure(measure_base()):
    """Base class of every measure (an ``ir_measures.Measure`` where ir_measures is installed:
    :mod:`graphsr._interop`).

    Subclasses set ``NAME``, ``DESCRIPTION``, ``SUPPORTED_PARAMS``,
    ``CUTOFF`` (``'optional'``, ``'required'`` or ``'none'``) and ``FAMILY``
    (the name of the module-level family that computes it).  ``INTEGER``
    marks counts (printed as integers); ``AGGREGATE`` says how the ``all``
    value is formed (``'mean'`` over topics, ``'sum'`` or ``'gm'``, the geometric mean; :meth:`aggregate`).
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
    AT_PARAM: ClassVar[str] = "cutoff"  # what ``@x`` sets: the cut-off, or a parameter (IPrec@0.5: recall)
    #: What the cut-off counts: ``results`` (the first k of the ranking), or ``characters`` (budgetP@B: the first
    #: B characters read).
    CUTOFF_UNIT: ClassVar[str] = "results"
    #: How the measure differs from ir_measures' measure of the same name, where it does (None: it is that
    #: measure, or ir_measures has none): such a measure is never equal to ir_measures', nor read from it.
    IR_DIFFERS: ClassVar[str | None] = None
    TOP_LEVEL: ClassVar[bool] = False  # given by ``import graphsr`` too (graphsr.SRP)
    BRACKET: ClassVar[str | None] = None  # the parameter written in brackets (iP[0.01], GRP[0.5]), if any
    BRACKET_CUTOFF: ClassVar[bool] = False  # whether NAME[k] reads as NAME@k (the official tool's gP[5])
    FAMILY: ClassVar[str] = ""
    INTEGER: ClassVar[bool] = False
    AGGREGATE: ClassVar[str] = "mean"
    BOUNDS: ClassVar[tuple[float, float] | None] = None
    EMPTY: ClassVar[float | None] = 0.0
    GRADES: ClassVar[bool] = False
    ANY_SCALE: ClassVar[bool] = False

    def __init__(self, cutoff: int | None = None, **params: Any):
        self.validated = True  # (ir_measures' flag: a graphsr measure is checked as it is built)
        if cutoff is not None:
            if self.CUTOFF == "none":
                raise MeasureNameError(f"{self.NAME} takes no @cutoff")
            if isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1:
                raise MeasureNameError(f"{self.NAME}: expected a positive integer cut-off, got {cutoff!r}")
        unknown = set(params) - set(self.SUPPORTED_PARAMS)
        if unknown:
            known = ", ".join(self.SUPPORTED_PARAMS) or "none"
            raise MeasureNameError(
                f"{self.NAME}: unknown parameter(s) {', '.join(sorted(unknown))}; supported: {known}"
            )
        values = {}
        for name, spec in self.SUPPORTED_PARAMS.items():
            v = params.get(name, spec.default)
            if v is not None:
                v = _convert(self.NAME, name, spec, v)
            values[name] = v
        self.cutoff = cutoff
        self.params = values
        self.given = frozenset(k for k, v in params.items() if v is not None)  # named, not defaulted

    #: The scoring context a bound measure carries (:meth:`bind`): its collection and navigation models.
    context: Any = None

    # -- ir_measures-style construction ------------------------------------
    def __call__(self, **params: Any) -> "Measure":
        return self._bound(type(self)(cutoff=self.cutoff, **{**{k: self.params[k] for k in self.given}, **params}))

    def __matmul__(self, at: Any) -> "Measure":
        given = {k: self.params[k] for k in self.given}
        if self.AT_PARAM != "cutoff":
            return self._bound(type(self)(cutoff=self.cutoff, **{**given, self.AT_PARAM: at}))
        return self._bound(type(self)(cutoff=at, **given))

    def bind(self, context) -> "Measure":
        """This measure carrying ``context`` (a :class:`~graphsr.measures.provider.ScoringContext`: the collection's
        documents and navigation models, e.g. ``graphsr.load_collection(path, ["p*|c"]).context("p*|c:length")``)
        wherever it goes: through ``@k`` and parameters, :func:`graphsr.evaluate` and :func:`graphsr.calc_aggregate`
        (which score it under its own context), ``ir_measures.calc_aggregate``/``iter_calc`` and PyTerrier's
        ``pt.Experiment``, which have no argument for a collection.  Its name shows the model:
        ``SRP@10[p*|c:length]``."""
        bound = type(self)(cutoff=self.cutoff, **{k: self.params[k] for k in self.given})
        bound.context = context
        return bound

    def _bound(self, other: "Measure") -> "Measure":
        if self.context is not None:
            other.context = self.context
        return other

    def with_defaults(self, **params: Any) -> "Measure":
        """The same measure with ``params`` set where the measure takes them and its string left them
        unset (how command-line options such as ``--beta`` apply to ``-m`` measures)."""
        extra = {
            k: v for k, v in params.items() if v is not None and k in self.SUPPORTED_PARAMS and k not in self.given
        }
        return self(**extra).validate() if extra else self

    def __getitem__(self, key: str) -> Any:
        """A parameter's value.  Where ir_measures is installed it answers as ir_measures' measures do, so that
        its providers read graphsr's measures as their own: a measure ir_measures also has (P, nDCG, AP...)
        answers as that measure of the same parameters (``P@10["rel"]`` is 1, ``["cutoff"]`` 10); any other
        answers its own parameters and cut-off, and a parameter it does not take is ir_measures' "not provided"
        (its providers then find the measure unsupported rather than crash).  Without ir_measures: the
        parameters the measure takes, else KeyError."""
        if _IR_BASE is object:
            return self.params[key]
        twin = self._twin()
        if twin is not None and key in twin.SUPPORTED_PARAMS:
            return twin[key]
        if key in self.params:
            return self.params[key]
        if key == "cutoff" and self.cutoff is not None:
            return self.cutoff
        from ir_measures.providers.base import NOT_PROVIDED

        return NOT_PROVIDED

    def _twin(self):
        """ir_measures' own measure of this name and parameters, or None where it has none (made once per
        measure: parameter look-ups ask for it on scoring paths)."""
        if "_ir_twin" in self.__dict__:
            return self.__dict__["_ir_twin"]
        from ir_measures.measures import registry as ir_registry

        twin = None
        base = None if self.IR_DIFFERS else ir_registry.get(self.NAME)  # most have none: SRP, MAgP, PRUM...
        if base is not None:
            given = {k: v for k, v in self.params.items() if v is not None and k in self.given}
            if self.cutoff is not None:
                given["cutoff"] = self.cutoff
            if set(given) <= set(base.SUPPORTED_PARAMS):  # (a parameter ir_measures' lacks: another measure)
                for k, v in given.items():  # as ir_measures types them: rel=2, not 2.0
                    if base.SUPPORTED_PARAMS[k].dtype is int and isinstance(v, float) and v.is_integer():
                        given[k] = int(v)
                twin = base(**given)
        self.__dict__["_ir_twin"] = twin
        return twin

    # -- canonical form ----------------------------------------------------
    def __repr__(self) -> str:
        return self.canonical() + self.bound_suffix()

    def bound_suffix(self) -> str:
        """``[MODEL]`` for a bound measure (the model its context navigates by), else nothing."""
        if self.context is None:
            return ""
        return f"[{getattr(self.context, 'model_name', '') or 'bound'}]"

    def canonical(self) -> str:
        """The measure's canonical string (what :func:`parse_measure` reads back), without a binding: one rule
        for every measure, ``NAME[bracket](param=value,...)@at`` -- the bracket parameter (:attr:`BRACKET`) in
        brackets, the other parameters that differ from their defaults in parentheses, then ``@`` and the
        cut-off (or the parameter :attr:`AT_PARAM` names)."""
        shown = self._shown()
        s = self.NAME + self._bracket() + (f"({','.join(shown)})" if shown else "")
        if self.AT_PARAM != "cutoff":
            at = self.params.get(self.AT_PARAM)
            return s + (f"@{float(at)!r}" if at is not None else "")
        return s + (f"@{self.cutoff}" if self.cutoff is not None else "")

    def _bracket(self) -> str:
        """``[x]`` for a measure whose :attr:`BRACKET` parameter is set."""
        x = self.params.get(self.BRACKET) if self.BRACKET else None
        return "" if x is None else f"[{_fmt(x)}]"

    def _shown(self) -> list[str]:
        """``param=value`` of the parameters written in parentheses: those that differ from their defaults,
        but the bracket and ``@`` ones."""
        return [
            f"{k}={_fmt(v)}"
            for k, v in self.params.items()
            if v is not None and v != self.SUPPORTED_PARAMS[k].default and k not in (self.AT_PARAM, self.BRACKET)
        ]

    def __str__(self) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Measure):
            return repr(self) == repr(other)
        if _IR_BASE is not object and isinstance(other, _IR_BASE):  # ir_measures' own: equal when it means this
            if self.IR_DIFFERS:
                return False
            twin = self._twin()
            return repr(self) == repr(other) or (twin is not None and twin == other)
        return False

    def __hash__(self) -> int:
        """The hash of its string, or, for a measure ir_measures also has, of ir_measures' string for it (which
        writes some parameters otherwise: ``dcg='exp-log2'``), so that equal measures of both hash alike."""
        h = self.__dict__.get("_hash")
        if h is None:
            twin = self._twin() if _IR_BASE is not object and self.context is None else None
            h = self.__dict__["_hash"] = hash(repr(twin) if twin is not None else repr(self))
        return h

    def aggregate(self, values) -> float:
        """The ``all`` value of per-topic ``values``: their mean, their sum for ``AGGREGATE = 'sum'``, or their
        geometric mean for ``'gm'`` (each value at least :data:`GM_FLOOR`, as trec_eval's gm_map) (0 without topics)."""
        if len(values) == 0:
            return 0.0
        if self.AGGREGATE == "sum":
            return float(values.sum())
        if self.AGGREGATE == "gm":
            import numpy as np

            return float(np.exp(np.log(np.maximum(values, GM_FLOOR)).mean()))
        return float(values.mean())

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
        import importlib

        from ir_measures import Metric

        # (graphsr.measures.interop builds on the providers, which build on this module: named, not imported)
        runtime_values = importlib.import_module(f"{__package__}.interop").runtime_values
        for topic, value in runtime_values(self, qrels, run):
            yield Metric(topic, self, value)

    def aggregator(self) -> "MeasureAggregator":
        """ir_measures' aggregator: ``add(value)`` per topic, then ``result()`` (:meth:`aggregate`)."""
        return MeasureAggregator(self)


#: The base class graphsr's measures were built on (ir_measures.Measure, or object).
_IR_BASE = Measure.__mro__[1]


class MeasureAggregator:
    """ir_measures' aggregator protocol (``add``, ``result``) over a measure's own :meth:`Measure.aggregate`."""

    def __init__(self, measure: Measure):
        self.measure, self.values = measure, []

    def add(self, value: float) -> None:
        self.values.append(value)

    def result(self) -> float:
        import numpy as np

        return self.measure.aggregate(np.asarray(self.values, dtype=float))


def format_param(v: Any) -> str:
    """A parameter value as measure strings write it (``1`` for 1.0; a mapping as ``{0:1,2:3}``, as
    ir_measures writes it)."""
    return _fmt(v)


def _fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 1e15 else repr(v)
    if isinstance(v, dict):
        return "{" + ",".join(f"{_fmt(k)}:{_fmt(x)}" for k, x in sorted(v.items())) + "}"
    return str(v)


_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


def _convert(measure: str, name: str, spec: Param, v: Any) -> Any:
    """``v`` as parameter ``name`` of ``measure`` takes it (its type, then its canonical form)."""
    v = _typed(measure, name, spec, v)
    if spec.dtype is dict:
        import math

        for k, x in v.items():
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise MeasureNameError(
                    f"{measure}: parameter {name} expects finite numbers as values, got {k!r}: {x!r}"
                )
    if spec.canon is not None:
        try:
            v = spec.canon(v)
        except (TypeError, ValueError) as exc:
            raise MeasureNameError(f"{measure}: parameter {name}: {exc}") from None
    if spec.dtype in (int, float) and not spec.admits(v):
        where = f"in {spec.range}" if spec.range else "a finite number"
        raise MeasureNameError(f"{measure}: parameter {name} expects {spec.dtype.__name__} {where}, got {v!r}")
    if spec.choices is not None and v not in spec.choices:
        raise MeasureNameError(
            f"{measure}: parameter {name} expects one of {', '.join(map(str, spec.choices))}, got {v!r}"
        )
    return v


def _typed(measure: str, name: str, spec: Param, v: Any) -> Any:
    """``v`` of parameter ``name``'s type (booleans from their words, integers from floats that hold one)."""
    expected = spec.dtype.__name__
    if spec.dtype is bool and not isinstance(v, bool):
        text = str(v).strip().lower()
        if text not in _TRUE + _FALSE:
            raise MeasureNameError(f"{measure}: parameter {name} expects true or false, got {v!r}")
        return text in _TRUE
    if spec.dtype is dict and not isinstance(v, dict):
        raise MeasureNameError(f"{measure}: parameter {name} expects a mapping such as {{0:0,1:1,2:3}}, got {v!r}")
    if spec.dtype in (int, float) and (isinstance(v, bool) or not isinstance(v, (int, float, str))):
        raise MeasureNameError(f"{measure}: parameter {name} expects {expected}, got {v!r}")
    if spec.dtype is int and isinstance(v, float):
        if not v.is_integer():
            raise MeasureNameError(f"{measure}: parameter {name} expects an integer, got {v!r}")
        return int(v)
    if not isinstance(v, spec.dtype):
        try:
            return spec.dtype(v)
        except (TypeError, ValueError):
            raise MeasureNameError(f"{measure}: parameter {name} expects {expected}, got {v!r}") from None
    return v


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
FAMILY_PACKAGES = ("sr", "esr", "fol", "prum", "xcg", "flat", "span", "diversity", "nq")


def registry() -> dict[str, type[Measure]]:
    """Every registered measure, by name (loading the family modules on first use)."""
    import importlib

    from ._index import FAMILY_OF

    for module in dict.fromkeys(FAMILY_OF.values()):  # (the declaration modules, each registering its measures)
        importlib.import_module(f"{__package__}.{module}")
    for package in FAMILY_PACKAGES:  # (a family the index does not know yet registers when imported)
        importlib.import_module(f"{__package__}.{package}")
    return dict(_REGISTRY)


def registered(name: str) -> type[Measure] | None:
    """The measure registered under ``name`` (None: none is), loading only the module that declares it
    (:mod:`graphsr.measures._index`, generated from the declarations)."""
    cls = _REGISTRY.get(name)
    if cls is None:
        from ._index import FAMILY_OF

        import importlib

        module = FAMILY_OF.get(name)
        if module is None:  # (the families the index does not know yet load: they may declare it)
            indexed = {m.split(".")[0] for m in FAMILY_OF.values()}
            for package in FAMILY_PACKAGES:
                if package not in indexed:
                    importlib.import_module(f"{__package__}.{package}")
        else:
            importlib.import_module(f"{__package__}.{module}")
        cls = _REGISTRY.get(name)
    return cls


def known_names() -> list[str]:
    """Every name a measure is registered under (the index's, without loading a family, and those of any family
    loaded that it does not list yet)."""
    from ._index import FAMILY_OF

    return list(dict.fromkeys([*FAMILY_OF, *_REGISTRY]))


def measure_classes() -> dict[str, type[Measure]]:
    """Every registered measure once, by its own name (aliases left out)."""
    return {cls.NAME: cls for cls in dict.fromkeys(registry().values())}
