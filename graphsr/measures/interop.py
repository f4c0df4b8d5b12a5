"""graphsr measures inside ir_measures: ``ir_measures.calc_aggregate([graphsr.parse_measure("SRP@10")], qrels,
run)`` works, as for any measure ir_measures' runtime provider knows.

ir_measures asks each measure for ``validate_params()``, scores measures that have a ``runtime_impl(qrels,
run)`` itself (its "runtime" provider: qrels and run as DataFrames, the run sorted by score), aggregates
with ``aggregator()`` and gives topics the run lacks the measure's ``DEFAULT``.  :class:`~graphsr.measures.
base.Measure` has those four; ``runtime_impl`` lands here (:func:`runtime_values`, which it imports by
name when ir_measures first calls it).  Documents are plain: each
``doc_id`` is one element (an ``xpath`` column, if present, names nodes as in :mod:`graphsr.io.frames`),
and there is no navigation
(SRP@k is then P@k); for navigation over a collection use :func:`graphsr.calc_aggregate` with
``collection=``.
"""

from __future__ import annotations

from .provider import NoNavigation, Scratch, ScoringContext, provider_of

from ..core.kinds import PASSAGES, is_plain, kind_of

__all__ = ["plain_context", "runtime_values"]


def plain_context(qrels, runs, measures=None) -> ScoringContext:
    """A scoring context where each document the qrels and element runs name is a single element and nothing
    is navigated (``seen`` = 0).  When every one of ``measures`` is a flat measure, which scores documents
    without one, the context holds nothing."""
    if measures is not None and all(m.FAMILY == "flat" for m in measures):
        return ScoringContext(model_name="none")
    from ..core.document import PlainDocuments

    docids = set(qrels.docids()) if kind_of(qrels) != PASSAGES else set()
    docids = docids.union(*(r.docids() for r in runs if kind_of(r) != PASSAGES))
    docs = PlainDocuments(docids)
    return ScoringContext(docs, NoNavigation(docs), "none", num_elements=len(docs))


def _text_lengths(context) -> dict | None:
    """Each document's text length from a bound context's trees (for checking span judgments), or None."""
    documents = getattr(context, "documents", None)
    if not documents or not hasattr(documents, "items"):
        return None
    return {d: int(tree.end[0]) for d, tree in documents.items()}


def runtime_values(measure, qrels_frame, run_frame):
    """``(query_id, value)`` of ``measure`` for each assessed topic the run answers (ir_measures supplies
    the others with the measure's ``DEFAULT``)."""
    from .._bulk import bulk
    from ..io.frames import as_qrels, as_run
    from ..io.text_ranges import check_run_ranges
    from ..core.topics import select_topics

    with bulk():
        context = measure.context
        spans = bool({"start", "end"} & set(getattr(qrels_frame, "columns", ())))
        qrels, run = as_qrels(qrels_frame, _text_lengths(context) if spans else None), as_run(run_frame)
        if context is None and kind_of(qrels) == PASSAGES and kind_of(run) == PASSAGES:
            context = ScoringContext()  # (spans need no collection: their measures read characters)
        if context is None:
            if not (is_plain(qrels) and is_plain(run)):
                from ..errors import GraphsrInputError

                raise GraphsrInputError(
                    f"{measure!r} scores element runs (an xpath column) against their documents' trees, which "
                    "ir_measures and PyTerrier cannot pass: bind it to a collection first, e.g. "
                    f"graphsr.bind({measure.canonical()!r}, graphsr.load_collection(PATH, ['p*|c'])"
                    ".context('p*|c:length'))"
                )
            context = plain_context(qrels, [run])
        provider = provider_of(measure)
        check_run_ranges(qrels, run)
        provider.check([measure], qrels, [run], context)
        topics, _ = select_topics(run.topics, qrels.topics, False)
        got = provider.evaluator([measure], qrels, context, Scratch()).score(run, topics, Scratch())
    return list(zip(topics, got.values[measure].tolist()))
