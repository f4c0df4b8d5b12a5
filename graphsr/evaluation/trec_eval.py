"""``graphsr trec_eval``: trec_eval 9.0.8's evaluation of a TREC run, its options and its output, byte for byte
(or 10.0's: ``TrecEvalOptions.version``).

:func:`run_trec_eval` reads the qrels and the run as trec_eval reads them
(:mod:`graphsr.io.trec_eval_input`), ranks each topic's documents as trec_eval does (single-precision scores,
ties by document name descending, ``-M`` documents kept, ``-J`` judged ones only), computes the measures of
:mod:`graphsr.measures.trec_eval` topic by topic in byte order of the topic ids, and writes trec_eval's lines:
``%-22s\\t%s\\t%6.4f`` (counts as integers), the topics' lines with ``-q``, then the ``all`` lines.  Where
trec_eval stops (a duplicate document, no topic in common), the same lines go to stderr with the same exit
status, and what trec_eval had written by then is written.

trec_eval 10.0 differs from 9.0.8 in what this module follows when asked: it scores the topics of the qrels
(9.0.8: of the run), and stops (status 4) at one the run lacks unless ``-c``; with ``-c`` it scores such a topic
as a ranking of one unpooled document, then sets its ``num_ret``, ``utility``, ``unj`` and ``rbp_resid`` to 0 and
its ``relstring`` to empty, and prints it with ``-q``; scores are compared in double precision; recall levels
become counts by rounding (``iprec_at_recall``, ``11pt_avg``); it adds ``rbp``, ``rbp_resid`` and ``unj``; its
readers skip comment lines and read a run named ``-`` from standard input.

Differences, each documented in docs/trec_eval.md: garbage numbers are refused rather than read as 0; a
topic whose every judgment is negative is scored as one with no judged document (trec_eval stops, or reads
the previous topic's counts); contradicting preferences stop with status 4 (trec_eval aborts); ``-D`` writes
no debug output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np

__all__ = ["TrecEvalOptions", "TrecEvalStop", "run_trec_eval"]


@dataclass
class TrecEvalOptions:
    """trec_eval's options: ``-q``, ``-c``, ``-n`` (``summary=False``), ``-l``, ``-J``, ``-N``, ``-M``, ``-m``
    (``measures``), ``-D LEVEL.QID`` (``only_topic``), ``-Z`` (``zscores``)."""

    per_topic: bool = False
    complete: bool = False
    summary: bool = True
    level: int = 1
    judged_only: bool = False
    num_docs: int = 0
    max_docs: int | None = None
    measures: list[str] = field(default_factory=list)
    only_topic: bytes | None = None
    zscores: str | None = None
    rel_format: str = "qrels"  # -R: qrels, qrels_jg (judgment groups), prefs or qrels_prefs (preferences)
    version: str = "9.0.8"  # the trec_eval release to behave as: 9.0.8 or 10.0


class TrecEvalStop(Exception):
    """Where trec_eval stops: ``trec_lines`` what it prints on stderr, ``code`` its exit status, ``message``
    graphsr's clearer line."""

    def __init__(self, message: str, trec_lines: list[str], code: int, aborts: bool = False):
        super().__init__(message)
        self.message, self.trec_lines, self.code = message, trec_lines, code
        self.aborts = aborts  # trec_eval aborts here: nothing it had buffered reaches its output


def run_trec_eval(qrels_path, run_path, options: TrecEvalOptions, out: BinaryIO, warn=None) -> None:
    """Evaluate ``run_path`` against ``qrels_path`` and write trec_eval's output to ``out`` (bytes).

    Raises
    ------
    TrecEvalStop
        Where trec_eval stops, after writing what it would have written.
    """
    from ..io.trec_eval_input import (
        TrecEvalInputError,
        read_trec_eval_prefs,
        read_trec_eval_qrels,
        read_trec_eval_run,
        read_zscores,
    )
    from ..measures.trec_table import TrecMeasureError, select_measures

    deferred = None
    try:
        selected = select_measures(options.measures, options.version)
    except TrecMeasureError as exc:
        if exc.code == 1:  # trec_eval refuses a measure's name while reading its options, before any file
            raise TrecEvalStop(exc.message, exc.trec_lines, exc.code) from None
        deferred, selected = exc, []
    try:
        if options.rel_format in ("prefs", "qrels_prefs"):
            qrels = read_trec_eval_prefs(qrels_path, options.rel_format == "qrels_prefs", options.version)
        else:
            qrels = read_trec_eval_qrels(qrels_path, groups=options.rel_format == "qrels_jg", version=options.version)
        run = read_trec_eval_run(run_path, options.version)
        zscores = read_zscores(options.zscores) if options.zscores else None
    except TrecEvalInputError as exc:
        lines = exc.trec_lines
        if exc.code == 4:  # trec_eval finds it computing the first measure that reads the qrels
            lines = lines + [f"trec_eval: Can't calculate measure '{_first(selected)}'"]
        raise TrecEvalStop(exc.message, lines, exc.code) from None
    if deferred is not None:
        raise TrecEvalStop(deferred.message, deferred.trec_lines, deferred.code)
    names = [n for s in selected for n in s.names]
    sums = [0.0] * len(names)
    evaluated = 0
    z = b"Z" if zscores is not None else b""
    written: list = []  # (written at the end: trec_eval's output is buffered, and lost where it aborts)
    try:
        for qid, docs, judged in _topics(qrels, run, options):
            bogus = docs is _BOGUS
            _check_formats(selected, "prefs" if qrels.prefs else "qrels_jg" if qrels.groups else "qrels")
            if qrels.prefs:
                counted: dict = {}  # (the topic's preference counts, counted once for all its measures)
                values = [v for s in selected for v in _prefs_values(s, qid, docs, judged, options, selected, counted)]
                if bogus:
                    values = _clean_bogus(selected, values)
            elif qid in qrels.unsized and any(s.measure.reads is not None for s in selected):
                # trec_eval cannot allocate the array it sizes by the topic's largest grade (in form_res_rels, which
                # every measure reading the qrels calls: num_q and runid do not)
                grade = qrels.unsized[qid]
                raise TrecEvalStop(
                    f"{qrels_path}: topic {qid.decode(errors='replace')}: grade {grade} (as C's atol "
                    "reads it): trec_eval sizes an array by a topic's largest grade (8 bytes a "
                    "grade), larger than this machine's memory, and stops here",
                    [f"trec_eval: Can't calculate measure '{_first(selected)}'"],
                    4,
                )
            elif qid in qrels.duplicates:  # trec_eval finds it scoring this topic (after the run's duplicates)
                _rank(qid, docs, {}, options, selected, None)
                name = qrels.duplicates[qid].decode(errors="replace")
                raise TrecEvalStop(
                    f"{qrels_path}: topic {qid.decode(errors='replace')}: document {name} is judged twice",
                    [
                        f"trec_eval.form_res_rels: duplicate docs {name}",
                        f"trec_eval: Can't calculate measure '{_first(selected)}'",
                    ],
                    4,
                )
            if qrels.prefs:
                topic = None
            elif qrels.groups:
                topics = {g: _rank(qid, docs, j, options, selected, None) for g, j in judged.items()}
                topic = None
            else:
                topic = _rank(qid, docs, judged, options, selected, warn)
            if not qrels.prefs:
                values = [
                    v
                    for s in selected
                    for v in (_values(s, topic) if not s.measure.reads == "qrels_jg" else _over_groups(s, topics))
                ]
                if bogus:
                    values = _clean_bogus(selected, values)
                    if topic is not None and any(
                        s.measure.shape == "string" and _resets(s, n) for s in selected for n in s.names
                    ):
                        topic.relstring = ""
            if zscores is not None:
                values = _to_zscores(zscores, qid, names, values)
            lines = []
            at = 0
            for s in selected:
                k = len(s.names)
                if options.per_topic and s.measure.per_topic:
                    for name, v in zip(s.names, values[at : at + k]):
                        if s.measure.shape == "string":
                            lines.append(b"%-22s\t%s\t'%s'\n" % (name.encode(), qid, topic.relstring.encode()))
                        else:
                            lines.append(
                                z + b"%-22s\t%s\t%s\n" % (name.encode(), qid, _number(v, s.measure.shape, bool(z)))
                            )
                at += k
            for i, v in enumerate(values):
                sums[i] += v
            written.append(b"".join(lines))
            evaluated += 1
    except TrecEvalStop as stop:
        if not stop.aborts:
            out.write(b"".join(written))
        raise
    out.write(b"".join(written))
    if not evaluated:
        raise TrecEvalStop(
            "no topic of the run is in the qrels (trec_eval scores the topics both name)",
            ["trec_eval: No queries with both results and relevance info"],
            7,
        )
    if not options.summary:
        return
    num_q = len(qrels.topics) if options.complete else evaluated
    lines = []
    at = 0
    for s in selected:
        m, k = s.measure, len(s.names)
        for i, name in enumerate(s.names):
            v = sums[at + i]
            if m.average == "mean":
                v = v / num_q if num_q else v
            elif m.average == "gm":
                from ..measures.base import GM_FLOOR

                if options.complete:
                    v += (num_q - evaluated) * math.log(GM_FLOOR)
                v = math.exp(v / num_q)
            elif m.average == "count":
                v = float(num_q)
            elif m.complete and options.complete:  # every topic's documents judged above 0
                v = float(sum(1 for judged in qrels.topics.values() for g in judged.values() if g > 0))
            if m.shape == "id":
                lines.append(b"%-22s\tall\t%s\n" % (m.name.encode(), run.run_id))
            elif m.shape != "string":
                lines.append(z + b"%-22s\tall\t%s\n" % (name.encode(), _number(v, m.shape, bool(z))))
        at += k
    out.write(b"".join(lines))


#: The ranking trec_eval 10.0 scores a topic the run lacks by, with -c: one document no qrels names.
_BOGUS = [(b"ceci_nest_pas_un_docno", 1.0)]


def _topics(qrels, run, options: TrecEvalOptions):
    """``(qid, documents retrieved, judgments)`` of each topic to score, in the order trec_eval scores them:
    9.0.8, the run's topics the qrels have; 10.0, the qrels' topics, a topic the run lacks stopping it
    (status 4) or, with ``-c``, scored as :data:`_BOGUS`."""
    if options.version == "9.0.8":
        for qid, docs in run.topics.items():
            if (options.only_topic is None or qid == options.only_topic) and qid in qrels.topics:
                yield qid, docs, qrels.topics[qid]
        return
    for qid, judged in qrels.topics.items():
        if options.only_topic is not None and qid != options.only_topic:
            continue
        docs = run.topics.get(qid)
        if docs is None and not options.complete:
            raise TrecEvalStop(
                f"topic {qid.decode(errors='replace')} of the qrels is not in the run: trec_eval "
                f"{options.version} stops here (give -c to score it as retrieving nothing; 9.0.8 "
                "skips it)",
                [f"trec_eval: result qid '{qid.decode(errors='replace')}' not found in qrels"],
                4,
            )
        yield qid, _BOGUS if docs is None else docs, judged


def _clean_bogus(selected, values: list[float]) -> list[float]:
    """What trec_eval 10.0 resets after scoring a topic the run lacks: the measures declared to reset, always
    (unj) or where given without parameters (num_ret, utility, rbp_resid, and relstring's string: a measure given
    parameters keeps its value, its name has them)."""
    reset = [_resets(s, n) for s in selected for n in s.names]
    return [0.0 if r else v for r, v in zip(reset, values)]


def _resets(s, name: str) -> bool:
    """Whether trec_eval 10.0 resets the value printed as ``name`` after a topic the run lacks."""
    return s.measure.resets == "always" or (s.measure.resets == "bare" and name == s.measure.name)


def _rank(qid: bytes, docs, judged: dict, options: TrecEvalOptions, selected, warn):
    """The topic as the kernels read it: its documents ranked by score (9.0.8: in single precision), ties by
    name descending, the first ``-M`` kept, each one's grade."""
    from ..measures.trec_eval.kernels import NOT_IN_POOL, UNJUDGED, Ranked, grade_counts

    if options.version == "9.0.8":
        order = sorted(docs, key=lambda d: (-float(np.float32(d[1])), _Descending(d[0])))
    else:
        order = sorted(docs, key=lambda d: (-d[1], _Descending(d[0])))
    if options.max_docs is not None:
        order = order[: max(options.max_docs, 0)]
    kept = sorted(d for d, _ in order)
    for a, b in zip(kept, kept[1:]):
        if a == b:
            first = _first(selected)
            raise TrecEvalStop(
                f"topic {qid.decode(errors='replace')}: document {a.decode(errors='replace')} is "
                "retrieved twice (trec_eval refuses duplicate documents)",
                [
                    f"trec_eval.form_res_qrels: duplicate docs {a.decode(errors='replace')}"  # (no
                    + f"trec_eval: Can't calculate measure '{first}'"
                ],
                4,
            )  # newline between them)
    grades = [judged.get(d) for d, _ in order]
    rel = np.array([NOT_IN_POOL if g is None else UNJUDGED if g < 0 else g for g in grades], dtype=np.int64)
    if options.judged_only:
        rel = rel[rel >= 0]
    top = max(judged.values(), default=0)
    if top < 0 and warn is not None:
        warn(
            f"topic {qid.decode(errors='replace')}: every judgment is negative; scored as a topic with no judged "
            "document (trec_eval 9.0.8 stops here, or reads the previous topic's counts)"
        )
    return Ranked(
        rel, *grade_counts(list(judged.values())), options.level, options.num_docs, rounds=options.version != "9.0.8"
    )


def _first(selected) -> str:
    """The first measure computed from the qrels (trec_eval names it when the qrels or the run cannot be read)."""
    from ..measures.trec_table import RUNID

    return next((s.measure.name for s in selected if s.measure.reads is not None), RUNID)


_FORMAT_LINES = {
    "qrels": "trec_eval.form_res_qrels: rel_info format not qrels or results format not trec_results",
    "qrels_jg": "trec_eval: rel_info format not qrels_jg or results format not trec_results",
    "prefs": "trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) or results format not "
    "trec_results",
}


def _check_formats(selected, given: str) -> None:
    """Every measure reads the qrels format given (-R): trec_eval stops at the first that does not."""
    for s in selected:
        if s.measure.reads is None or s.measure.reads == given:
            continue
        raise TrecEvalStop(
            f"-m {s.measure.name} reads -R {s.measure.reads} files; these are read as -R {given} "
            f"(give -R {s.measure.reads})",
            [_FORMAT_LINES[s.measure.reads], f"trec_eval: Can't calculate measure '{s.measure.name}'"],
            4,
        )


def _prefs_values(s, qid: bytes, docs, lines, options, selected, counted: dict) -> list[float]:
    """A measure's values from the topic's preference counts, counted once per topic (kept in ``counted``, the
    topic's own: a cache keyed by the objects' ids returned another topic's counts where Python reused an id)."""
    from ..measures.trec_eval.prefs import PrefsError, topic_prefs

    if s.measure.reads is None:
        return _values(s, None)
    if "counts" not in counted:
        try:
            counted["counts"] = topic_prefs(docs, lines, options.max_docs, single=options.version == "9.0.8")
        except PrefsError as exc:
            first = f"trec_eval: Can't calculate measure '{_first(selected)}'"
            if "duplicate docs" in exc.trec_line:  # (trec_eval ends this message without a newline)
                lines = [exc.trec_line + first]
            elif "inconsistency" in exc.trec_line:  # (trec_eval aborts here, with status 134 and no output)
                raise TrecEvalStop(
                    f"topic {qid.decode(errors='replace')}: {exc.message}", exc.trec_line.split("\n"), 4, aborts=True
                ) from None
            else:
                lines = [exc.trec_line, first]
            raise TrecEvalStop(f"topic {qid.decode(errors='replace')}: {exc.message}", lines, 4) from None
    return s.measure.kernel(counted["counts"])


def _over_groups(s, topics: dict) -> list[float]:
    """A judgment-group measure: its values in each group, summed in group order, over the number of groups when
    there are several."""
    total = None
    for topic in topics.values():
        got = s.measure.kernel(topic, s.params)
        total = got if total is None else [a + b for a, b in zip(total, got)]
    if len(topics) > 1:
        total = [v / len(topics) for v in total]
    return total


class _Descending:
    """A document name that sorts in reverse byte order (trec_eval's tie order)."""

    __slots__ = ("name",)

    def __init__(self, name: bytes):
        self.name = name

    def __lt__(self, other) -> bool:
        return self.name > other.name

    def __eq__(self, other) -> bool:
        return self.name == other.name


def _values(s, topic) -> list[float]:
    shape = s.measure.shape
    if shape == "id":
        return [0.0]  # (a slot of its own, so that values and names line up; nothing is printed from it)
    if shape == "string":
        topic.relstring = s.measure.kernel(topic, s.params)
        return [0.0]
    return s.measure.kernel(topic, s.params)


def _number(v: float, shape: str, z: bool) -> bytes:
    """A value as trec_eval prints it: ``%6.4f``, counts ``%ld`` (as z-scores, ``%6.4f`` too)."""
    if shape == "long" and not z:
        return b"%d" % int(v)
    if v != v:
        return (b"-nan" if math.copysign(1.0, v) < 0 else b"nan").rjust(6)
    if math.isinf(v):
        return (b"-inf" if v < 0 else b"inf").rjust(6)
    return b"%6.4f" % v


def _to_zscores(zscores: dict, qid: bytes, names: list[str], values: list[float]) -> list[float]:
    """Each value as a z-score from the topic's mean and standard deviation of that measure (-1000000 when the
    file has none, or when a deviation of 0 meets a value other than the mean)."""
    missing = -1000000.0
    mine = zscores.get(qid)
    if mine is None:
        return [missing] * len(values)
    out = []
    for name, v in zip(names, values):
        mean_sd = mine.get(name)
        if mean_sd is None:
            out.append(missing)
        elif mean_sd[1]:
            out.append((v - mean_sd[0]) / mean_sd[1])
        else:
            out.append(0.0 if v == mean_sd[0] else missing)
    return out
