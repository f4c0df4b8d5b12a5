"""The span family's measures, declared once (names, cut-offs, bounds; the arithmetic is in
:mod:`graphsr.measures.span.kernels`).

=========================  ==================================================================================
``ChromaIoU@k``            Chroma's chunking evaluation, as its ``_scores_from_dataset_and_retrievals``
``ChromaP@k``              computes them over the first k results (its ``retrieve=k``; default 5):
``ChromaR@k``              ``|R ∩ C|`` over ``Σ|chunk| + Σ_ref |ref \\ C|`` (IoU), over ``Σ|chunk|`` (P), over
                           ``Σ|ref|`` (R); ``C`` the characters of the results, ``R`` of the references
``ChromaIoU`` (no ``@k``)  its ``retrieve=-1``: the first N results, N the number of the chunking's chunks
                           touching a reference (at most 20, as Chroma retrieves); needs the chunk map
``budgetP@B``              precision and recall of the first B characters read down the ranking, text read
``budgetR@B``              before not read again (a result is read in part where the budget ends); P divides
                           by B, as P@k by k
``unjudged_chars``         share of the characters read (each once; ``@k``: in the first k results) that no
                           judgment covers
=========================  ==================================================================================

Chroma's rules kept, so that published numbers come out again: a chunk touching a reference (its end at the
reference's start) counts towards N; chunk lengths are summed, so overlapping chunks are charged twice in
precision, and so are references in recall; results in documents without references are charged in precision.
Where Chroma divides by zero (no results, no references) graphsr gives 0.
"""

from __future__ import annotations

from ..base import Measure, register

__all__ = ["ChromaIoU", "ChromaP", "ChromaR", "budgetP", "budgetR", "unjudged_chars", "CHROMA_MOST"]

#: Chroma's evaluation retrieves at most 20 results per question for ``retrieve=-1``.
CHROMA_MOST = 20


class _Span(Measure):
    FAMILY = "span"
    BOUNDS = (0.0, 1.0)
    SUPPORTED_PARAMS = {}
    #: The columns a PyTerrier pipeline's results and qrels carry for these measures (ir_measures' names;
    #: PyTerrier's qid, docno and label read as query_id, doc_id and relevance): the document and the span.
    RUN_INPUTS = ["query_id", "doc_id", "start", "end", "score"]
    QREL_INPUTS = ["query_id", "doc_id", "start", "end", "relevance"]
    #: How the family's kernel scores it (:mod:`graphsr.measures.span.kernels`): ``chroma`` (Chroma's measures,
    #: at k results), ``budget`` (down the ranking, B characters read) or ``unjudged``; ``KIND``: which of the
    #: kernel's values it is.
    SCORE = ""
    KIND = ""


class _Chroma(_Span):
    CUTOFF = "optional"
    SCORE = "chroma"

    @property
    def needs_chunks(self) -> bool:
        return self.cutoff is None


class _ChromaIoU(_Chroma):
    NAME = "ChromaIoU"
    KIND = "iou"
    DESCRIPTION = (
        "Chroma's IoU: reference characters retrieved / (characters of the first k results, summed, + "
        "reference characters missed); no @k: the first N, N the chunks touching a reference (chunk map)"
    )


class _ChromaP(_Chroma):
    NAME = "ChromaP"
    KIND = "precision"
    DESCRIPTION = (
        "Chroma's precision: reference characters retrieved / characters of the first k results, summed "
        "(overlaps twice); no @k: the first N, N the chunks touching a reference (chunk map)"
    )


class _ChromaR(_Chroma):
    NAME = "ChromaR"
    KIND = "recall"
    DESCRIPTION = (
        "Chroma's recall: reference characters retrieved by the first k results / reference lengths, "
        "summed; no @k: the first N, N the chunks touching a reference (chunk map)"
    )


class _Budget(_Span):
    CUTOFF = "required"
    CUTOFF_UNIT = "characters"
    SCORE = "budget"


class _budgetP(_Budget):
    NAME = "budgetP"
    KIND = "precision"
    DESCRIPTION = (
        "precision of the first B characters read down the ranking (@B; text already read is not read "
        "again): relevant characters read / B"
    )


class _budgetR(_Budget):
    NAME = "budgetR"
    KIND = "recall"
    DESCRIPTION = (
        "recall of the first B characters read down the ranking (@B; text already read is not read "
        "again): relevant characters read / relevant characters"
    )


class _unjudged_chars(_Span):
    NAME = "unjudged_chars"
    SCORE = "unjudged"
    CUTOFF = "optional"
    DESCRIPTION = (
        "share of the characters read (each once; @k: in the first k results) that no judgment covers "
        "(chunk judgments of another chunking, spans judged in part)"
    )


for _cls in (_ChromaIoU, _ChromaP, _ChromaR, _budgetP, _budgetR, _unjudged_chars):
    register(_cls)

ChromaIoU, ChromaP, ChromaR = _ChromaIoU(), _ChromaP(), _ChromaR()
budgetP, budgetR, unjudged_chars = _budgetP(), _budgetR(), _unjudged_chars()
