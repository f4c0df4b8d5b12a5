"""The provider of the families that score element runs against element assessments (SR, ESR, PRUM, XCG and the
flat measures on element runs): assessments and runs resolved against the document trees once per evaluation
and run (:mod:`graphsr.measures.elements`), then each family's kernel.

A family that declares passage inputs too (SR and ESR) scores passage inputs (INEX FOL assessments, span
judgments, passage and chunk runs) as elements of the same documents (:func:`graphsr.measures.fol.convert.element_qrels`, :func:`~graphsr.measures.fol.convert.element_run`:
an element relevant by its share of highlighted characters; a chunk as the smallest element containing it)."""

from __future__ import annotations

import weakref

from ..core.kinds import DOCUMENTS, PASSAGES
from ..core.qrels import ElementQrels
from ..core.run import Run
from .inputs import RankedNodes
from .provider import ELEMENT, Provider, RunScores, ScoringContext, Scratch

__all__ = ["ElementProvider", "judged_nodes", "judged_grades", "run_nodes", "as_elements", "run_as_elements"]


_CONVERTED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def as_elements(qrels, context: ScoringContext, shared: Scratch):
    """The assessments as element assessments: passage assessments converted once per assessments object and
    documents (kept while the assessments live: scoring many runs or measures in turn converts once)."""
    if qrels.kind != PASSAGES:
        return qrels
    from .fol.convert import element_qrels

    def build():
        kept = _CONVERTED.get(qrels)
        if kept is None or kept[0] is not context.documents:
            kept = _CONVERTED[qrels] = (context.documents, element_qrels(qrels, context.documents))
        return kept[1]

    return shared.get("element:of-passages", build)


def run_as_elements(run, context: ScoringContext, scratch: Scratch):
    """The run as an element run: a passage or chunk run converted once per run (what it left out counted in
    ``scratch``'s warnings)."""
    if run.kind != PASSAGES:
        return run

    def build():
        from .fol.convert import element_run

        converted, left_out = element_run(run, context.documents, context.order)
        if left_out:
            scratch.warnings.append(
                f"{run.name}: {left_out} passage(s) resolve to an element the topic had "
                "already (the smallest element containing them) and were left out for the "
                "element measures"
            )
        return converted

    return scratch.get("element:of-passage-run", build)


def judged_nodes(
    qrels: ElementQrels, context: ScoringContext, shared: Scratch
) -> dict[str, dict[tuple[str, int], float]]:
    """:func:`check_qrels` of the assessments, once per evaluation (warnings into ``shared``)."""

    def build():
        from ..core.document import PlainDocuments
        from .elements import Diagnostics, JudgedNodes, check_qrels

        if qrels.kind == DOCUMENTS and isinstance(context.documents, PlainDocuments):
            return JudgedNodes.of_documents(qrels.columns)  # every document known, its one node judged
        diag = Diagnostics()
        judged = check_qrels(qrels, context.documents, context.unknown, diag)
        shared.warnings += diag.messages()
        return judged

    return shared.get("element:judged", build)


def judged_grades(
    qrels: ElementQrels, judged, context: ScoringContext, shared: Scratch
) -> dict[str, dict[tuple[str, int], tuple[int, int]]] | None:
    """The INEX (e, s) pairs of the assessed elements, keyed as ``judged`` is (None for graded assessments)."""
    c = qrels.columns
    if getattr(c, "grade", None) is None:
        return None

    def build():
        from .elements import nodes_of_lines

        out: dict = {t: {} for t in c.topics}
        node = nodes_of_lines(c, context.documents)
        names, docs = c.topic_names, c.doc_names
        for t, d, n, es in zip(c.topic.tolist(), c.doc.tolist(), node.tolist(), c.grade.tolist()):
            key = (docs[d], n)
            if n >= 0 and key in judged.get(names[t], ()):
                out[names[t]][key] = tuple(es)
        return out

    return shared.get("element:grades", build)


def run_nodes(
    run: Run, topics: list[str], judged, context: ScoringContext, scratch: Scratch
) -> tuple[RankedNodes, dict[str, int]]:
    """:func:`ranked_nodes` of a run and the document codes it used, once per run (warnings into
    ``scratch``)."""

    def build():
        from .elements import Diagnostics, ranked_nodes

        diag = Diagnostics()
        doc_codes: dict[str, int] = {}
        ranked = ranked_nodes(run, judged, topics, context.documents, context.seen_of, context.unknown, diag, doc_codes)
        scratch.warnings += diag.messages(run.name)
        return ranked, doc_codes

    return scratch.get("element:ranked", build)


class ElementProvider(Provider):
    """The provider of a family that scores element runs against element assessments from the runs' resolved
    nodes (:class:`RankedNodes`): a subclass gives what it needs and its kernel call."""

    ASSESSMENTS = RUNS = frozenset({ELEMENT})  # (SR and ESR add PASSAGE: passages scored as elements)
    NEEDS: frozenset = frozenset({"documents"})

    def needs(self, kinds, measures=()):
        return set(self.NEEDS)

    def prepare(self, measures, qrels, judged, context: ScoringContext, shared: Scratch):
        """What the family builds once per evaluation from the resolved assessments (None by default)."""
        return None

    def compute(self, measures, ranked: RankedNodes, doc_codes: dict[str, int], prepared) -> dict:
        """The family's per-topic values of ``measures`` for one run."""
        raise NotImplementedError

    def compute_run(self, measures, run, ranked: RankedNodes, doc_codes: dict[str, int], prepared) -> dict:
        """:meth:`compute`, for a family that also reads the run itself (which topics it answers, how it was
        ranked); by default the resolved nodes are all a family needs."""
        return self.compute(measures, ranked, doc_codes, prepared)

    def evaluator(self, measures, qrels, context, shared):
        qrels = as_elements(qrels, context, shared)
        judged = judged_nodes(qrels, context, shared)
        return _ElementEvaluator(
            self, list(measures), judged, context, self.prepare(measures, qrels, judged, context, shared)
        )


class _ElementEvaluator:
    def __init__(self, provider: ElementProvider, measures, judged, context, prepared):
        self.provider, self.measures, self.judged, self.context, self.prepared = (
            provider,
            measures,
            judged,
            context,
            prepared,
        )

    def score(self, run, topics, scratch) -> RunScores:
        run = run_as_elements(run, self.context, scratch)
        ranked, doc_codes = run_nodes(run, topics, self.judged, self.context, scratch)
        got = self.provider.compute_run(self.measures, run, ranked, doc_codes, self.prepared)
        return got if isinstance(got, RunScores) else RunScores(got)
