"""TREC qrels and runs read as trec_eval 9.0.8 reads them, for ``graphsr trec_eval``.

trec_eval's own rules, which differ from graphsr's readers (:mod:`graphsr.io.runs`, :mod:`graphsr.io.qrels`):

* a run line is ``qid iter docno rank sim run_id [anything]``: six fields at least, the rest of the line
  ignored; a qrels line is ``qid iter docno rel``, exactly four; blank lines are skipped in runs (not in qrels);
* topics are taken in byte order of their ids (``strcmp``), not numeric order and not file order;
* a score is a C ``float`` (single precision: scores equal in their first 7 digits tie) and the rank column is
  ignored: documents are ranked by score, ties by document name descending;
* the run's id is the ``run_id`` of its last line;
* a malformed line is reported by its number among the non-blank lines (trec_eval's count).

trec_eval 10.0 (``version="10.0"``) also skips comment lines and reads a run from standard input when its name
is ``-``.  In a run a comment is any line whose first character other than white space is ``#``; in judgments
(qrels, judgment groups, preferences) a line that starts with ``#``, unless the line before it was one: 10.0 reads
the second of two comment lines in a row as data (and refuses it as malformed, or takes it for a judgment), which
these readers do as well; a comment as the last line, after which 10.0 reads past the end of its buffer (it
crashes, or calls the line malformed, as the memory there happens to be), is skipped.  Scores and preference
levels are double precision in 10.0, single in 9.0.8.

Every number is read as trec_eval reads it, with C's ``atol`` and ``atof`` (:mod:`graphsr.io.cnumbers`): the
longest prefix that is a number (a grade ``1.5`` is 1, a score ``2.5e1x`` is 25; a grade past a 64-bit long is
LONG_MAX).  Where no number starts a field trec_eval reads 0 (``rel`` = ``x``), and it ranks NaN and infinite
scores by its sort's internals: these readers refuse such a line in one line instead (:class:`TrecEvalInputError`
names the file and line), as every graphsr reader does: a wrong number is worse than an error.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from .cnumbers import LONG_MAX, c_atof, c_atol

__all__ = [
    "TrecEvalInputError",
    "TrecQrels",
    "TrecRun",
    "read_trec_eval_qrels",
    "read_trec_eval_prefs",
    "read_trec_eval_run",
    "read_zscores",
]


class TrecEvalInputError(Exception):
    """A file trec_eval cannot read (or reads as garbage): ``trec_lines`` are what trec_eval prints on stderr,
    ``message`` graphsr's clearer line, ``code`` trec_eval's exit status."""

    def __init__(self, message: str, trec_lines: list[str], code: int = 2):
        super().__init__(message)
        self.message, self.trec_lines, self.code = message, trec_lines, code


@dataclass
class TrecQrels:
    """Per topic (in byte order of the ids), each judged document's relevance; with judgment groups (``-R
    qrels_jg``: the second field names the group), per topic and group (in byte order), each document's."""

    topics: dict = field(default_factory=dict)
    groups: bool = False
    #: Per topic judging a document twice (without groups), that document (the first in byte order): trec_eval
    #: stops on it when it scores the topic, not before.
    duplicates: dict = field(default_factory=dict)
    #: Preferences (``-R prefs``, ``qrels_prefs``): per topic, its ``(jg, jsg, level, docno)`` lines.
    prefs: bool = False
    #: Per topic whose largest grade sizes an array trec_eval cannot allocate (see ``_sizable``), that grade:
    #: trec_eval stops when it scores the topic (exit 4).
    unsized: dict = field(default_factory=dict)


@dataclass
class TrecRun:
    """Per topic (in byte order of the ids), its documents and their single-precision scores, in file order;
    ``run_id``: the last line's."""

    topics: dict[bytes, list[tuple[bytes, float]]] = field(default_factory=dict)
    run_id: bytes = b""


def _lines(path, what: str, cannot: str, stdin: bool = False):
    trec = [f"trec_eval.{cannot} '{os.fsdecode(path)}'"]
    chunks = []
    try:
        with _stdin() if stdin and os.fsdecode(path) == "-" else open(path, "rb") as fh:
            while True:  # a chunk at a time: a device that never ends (/dev/zero) is refused at its first NUL
                chunk = fh.read(1 << 20)
                if not chunk:
                    break
                if b"\0" in chunk:
                    raise TrecEvalInputError(f"{path}: a NUL byte: expected a text file of {what} lines", trec)
                chunks.append(chunk)
    except OSError as exc:
        raise TrecEvalInputError(f"{path}: cannot read the {what} ({exc.strerror})", trec) from None
    data = b"".join(chunks)
    if not data:
        raise TrecEvalInputError(f"{path}: the {what} file is empty", trec)
    return data.split(b"\n")


def _stdin():
    """Standard input as bytes, left open when read (trec_eval 10.0 reads a run named ``-`` from it)."""
    import contextlib
    import sys

    return contextlib.nullcontext(sys.stdin.buffer)


def _judgment_lines(lines: list[bytes], comments: bool):
    """``(line number, line, trec_eval's count of the lines read)`` of a judgment file; with ``comments``
    (trec_eval 10.0) without the comment lines it skips (see the module's description)."""
    count = 0
    skipped = False
    for number, line in enumerate(lines, 1):
        if comments and line.startswith(b"#") and not skipped:
            skipped = True
            continue
        skipped = False
        count += 1
        yield number, line, count


def read_trec_eval_qrels(path, groups: bool = False, version: str = "9.0.8") -> TrecQrels:
    """Read a qrels file (``qid iter docno rel``) as trec_eval ``version`` does; ``groups``: ``qid group docno
    rel`` (``-R qrels_jg``), each group's judgments apart."""
    topics: dict = {}
    duplicates: dict = {}
    top: dict = {}  # per topic, its largest grade
    lines = _lines(path, "qrels", f"{'get_qrels_jg' if groups else 'get_qrels'}: Cannot read qrels file")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line, count in _judgment_lines(lines, version != "9.0.8"):
        f = line.split()
        if len(f) != 4:
            raise TrecEvalInputError(
                f"{path}:{number}: expected 4 fields 'topic iteration docno relevance', got {len(f)}",
                [
                    f"trec_eval.{'get_qrels_jg' if groups else 'get_qrels'}: Malformed line {count}",
                    f"trec_eval: Quit in file '{os.fsdecode(path)}'",
                ],
            )
        qid, group, docno, rel = f
        grade = c_atol(rel)  # as trec_eval reads it: "1.5" is 1, "99999999999999999999" is LONG_MAX
        if grade is None:
            raise TrecEvalInputError(
                f"{path}:{number}: expected an integer relevance in field 4, got {rel.decode(errors='replace')!r} "
                "(trec_eval would read it as 0)",
                [f"trec_eval: Quit in file '{os.fsdecode(path)}'"],
            )
        judged = topics.setdefault(qid, {})
        if groups:
            judged = judged.setdefault(group, {})
        if docno in judged:
            name = docno.decode(errors="replace")
            if groups:  # (trec_eval's reader of groups finds it)
                raise TrecEvalInputError(
                    f"{path}:{number}: topic {qid.decode(errors='replace')}: document {name} is judged twice in "
                    f"group {group.decode(errors='replace')}",
                    [f"trec_eval.get_qrels: duplicate docs {name}", f"trec_eval: Quit in file '{os.fsdecode(path)}'"],
                )
            duplicates[qid] = min(duplicates.get(qid, docno), docno)
            continue
        judged[docno] = grade
        if grade > top.get(qid, -1):
            top[qid] = grade
    if groups:
        topics = {q: dict(sorted(g.items())) for q, g in topics.items()}
    room = _memory_and_swap() if top else 0  # (read once, not once a topic)
    unsized = {q: g for q, g in top.items() if not _sizable(g, room)}
    return TrecQrels(dict(sorted(topics.items())), groups, duplicates, unsized=unsized)


def _sizable(grade: int, room: int) -> bool:
    """Whether trec_eval can allocate the array it sizes by a topic's largest grade: ``grade + 1`` C longs,
    8 bytes each, in one allocation, which Linux grants up to the machine's memory and swap (``room``) (its default
    overcommit rule; trec_eval then takes seconds to minutes to clear it).  Past that it stops (exit 4); from
    2**61 the size wraps around and it crashes (segmentation fault), which graphsr does not imitate: it stops
    there too.  graphsr's own cost does not depend on grades."""
    return grade < LONG_MAX and 8 * (grade + 1) <= room


def _memory_and_swap() -> int:
    try:
        with open("/proc/meminfo") as fh:
            info = {
                k: int(v.split()[0]) * 1024
                for k, v in (line.split(":", 1) for line in fh)
                if k in ("MemTotal", "SwapTotal")
            }
        return info["MemTotal"] + info.get("SwapTotal", 0)
    except (OSError, ValueError, KeyError):
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def read_trec_eval_prefs(path, qrels_form: bool = False, version: str = "9.0.8") -> TrecQrels:
    """Read preferences as trec_eval ``version`` does: ``qid jg jsg docno level`` lines (``-R prefs``), or qrels
    lines ``qid jg docno level`` read as one sub-group per group (``-R qrels_prefs``); levels are single
    precision (10.0: double).  ``topics[qid]``: the topic's ``(jg, jsg, level, docno)``."""
    import numpy as np

    what = "qrels_prefs" if qrels_form else "prefs"
    reader = "get_qrels_prefs" if qrels_form else "get_prefs"
    width = 4 if qrels_form else 5
    topics: dict = {}
    lines = _lines(path, what, f"{reader}: Cannot read {what} file")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line, count in _judgment_lines(lines, version != "9.0.8"):
        f = line.split()
        level = c_atof(f[-1]) if f else None  # as trec_eval reads it (atof)
        if len(f) != width or level is None or not math.isfinite(level):
            layout = "topic group document level" if qrels_form else "topic group subgroup document level"
            raise TrecEvalInputError(
                f"{path}:{number}: expected {width} fields '{layout}' with a number last",
                [f"trec_eval.{reader}: Malformed line {count}", f"trec_eval: Quit in file '{os.fsdecode(path)}'"],
            )
        jsg = b"0" if qrels_form else f[2]
        if version == "9.0.8":
            level = float(np.float32(level))
        topics.setdefault(f[0], []).append((f[1], jsg, level, f[-2]))
    return TrecQrels(dict(sorted(topics.items())), prefs=True)


def read_trec_eval_run(path, version: str = "9.0.8") -> TrecRun:
    """Read a run (``qid iter docno rank sim run_id``) as trec_eval ``version`` does (10.0: ``-`` is standard
    input, and comment lines are skipped); duplicate documents are left for the evaluation to find (trec_eval
    finds them only among the documents it keeps, see ``-M``)."""
    topics: dict[bytes, list[tuple[bytes, float]]] = {}
    run_id = b""
    count = 0
    ten = version != "9.0.8"
    for number, line in enumerate(_lines(path, "results", "get_results: Cannot read results file", ten), 1):
        f = line.split()
        if not f or (ten and f[0].startswith(b"#")):
            continue
        count += 1
        if len(f) < 6:
            raise TrecEvalInputError(
                f"{path}:{number}: expected 6 fields 'topic Q0 docno rank score run_id', got {len(f)}",
                [f"trec_eval.get_results: Malformed line {count}", f"trec_eval: Quit in file '{os.fsdecode(path)}'"],
            )
        score = c_atof(f[4])  # as trec_eval reads it: "1.5x" is 1.5, "inf" is infinite
        if score is None or math.isnan(score):
            raise TrecEvalInputError(
                f"{path}:{number}: expected a number as the score (field 5), got {f[4].decode(errors='replace')!r} "
                "(trec_eval reads a non-number as 0, and ranks NaN by its sort's internals)",
                [f"trec_eval: Quit in file '{os.fsdecode(path)}'"],
            )
        topics.setdefault(f[0], []).append((f[2], score))
        run_id = f[5]
    # a file of blank lines only holds no topic: trec_eval goes on, and finds no topic to score (exit 7)
    return TrecRun(dict(sorted(topics.items())), run_id)


def read_zscores(path) -> dict:
    """``-Z``: per topic and measure name, the mean and standard deviation (``qid measure mean stddev`` lines).
    trec_eval ends with status 255 on a z-score file it cannot read (its message names another reader)."""
    try:
        lines = _lines(path, "z-score", "get_prefs: Cannot read zscores file")
    except TrecEvalInputError as exc:
        raise TrecEvalInputError(exc.message, exc.trec_lines, 255) from None
    if lines and lines[-1] == b"":
        lines.pop()
    out: dict = {}
    for number, line in enumerate(lines, 1):
        f = line.split()
        if len(f) != 4:
            raise TrecEvalInputError(
                f"{path}:{number}: expected 4 fields 'topic measure mean stddev', got {len(f)}",
                [f"trec_eval.get_zscores: Malformed line {number}"],
                255,
            )
        mean, sd = c_atof(f[2]), c_atof(f[3])  # as trec_eval reads them: "nan" is NaN, "1.5x" is 1.5
        if mean is None or sd is None:
            raise TrecEvalInputError(
                f"{path}:{number}: expected numbers as the mean and the standard deviation, got "
                f"{f[2].decode(errors='replace')!r} and {f[3].decode(errors='replace')!r} "
                "(trec_eval would read a non-number as 0)",
                [],
                2,
            )
        out.setdefault(f[0], {})[f[1].decode(errors="replace")] = (mean, sd)
    return out
