"""Natural Questions read as it ships: its examples (the original format and ``simplify_nq_data.py``'s), one file
or a directory of shards, gzipped or not; and predictions in ``nq_eval``'s JSON format.

One file of examples serves three ways: as assessments (:func:`read_nq_assessments`: every annotator's long,
short and yes/no answers), as a collection (:mod:`graphsr.io.nq_pages`: each page a document tree whose
long-answer candidates are elements) and as the source of ranked runs of candidates
(:func:`graphsr.io.nq_runs`).  An example id given twice is refused, and so is a span given by half or a field
that is not what NQ writes there.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Generator, Iterator

from ..core.answers import Answer, NQAssessments, NQPredictions, Span
from ..errors import QrelsFormatError, RunFormatError
from ._lines import iter_blocks
from .first_records import is_nq_record

__all__ = [
    "nq_files",
    "iter_examples",
    "read_nq_assessments",
    "read_nq_predictions",
    "is_nq_record",
    "is_nq_predictions",
    "example_id",
]

#: The names of NQ's shards in a directory: ``nq-dev-00.jsonl.gz``, ``simplified-nq-train.jsonl.gz``, any JSON
#: lines file (not ``.json``: a prediction file may lie beside the shards).
_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


def nq_files(path: str | os.PathLike) -> list[str]:
    """The files of ``path``: itself, or a directory's JSON lines files in name order."""
    path = str(path)
    if not os.path.isdir(path):
        return [path]
    names = sorted(n for n in os.listdir(path) if n.lower().endswith(_SUFFIXES) and not n.startswith("."))
    return [os.path.join(path, n) for n in names]


def is_nq_predictions(path: str | os.PathLike) -> bool:
    """Whether a file is ``nq_eval``'s prediction JSON: an object whose first key is ``predictions``."""
    import re

    if os.path.isdir(path):
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return False
    return re.match(r'\s*\{\s*"predictions"\s*:', head) is not None


def numbered_lines(path: str, error: type) -> Generator[tuple[int, bytes], None, None]:
    """``(line number, line)`` of every line of a file holding a record (blank lines skipped, counted)."""
    line = 0
    for block in iter_blocks(path, error):
        pieces = block.split(b"\n")
        if block.endswith(b"\n"):
            pieces.pop()  # (a block ends with its last line's LF: no line after it)
        for raw in pieces:
            line += 1
            if raw.strip():
                yield line, raw


def iter_examples(path: str | os.PathLike, error: type = QrelsFormatError) -> Iterator[tuple[str, int, dict]]:
    """``(file, line, example)`` for every example of ``path`` (a file, or a directory of shards)."""
    for name in nq_files(path):
        line = 0
        for line, raw in numbered_lines(name, error):
            try:
                record = json.loads(raw)
            except ValueError as exc:
                raise error(f"not a JSON object: {exc}", name, line) from None
            if not isinstance(record, dict):
                raise error("not a JSON object", name, line)
            yield name, line, record
        if line == 0:
            raise error("no example", name)


def example_id(record: dict, error: type, where: tuple) -> str:
    """An example's id as text (NQ writes integers)."""
    value = record.get("example_id")
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value == "":
        raise error(f"example_id must be an integer or a string, got {value!r}", *where)
    return str(value)


def _int(record: dict, key: str, error: type, where: tuple) -> int:
    value = record.get(key, -1)
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{key} must be an integer, got {value!r}", *where)
    return value


def span_of(record: Any, error: type, where: tuple, what: str) -> Span:
    """A :class:`Span` from NQ's fields (``start_byte``, ``end_byte``, ``start_token``, ``end_token``; a field
    left out is ``-1``)."""
    if not isinstance(record, dict):
        raise error(f"{what} must be a JSON object, got {record!r}", *where)
    ints = [_int(record, k, error, where) for k in ("start_byte", "end_byte", "start_token", "end_token")]
    try:
        return Span(*ints)
    except ValueError as exc:
        raise error(f"{what}: {exc}", *where) from None


def _yes_no(record: dict, error: type, where: tuple) -> str:
    value = record.get("yes_no_answer", "NONE")
    if not isinstance(value, str) or value.lower() not in ("yes", "no", "none"):
        raise error(f"yes_no_answer must be YES, NO or NONE, got {value!r}", *where)
    return value.lower()


def _annotation(record: Any, where: tuple) -> Answer:
    if not isinstance(record, dict):
        raise QrelsFormatError(f"an annotation must be a JSON object, got {record!r}", *where)
    if "long_answer" not in record or "short_answers" not in record:
        raise QrelsFormatError("an annotation needs long_answer and short_answers", *where)
    shorts = record["short_answers"]
    if not isinstance(shorts, list):
        raise QrelsFormatError(f"short_answers must be a list, got {shorts!r}", *where)
    return Answer(
        span_of(record["long_answer"], QrelsFormatError, where, "long_answer"),
        tuple(span_of(s, QrelsFormatError, where, "a short answer") for s in shorts),
        _yes_no(record, QrelsFormatError, where),
    )


def read_nq_assessments(path: str | os.PathLike) -> NQAssessments:
    """Every example's annotations, question, URL and candidates, from an NQ file or a directory of its shards.

    Raises
    ------
    QrelsFormatError
        A line that is not an NQ example, a span given by half, an example id given twice.
    """
    annotations: dict[str, tuple[Answer, ...]] = {}
    questions, urls, candidates, top = {}, {}, {}, {}
    for name, line, record in iter_examples(path):
        where = (name, line)
        eid = example_id(record, QrelsFormatError, where)
        if eid in annotations:
            raise QrelsFormatError(f"example {eid} is given twice", *where)
        listed = record.get("annotations")
        if not isinstance(listed, list):
            raise QrelsFormatError(f"example {eid}: annotations must be a list", *where)
        annotations[eid] = tuple(_annotation(a, where) for a in listed)
        cands = record.get("long_answer_candidates")
        if not isinstance(cands, list):
            raise QrelsFormatError(f"example {eid}: long_answer_candidates must be a list", *where)
        candidates[eid] = tuple(span_of(c, QrelsFormatError, where, "a candidate") for c in cands)
        top[eid] = tuple(bool(c.get("top_level", True)) for c in cands)
        questions[eid] = str(record.get("question_text", ""))
        urls[eid] = str(record.get("document_url", ""))
    return NQAssessments(annotations, questions, urls, candidates, top, str(path))


def _score(record: dict, key: str, where: tuple) -> float:
    if key not in record:
        raise RunFormatError(f"example {record.get('example_id')!r}: no {key} (nq_eval needs it)", *where)
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RunFormatError(f"{key} must be a finite number, got {value!r}", *where)
    return float(value)


def _prediction(record: Any, where: tuple) -> tuple[str, Answer]:
    if not isinstance(record, dict):
        raise RunFormatError(f"a prediction must be a JSON object, got {record!r}", *where)
    eid = example_id(record, RunFormatError, where)
    long = span_of(record["long_answer"], RunFormatError, where, "long_answer") if "long_answer" in record else Span()
    shorts = record.get("short_answers", [])
    if not isinstance(shorts, list):
        raise RunFormatError(f"example {eid}: short_answers must be a list", *where)
    short = tuple(span_of(s, RunFormatError, where, "a short answer") for s in shorts)
    yes_no = _yes_no(record, RunFormatError, where)
    if yes_no != "none" and any(not s.is_null for s in short):
        raise RunFormatError(f"example {eid}: a yes/no answer and short answer spans cannot both be given", *where)
    answer = Answer(
        long, short, yes_no, _score(record, "long_answer_score", where), _score(record, "short_answers_score", where)
    )
    return eid, answer


def read_nq_predictions(path: str | os.PathLike, name: str | None = None) -> NQPredictions:
    """A system's answers in ``nq_eval``'s prediction JSON (``{"predictions": [...]}``).

    Raises
    ------
    RunFormatError
        Not that JSON; a prediction without its scores, with a score that is not a finite number, with both a
        yes/no answer and short spans; an example predicted twice.
    """
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
    except OSError as exc:
        raise RunFormatError(f"cannot read file: {exc.strerror}", path) from None
    except ValueError as exc:
        raise RunFormatError(f"not JSON: {exc}", path) from None
    listed = data.get("predictions") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        raise RunFormatError('not nq_eval\'s predictions: expected {"predictions": [...]}', path)
    answers: dict[str, Answer] = {}
    for k, record in enumerate(listed):
        where = (str(path), None)
        eid, answer = _prediction(record, where)
        if eid in answers:
            raise RunFormatError(f"example {eid} is predicted twice (prediction {k + 1})", path)
        answers[eid] = answer
    return NQPredictions(answers, str(path) if name is None else name, str(path))
