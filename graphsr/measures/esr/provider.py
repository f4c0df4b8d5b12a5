"""How the ESR family scores: element runs resolved against the documents, with navigation learned from
route steps (:class:`~graphsr.measures.esr.inputs.ESRInputBuilder` builds the kernel's inputs)."""

from __future__ import annotations

from ..element_provider import ElementProvider
from ..provider import ELEMENT, PASSAGE
from .measures import compute_esr_family

__all__ = ["ESRProvider"]


class ESRProvider(ElementProvider):
    """The ESR measures of element runs against element assessments (ESR Eq 8-34)."""

    NAME = "esr"
    DESCRIPTION = "Extended Structural Relevance"
    TITLE = "Extended Structural Relevance (IRJ), navigation learned from route steps"
    NEEDS = frozenset({"documents", "routes"})
    ASSESSMENTS = RUNS = frozenset({ELEMENT, PASSAGE})  # passages as the elements they cover (fol.convert)

    def prepare(self, measures, qrels, judged, context, shared):
        from .inputs import ESRInputBuilder  # pandas: loaded only when ESR measures are scored

        return ESRInputBuilder(judged, context.documents, context.route_model)

    def compute(self, measures, ranked, doc_codes, build):
        return compute_esr_family(measures, build(ranked, doc_codes))
