"""Readers of passage (FOL) assessments and runs: INEX 2009-2010 qrels, TREC-like
passage runs and the INEX XML submission format.

Formats (SPEC section 6)::

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

Run results are ordered by topic, then by the rank column; equal ranks keep
the file's order.  In the XML format a result without ``<rank>`` takes its
position within the topic.
"""

from __future__ import annotations

import os
from typing import Mapping

import numpy as np

from ..errors import QrelsFormatError, RunFormatError, UnknownNodeError
from ..model.fol import FOLQrels, FOLRun
from ._lines import iter_fields

__all__ = ["read_fol_qrels", "read_fol_run", "read_inex_submission", "read_passage_run", "qrels_format",
           "run_format", "submission_files"]

_QRELS_SHAPE = "'topic Q0 file rel_chars doc_len [bep offset:length ...]'"
_RUN_SHAPE = "'topic Q0 file rank score run_id offset length'"


def _int(text: str, what: str, path, lineno: int, error, minimum: int = 0) -> int:
    try:
        v = int(text)
    except ValueError:
        raise error(f"expected an integer {what}, got {text!r}", path, lineno) from None
    if v < minimum:
        raise error(f"expected {what} >= {minimum}, got {v}", path, lineno)
    return v


def read_fol_qrels(path: str | os.PathLike) -> FOLQrels:
    """Read INEX FOL qrels (see the module docstring for the checks).

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
    topic, docid, doc_len, rel_chars, bep = [], [], [], [], []
    p_row, p_start, p_end = [], [], []
    seen: dict[tuple[str, str], int] = {}
    for lineno, f in iter_fields(path, QrelsFormatError):
        if len(f) < 5 or len(f) == 6:
            raise QrelsFormatError(f"expected {_QRELS_SHAPE}, got {len(f)} fields", path, lineno)
        t, _q0, d = f[0], f[1], f[2]
        try:  # the common case without a call; _int explains anything else
            rc, dl = int(f[3]), int(f[4])
            if rc < 0 or dl < 0:
                raise ValueError
        except ValueError:
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
                raise QrelsFormatError(f"best entry point {b} lies beyond the article's end ({dl} characters)",
                                       path, lineno)
            for part in f[6:]:
                o, colon, n = part.partition(":")
                if not colon:
                    raise QrelsFormatError(f"expected a passage offset:length, got {part!r}", path, lineno)
                o = _int(o, "passage offset", path, lineno, QrelsFormatError)
                n = _int(n, "passage length", path, lineno, QrelsFormatError, minimum=1)
                if o + n > dl:
                    raise QrelsFormatError(f"passage {o}:{n} ends at {o + n}, beyond the article's {dl} characters",
                                           path, lineno)
                spans.append((o, n))
            spans.sort()
            for (o1, n1), (o2, n2) in zip(spans, spans[1:]):
                if o1 + n1 > o2:
                    raise QrelsFormatError(f"passages {o1}:{n1} and {o2}:{n2} overlap; highlighted passages of "
                                           "an article must be disjoint", path, lineno)
        if sum(n for _, n in spans) != rc:
            raise QrelsFormatError(f"rel_chars is {rc} but the passages sum to {sum(n for _, n in spans)}",
                                   path, lineno)
        row = len(topic)
        topic.append(t)
        docid.append(d)
        doc_len.append(dl)
        rel_chars.append(rc)
        bep.append(b)
        for o, n in spans:
            p_row.append(row)
            p_start.append(o)
            p_end.append(o + n)
    if not topic:
        raise QrelsFormatError(f"the qrels file is empty: expected lines {_QRELS_SHAPE}", path)
    i64 = np.int64
    return FOLQrels(np.array(topic, dtype=object), np.array(docid, dtype=object), np.array(doc_len, dtype=i64),
                    np.array(rel_chars, dtype=i64), np.array(bep, dtype=i64), np.array(p_row, dtype=i64),
                    np.array(p_start, dtype=i64), np.array(p_end, dtype=i64), str(path))


def _fol_run(name, rows, source, run_ids) -> FOLRun:
    """A FOLRun from rows ``(topic, docid, rank, score, offset, length, line)``, ordered by topic then rank."""
    if rows:
        columns = [np.array(c) for c in zip(*rows)]
    else:
        columns = [np.zeros(0)] * 7
    return _ordered(name, *columns, source=source, run_ids=run_ids)


def _ordered(name, topic, docid, rank, score, offset, length, line, *, source, run_ids) -> FOLRun:
    """A FOLRun from column arrays, sorted by topic (natural order) then rank, ties in input order."""
    import pandas as pd

    from ..evaluation.resolve import topic_sort_key

    topic = np.asarray(topic, dtype=object)
    codes, uniques = pd.factorize(topic)
    order_of = np.zeros(len(uniques), dtype=np.int64)
    order_of[sorted(range(len(uniques)), key=lambda i: topic_sort_key(uniques[i]))] = np.arange(len(uniques))
    tcode = order_of[codes] if len(codes) else np.zeros(0, dtype=np.int64)
    rank = np.asarray(rank, dtype=np.int64)
    order = np.lexsort((np.arange(len(rank)), rank, tcode))
    return FOLRun(name, topic[order], np.asarray(docid, dtype=object)[order], rank[order],
                  np.asarray(score, dtype=float)[order], np.asarray(offset, dtype=np.int64)[order],
                  np.asarray(length, dtype=np.int64)[order], np.asarray(line, dtype=np.int64)[order], source,
                  tuple(run_ids))


def _read_fol_run_fast(path, name) -> FOLRun | None:
    """The C parser of pandas for a well-formed run file; None if anything is off (the line-by-line
    reader then finds and reports it)."""
    import io

    import pandas as pd

    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if not data.strip():
            return None
        lines = data.count(b"\n") + (not data.endswith(b"\n"))
        df = pd.read_csv(io.BytesIO(data), sep=r"\s+", header=None, names=list(range(9)), engine="c",
                         dtype={0: object, 1: object, 2: object, 5: object}, skip_blank_lines=True)
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError):
        return None
    if len(df) != lines or df[8].notna().any() or df[7].isna().any():  # blank lines, or not 8 fields
        return None
    if not all(pd.api.types.is_integer_dtype(df[c]) for c in (3, 6, 7)) or \
            not pd.api.types.is_numeric_dtype(df[4]):
        return None
    offset, length = df[6].to_numpy(np.int64), df[7].to_numpy(np.int64)
    if (offset < 0).any() or (length < 0).any():
        return None
    run_ids = tuple(pd.unique(df[5].to_numpy(object)).tolist())
    return _ordered(str(path) if name is None else name, df[0].to_numpy(object), df[2].to_numpy(object),
                    df[3].to_numpy(np.int64), df[4].to_numpy(float), offset, length, np.arange(1, len(df) + 1),
                    source=str(path), run_ids=run_ids)


def read_fol_run(path: str | os.PathLike, name: str | None = None) -> FOLRun:
    """Read a TREC-like passage run (see the module docstring).

    An empty file is an empty run (every topic scores 0 under ``-c``).

    Raises
    ------
    RunFormatError
        With the file and line: not 8 fields, a non-integer rank, offset or
        length, a negative offset or length, or a non-numeric score.
    """
    fast = _read_fol_run_fast(path, name)
    if fast is not None:
        return fast
    rows = []
    run_ids: dict[str, None] = {}
    for lineno, f in iter_fields(path, RunFormatError):
        if len(f) != 8:
            hint = " (7 fields look like an element run with an XPath)" if len(f) == 7 else ""
            raise RunFormatError(f"expected 8 fields {_RUN_SHAPE}, got {len(f)}{hint}", path, lineno)
        rank = _int(f[3], "rank (field 4)", path, lineno, RunFormatError, minimum=-(1 << 62))
        try:
            score = float(f[4])
        except ValueError:
            raise RunFormatError(f"expected a numeric score in field 5, got {f[4]!r}", path, lineno) from None
        offset = _int(f[6], "passage offset (field 7)", path, lineno, RunFormatError)
        length = _int(f[7], "passage length (field 8)", path, lineno, RunFormatError)
        run_ids[f[5]] = None
        rows.append((f[0], f[2], rank, score, offset, length, lineno))
    return _fol_run(str(path) if name is None else name, rows, str(path), tuple(run_ids))


def read_inex_submission(path: str | os.PathLike, documents: Mapping | None = None,
                         name: str | None = None) -> FOLRun:
    """Read an INEX XML submission (``<fol>`` or ``<path>`` results) as a passage run.

    Parameters
    ----------
    path : path-like
    documents : mapping of docid to DocumentTree, optional
        Needed for ``<path>`` results: an element becomes the passage of its
        text ``[start, end)``.
    name : str, optional
        Default: the submission's ``run-id``, else the path.

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
            if tag == "result":
                if topic is None:
                    raise RunFormatError("<result> outside a <topic>", path, el.sourceline)
                rows.append(_xml_result(el, topic, pos, documents, path))
                el.clear()
    except etree.XMLSyntaxError as exc:
        raise RunFormatError(f"malformed XML: {exc.msg}", path, exc.lineno) from None
    except OSError as exc:
        raise RunFormatError(f"cannot read file: {exc}", path) from None
    return _fol_run(name or run_id or str(path), rows, str(path), (run_id,) if run_id else ())


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
        raise RunFormatError(f"expected a number in <rsv>, got {rsv_s!r}", path, line) from None
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
            raise RunFormatError("<path> results need the collection (give --collection DIR) to map elements "
                                 "to character ranges", path, line)
        doc = documents.get(docid)
        if doc is None:
            raise UnknownNodeError(f"article {docid!r} is not in the collection", path, line)
        try:
            i = doc.node(xpath)
        except (KeyError, ValueError) as exc:
            raise UnknownNodeError(f"article {docid!r}: {exc.args[0]}", path, line) from None
        offset, length = int(doc.start[i]), int(doc.end[i] - doc.start[i])
    return topic, docid, rank, score, offset, length, line


def _first_fields(path, error) -> list[str] | None:
    try:
        with open(path, "rb") as fh:
            for raw in fh:
                f = raw.decode("utf-8", "replace").split()
                if f:
                    return f
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror}", path) from None
    return None


def qrels_format(path: str | os.PathLike) -> str:
    """``'fol'`` for INEX FOL qrels, ``'element'`` for element qrels, from the first line."""
    f = _first_fields(path, QrelsFormatError)
    if f and len(f) >= 5 and f[3].lstrip("-").isdigit() and f[4].isdigit():
        return "fol"
    return "element"


def run_format(path: str | os.PathLike) -> str:
    """``'xml'`` (INEX submission), ``'fol'`` (passage run) or ``'element'``, from the file's start."""
    f = _first_fields(path, RunFormatError)
    if f and f[0].lstrip("\ufeff").startswith("<"):
        return "xml"
    if f and len(f) == 8 and f[6].isdigit() and f[7].isdigit():
        return "fol"
    return "element"


def read_passage_run(path: str | os.PathLike, documents: Mapping | None = None, name: str | None = None) -> FOLRun:
    """A passage run from a TREC-like FOL file or an INEX XML submission (detected)."""
    if run_format(path) == "xml":
        return read_inex_submission(path, documents, name)
    return read_fol_run(path, name)


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
