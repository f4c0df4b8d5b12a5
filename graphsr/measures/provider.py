"""Measure families as providers: what a family scores, from which inputs, and how.

As ir_measures' providers, each family (``sr``, ``esr``, ``fol``, ...) is one
package under :mod:`graphsr.measures` that declares its measures, and
registers one :class:`Provider` saying

* which inputs it scores (:attr:`Provider.ASSESSMENTS`, :attr:`Provider.RUNS`:
  ``element`` -- :class:`~graphsr.core.qrels.ElementQrels` and
  :class:`~graphsr.core.run.Run` -- or ``passage`` --
  :class:`~graphsr.core.fol.FOLQrels` and :class:`~graphsr.core.fol.FOLRun`),
* what else it needs from the :class:`ScoringContext` (documents, an SR
  navigation model, a navigation model learned from routes),
* and how to score: :meth:`Provider.evaluator` builds the family's inputs from
  the assessments once, and the evaluator's ``score`` builds a run's inputs
  and calls the family's kernel (a pure function over arrays).

:func:`graphsr.evaluation.evaluate` groups the requested measures by
provider, checks every provider against the inputs (one clear line when a
measure cannot score them), and merges the evaluators' per-topic values.
Inputs several families build the same way (a run's nodes resolved against
the collection) are built once per run: evaluators share a :class:`Scratch`.

A new family is a package here (measures, provider, kernel) and its name in
:data:`graphsr.measures.base.FAMILY_PACKAGES`.
"""

from __future__ import annotations

from .._records import record, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from ..errors import GraphsrInputError
from .base import FAMILY_PACKAGES, Measure, registry

if TYPE_CHECKING:  # (an annotation only: the trees' module is not imported where no tree is read)
    from ..core.document import DocumentTree

__all__ = [
    "NoNavigation",
    "ELEMENT",
    "PASSAGE",
    "PYTHON_WORDING",
    "worded",
    "ScoringContext",
    "Scratch",
    "RunScores",
    "Provider",
    "register_provider",
    "provider_of",
    "providers",
    "input_kind",
]

ELEMENT, PASSAGE = "element", "passage"

#: How a Python caller gives what a message points to: ``option:NAME`` an option, ``needs:NEED`` what a context
#: may have to hold (for the error when it does not).  An interface with its own words (the command line's are
#: in :mod:`graphsr.cli.wording`) gives a table with the same keys, read through :func:`worded`.
PYTHON_WORDING = {
    "option:lenient": "lenient=True",
    "option:order=rank": "order='rank'",
    "option:all_topics": "all_topics=True",
    "option:collection": "collection=PATH",
    "option:store": "store=URL",
    "option:model": "model=NAME",
    "option:model_spec": "model='SUMMARY:WEIGHT'",
    "option:routes": "routes=LOG",
    "option:routes_model": "routes_model=NAME",
    "option:chunks": "chunks=MAP",
    "option:ties=average": "ties='average'",
    "needs:documents": "the collection's documents: context=graphsr.load_collection(path).context(), or collection= "
    "in graphsr.calc_aggregate",
    "needs:navigation": "an SR navigation model: context=graphsr.load_collection(path, ['p*']).context('p*:extent') "
    "('none' for no navigation)",
    "needs:routes": "navigation learned from route steps: a context built with graphsr.evaluation.element_context("
    "..., routes=LOG) or routes_model=NAME, or nav='depth4' for the depth prior",
    "needs:size": "the collection's size in elements: context=graphsr.load_collection(path).context()",
    "needs:chunks": "the chunking's chunk map: context=ScoringContext(chunks=graphsr.read_chunk_map(PATH)), or "
    "chunks=MAP in graphsr.evaluation.evaluate_files",
}


def worded(wording: Mapping[str, str] | None, key: str) -> str:
    """How ``key`` (a key of :data:`PYTHON_WORDING`) reads in ``wording`` (None: Python's words)."""
    return (wording or PYTHON_WORDING).get(key) or PYTHON_WORDING[key]


@record
class ScoringContext:
    """What scoring needs besides assessments and runs, and how to treat what does not fit.

    Attributes
    ----------
    documents : mapping of docid to DocumentTree, optional
        Every document the runs and assessments name (element inputs).
    seen_of : callable, optional
        ``seen_of(docid)`` -> per-node SR seen probability ``p(e;f)`` (SR Eq 7).
    model_name : str
        The SR navigation model's name, for reports.
    route_model : RouteModel, optional
        Navigation learned from route steps (the ESR measures).
    num_elements : int, optional
        The number of elements of the whole collection (PRUM's unranked part).
    unknown : {'error', 'warn'}
        Element lines naming unknown documents or nodes: raise, or drop and report.
    order : {'file', 'rank'}
        Order of a passage run's results within a topic (the official tool: file).
    lenient : bool
        Score passage runs the official tool refuses, with a warning.
    wording : mapping, optional
        How messages name options and needs, where the user is (keys of
        :data:`PYTHON_WORDING`; None: as a Python caller gives them).
    ties : {'trec_eval', 'average'}
        Results tied in score: ordered as trec_eval orders them (score, then
        document name, both descending), or every rank measure's expected
        value over all orderings of the tied results
        (:mod:`graphsr.measures.flat.ties`).
    chunks : mapping of chunk id to (docid, start, end), optional
        The chunking a chunk run was retrieved from, every chunk of it
        (:func:`graphsr.io.chunks.read_chunk_map`): Chroma's measures without
        a cut-off read as many results as its chunks touch references.
    """

    documents: Mapping[str, DocumentTree] | None = None
    seen_of: Callable[[str], np.ndarray] | None = None
    model_name: str = ""
    route_model: Any = None
    num_elements: int | None = None
    unknown: str = "error"
    order: str = "file"
    lenient: bool = False
    wording: Mapping[str, str] | None = None
    chunks: Mapping[str, tuple[str, int, int]] | None = None
    ties: str = "trec_eval"

    def __post_init__(self) -> None:
        if self.ties not in ("trec_eval", "average"):
            raise ValueError(f"ties must be 'trec_eval' or 'average', got {self.ties!r}")
        if self.unknown not in ("error", "warn"):
            raise ValueError(f"unknown must be 'error' or 'warn', got {self.unknown!r}")
        if self.order not in ("file", "rank"):
            raise ValueError(f"order must be 'file' or 'rank', got {self.order!r}")

    def option(self, name: str) -> str:
        """How the user gives option ``name`` where they are (``option:NAME`` of :data:`PYTHON_WORDING`)."""
        return worded(self.wording, f"option:{name}")

    def needs_text(self, need: str) -> str:
        """What to give for ``need`` (``documents``, ``navigation``, ``routes``, ``size``), in the user's
        terms."""
        return worded(self.wording, f"needs:{need}")

    def has(self, need: str) -> bool:
        """Whether the context holds ``need`` (``documents``, ``navigation``, ``routes``, ``size``, ``chunks``)."""
        return {
            "documents": self.documents,
            "navigation": self.seen_of,
            "routes": self.route_model,
            "size": self.num_elements,
            "chunks": self.chunks,
        }[need] is not None


class NoNavigation:
    """``seen_of`` without navigation: every node's ``p(e;f)`` is 0 (how plain documents are scored)."""

    def __init__(self, documents: Mapping[str, DocumentTree]):
        self.documents = documents

    def __call__(self, docid: str) -> np.ndarray:
        return np.zeros(len(self.documents[docid]))


@record
class Scratch:
    """Inputs built once and shared by the evaluators scoring one thing (the assessments, or one run),
    and the warnings building them produced."""

    memo: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def get(self, key: str, build: Callable[[], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = build()
        return self.memo[key]


@record
class RunScores:
    """One evaluator's values for one run: ``values[m][k]`` for topic ``k``; ``overall`` the ``all``
    values that are not the measure's own aggregate of them (the official tool's); warnings; the run id
    the run names, where the family reads one."""

    values: dict[Measure, np.ndarray]
    overall: dict[Measure, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    run_id: str | None = None


class Provider:
    """A measure family's provider (see the module docstring)."""

    NAME: ClassVar[str] = ""
    ASSESSMENTS: ClassVar[frozenset] = frozenset({ELEMENT})
    RUNS: ClassVar[frozenset] = frozenset({ELEMENT})
    DESCRIPTION: ClassVar[str] = ""  # what its measures are, for messages ("Structural Relevance")
    TITLE: ClassVar[str] = ""  # its heading in 'graphsr measures'
    #: Whether its measures have values over every order of tied results (``ties='average'``); a family without
    #: refuses the option in one line rather than ignore it.
    TIE_AWARE: ClassVar[bool] = False

    def needs(self, kinds: set[str], measures: Sequence[Measure] = ()) -> set[str]:
        """What the context must hold for ``measures`` to score inputs of ``kinds`` (keys of
        :data:`NEEDS_TEXT`)."""
        return set()

    def needs_of(self, measures: Sequence[Measure], qrels, runs: Sequence, kinds: set[str]) -> set[str]:
        """What the context must hold for ``measures`` to score these very inputs (by default
        :meth:`needs` of their kinds)."""
        return self.needs(kinds, measures)

    def check(self, measures: Sequence[Measure], qrels, runs: Sequence, context: ScoringContext) -> None:
        """Raise :class:`~graphsr.errors.GraphsrInputError`, in one line, if ``measures`` cannot score these
        inputs with this context."""
        names = ", ".join(map(str, measures))
        if getattr(context, "ties", "trec_eval") == "average" and not self.TIE_AWARE:  # (the option first)
            raise GraphsrInputError(
                f"{names}: no tie-aware value ({context.option('ties=average')} scores P, R, AP, nDCG, DCG, RR, "
                "Rprec, Success, Judged and the counts); score these without it"
            )
        qrels_kind = input_kind(qrels)
        if qrels_kind not in self.ASSESSMENTS:
            raise GraphsrInputError(
                f"{names}: {self.DESCRIPTION or self.NAME} measures score "
                f"{_kinds(self.ASSESSMENTS)} assessments, not {qrels_kind} assessments "
                "('graphsr measures' lists each family's inputs)"
            )
        if getattr(qrels, "subtopics", None) is not None and self.NAME != "diversity":
            where = qrels.source or "the assessments"
            raise GraphsrInputError(
                f"{names}: {where} judges documents more than once, under different values of field 2: read as "
                "judgments per subtopic (diversity qrels), which only the diversity measures score (alpha_nDCG@k, "
                "ERR_IA@k, ...); give qrels with one judgment per document for the others"
            )
        _check_scale(measures, qrels)
        kinds = {qrels_kind}
        for run in runs:
            kind = input_kind(run)
            if kind not in self.RUNS:
                raise GraphsrInputError(f"{run.name}: a {kind} run; {names} score {_kinds(self.RUNS)} runs")
            kinds.add(kind)
        for need in sorted(self.needs_of(measures, qrels, runs, kinds)):
            if not context.has(need):
                raise GraphsrInputError(f"{names}: need {context.needs_text(need)}")

    def evaluator(self, measures: Sequence[Measure], qrels, context: ScoringContext, shared: Scratch):
        """An object whose ``score(run, topics, scratch) -> RunScores`` scores one run for ``topics``
        (in report order; a topic the run lacks scores as an empty ranking)."""
        raise NotImplementedError


def _check_scale(measures: Sequence[Measure], qrels) -> None:
    """The assessments' scale against the measures': INEX (e, s) pairs for the graded ones, relevance in [0, 1]
    for those that take no other scale."""
    graded = [str(m) for m in measures if m.GRADES]
    if graded and getattr(qrels, "grades", None) is None:
        raise GraphsrInputError(
            f"{', '.join(graded)}: need INEX (e, s) assessments ('topic Q0 file xpath e s'), "
            "not one relevance value per element"
        )
    outside = qrels.outside_unit() if hasattr(qrels, "outside_unit") else None
    unit = [str(m) for m in measures if not m.ANY_SCALE]
    if outside is not None and unit:
        topic, line, value = outside
        where = f"{qrels.source}:{line}" if qrels.source and line else (qrels.source or "the assessments")
        if value < 0:
            raise GraphsrInputError(
                f"{', '.join(unit)}: need relevance in [0, 1]; {where} (topic {topic}) "
                f"grades {value:g}, below 0: give such nodes 0 (trec_eval's measures -- P, "
                "R, AP, nDCG, ... -- take negative grades as unjudged)"
            )
        raise GraphsrInputError(
            f"{', '.join(unit)}: need relevance in [0, 1]; {where} (topic {topic}) grades "
            f"above 1 (up to {qrels.max_rel:g}): divide the grades by {qrels.max_rel:g} "
            "(trec_eval's measures -- P, R, AP, nDCG, ... -- take grades as they are)"
        )


def _kinds(kinds: frozenset) -> str:
    return " or ".join(sorted(kinds))


_PROVIDERS: dict[str, Provider] = {}


def register_provider(provider: Provider) -> Provider:
    """Register the provider of family ``provider.NAME`` (a family package does it when imported)."""
    if provider.NAME in _PROVIDERS and type(_PROVIDERS[provider.NAME]) is not type(provider):
        raise ValueError(f"measure family {provider.NAME!r} registered twice")
    _PROVIDERS[provider.NAME] = provider
    return provider


def _load(family: str) -> None:
    """Make and register the provider of ``family``, one of :data:`~graphsr.measures.base.FAMILY_PACKAGES`, if
    it is not registered yet: the :class:`Provider` whose ``NAME`` is the family, in the family package's
    ``provider`` module (imported only now: a command that scores other families never imports it)."""
    if family in _PROVIDERS or family not in FAMILY_PACKAGES:
        return
    import importlib

    module = importlib.import_module(f"{__package__}.{family}.provider")
    defined = {
        c.NAME: c
        for c in vars(module).values()
        if isinstance(c, type) and issubclass(c, Provider) and c.__module__ == module.__name__
    }
    if family not in defined:
        raise RuntimeError(f"{module.__name__} defines no provider named {family!r}")
    register_provider(defined[family]())


def providers() -> dict[str, Provider]:
    """Every registered provider, by family name, in the order of
    :data:`~graphsr.measures.base.FAMILY_PACKAGES` (loading the families)."""
    registry()
    for family in FAMILY_PACKAGES:
        _load(family)
    order = {name: k for k, name in enumerate(FAMILY_PACKAGES)}
    return dict(sorted(_PROVIDERS.items(), key=lambda item: order.get(item[0], len(order))))


def provider_of(measure: Measure) -> Provider:
    """The provider of ``measure``'s family (loading that family alone)."""
    _load(measure.FAMILY)
    try:
        return _PROVIDERS[measure.FAMILY]
    except KeyError:
        raise GraphsrInputError(f"{measure}: its family {measure.FAMILY!r} has no provider") from None


def input_kind(obj) -> str:
    """``element``, ``passage`` or ``answers``: how a provider reads an assessments or run object, from the kind it
    declares (:mod:`graphsr.core.kinds`: plain documents, elements and trees are read as elements; Natural
    Questions' annotations and predictions as answers)."""
    from ..core.kinds import ANSWERS, PASSAGES, kind_of

    kind = kind_of(obj)
    if kind is not None:
        return PASSAGE if kind == PASSAGES else ANSWERS if kind == ANSWERS else ELEMENT
    raise GraphsrInputError(
        f"expected element or passage assessments or runs (graphsr.io readers), got {type(obj).__name__}"
    )
