"""One entry for scoring runs with any measures: :func:`score`.

The kind of assessments decides the path:

* FOL (passage) assessments: passage runs are scored as the official INEX
  tool does (:mod:`graphsr.evaluation.fol_evaluate`); element runs are first
  taken as the text their elements cover, with ``context.documents``;
* element assessments: element runs with the documents and navigation of an
  :class:`~graphsr.evaluation.context.ElementContext`
  (:mod:`graphsr.evaluation.element_evaluate`), passage measures included
  (elements as the text they cover).

The command line, the demo and the Python API all score through it.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import GraphsrInputError
from ..measures.base import Measure
from ..model.fol import FOLQrels, FOLRun
from .context import ElementContext
from .results import Results

__all__ = ["score"]


def score(qrels, runs: Sequence, measures: Sequence[Measure | str], context: ElementContext | None = None, *,
          all_topics: bool = False, order: str = "file", lenient: bool = False, unknown: str = "error") -> Results:
    """Score ``runs`` against ``qrels`` with ``measures``.

    Parameters
    ----------
    qrels : ElementQrels or FOLQrels
    runs : sequence of Run or FOLRun
    measures : sequence of Measure or str
    context : ElementContext, optional
        Documents and navigation; needed for element assessments, and for
        element runs scored against FOL assessments.
    all_topics, order, lenient, unknown
        ``-c``; the passage order and leniency
        (:func:`graphsr.evaluation.fol_evaluate.evaluate_passages`); what to do
        with unknown nodes in element runs (``error`` or ``warn``).

    Raises
    ------
    GraphsrInputError
        For what does not fit together, with what to give instead.
    """
    if isinstance(qrels, FOLQrels):
        from .fol_evaluate import evaluate_passages

        passage_runs = []
        for run in runs:
            if not isinstance(run, FOLRun):
                if context is None:
                    raise GraphsrInputError(f"{run.name}: an element run scored against FOL assessments needs the "
                                            "collection's documents (a context) to map its elements to text")
                from .fol_convert import passage_run

                run = passage_run(run, context.documents, qrels.vocab)
            passage_runs.append(run)
        return evaluate_passages(qrels, passage_runs, measures, all_topics, order, lenient)
    if context is None:
        raise GraphsrInputError("element assessments need documents and a navigation model: give a context "
                                "(graphsr.evaluation.element_context)")
    from .element_evaluate import evaluate

    return evaluate(qrels, runs, measures, context.documents, context.seen_of, unknown=unknown,
                    all_topics=all_topics, model_name=context.model_name, route_model=context.route_model,
                    order=order, lenient=lenient)
