"""Natural Questions' annotations as an evaluation's assessments.

Runs are ``nq_eval``'s predictions or TREC runs of candidates, each read in its own format (a run that cannot be
read refused on its own).  The NQ measures score the answers as ``nq_eval`` does; every other measure scores them
as :mod:`graphsr.io.nq_convert` reads them -- long answers as graded element judgments over the pages' trees
(read from the collection given, else from the NQ file itself), short answers as span judgments, a run's long
answers as its elements and their characters.  Every annotated example counts, as ``nq_eval`` counts them (an
example a run does not answer scores as an empty ranking).
"""

from __future__ import annotations

from .._records import replace

from ..errors import GraphsrInputError
from .results import Results

__all__ = ["score_answers"]

#: The families that score the answers' characters (short answers as span judgments).
_PASSAGE_FAMILIES = ("fol", "span")


def score_answers(qrels, inputs, requests, options) -> tuple[Results, list, list]:
    """The results of the runs of ``inputs`` against NQ annotations ``qrels``, the refusals of those that could
    not be read or scored, and the runs read (:class:`~graphsr.evaluation.inputs.Inputs`, ``Options``)."""
    from ..io import formats
    from ..measures.provider import provider_of

    ms = list(dict.fromkeys(r.measure for r in requests))
    others = [r for r in requests if provider_of(r.measure).NAME != "nq"]
    found, errors = {}, []
    for path in inputs.runs:
        try:
            fmt = formats.detect(path, formats.RUN, inputs.run_format)
            if fmt.name not in ("nq", "element"):
                raise GraphsrInputError(
                    f"a {fmt.name} run; Natural Questions' annotations score nq_eval's predictions "
                    '({"predictions": [...]}) and TREC runs of candidates',
                    path,
                )
            found[path] = fmt
        except GraphsrInputError as exc:
            errors.append(exc)
    ranked = [p for p, f in found.items() if f.name == "element"]
    predictions = {}
    for path, fmt in list(found.items()):
        if fmt.name == "nq":
            try:
                predictions[path] = fmt.read(str(path), formats.Given())
            except GraphsrInputError as exc:
                errors.append(exc)
                del found[path]
    pages = None
    if others or ranked:
        from ..io.nq_convert import read_pages

        pages = read_pages(inputs.collection or inputs.qrels, qrels, list(predictions.values()))
    runs = {}  # path: (NQ predictions, element run or None)
    for path in inputs.runs:
        try:
            if path in predictions:
                runs[path] = (predictions[path], None)
            elif path in found:
                from ..io.nq_convert import ranked_candidates

                assert pages is not None  # (read for every ranked run)

                element_run, answers = ranked_candidates(path, qrels, pages)
                runs[path] = (answers, element_run)
        except GraphsrInputError as exc:
            errors.append(exc)
    if not runs:
        return Results([], ms, requests=requests), errors, []
    scoring = {**options.scoring(), "all_topics": True}
    results = _nq(qrels, runs, [r for r in requests if r not in others], scoring)
    if others:
        _add(results, _converted(qrels, runs, others, pages, inputs, options, scoring))
    results.requests, results.measures = list(requests), ms
    return results, errors + results.errors, [a for a, _ in runs.values()]


def _nq(qrels, runs: dict, requests: list, scoring: dict) -> Results:
    from ..measures.provider import ScoringContext
    from .entry import evaluate as score

    answers = [a for a, _ in runs.values()]
    if not requests:
        from .results import RunResult

        topics = sorted(qrels.annotations, key=_key)
        return Results([RunResult(a.name, topics, {}, source=a.name) for a in answers], [])
    return score(qrels, answers, requests, ScoringContext(), keep_going=True, **scoring)


def _key(topic: str):
    from ..core.topics import topic_sort_key

    return topic_sort_key(topic)


def _converted(qrels, runs: dict, requests: list, pages, inputs, options, scoring: dict) -> list[Results]:
    """The other families' results, over the answers as elements (long answers) and characters (short answers)."""
    from ..io.nq_collection import remembered
    from ..io.nq_convert import long_answer_qrels, prediction_run, short_answer_qrels
    from ..measures.fol.convert import passage_run
    from ..measures.provider import ScoringContext, provider_of
    from .context import element_context
    from .entry import evaluate as score

    element_runs = [own if own is not None else prediction_run(answers, qrels, pages) for answers, own in runs.values()]
    out = []
    passage = [r for r in requests if provider_of(r.measure).NAME in _PASSAGE_FAMILIES]
    element = [r for r in requests if r not in passage]
    documents = pages.documents()
    if passage:
        spans = short_answer_qrels(qrels, pages)
        context = ScoringContext(documents, wording=options.wording, order=options.order, lenient=options.lenient)
        passage_runs = [passage_run(r, documents) for r in element_runs]
        out.append(score(spans, passage_runs, passage, context, keep_going=True, **scoring))
    for graded in (True, False):  # votes for measures of any scale; shares, in [0, 1], for the others
        group = [r for r in element if r.measure.ANY_SCALE == graded]
        if not group:
            continue
        judged = long_answer_qrels(qrels, pages, share=not graded)
        given = inputs.collection or inputs.qrels
        with remembered(pages.by_place):  # (the pages read to place the answers are not read again)
            context = element_context(
                set(documents),
                measures=[r.measure for r in group],
                collection=given,
                model=inputs.model,
                store=inputs.store,
                routes=inputs.routes,
                routes_model=inputs.routes_model,
                nav=options.nav,
                effort=options.effort,
                progress=options.progress,
                workers=options.workers,
                wording=options.wording,
            )
        context = replace(context, wording=options.wording)
        out.append(score(judged, element_runs, group, context, keep_going=True, **scoring))
    return out


def _add(results: Results, more: list[Results]) -> None:
    """The values of ``more`` added to ``results``, run by run (every run scored over the same examples); a run
    another family refused is refused as a whole (its error kept)."""
    for other in more:
        results.errors += other.errors
        theirs = {r.source or r.name: r for r in other.runs}
        kept = []
        for mine in results.runs:
            got = theirs.get(mine.source or mine.name)
            if got is None:
                continue
            if mine.topics != got.topics:
                raise GraphsrInputError(
                    f"{mine.name}: the examples judged as elements or spans are not the examples annotated "
                    f"({len(got.topics)} against {len(mine.topics)}): an example whose page has no candidate"
                )
            mine.values.update(got.values)
            mine.overall.update(got.overall)
            mine.warnings += got.warnings
            kept.append(mine)
        results.runs = kept
