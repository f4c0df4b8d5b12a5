"""Readers of passage (FOL) assessments and runs: INEX 2009-2010 qrels, TREC-like
passage runs and the INEX XML submission format.

Formats (docs/conventions.md, file formats)::

    qrels:  topic Q0 file rel_chars doc_len [bep offset:length ...]
    run:    topic Q0 file rank score run_id offset length
    XML:    <inex-submission run-id="..."><topic topic-id="...">
              <result><file>..</file><fol offset=".." length=".."/><rank>..</rank><rsv>..</rsv></result>
              <result><file>..</file><path>/article[1]/..</path></result> ...

Qrels lines may end with spaces and list passages in any order; they are
sorted by offset.  A passage must lie within ``[0, doc_len)``, two passages of
one article must not overlap, their lengths must sum to ``rel_chars``, and the
best entry point must lie in ``[0, doc_len]`` (the official INEX 2010 qrels put
it at ``doc_len`` four times).

Run lines are kept in file order: the official tool scores results in the
order of the file and reads neither the rank nor the score column (the
evaluation can still order them by rank on request).  In the XML format a
result without ``<rank>`` takes its position within the topic.

Well-formed files are read by a C scanner (``graphsr.io._folscan``) in one
pass; the line-by-line readers here explain whatever it declines (and read
everything where it was not built).  Neither imports pandas.
"""

from __future__ import annotations

import os
from typing import Mapping

import numpy as np

from ..errors import QrelsFormatError, RunFormatError
from ..core.document import quoted, resolve_node
from ..core.fol import FOLQrels, FOLRun, Vocabulary
from ._lines import c_scanner, iter_fields, read_bytes
from .first_records import first_record, is_submission

__all__ = ["read_fol_qrels", "read_fol_run", "read_inex_submission", "read_passage_run", "submission_files"]

_QRELS_SHAPE = "'topic Q0 file rel_chars doc_len [bep offset:length ...]'"
_RUN_SHAPE = "'topic Q0 file rank score run_id offset length'"


def _int(text: str, what: str, path, lineno: int, error, minimum: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        raise error(f"expected an integer {what}, got {quoted(text)}", path, lineno) from None
    if v < minimum:
        raise error(f"expected {what} >= {minimum}, got {v}", path, lineno)
    if v > 10**18:
        raise error(f"expected {what} <= 10^18, got {text}", path, lineno)
    return v


def read_fol_qrels(path: str | os.PathLike, vocab: Vocabulary | None = None) -> FOLQrels:
    """Read INEX FOL qrels (see the module docstring for the checks).

    Parameters
    ----------
    path : path-like
    vocab : Vocabulary, optional
        Topic and article codes to use (and extend); read runs with the
        returned ``qrels.vocab`` to join them by integer look-ups.

    Raises
    ------
    QrelsFormatError
        With the file and line: a short line, a non-integer field, a passage
        outside its article, overlapping passages, ``rel_chars`` that is not the
        sum of the passages, a best entry point outside the article, a judged
        (topic, article) pair listed twice, or an empty file.

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".qrels", delete=False)
    >>> _ = f.write("1 Q0 a 30 100 10 60:20 10:10 \\n1 Q0 b 0 50\\n")
    >>> f.close()
    >>> q = read_fol_qrels(f.name)
    >>> q.pass_start.tolist(), q.pass_end.tolist(), q.bep.tolist()
    ([10, 60], [20, 80], [10, -1])
    >>> os.unlink(f.name)
    """
    vocab = vocab or Vocabulary()
    scan = c_scanner()
    if scan is not None:
        data = read_bytes(path, QrelsFormatError)
        got = scan.scan_qrels(data, vocab.topics, vocab.docs)
        if not isinstance(got, int):
            t, d, rc, dl, bep, line, p_row, p_start, p_end = got
            if len(t) and _unique_pairs(t, d, len(vocab.docs)):
                return FOLQrels(vocab, t, d, dl, rc, bep, p_row, p_start, p_end, line, str(path))
    return _read_fol_qrels_lines(path, vocab)


def _unique_pairs(topic_code: np.ndarray, doc_code: np.ndarray, width: int) -> bool:
    key = np.sort(topic_code * np.int64(max(width, 1)) + doc_code)
    return not bool((key[1:] == key[:-1]).any())


def _read_fol_qrels_lines(path, vocab: Vocabulary) -> FOLQrels:
    """The line-by-line qrels reader: explains every rejected line."""
    topic, docid, doc_len, rel_chars, bep, lines = [], [], [], [], [], []
    p_row, p_start, p_end = [], [], []
    seen: dict[tuple[str, str], int] = {}
    for lineno, f in iter_fields(path, QrelsFormatError):
        if len(f) < 5 or len(f) == 6:
            raise QrelsFormatError(f"expected {_QRELS_SHAPE}, got {len(f)} fields", path, lineno)
        t, _q0, d = f[0], f[1], f[2]
        rc = _int(f[3], "rel_chars (field 4)", path, lineno, QrelsFormatError)
        dl = _int(f[4], "doc_len (field 5)", path, lineno, QrelsFormatError)
        if (t, d) in seen:
            raise QrelsFormatError(f"topic {t} article {d} is judged twice (first at line {seen[t, d]})", path, lineno)
        seen[t, d] = lineno
        b = -1
        spans = []
        if len(f) > 5:
            b = _int(f[5], "best entry point (field 6)", path, lineno, QrelsFormatError)
            if b > dl:
                raise QrelsFormatError(
                    f"best entry point {b} lies beyond the article's end ({dl} characters)", path, lineno
                )
            for part in f[6:]:
                o, colon, n = part.partition(":")
                if not colon:
                    raise QrelsFormatError(f"expected a passage offset:length, got {quoted(part)}", path, lineno)
                o = _int(o, "passage offset", path, lineno, QrelsFormatError)
                n = _int(n, "passage length", path, lineno, QrelsFormatError, minimum=1)
                if o + n > dl:
                    raise QrelsFormatError(
                        f"passage {o}:{n} ends at {o + n}, beyond the article's {dl} characters", path, lineno
                    )
                spans.append((o, n))
            spans.sort()
            for (o1, n1), (o2, n2) in zip(spans, spans[1:]):
                if o1 + n1 > o2:
                    raise QrelsFormatError(
                        f"passages {o1}:{n1} and {o2}:{n2} overlap; highlighted passages of "
                        "an article must be disjoint",
                        path,
                        lineno,
                    )
        if sum(n for _, n in spans) != rc:
            raise QrelsFormatError(
                f"rel_chars is {rc} but the passages sum to {sum(n for _, n in spans)}", path, lineno
            )
        row = len(topic)
        topic.append(t)
        docid.append(d)
        doc_len.append(dl)
        rel_chars.append(rc)
        bep.append(b)
        lines.append(lineno)
        for o, n in spans:
            p_row.append(row)
            p_start.append(o)
            p_end.append(o + n)
    if not topic:
        raise QrelsFormatError(f"the qrels file is empty: expected lines {_QRELS_SHAPE}", path)
    return FOLQrels.from_columns(topic, docid, doc_len, rel_chars, bep, p_row, p_start, p_end, lines, str(path), vocab)


def read_fol_run(path: str | os.PathLike, name: str | None = None, vocab: Vocabulary | None = None) -> FOLRun:
    """Read a TREC-like passage run (see the module docstring), lines kept in file order.

    An empty file is an empty run (every topic scores 0 under ``-c``).

    Parameters
    ----------
    path : path-like
    name : str, optional
        Run name in reports (default: the path).
    vocab : Vocabulary, optional
        The assessments' vocabulary (``qrels.vocab``), so that the run joins
        them by integer codes.

    Raises
    ------
    RunFormatError
        With the file and line: not 8 fields, a non-integer rank, offset or
        length, a negative offset or length (an offset ``X`` or ``-1``, which
        the official tool reads as "no passage", is refused), or a
        non-numeric score.
    """
    vocab = vocab or Vocabulary()
    name = str(path) if name is None else name
    scan = c_scanner()
    if scan is not None:
        got = scan.scan_run(read_bytes(path, RunFormatError), vocab.topics, vocab.docs)
        if not isinstance(got, int):
            t, d, rank, score, offset, length, line, rid, run_ids = got
            return FOLRun(name, vocab, t, d, rank, score, offset, length, line, rid, tuple(run_ids), str(path))
    return _read_fol_run_lines(path, name, vocab)


def _read_fol_run_lines(path, name: str, vocab: Vocabulary) -> FOLRun:
    """The line-by-line run reader: explains every rejected line."""
    cols: list[list] = [[] for _ in range(8)]
    topic, docid, rank_, score_, offset_, length_, line_, rid = cols
    for lineno, f in iter_fields(path, RunFormatError):
        if len(f) != 8:
            hint = " (7 fields look like an element run with an XPath)" if len(f) == 7 else ""
            raise RunFormatError(f"expected 8 fields {_RUN_SHAPE}, got {len(f)}{hint}", path, lineno)
        rank = _int(f[3], "rank (field 4)", path, lineno, RunFormatError, minimum=-(1 << 62))
        try:
            score = float(f[4])
        except ValueError:
            raise RunFormatError(f"expected a numeric score in field 5, got {quoted(f[4])}", path, lineno) from None
        if f[6] in ("X", "-1"):
            raise RunFormatError(
                f"offset {f[6]} (field 7): the official tool reads it as a result of 18 "
                "characters with no position; graphsr expects a character offset >= 0",
                path,
                lineno,
            )
        offset = _int(f[6], "passage offset (field 7)", path, lineno, RunFormatError)
        length = _int(f[7], "passage length (field 8)", path, lineno, RunFormatError)
        for c, v in zip(cols, (f[0], f[2], rank, score, offset, length, lineno, f[5])):
            c.append(v)
    return FOLRun.from_columns(name, topic, docid, rank_, score_, offset_, length_, line_, rid, str(path), vocab)


def read_inex_submission(
    path: str | os.PathLike, documents: Mapping | None = None, name: str | None = None, vocab: Vocabulary | None = None
) -> FOLRun:
    """Read an INEX XML submission (``<fol>`` or ``<path>`` results) as a passage run.

    Parameters
    ----------
    path : path-like
    documents : mapping of docid to DocumentTree, optional
        Needed for ``<path>`` results: an element becomes the passage of its
        text ``[start, end)``.
    name : str, optional
        Default: the submission's ``run-id``, else the path.
    vocab : Vocabulary, optional
        The assessments' vocabulary.

    Raises
    ------
    RunFormatError
        Malformed XML, a result without ``<file>``, with neither or both of
        ``<fol>`` and ``<path>``, bad numbers, or ``<path>`` results without
        ``documents``.
    UnknownNodeError
        A ``<path>`` naming an article or element the collection lacks.
    """
    from lxml import etree

    rows = []
    run_id = None
    pos: dict[str, int] = {}
    topic = None
    try:
        for event, el in etree.iterparse(str(path), events=("start", "end")):
            tag = el.tag if isinstance(el.tag, str) else ""
            if event == "start":
                if tag == "inex-submission":
                    run_id = el.get("run-id")
                elif tag == "topic":
                    topic = el.get("topic-id")
                    if topic is None:
                        raise RunFormatError("<topic> without a topic-id attribute", path, el.sourceline)
                continue
            if tag == "topic":
                topic = None  # a <result> after </topic> belongs to no topic
            elif tag == "result":
                if topic is None:
                    raise RunFormatError("<result> outside a <topic>", path, el.sourceline)
                rows.append(_xml_result(el, topic, pos, documents, path))
                el.clear()
    except etree.XMLSyntaxError as exc:
        raise RunFormatError(f"malformed XML: {exc.msg}", path, exc.lineno) from None
    except OSError as exc:
        raise RunFormatError(f"cannot read file: {exc}", path) from None
    cols = list(zip(*rows)) if rows else [()] * 7
    return FOLRun.from_columns(name or run_id or str(path), *cols, run_id=run_id, source=str(path), vocab=vocab)


def _xml_result(el, topic: str, pos: dict, documents, path):
    line = el.sourceline

    def text(child: str) -> str | None:
        c = el.find(child)
        return None if c is None or c.text is None else c.text.strip()

    docid = text("file")
    if not docid:
        raise RunFormatError("<result> without a <file>", path, line)
    pos[topic] = pos.get(topic, 0) + 1
    rank_s, rsv_s = text("rank"), text("rsv")
    rank = _int(rank_s, "<rank>", path, line, RunFormatError, minimum=-(1 << 62)) if rank_s else pos[topic]
    try:
        score = float(rsv_s) if rsv_s else 0.0
    except ValueError:
        raise RunFormatError(f"expected a number in <rsv>, got {quoted(rsv_s)}", path, line) from None
    fol, xpath = el.find("fol"), text("path")
    if (fol is None) == (xpath is None):
        raise RunFormatError("expected exactly one of <fol offset=.. length=..> and <path> in a <result>", path, line)
    if fol is not None:
        for attr in ("offset", "length"):
            if fol.get(attr) is None:
                raise RunFormatError(f"<fol> without a {attr} attribute", path, fol.sourceline)
        offset = _int(fol.get("offset"), "<fol> offset", path, fol.sourceline, RunFormatError)
        length = _int(fol.get("length"), "<fol> length", path, fol.sourceline, RunFormatError)
    else:
        if documents is None:
            raise RunFormatError(
                "<path> results need the collection (--collection DIR; collection=PATH in Python) "
                "to map elements to character ranges",
                path,
                line,
            )
        i = resolve_node(documents, docid, xpath, path, line)
        doc = documents[docid]
        offset, length = int(doc.start[i]), int(doc.end[i] - doc.start[i])
    return topic, docid, rank, score, offset, length, line


def read_passage_run(
    path: str | os.PathLike, documents: Mapping | None = None, name: str | None = None, vocab: Vocabulary | None = None
) -> FOLRun:
    """A passage run from a TREC-like FOL file or an INEX XML submission (detected)."""
    record = first_record(path, RunFormatError)
    if record is not None and is_submission(record):
        return read_inex_submission(path, documents, name, vocab)
    return read_fol_run(path, name, vocab)


def submission_files(path: str | os.PathLike) -> set[str]:
    """The articles an INEX XML submission names in ``<path>`` results (to load only those)."""
    from lxml import etree

    out: set[str] = set()
    try:
        for _, el in etree.iterparse(str(path), tag="result"):
            f, p = el.find("file"), el.find("path")
            if f is not None and p is not None and f.text:
                out.add(f.text.strip())
            el.clear()
    except etree.XMLSyntaxError as exc:
        raise RunFormatError(f"malformed XML: {exc.msg}", path, exc.lineno) from None
    return out
