"""Scoring files as ``graphsr eval`` does, with the keywords of the command line: :func:`evaluate_files` builds the
:class:`~graphsr.evaluation.inputs.Inputs` and :class:`~graphsr.evaluation.inputs.Options` of one evaluation and
scores them with :func:`graphsr.evaluation.inputs.evaluate` (the model every command and the API share: formats
detected once, options checked before any large read, of chunk maps and collections only what the inputs
touch)."""

from __future__ import annotations

from typing import Mapping, Sequence

from .inputs import (
    QRELS_FORMATS,
    RUN_FORMATS,
    FileEvaluation,
    Inputs,
    Options,
    assessments_kind,
    evaluate,
    read_chunks,
)

__all__ = [
    "FileEvaluation",
    "QRELS_FORMATS",
    "RUN_FORMATS",
    "assessments_kind",
    "read_assessments",
    "read_chunks",
    "evaluate_files",
]


def read_assessments(
    qrels,
    collection=None,
    chunks=None,
    wording: Mapping[str, str] | None = None,
    fmt: str | None = None,
    runs: Sequence = (),
    run_format: str | None = None,
):
    """Assessments from a path (element, TREC or FOL qrels, or span judgments read against ``collection``;
    detected once, or in the format ``fmt`` says, one of :data:`QRELS_FORMATS`; with a chunk map ``chunks``,
    TREC qrels of its chunk ids projected onto characters) or any shape :func:`graphsr.io.frames.as_qrels`
    takes.  Of the collection only the documents judged and those the run files ``runs`` name are read."""
    from ..errors import GraphsrInputError

    if fmt is not None and fmt not in QRELS_FORMATS:
        raise GraphsrInputError(f"the assessments' format must be one of {', '.join(QRELS_FORMATS)}, got {fmt!r}")
    inputs = Inputs(qrels, runs, collection=collection, chunks=chunks, qrels_format=fmt, run_format=run_format)
    return inputs.assessments(wording)


def evaluate_files(
    qrels,
    runs: Sequence,
    measures,
    *,
    collection=None,
    model: str | None = None,
    store: str | None = None,
    routes=None,
    routes_model: str | None = None,
    nav: str = "elements",
    effort: str = "count",
    all_topics: bool = True,
    order: str = "file",
    lenient: bool = False,
    unknown: str = "error",
    progress: bool = False,
    workers: int = 1,
    wording: Mapping[str, str] | None = None,
    chunks=None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    ties: str | None = None,
) -> FileEvaluation:
    """Score run files against assessments as ``graphsr eval`` does.

    Parameters
    ----------
    qrels : path-like or assessments
        Element, TREC document or INEX FOL assessments (format detected), or an object
        :func:`read_assessments` made.
    runs : sequence of path-like
        Run files, each in its own format (detected).
    measures : sequence of str, Measure or Requested
        What to compute (see :func:`graphsr.evaluation.entry.evaluate`).
    collection, model, store, routes, routes_model, nav, effort, progress, workers
        Where documents and navigation come from, for element runs (see
        :func:`~graphsr.evaluation.context.element_context`); ``collection`` also maps the elements of
        XML submissions and element runs to characters for FOL assessments.
    all_topics, order, lenient, unknown
        As :func:`~graphsr.evaluation.entry.evaluate`.
    wording : mapping, optional
        How messages name options, where the user is (keys of
        :data:`~graphsr.measures.provider.PYTHON_WORDING`; None: as a Python caller gives them; the command
        line passes its own).
    chunks : path-like or mapping, optional
        A chunk map (:func:`graphsr.io.chunks.read_chunk_map`): TREC runs are runs of its chunk ids, TREC
        qrels judgments of them, and Chroma's measures without a cut-off count its chunks.
    qrels_format, run_format : str, optional
        The format of the assessments file (:data:`QRELS_FORMATS`) and of every run file
        (:data:`RUN_FORMATS`), where it is not to be detected from the first record.
    ties : {'trec_eval', 'average'}, optional
        Results tied in score (see :func:`~graphsr.evaluation.entry.evaluate`).

    Returns
    -------
    FileEvaluation
    """
    inputs = Inputs(qrels, runs, collection, chunks, model, store, routes, routes_model, qrels_format, run_format)
    options = Options(all_topics, order, lenient, unknown, ties, nav, effort, progress, workers, wording)
    return evaluate(inputs, measures, options)
