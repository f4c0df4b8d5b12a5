"""Scoring passage runs against INEX FOL assessments, as the official tool inex_eval 3.1 does.

As the official tool (``shared/data/inex2010/official/RULES.md`` §0):

* results are scored **in file order**; the rank and score columns are not
  read.  ``order="rank"`` sorts each topic's results by the rank column
  instead (ties in file order) -- not the official tool's numbers.  In file
  order a topic's lines must be together: the tool carries one topic's state
  into another's lines when they are split, so graphsr refuses such runs;
* lines of topics the assessments do not have are ignored (and reported);
* the topic set: the judged topics the run has lines for, or with
  ``all_topics`` (``-c``) every judged topic, a topic without results scoring
  0;
* a run breaking a rule of its task (an overlapping passage in the focused,
  RiC or T2I task; interleaved articles in RiC, T2I, BiC; a second BiC result
  for an article) is refused with the file, line, topic and article; with
  ``lenient`` such runs are scored instead (see
  :mod:`graphsr.measures.fol_rules`), with a warning that the numbers are not
  the official tool's.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import MeasureNameError, RunFormatError, RunRuleError
from ..measures.base import Measure, parse_measures
from ..measures.fol import PassageInputs
from ..measures.fol_family import compute_fol_family
from ..model.fol import FOLQrels, FOLRun
from ..model.topics import missing_topics_warning, select_topics
from .results import Results, RunResult

__all__ = ["passage_inputs", "evaluate_passages", "evaluate_passage_run"]

_ORDERS = ("file", "rank")


def passage_inputs(qrels: FOLQrels, run: FOLRun, topics: list[str],
                   order: str = "file") -> tuple[PassageInputs, np.ndarray]:
    """Align a run with the assessments for ``topics`` (judged topics, in report order).

    Returns the inputs and, for each of their results, its row in ``run``
    (recoded to the assessments' vocabulary).

    Raises
    ------
    RunFormatError
        In file order, when a topic's lines are split by another topic's.
    """
    if order not in _ORDERS:
        raise ValueError(f"order must be one of {_ORDERS}, got {order!r}")
    run = run.recoded(qrels.vocab)
    vocab = qrels.vocab
    T = len(topics)
    topic_index = np.full(len(vocab.topics), -1, dtype=np.int64)
    topic_index[[vocab.topics[t] for t in topics]] = np.arange(T)
    ti = topic_index[run.topic_code] if len(run) else np.zeros(0, dtype=np.int64)
    idx = np.flatnonzero(ti >= 0)
    if order == "file":
        _check_topic_blocks(run, idx, ti[idx])
        if not np.all(ti[idx][1:] >= ti[idx][:-1]):  # topic blocks in another order than the report's
            idx = idx[np.argsort(ti[idx], kind="stable")]
        seq = run.line[idx]
    else:
        idx = idx[np.lexsort((idx, run.rank[idx], ti[idx]))]
        seq = np.arange(len(idx), dtype=np.int64)
    res_topic = ti[idx]
    doc = run.doc_code[idx]
    res_group = _dense_codes(res_topic * np.int64(len(vocab.docs) + 1) + doc)
    res_row = qrels.rows(run.topic_code[idx], doc)
    start = run.offset[idx]
    q_topic = topic_index[qrels.topic_code]
    judged = q_topic >= 0
    rel_chars = np.bincount(q_topic[judged], weights=qrels.rel_chars[judged], minlength=T).astype(np.int64)
    rel_articles = np.bincount(q_topic[judged], weights=(qrels.rel_chars[judged] > 0), minlength=T).astype(np.int64)
    x = PassageInputs(list(topics), res_topic, res_group, res_row, start,
                      start + run.length[idx], seq, qrels.rel_chars, qrels.bep, qrels.doc_len, qrels.pass_row,
                      qrels.pass_start, qrels.pass_end, rel_chars, rel_articles, int(qrels.rel_chars.sum()),
                      int((qrels.rel_chars > 0).sum()))
    return x, idx


def _dense_codes(key: np.ndarray) -> np.ndarray:
    """Codes 0 .. G-1 of the distinct values of ``key``, in their sorted order."""
    order = np.argsort(key, kind="stable")
    sk = key[order]
    out = np.empty(len(key), dtype=np.int64)
    out[order] = np.cumsum(np.r_[True, sk[1:] != sk[:-1]]) - 1 if len(key) else 0
    return out


def _check_topic_blocks(run: FOLRun, idx: np.ndarray, ti: np.ndarray) -> None:
    if len(ti) < 2:
        return
    new = np.flatnonzero(np.r_[True, ti[1:] != ti[:-1]])
    block_topic = ti[new]
    _, first = np.unique(block_topic, return_index=True)
    if len(first) == len(new):
        return
    again = np.setdiff1d(np.arange(len(new)), first)[0]
    r, prev = int(idx[new[again]]), int(idx[new[again] - 1])
    names = run.vocab.topic_names()
    raise RunFormatError(f"topic {names[run.topic_code[r]]} appears again after topic "
                         f"{names[run.topic_code[prev]]} (line {int(run.line[prev])}): in file order each topic's "
                         "lines must be together (the official tool would mix the two topics' results); "
                         "keep them together or score by rank with --order rank", run.source, int(run.line[r]))


_RULE_TEXT = {
    "overlap": "passage {o}:{l} overlaps the passage {eo}:{el} of the same article retrieved earlier (line {el_})",
    "interleave": "the article is retrieved again after other articles (first at line {el_})",
    "repeat": "a second result for the article (the first is at line {el_}); Best in Context takes one result "
              "per article",
}
_TASK_NAMES = {"focused": "focused", "thorough": "thorough", "ric": "Relevant in Context", "t2i": "T2I",
               "bic": "Best in Context"}


def _rule_error(exc: RunRuleError, run: FOLRun, rows: np.ndarray) -> RunFormatError:
    r, e = int(rows[exc.result]), int(rows[exc.earlier])
    names, docs = run.vocab.topic_names(), run.vocab.doc_names()
    what = _RULE_TEXT[exc.kind].format(o=int(run.offset[r]), l=int(run.length[r]), eo=int(run.offset[e]),
                                       el=int(run.length[e]), el_=int(run.line[e]))
    tasks = " and ".join(_TASK_NAMES[t] for t in exc.tasks)
    hint = "; --lenient scores it anyway, not as the official tool" if exc.kind != "interleave" else ""
    message = (f"topic {names[run.topic_code[r]]}, article {docs[run.doc_code[r]]}: {what}; the official tool "
               f"refuses such {tasks} runs{hint}")
    return RunRuleError(exc.kind, r, e, exc.tasks, message, run.source, int(run.line[r]))


def evaluate_passage_run(qrels: FOLQrels, run: FOLRun, measures: Sequence[Measure], all_topics: bool = False,
                         order: str = "file", lenient: bool = False) -> RunResult:
    """Score one passage run (see :func:`evaluate_passages`)."""
    run = run.recoded(qrels.vocab)
    judged_codes = qrels.judged_topic_codes
    names = qrels.vocab.topic_names()
    present = np.flatnonzero(np.bincount(run.topic_code, minlength=len(names)))
    topics, missing = select_topics(names[present].tolist(), names[judged_codes].tolist(), all_topics)
    x, rows = passage_inputs(qrels, run, topics, order)
    try:
        got = compute_fol_family(list(measures), x, lenient)
    except RunRuleError as exc:
        raise _rule_error(exc, run, rows) from None
    warnings = []
    if missing:
        warnings.append(missing_topics_warning(run.name, missing))
    refused = got.notes.get("refused")
    if refused is not None:
        r = int(rows[refused.result])
        what = {"overlap": "a passage overlapping an earlier passage of its article",
                "repeat": "a second Best in Context result for an article"}[refused.kind]
        done = []
        if got.notes.get("skipped"):
            done.append(f"{got.notes['skipped']} overlapping passage(s) skipped in the focused task")
        if got.notes.get("extra_results"):
            done.append(f"{got.notes['extra_results']} result(s) after an article's first ignored in Best in "
                        "Context")
        warnings.append(f"{run.name}: the official tool refuses this run ({what}, first at line "
                        f"{int(run.line[r])}); scored with --lenient"
                        + (f" ({'; '.join(done)})" if done else " (overlapping passages merged per article)")
                        + ": these numbers are not the official tool's")
    if got.notes.get("impossible"):
        warnings.append(f"{run.name}: {got.notes['impossible']} recall point(s) above 1 dropped (impossible "
                        "recall points)")
    if len(run) == 0:
        warnings.append(f"{run.name}: the run is empty")
    if order == "rank":
        warnings.append(f"{run.name}: results scored in rank order (--order rank); the official tool scores them "
                        "in file order, so these numbers are not the official tool's")
    mask = np.zeros(len(run), dtype=bool)
    mask[rows] = True
    return RunResult(run.name, topics, got.values, warnings, got.overall, run.last_run_id(mask))


def evaluate_passages(qrels: FOLQrels, runs: Sequence[FOLRun], measures: Sequence[Measure | str],
                      all_topics: bool = False, order: str = "file", lenient: bool = False) -> Results:
    """Score passage runs with the official INEX measures.

    Parameters
    ----------
    qrels : FOLQrels
    runs : sequence of FOLRun
    measures : sequence of Measure or str
        Passage measures (``graphsr measures --family fol``), e.g. ``MAiP``,
        ``iP[0.01]``, ``gP@10``, ``MAgP(task=t2i)``, ``char_prec``.
    all_topics : bool
        Average over every judged topic (``-c``).
    order : {'file', 'rank'}
        The order of each topic's results: the file's (the official tool) or
        the rank column's (ties in file order).
    lenient : bool
        Score runs that break a rule of their task instead of refusing them.

    Raises
    ------
    MeasureNameError
        For a measure that is not a passage measure.
    RunFormatError
        A topic's lines split in file order; :class:`~graphsr.errors.RunRuleError`
        (a RunFormatError) for a run the official tool refuses, naming the
        file, line, topic and article.
    """
    ms = parse_measures(list(measures))
    other = [str(m) for m in ms if m.FAMILY != "fol"]
    if other:
        raise MeasureNameError(f"{', '.join(other)}: not a passage measure; FOL assessments give the measures of "
                               "'graphsr measures --family fol' (iP[x], MAiP, gP@k, gR@k, MAgP, counts ...)")
    out = [evaluate_passage_run(qrels, run, ms, all_topics, order, lenient) for run in runs]
    return Results(out, ms)
