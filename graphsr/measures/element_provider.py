"""The provider of the families that score element runs against element assessments (SR, ESR, PRUM, XCG and the
flat measures on element runs): assessments and runs resolved against the document trees once per evaluation
and run (:mod:`graphsr.measures.elements`), then each family's kernel."""

from __future__ import annotations

from ..core.kinds import DOCUMENTS
from ..core.qrels import ElementQrels
from ..core.run import Run
from .elements import Diagnostics, JudgedNodes, check_qrels, line_nodes, ranked_nodes
from .inputs import RankedNodes
from .provider import ELEMENT, Provider, RunScores, ScoringContext, Scratch

__all__ = ["ElementProvider", "judged_nodes", "judged_grades", "run_nodes"]


def judged_nodes(qrels: ElementQrels, context: ScoringContext,
                 shared: Scratch) -> dict[str, dict[tuple[str, int], float]]:
    """:func:`check_qrels` of the assessments, once per evaluation (warnings into ``shared``)."""
    def build():
        from ..core.document import PlainDocuments

        if qrels.kind == DOCUMENTS and isinstance(context.documents, PlainDocuments):
            return JudgedNodes.of_documents(qrels.columns)  # every document known, its one node judged
        diag = Diagnostics()
        judged = check_qrels(qrels, context.documents, context.unknown, diag)
        shared.warnings += diag.messages()
        return judged

    return shared.get("element:judged", build)


def judged_grades(qrels: ElementQrels, judged, context: ScoringContext,
                  shared: Scratch) -> dict[str, dict[tuple[str, int], tuple[int, int]]] | None:
    """The INEX (e, s) pairs of the assessed elements, keyed as ``judged`` is (None for graded assessments)."""
    c = qrels.columns
    if getattr(c, "grade", None) is None:
        return None

    def build():
        out: dict = {t: {} for t in c.topics}
        node = line_nodes(c.doc_names, c.path_names, c.doc, c.path, context.documents)
        names, docs = c.topic_names, c.doc_names
        for t, d, n, es in zip(c.topic.tolist(), c.doc.tolist(), node.tolist(), c.grade.tolist()):
            key = (docs[d], n)
            if n >= 0 and key in judged.get(names[t], ()):
                out[names[t]][key] = tuple(es)
        return out

    return shared.get("element:grades", build)


def run_nodes(run: Run, topics: list[str], judged, context: ScoringContext,
              scratch: Scratch) -> tuple[RankedNodes, dict[str, int]]:
    """:func:`ranked_nodes` of a run and the document codes it used, once per run (warnings into
    ``scratch``)."""
    def build():
        diag = Diagnostics()
        doc_codes: dict[str, int] = {}
        ranked = ranked_nodes(run, judged, topics, context.documents, context.seen_of, context.unknown, diag,
                              doc_codes)
        scratch.warnings += diag.messages(run.name)
        return ranked, doc_codes

    return scratch.get("element:ranked", build)


class ElementProvider(Provider):
    """The provider of a family that scores element runs against element assessments from the runs' resolved
    nodes (:class:`RankedNodes`): a subclass gives what it needs and its kernel call."""

    ASSESSMENTS = RUNS = frozenset({ELEMENT})
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
        judged = judged_nodes(qrels, context, shared)
        return _ElementEvaluator(self, list(measures), judged, context,
                                 self.prepare(measures, qrels, judged, context, shared))


class _ElementEvaluator:
    def __init__(self, provider: ElementProvider, measures, judged, context, prepared):
        self.provider, self.measures, self.judged, self.context, self.prepared = (provider, measures, judged,
                                                                                   context, prepared)

    def score(self, run, topics, scratch) -> RunScores:
        ranked, doc_codes = run_nodes(run, topics, self.judged, self.context, scratch)
        return RunScores(self.provider.compute_run(self.measures, run, ranked, doc_codes, self.prepared))
