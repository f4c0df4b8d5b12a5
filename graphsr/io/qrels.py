"""Reader of element-level assessments.

Format (docs/conventions.md, file formats), whitespace separated::

    topic Q0 file xpath rel
    topic Q0 file xpath e s          (INEX 2002-2005: exhaustivity, specificity)

with ``rel`` a number in [0, 1], ``e`` and ``s`` in 0..3 (also written
``e,s`` in one field); one kind per file.  Nodes that are not listed are not
relevant.
"""

from __future__ import annotations

import os

from ..errors import QrelsFormatError
from ..core.qrels import ElementQrels, QrelsRow

__all__ = ["read_element_qrels"]


def _document_qrels(columns, path) -> ElementQrels:
    """TREC document assessments from their columns.  A document judged twice for a topic is refused, unless the
    file judges documents under several subtopics (field 2; the TREC Web track's diversity qrels): then the
    assessments keep the judgments per subtopic as ``subtopics`` (:class:`~graphsr.core.subtopics.SubtopicJudgments`),
    which the diversity measures score and the other families refuse."""
    from ..errors import DuplicateJudgmentError

    try:
        return ElementQrels.from_columns(columns, str(path))
    except DuplicateJudgmentError as exc:
        subtopics = _as_subtopics(path)
        if subtopics is None:
            raise exc from None
    from ..core.columns import DocumentColumns

    best: dict = {}
    for topic, (docs, grades) in subtopics.topics.items():
        for d, g in zip(docs, grades.max(axis=1).tolist()):
            best[(topic, d)] = g
    columns = DocumentColumns.from_lists([t for t, _ in best], [d for _, d in best], list(best.values()))
    qrels = ElementQrels.from_columns(columns, str(path))
    qrels.subtopics = subtopics
    return qrels


def _as_subtopics(path):
    """The file's judgments per subtopic, when it is diversity qrels (4 fields, some topic with several
    subtopics, no document judged twice for one subtopic); else None."""
    from .subtopics import read_subtopic_qrels

    try:
        subtopics = read_subtopic_qrels(path)
    except QrelsFormatError:
        return None
    return subtopics if subtopics.several() else None


def read_element_qrels(
    path: str | os.PathLike, keep: tuple[str, ...] | None = None, judge: str = "person"
) -> ElementQrels:
    """Read element qrels.

    TREC document qrels may name each judgment's judge in a fifth field (``topic iteration docno rel judge``:
    :mod:`graphsr.core.judges`); lines without one are ``judge``'s.  ``keep``: the kinds of judge whose
    judgments are read (``("model",)``: a model's only; None: every judgment).

    Raises
    ------
    QrelsFormatError
        For a line without 4, 5 or 6 fields, a relevance that is not a
        number (in [0, 1], or a TREC-style grade), an (e, s) pair outside the
        INEX scale, a file mixing kinds of lines, a malformed XPath or a node
        assessed twice.

    Notes
    -----
    TREC document qrels, ``topic iteration docno rel`` (4 fields), are read
    as plain documents: each document one element (``/doc[1]``), scored
    without a collection.  A file judging a document under several values
    of field 2 (TREC diversity qrels, ``topic subtopic docno grade``) is
    read as judgments per subtopic (:func:`_document_qrels`).
    """
    from ._lines import c_scanner, read_bytes, scanned
    from .first_records import first_record

    record = first_record(path, QrelsFormatError)
    if keep is not None or judge != "person" or names_judge(record) or _names_element_judge(record):
        if record is not None and len(record.split()) >= 5 and not names_judge(record):
            return _read_qrels_lines(path, keep, judge)  # element qrels naming their judges
        return _read_judged_document_qrels(path, keep, judge)
    scan = c_scanner()
    if scan is not None:  # well-formed qrels: columns in C, no object per line
        record = first_record(path, QrelsFormatError)
        topic_codes: dict[str, int] = {}
        doc_codes: dict[str, int] = {}
        data = read_bytes(path, QrelsFormatError)
        if record is not None and len(record.split()) >= 5:  # element qrels (an XPath in field 4)
            path_codes: dict[str, int] = {}
            got = scanned(scan, "scan_element_qrels", data, topic_codes, doc_codes, path_codes)
            if not isinstance(got, int) and len(got[0]):
                qrels = element_qrels_of_columns(got, list(topic_codes), list(doc_codes), list(path_codes), str(path))
                if qrels is not None:
                    return qrels
        else:
            got = scanned(scan, "scan_trec_qrels", data, topic_codes, doc_codes)
            if not isinstance(got, int) and len(got[0]):
                from ..core.columns import DocumentColumns

                topic, doc, rel, line = got
                columns = DocumentColumns(
                    list(topic_codes), list(doc_codes), topic, doc, rel, line, index=(topic_codes, doc_codes)
                )
                return _document_qrels(columns, path)
    return _read_qrels_lines(path)


def names_judge(record: str | None) -> bool:
    """Whether a first record is a TREC document judgment naming its judge (a fifth field)."""
    from ..core.judges import is_judge

    f = record.split() if record else []
    return len(f) == 5 and is_judge(f[4])


def judged_document_lines(path, judge: str = "person"):
    """``(line, topic, iteration, docno, grade, judge)`` of every judgment of a TREC document qrels file, whose
    lines have 4 fields or 5 (the fifth a judge; lines without one are ``judge``'s)."""
    from ..core.document import quoted
    from ..core.judges import is_judge
    from ._lines import iter_fields

    for lineno, f in iter_fields(path, QrelsFormatError):
        if len(f) == 5 and is_judge(f[4]):
            who = f[4]
        elif len(f) == 4:
            who = judge
        else:
            raise QrelsFormatError(
                f"expected 'topic iteration docno rel' with an optional judge (person, model:NAME, checked:NAME) "
                f"after it, got {len(f)} fields" + (f" ending {quoted(f[-1])}" if len(f) == 5 else ""),
                path,
                lineno,
            )
        try:
            rel = float(f[3])
        except ValueError:
            rel = float("nan")
        if rel != rel:
            raise QrelsFormatError(f"expected a relevance number in field 4, got {quoted(f[3])}", path, lineno)
        yield lineno, f[0], f[1], f[2], rel, who


def _names_element_judge(record: str | None) -> bool:
    """Whether a first record is an element judgment naming its judge (a sixth field after the relevance)."""
    from ..core.judges import is_judge

    f = record.split() if record else []
    return len(f) == 6 and is_judge(f[5])


def _read_judged_document_qrels(path, keep: tuple[str, ...] | None, judge: str) -> ElementQrels:
    """TREC document qrels whose judgments name their judges: the judgments of the kinds ``keep`` (all: None)."""
    from ..core.columns import DocumentColumns
    from ..core.judges import judge_kind, parse_judge

    from ..core.document import PLAIN_DOCUMENT_NODE

    parse_judge(judge)
    topics, docs, rels, lines, judges = [], [], [], [], []
    seen = 0
    for lineno, topic, _iteration, docid, rel, who in judged_document_lines(path, judge):
        seen += 1
        if keep is not None and judge_kind(who) not in keep:
            continue
        topics.append(topic)
        docs.append(docid)
        rels.append(rel)
        lines.append(lineno)
        judges.append(who)
    if not seen:
        raise QrelsFormatError("the qrels file is empty: expected lines 'topic iteration docno rel'", path)
    qrels = ElementQrels.from_columns(DocumentColumns.from_lists(topics, docs, rels, lines), str(path))
    if any(j != "person" for j in judges):  # (who judged each document: kept, and stored with it)
        qrels.judges = {(t, d, PLAIN_DOCUMENT_NODE): j for t, d, j in zip(topics, docs, judges)}
    return qrels


def element_qrels_of_columns(
    got, topics: list[str], docs: list[str], paths: list[str], source: str
) -> ElementQrels | None:
    """Element assessments from columns ``(topic, doc, path, value, e, s, line)`` (codes into ``topics``,
    ``docs`` and ``paths``; ``e`` and ``s`` -1 for a value, ``line`` None when not from a file), as the C
    scanner reads element qrels files, checked with array operations (each XPath made canonical once); None
    when some line breaks a rule (the line reader, or the row-by-row builder, then says which and why)."""
    import numpy as np

    from ..core.document import canonical_xpath
    from ..core.quantisation import ES_PAIRS, quantise

    topic, doc, path, value, e, s, line = got
    graded = e >= 0
    if graded.any() and not graded.all():  # a file mixing kinds
        return None
    if graded[0]:
        pairs = e.astype(np.int64) * 10 + s
        if not np.isin(pairs, [a * 10 + b for a, b in ES_PAIRS]).all():
            return None
        value = quantise(np.stack([e, s], axis=1), "gen")
    elif not np.isfinite(value).all():
        return None
    try:
        canonical = [canonical_xpath(x) for x in paths]
    except ValueError:
        return None
    code = dict(zip(dict.fromkeys(canonical), range(len(canonical))))
    path = np.array([code[x] for x in canonical], dtype=np.int64)[path]
    names = list(code)
    key = (topic.astype(np.int64) * len(docs) + doc) * max(len(names), 1) + path
    if len(np.unique(key)) != len(key):  # a node assessed twice
        return None
    from ..core.columns import AssessmentColumns

    grade = np.stack([e, s], axis=1).astype(np.int64) if graded[0] else None
    columns = AssessmentColumns(
        topics,
        docs,
        names,
        np.asarray(topic, dtype=np.int64),
        np.asarray(doc, dtype=np.int64),
        path,
        np.asarray(value, dtype=float),
        grade,
        None if line is None else np.asarray(line, dtype=np.int64),
    )
    return ElementQrels(source=source, columns=columns)


def _read_qrels_lines(path, keep: tuple[str, ...] | None = None, judge: str = "person") -> ElementQrels:
    """The line-by-line qrels reader: reads what the C scanner declines, and explains every rejected line.  An
    element line may name its judge after the relevance (``topic Q0 file xpath rel judge``); ``keep``: the kinds
    of judge whose judgments are read (None: all), ``judge``: the judge of a line that names none."""
    from ..core.document import PLAIN_DOCUMENT_NODE, quoted
    from ..core.judges import is_judge, judge_kind
    from ._lines import iter_fields

    rows: list[QrelsRow] = []
    judges: list[str] = []
    plain = None
    for lineno, f in iter_fields(path, QrelsFormatError):
        who = judge
        if len(f) == 6 and is_judge(f[5]):
            who, f = f[5], f[:5]
        if plain is None:
            plain = len(f) == 4
        if plain and names_judge(" ".join(f)):  # a judgment naming its judge: the judged reader reads the file
            return _read_judged_document_qrels(path, None, "person")
        if plain != (len(f) == 4):
            raise QrelsFormatError(
                "a file mixes TREC document lines (4 fields) and element lines; expected one kind throughout",
                path,
                lineno,
            )
        if plain:
            topic, _iteration, docid, rel_s = f
            f = [topic, "Q0", docid, PLAIN_DOCUMENT_NODE, rel_s]
        if len(f) == 5 and "," in f[4]:
            f = f[:4] + f[4].split(",", 1)
        if len(f) == 6:
            topic, _q0, docid, xpath, e_s, s_s = f
            if not (e_s.isdigit() and s_s.isdigit()):
                raise QrelsFormatError(
                    f"expected exhaustivity and specificity digits 0..3 in fields 5 and 6, got "
                    f"{quoted(e_s)} {quoted(s_s)}",
                    path,
                    lineno,
                )
            if keep is None or judge_kind(who) in keep:
                rows.append(QrelsRow(topic, docid, xpath, 0.0, lineno, (int(e_s), int(s_s))))
                judges.append(who)
            continue
        if len(f) != 5:
            raise QrelsFormatError(
                f"expected 5 fields 'topic Q0 file xpath rel', 6 'topic Q0 file xpath e s' or 4 "
                f"'topic iteration docno rel' (TREC), got {len(f)}",
                path,
                lineno,
            )
        topic, _q0, docid, xpath, rel_s = f
        try:
            rel = float(rel_s)
        except ValueError:
            rel = float("nan")
        if rel != rel:  # not a number, or NaN
            raise QrelsFormatError(
                f"expected a relevance number in [0, 1] in field {4 if plain else 5}, got {quoted(rel_s)}", path, lineno
            )
        if keep is None or judge_kind(who) in keep:
            rows.append(QrelsRow(topic, docid, xpath, rel, lineno))
            judges.append(who)
    if not rows and keep is None:
        raise QrelsFormatError("the qrels file is empty: expected lines 'topic Q0 file xpath rel'", path)
    if plain:
        from ..core.columns import DocumentColumns

        return _document_qrels(
            DocumentColumns.from_lists(
                [r.topic for r in rows], [r.docid for r in rows], [r.rel for r in rows], [r.line for r in rows]
            ),
            path,
        )
    qrels = ElementQrels.from_rows(rows, str(path))
    if any(j != "person" for j in judges):  # (who judged each node: kept, and stored with it)
        from ..core.document import canonical_xpath

        qrels.judges = {(r.topic, r.docid, canonical_xpath(r.xpath)): j for r, j in zip(rows, judges)}
    return qrels
