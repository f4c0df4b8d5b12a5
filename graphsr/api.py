"""The Python API in ir_measures' shapes: ``calc_aggregate``, ``iter_calc`` and ``calc_frame``.

Measures: strings (graphsr's, ir_measures' or trec_eval's names: ``"P@5"``,
``"nDCG(gains={0:0,1:1,2:3})@10"``, ``"map"``, ``"ndcg_cut_10"``), graphsr
measure objects, or ir_measures' own (``ir_measures.P@5``), mixed freely.
Qrels and runs: paths, graphsr objects, pandas DataFrames with ir_measures'
columns, dicts ``{query_id: {doc_id: value}}``, or ir_measures' records
(``ir_measures.read_trec_qrels(...)``, ``read_trec_run(...)``, lists of
``Qrel``/``ScoredDoc``); see :mod:`graphsr.io.frames`.  Without an ``xpath``
a result is its whole document; without a collection such documents are
single elements, which is how plain document runs are scored (then ``SRP@k``
without navigation is ``P@k``).

As in ir_measures, every assessed topic counts, and a topic the run has no
result for takes each measure's ``DEFAULT`` (0: ``NumQ`` and ``NumRel`` too);
``all_topics=False`` averages over the run's assessed topics only, as
trec_eval does without ``-c``.  Passage runs follow the official INEX tool
instead (a topic the run lacks scores as an empty ranking).  Results are keyed
by graphsr measures and can be looked up by any name of the measure
(``res["P@5"]``, ``res["P_5"]``, ``res[ir_measures.P@5]``).

graphsr's measures also work inside ir_measures itself
(``ir_measures.calc_aggregate([graphsr.parse_measure("SRP@10")], qrels, run)``;
see :mod:`graphsr.measures.interop`).

>>> import graphsr
>>> qrels = {"q1": {"d1": 1, "d2": 0}}
>>> run = {"q1": {"d1": 2.0, "d2": 1.0, "d3": 0.5}}
>>> res = graphsr.calc_aggregate(["P@2", "AP", "SRP@2"], qrels, run)
>>> res
{P@2: 0.5, AP: 1.0, SRP@2: 0.5}
>>> res["map"], res["P_2"]
(1.0, 0.5)
>>> [tuple(m) for m in graphsr.iter_calc(["P@1"], qrels, run)]
[('q1', P@1, 1.0)]
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from .io.frames import as_qrels, as_run

__all__ = [
    "Metric",
    "MeasureDict",
    "as_qrels",
    "as_run",
    "bind",
    "calc_aggregate",
    "iter_calc",
    "calc_frame",
    "calc_ppi",
    "judge_holes",
]


class Metric(NamedTuple):
    """One per-topic value, as ir_measures' ``iter_calc`` yields it."""

    query_id: str
    measure: object
    value: float


class MeasureDict(dict):
    """``{measure: value}`` keyed by graphsr measures, looked up by any name of a measure: a measure string
    (graphsr's, ir_measures' or trec_eval's), a graphsr measure or an ir_measures measure.

    >>> from graphsr.measures import parse_measure
    >>> d = MeasureDict({parse_measure("AP"): 0.5})
    >>> d["AP"], d["MAP"], d["map"], "map" in d, d.get("P@5", 0.0)
    (0.5, 0.5, 0.5, True, 0.0)
    """

    def __init__(self, items=(), aliases: dict | None = None):
        super().__init__(items)
        #: The caller's spellings of the measures asked for (a name that means two measures, such as num_ret,
        #: resolved by the kind of assessments): each finds the measure it was resolved to.
        self.aliases = dict(aliases or {})

    def _key(self, key):
        if dict.__contains__(self, key):
            return key
        if isinstance(key, str) and key in self.aliases:
            return self.aliases[key]
        from .errors import GraphsrInputError
        from .measures.parse import parse_measure

        try:
            return parse_measure(key)
        except GraphsrInputError:
            return key

    def __getitem__(self, key):
        return dict.__getitem__(self, self._key(key))

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, self._key(key))

    def get(self, key, default=None):
        return dict.get(self, self._key(key), default)


def _measure_list(measures) -> list:
    from .measures.base import Measure

    if isinstance(measures, (str, Measure)) or hasattr(measures, "SUPPORTED_PARAMS"):
        return [measures]
    try:
        return list(measures)
    except TypeError:
        from .errors import GraphsrInputError

        raise GraphsrInputError(
            f"measures: expected a list of measures (strings such as 'P@10', graphsr or "
            f"ir_measures measures), got {type(measures).__name__}"
        ) from None


def _context(qrels, runs, collection, model, measures):
    from .evaluation.context import element_context
    from .measures.interop import plain_context
    from .core.kinds import PASSAGES

    if qrels.kind == PASSAGES and all(r.kind == PASSAGES for r in runs):
        return None  # passage assessments and runs need nothing
    if collection is not None:
        docids = qrels.docids() if qrels.kind != PASSAGES else set()
        docids = docids.union(*(r.docids() for r in runs if r.kind != PASSAGES))
        return element_context(docids, measures=measures, collection=collection, model=model)
    return plain_context(qrels, runs, measures)


def _evaluate(measures, qrels, runs, collection, model, all_topics, ties=None):
    """``graphsr.evaluate`` under ir_measures' rules: topics a (document or element) run lacks take each
    measure's DEFAULT."""
    from ._bulk import bulk
    from .evaluation.entry import evaluate
    from .measures.parse import parse_requests
    from .core.kinds import PASSAGES

    with bulk():
        requests = parse_requests(_measure_list(measures))
        q = as_qrels(qrels)
        rs = [as_run(r, f"run{k}" if len(runs) > 1 else "run", vocabulary=q) for k, r in enumerate(runs)]
        ms = [r.measure for r in requests]
        res = evaluate(q, rs, requests, _context(q, rs, collection, model, ms), all_topics=all_topics, ties=ties)
    for run, result in zip(rs, res.runs):
        if run.kind == PASSAGES:
            continue  # passage runs: the official tool's topic rule
        answered = set(run.topics)
        lacking = [k for k, t in enumerate(result.topics) if t not in answered]
        if lacking:
            for m, values in result.values.items():
                values[lacking] = m.DEFAULT
    return res


def bind(measure, context):
    """``measure`` (a name, a graphsr or an ir_measures measure) carrying ``context`` wherever it goes, ir_measures
    and PyTerrier's ``pt.Experiment`` included (see :meth:`graphsr.measures.base.Measure.bind`).

    >>> import graphsr
    >>> s = graphsr.sample("mobydick")
    >>> srp = graphsr.bind("SRP@10", graphsr.load_collection(s["collection"], ["p*|c"]).context("p*|c:length"))
    >>> srp, srp @ 5
    (SRP@10[p*|c:length], SRP@5[p*|c:length])
    """
    from .measures.parse import parse_measure

    return parse_measure(measure).bind(context)


def calc_frame(
    measures, qrels, runs, collection=None, model: str | None = None, all_topics: bool = True, ties: str | None = None
):
    """Per-topic values of one run or several as a DataFrame ``run, measure, topic, value`` (``all`` rows left
    out; measures under the names asked for); runs named by their run ids (see
    :func:`graphsr.evaluation.entry.run_labels`).  ``ties``: as in :func:`graphsr.evaluate`."""
    run_list = list(runs) if isinstance(runs, (list, tuple)) else [runs]
    return _evaluate(measures, qrels, run_list, collection, model, all_topics, ties).to_frame()


def iter_calc(
    measures, qrels, run, collection=None, model: str | None = None, all_topics: bool = True, ties: str | None = None
) -> Iterator[Metric]:
    """Per-topic values as ir_measures yields them: ``Metric(query_id, measure, value)``, for every assessed
    topic (one the run lacks takes the measure's DEFAULT, as in ir_measures; ``all_topics=False``: the run's
    assessed topics only, as trec_eval without ``-c``).  ``ties='average'``: each rank measure's expected
    value over every ordering of results tied in score (see :func:`graphsr.evaluate`)."""
    res = _evaluate(measures, qrels, [run], collection, model, all_topics, ties).runs[0]
    for m, values in res.values.items():
        for t, v in zip(res.topics, values.tolist()):
            yield Metric(t, m, float(v))


def calc_aggregate(
    measures, qrels, run, collection=None, model: str | None = None, all_topics: bool = True, ties: str | None = None
) -> MeasureDict:
    """Each measure's aggregate, ``{measure: value}``, as ``ir_measures.calc_aggregate``: over every
    assessed topic (``all_topics``, see :func:`iter_calc`); look values up by any name of the measure.
    ``ties``: as in :func:`iter_calc`."""
    results = _evaluate(measures, qrels, [run], collection, model, all_topics, ties)
    res = results.runs[0]
    aliases = {label: m for label, m in results.labels if isinstance(label, str)}
    return MeasureDict(((m, float(res.mean(m))) for m in res.values), aliases)


def calc_ppi(
    measures,
    qrels,
    model_qrels,
    run,
    confidence: float = 0.95,
    lam: float | None = None,
    collection=None,
    model: str | None = None,
    all_topics: bool = True,
) -> MeasureDict:
    """Each measure's prediction-powered estimate of the run's mean (``{measure: PPIEstimate}``: ``mean``,
    ``low``, ``high``, ``lam``, ``labelled``, ``unlabelled``, ``classical``; see :mod:`graphsr.analysis.ppi`):
    the run scored against people's judgments (``qrels``: its topics are the labelled sample) and against a
    model's (``model_qrels``: those topics and others).  ``lam``: PPI++'s weight when None, else in [0, 1].
    Measures not averaged over topics (sums, geometric means) are left out.

    >>> people = {"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 1}}
    >>> judge = {"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 0}, "q3": {"d1": 1}, "q4": {"d2": 1}}
    >>> run = {q: {"d1": 2.0, "d2": 1.0} for q in ("q1", "q2", "q3", "q4")}
    >>> est = calc_ppi(["P@1"], people, judge, run, lam=1.0)["P@1"]
    >>> round(est.mean, 4), est.labelled, est.unlabelled
    (0.5, 2, 2)
    """
    from .analysis.ppi import run_estimates

    people = _evaluate(measures, qrels, [run], collection, model, all_topics)
    by_model = _evaluate(measures, model_qrels, [run], collection, model, all_topics)
    estimates = run_estimates(people, by_model, confidence, lam)
    aliases = {label: m for label, m in people.labels if isinstance(label, str)}
    name = people.runs[0].name
    return MeasureDict(((m, e) for (r, m), e in estimates.items() if r == name), aliases)


def judge_holes(
    qrels,
    runs,
    queries,
    collection,
    judge,
    out,
    chunks=None,
    depth: int = 10,
    cache=None,
    qrels_judge: str = "person",
    name: str | None = None,
) -> dict:
    """Fill the holes of ``qrels`` in one call: find what the first ``depth`` results of ``runs`` retrieved that no
    judgment covers (documents, or stretches of text in characters: :mod:`graphsr.evaluation.holes`), ask
    ``judge(query, text) -> grade`` of each (``cache``: a path or
    :class:`~graphsr.evaluation.judging.JudgmentCache`; nothing is asked twice), and write ``qrels`` with the
    grades to ``out``, each judgment naming its judge (``name``, else the callable's ``judge`` attribute, else
    ``model:<its name>``).  ``queries``: ``{query_id: text}`` or a file of them.  Gives the counts: holes, judge
    calls, judgments written.

    >>> from graphsr.evaluation.judging import lexical
    >>> lexical("capital of France", "The capital of France is Paris.")
    2
    """
    from .evaluation.holes import find_holes, merge_judgments, read_queries
    from .evaluation.inputs import Inputs
    from .evaluation.judging import JudgmentCache, fill

    texts = queries if isinstance(queries, dict) else read_queries(queries)
    run_list = list(runs) if isinstance(runs, (list, tuple)) else [runs]
    holes, _ = find_holes(
        Inputs(qrels, run_list, collection=collection, chunks=chunks, qrels_judge=qrels_judge), texts, depth
    )
    store = cache if isinstance(cache, JudgmentCache) else JudgmentCache(cache)
    filled = list(fill(holes, judge, store, name))
    written = merge_judgments(qrels, filled, out, chunks, qrels_judge)
    return {"holes": len(holes), "asked": store.asked, "written": written}
