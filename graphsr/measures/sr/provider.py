"""How the SR family scores: element runs resolved against the documents, with the SR navigation model."""

from __future__ import annotations

from ..element_provider import ElementProvider
from ..provider import ELEMENT, PASSAGE
from .measures import compute_sr_family

__all__ = ["SRProvider"]


class SRProvider(ElementProvider):
    """SR@k and SRP@k of element runs against element assessments (SR Eq 1-9)."""

    NAME = "sr"
    DESCRIPTION = "Structural Relevance"
    TITLE = "Structural Relevance (CIKM'08)"
    NEEDS = frozenset({"documents", "navigation"})
    ASSESSMENTS = RUNS = frozenset({ELEMENT, PASSAGE})  # passages as the elements they cover (fol.convert)

    def compute(self, measures, ranked, doc_codes, prepared):
        return compute_sr_family(measures, ranked)
