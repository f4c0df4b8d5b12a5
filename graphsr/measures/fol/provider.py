"""How the passage family scores: runs against INEX FOL assessments, as the official tool inex_eval 3.1 does.

Element assessments and element runs are scored as the text their elements
cover (:mod:`graphsr.measures.fol.convert`), as INEX 2008-2010 did; that
needs the collection's documents.

As the official tool (docs/inex-rules.md §0):

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
  :mod:`graphsr.measures.fol.rules`), with a warning that the numbers are not
  the official tool's.
"""

from __future__ import annotations

import numpy as np

from ...errors import RunFormatError, RunRuleError
from ...core.fol import FOLQrels, FOLRun
from ...core.kinds import PASSAGES
from ..provider import ELEMENT, PASSAGE, Provider, RunScores
from .inputs import PassageInputs
from .measures import compute_fol_family

__all__ = ["PassageProvider", "passage_inputs"]


class PassageProvider(Provider):
    """The official INEX passage measures (iP, MAiP, gP, gR, MAgP, counts) of passage or element runs
    against FOL or element assessments."""

    NAME = "fol"
    DESCRIPTION = "passage (INEX)"
    TITLE = "official INEX passage measures (inex_eval 3.1)"
    ASSESSMENTS = RUNS = frozenset({ELEMENT, PASSAGE})

    def needs(self, kinds, measures=()):
        return {"documents"} if ELEMENT in kinds else set()

    def evaluator(self, measures, qrels, context, shared):
        if qrels.kind != PASSAGES:  # element assessments, as passages
            from .convert import passage_qrels

            qrels = shared.get("fol:qrels", lambda: passage_qrels(qrels, context.documents))
        return _PassageEvaluator(list(measures), qrels, context)


class _PassageEvaluator:
    def __init__(self, measures, qrels: FOLQrels, context):
        self.measures, self.qrels, self.context = measures, qrels, context
        if getattr(qrels, "lengths_known", True) is False:
            t2i = [m for m in measures if "task" in m.SUPPORTED_PARAMS and m["task"] == "t2i"]
            if t2i:
                from ...errors import GraphsrInputError
                from ..provider import worded

                raise GraphsrInputError(
                    f"{t2i[0]}: T2I reads each document to its end, and the documents' lengths are not known "
                    f"without {worded(getattr(context, 'wording', None), 'option:collection')}"
                )

    def score(self, run, topics, scratch) -> RunScores:
        if run.kind != PASSAGES:
            from .convert import passage_run

            run = passage_run(run, self.context.documents, self.qrels.vocab)
        return score_passage_run(
            self.qrels, run, self.measures, topics, self.context.order, self.context.lenient, self.context.option
        )


def passage_inputs(
    qrels: FOLQrels, run: FOLRun, topics: list[str], order: str = "file", option=None
) -> tuple[PassageInputs, np.ndarray]:
    """Align a run with the assessments for ``topics`` (judged topics, in report order).

    Returns the inputs and, for each of their results, its row in ``run``
    (recoded to the assessments' vocabulary).

    Raises
    ------
    RunFormatError
        In file order, when a topic's lines are split by another topic's.
    """
    if order not in ("file", "rank"):
        raise ValueError(f"order must be 'file' or 'rank', got {order!r}")
    if run.ranked:  # (a chunk run: its rows are its ranking)
        order = "rank"
    run = run.recoded(qrels.vocab)
    vocab = qrels.vocab
    T = len(topics)
    topic_index = np.full(len(vocab.topics), -1, dtype=np.int64)
    topic_index[[vocab.topics[t] for t in topics]] = np.arange(T)
    ti = topic_index[run.topic_code] if len(run) else np.zeros(0, dtype=np.int64)
    idx = np.flatnonzero(ti >= 0)
    if order == "file":
        _check_topic_blocks(run, idx, ti[idx], option)
        if not np.all(ti[idx][1:] >= ti[idx][:-1]):  # topic blocks in another order than the report's
            idx = idx[np.argsort(ti[idx], kind="stable")]
        seq = run.line[idx]
    else:
        t, r = ti[idx], run.rank[idx]
        # (by topic, rank, then row: as they are where the rows are in that order already, as a chunk run's are)
        if len(idx) > 1 and not bool(np.all((t[1:] > t[:-1]) | ((t[1:] == t[:-1]) & (r[1:] >= r[:-1])))):
            idx = idx[np.lexsort((idx, r, t))]
        seq = np.arange(len(idx), dtype=np.int64)
    res_topic = ti[idx]
    doc = run.doc_code[idx]
    start = run.offset[idx]
    res_group, by_group, by_start = _dense_codes(res_topic * np.int64(len(vocab.docs) + 1) + doc, start)
    res_row = np.empty(len(idx), dtype=np.int64)  # looked up in group order: sorted keys search fast
    res_row[by_group] = qrels.rows(run.topic_code[idx][by_group], doc[by_group])
    q_topic = topic_index[qrels.topic_code]
    judged = q_topic >= 0
    rel_chars = np.bincount(q_topic[judged], weights=qrels.rel_chars[judged], minlength=T).astype(np.int64)
    rel_articles = np.bincount(q_topic[judged], weights=(qrels.rel_chars[judged] > 0), minlength=T).astype(np.int64)
    x = PassageInputs(
        list(topics),
        res_topic,
        res_group,
        res_row,
        start,
        start + run.length[idx],
        seq,
        qrels.rel_chars,
        qrels.bep,
        qrels.doc_len,
        qrels.pass_row,
        qrels.pass_start,
        qrels.pass_end,
        rel_chars,
        rel_articles,
        int(qrels.rel_chars.sum()),
        int((qrels.rel_chars > 0).sum()),
        by_start,
    )
    return x, idx


def _dense_codes(key: np.ndarray, then: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Codes 0 .. G-1 of the distinct values of ``key``, in their sorted order; an order that sorts ``key``
    (equal keys in any order: they get one code); and one that sorts by ``key`` then ``then`` where one sort of
    the two packed in one integer gives both (None where they do not fit: keys below 2**31, ``then`` in [0,
    2**32))."""
    packed = (
        len(key) > 0
        and int(key.min()) >= 0
        and int(key.max()) < (1 << 31)
        and int(then.min()) >= 0
        and int(then.max()) < (1 << 32)
    )
    order = np.argsort((key << 32) | then) if packed else np.argsort(key)
    sk = key[order]
    out = np.empty(len(key), dtype=np.int64)
    out[order] = np.cumsum(np.r_[True, sk[1:] != sk[:-1]]) - 1 if len(key) else 0
    return out, order, order if packed else None


def _option(option, name: str) -> str:
    """How option ``name`` is given (``option`` from the scoring context; a Python caller's words by default)."""
    from ..provider import worded

    return option(name) if option is not None else worded(None, f"option:{name}")


def _check_topic_blocks(run: FOLRun, idx: np.ndarray, ti: np.ndarray, option=None) -> None:
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
    raise RunFormatError(
        f"topic {names[run.topic_code[r]]} appears again after topic "
        f"{names[run.topic_code[prev]]} (line {int(run.line[prev])}): in file order each topic's "
        "lines must be together (the official tool would mix the two topics' results); "
        f"keep them together or score by rank with {_option(option, 'order=rank')}",
        run.source,
        int(run.line[r]),
    )


_RULE_TEXT = {
    "overlap": "passage {o}:{l} overlaps the passage {eo}:{el} of the same article retrieved earlier (line {el_})",
    "interleave": "the article is retrieved again after other articles (first at line {el_})",
    "repeat": "a second result for the article (the first is at line {el_}); Best in Context takes one result "
    "per article",
}
_TASK_NAMES = {
    "focused": "focused",
    "thorough": "thorough",
    "ric": "Relevant in Context",
    "t2i": "T2I",
    "bic": "Best in Context",
}


def _rule_error(exc: RunRuleError, run: FOLRun, rows: np.ndarray, option=None) -> RunFormatError:
    r, e = int(rows[exc.result]), int(rows[exc.earlier])
    names, docs = run.vocab.topic_names(), run.vocab.doc_names()
    what = _RULE_TEXT[exc.kind].format(
        o=int(run.offset[r]), l=int(run.length[r]), eo=int(run.offset[e]), el=int(run.length[e]), el_=int(run.line[e])
    )
    tasks = " and ".join(_TASK_NAMES[t] for t in exc.tasks)
    hint = (
        f"; {_option(option, 'lenient')} scores it anyway, not as the official tool" if exc.kind != "interleave" else ""
    )
    message = (
        f"topic {names[run.topic_code[r]]}, article {docs[run.doc_code[r]]}: {what}; the official tool "
        f"refuses such {tasks} runs{hint}"
    )
    return RunRuleError(exc.kind, r, e, exc.tasks, message, run.source, int(run.line[r]))


def score_passage_run(
    qrels: FOLQrels, run: FOLRun, measures, topics: list[str], order: str = "file", lenient: bool = False, option=None
) -> RunScores:
    """Score one passage run for ``topics`` (judged topics, in report order).

    Raises
    ------
    RunFormatError
        A topic's lines split in file order; :class:`~graphsr.errors.RunRuleError`
        (a RunFormatError) for a run the official tool refuses, naming the
        file, line, topic and article.
    """
    run = run.recoded(qrels.vocab)
    x, rows = passage_inputs(qrels, run, topics, order, option)
    try:
        got = compute_fol_family(list(measures), x, lenient)
    except RunRuleError as exc:
        raise _rule_error(exc, run, rows, option) from None
    warnings = []
    refused = got.notes.get("refused")
    if refused is not None:
        r = int(rows[refused.result])
        what = {
            "overlap": "a passage overlapping an earlier passage of its article",
            "repeat": "a second Best in Context result for an article",
        }[refused.kind]
        done = []
        if got.notes.get("skipped"):
            done.append(f"{got.notes['skipped']} overlapping passage(s) skipped in the focused task")
        if got.notes.get("extra_results"):
            done.append(f"{got.notes['extra_results']} result(s) after an article's first ignored in Best in Context")
        warnings.append(
            f"{run.name}: the official tool refuses this run ({what}, first at line "
            f"{int(run.line[r])}); scored with {_option(option, 'lenient')}"
            + (f" ({'; '.join(done)})" if done else " (overlapping passages merged per article)")
            + ": these numbers are not the official tool's"
        )
    if got.notes.get("impossible"):
        warnings.append(
            f"{run.name}: {got.notes['impossible']} recall point(s) above 1 dropped (impossible recall points)"
        )
    if len(run) == 0:
        warnings.append(f"{run.name}: the run is empty")
    if order == "rank" and not run.ranked:
        warnings.append(
            f"{run.name}: results scored in rank order ({_option(option, 'order=rank')}); the official "
            "tool scores them "
            "in file order, so these numbers are not the official tool's"
        )
    mask = np.zeros(len(run), dtype=bool)
    mask[rows] = True
    return RunScores(got.values, got.overall, warnings, run.last_run_id(mask))
