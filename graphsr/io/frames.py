"""Qrels and runs from the shapes ir_measures users hold.

* pandas DataFrames with ir_measures' columns (``query_id, doc_id, relevance``
  / ``query_id, doc_id, score``, plus ``xpath``; ``run_id`` names a run);
* dicts ``{query_id: {doc_id: value}}`` (pytrec_eval's shape; a topic with an
  empty dict is a topic the run answers with nothing);
* ir_measures' records: what ``ir_measures.read_trec_qrels`` and
  ``read_trec_run`` return (generators of ``Qrel(query_id, doc_id, relevance,
  iteration)`` and ``ScoredDoc(query_id, doc_id, score)``), lists of them, or
  of plain tuples in that field order (ir_datasets' ``qrels_iter()``,
  ``scoreddocs_iter()`` and ``qrels_dict()`` are such shapes);
* ir_datasets datasets: as qrels, their qrels; as a run, their scored
  documents (a dataset lacking the part is refused in one line);
* paths (element, TREC or FOL files, detected) and graphsr's own objects,
  which pass through.

DataFrame, dict and record runs of documents are ranked as trec_eval ranks
them (score descending, ties by ``doc_id`` descending; a ``rank`` column is
not read, as trec_eval reads none).  Without an ``xpath`` a result is its
whole document (the node ``/doc[1]``): plain documents are single elements.
A DataFrame with ``start`` and ``end`` columns (or one of them) holds character spans: span
judgments as qrels, a chunk run as a run (:mod:`graphsr.io.spans`,
:mod:`graphsr.io.chunks`; PyTerrier's ``qid``, ``docno`` and ``label`` read
as ``query_id``, ``doc_id`` and ``relevance``).
A DataFrame of element lines (an ``xpath`` column) means what a run file
means: with a ``rank`` column, the rows of a topic that share a rank are one
tree result, in rank order (PyTerrier's 0-based ranks included); without one,
every row is a result of its own, ranked by score, then ``doc_id``, both
descending, then in row order.  A shape that is none of these gets one
:class:`~graphsr.errors.GraphsrInputError` line.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from ..errors import GraphsrInputError

__all__ = ["as_qrels", "as_run"]

_QRELS_SHAPES = (
    "a path, graphsr assessments, a DataFrame with columns query_id, doc_id, relevance, a dict "
    "{query_id: {doc_id: relevance}}, ir_measures' Qrel records, or an ir_datasets dataset"
)
_RUN_SHAPES = (
    "a path, a graphsr run, a DataFrame with columns query_id, doc_id, score, a dict "
    "{query_id: {doc_id: score}}, ir_measures' ScoredDoc records, or an ir_datasets dataset"
)


def _frame_columns(frame, needed: tuple[str, ...], what: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise GraphsrInputError(
            f"{what} as a DataFrame needs the columns {', '.join(needed)}; missing {', '.join(missing)}"
        )


def _id_text(v, what: str, name: str) -> str:
    """An id as text: an integral float is the integer it holds (a column read as floats, 1.0, names the topic
    "1" as a file does); a missing or infinite one is refused."""
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            raise GraphsrInputError(f"{what}: the column {name} holds {v!r}; expected an id in every row")
        return str(int(v)) if float(v).is_integer() else str(v)
    if v is None:
        raise GraphsrInputError(f"{what}: the column {name} holds None; expected an id in every row")
    return str(v)


def _text_ids(frame, what: str):
    """``frame`` with its query_id and doc_id columns as graphsr names them (:func:`_id_text`) where they hold
    floats (a DataFrame read with a float id column, or a missing value); text and integer columns as they are."""
    import pandas as pd

    changed = {}
    for c in ("query_id", "doc_id"):
        col = frame[c]
        missing = col.isna().to_numpy()
        if missing.any():  # NaN, None, NaT, pd.NA: never an id (as text they would name a topic "nan")
            k = int(missing.argmax())
            v = col.iloc[k]
            shown = repr(v) if isinstance(v, str) else str(v)
            raise GraphsrInputError(f"{what}: the column {c} holds {shown} in row {k + 1}; expected an id in every row")
        if col.dtype.kind == "f" or (
            col.dtype.kind == "O"
            and pd.api.types.infer_dtype(col, skipna=False) in ("floating", "mixed-integer-float", "mixed", "decimal")
        ):
            changed[c] = [_id_text(v, what, c) for v in col.tolist()]
    return frame.assign(**changed) if changed else frame


def _strings(column) -> list[str]:
    return column.astype(str).tolist()


def _floats(column, what: str, name: str) -> list[float]:
    try:
        return column.astype(float).tolist()
    except (TypeError, ValueError):
        raise GraphsrInputError(f"{what}: expected numbers in the column {name}") from None


def _number(v, what: str) -> float:
    if isinstance(v, bool):
        raise GraphsrInputError(f"{what}: expected a number, got {v!r}")
    try:
        return float(v)
    except (TypeError, ValueError):
        raise GraphsrInputError(f"{what}: expected a number, got {v!r}") from None


def _is_frame(obj) -> bool:
    return hasattr(obj, "columns") and hasattr(obj, "iloc")


def _records(obj, fields: tuple[str, str, str], what: str, shapes: str) -> list[tuple[str, str, float]]:
    """``(query_id, doc_id, value)`` of ir_measures' records (namedtuples with ``fields``, or tuples in that
    order)."""
    try:
        items = iter(obj)
    except TypeError:
        raise GraphsrInputError(f"{what}: expected {shapes}; got {type(obj).__name__}") from None
    out = []
    for k, rec in enumerate(items):
        if all(hasattr(rec, f) for f in fields):
            q, d, v = (getattr(rec, f) for f in fields)
        elif isinstance(rec, (tuple, list)) and len(rec) >= 3:
            q, d, v = rec[0], rec[1], rec[2]
        else:
            raise GraphsrInputError(f"{what}: record {k + 1} is {rec!r}; expected {shapes}")
        out.append(
            (
                _key_text(q, f"{what}: record {k + 1} ({fields[0]})"),
                _key_text(d, f"{what}: record {k + 1} ({fields[1]})"),
                _number(v, f"{what}: record {k + 1} ({fields[2]})"),
            )
        )
    return out


def _key_text(v, what: str) -> str:
    """An id given as a Python value (a dict key, a record's field) as text; None and NaN are refused (as text
    they would name a topic or a document "None" or "nan")."""
    if v is None or (isinstance(v, (float, np.floating)) and not np.isfinite(v)):
        raise GraphsrInputError(f"{what}: expected an id, got {v!r}")
    return str(v)


def _dataset_part(obj, part: str) -> bool:
    """Whether ``obj`` is an ir_datasets dataset (it answers ``has_docs()``, ``has_qrels()``, ...) that has
    ``part``; a dataset without that part is refused in one line."""
    if not any(callable(getattr(obj, f"has_{p}", None)) for p in ("docs", "queries", "qrels", "scoreddocs")):
        return False
    has = getattr(obj, f"has_{part}", None)
    if not (callable(has) and has() and callable(getattr(obj, f"{part}_iter", None))):
        what = "qrels" if part == "qrels" else "scored documents (a run)"
        raise GraphsrInputError(f"the ir_datasets dataset {_dataset_name(obj)} has no {what}")
    return True


def _dataset_name(obj) -> str:
    return repr(getattr(obj, "dataset_id", lambda: None)() or type(obj).__name__)


def _is_fol(obj, cls: str) -> bool:
    """Whether ``obj`` is an instance of :mod:`graphsr.core.fol`'s class ``cls``, without importing that module
    where it is not loaded (no instance of its classes can exist then): a TREC evaluation never loads it."""
    fol = sys.modules.get(__name__.rsplit(".", 2)[0] + ".core.fol")
    return fol is not None and isinstance(obj, getattr(fol, cls))


def as_qrels(qrels, lengths=None):
    """Element or FOL assessments from any of the accepted shapes (see the module docstring); a DataFrame with
    ``start`` and ``end`` columns is span judgments (:func:`graphsr.io.spans.spans_from_frame`, ``lengths`` its
    documents' text lengths where known)."""
    from ..core.kinds import ANSWERS, kind_of

    if _is_fol(qrels, "FOLQrels") or kind_of(qrels) == ANSWERS:
        return qrels
    if isinstance(qrels, (str, os.PathLike)):  # (element qrels' modules are imported only for element qrels)
        return _qrels_file(qrels)
    from ..core.qrels import ElementQrels

    if isinstance(qrels, ElementQrels):
        return qrels
    if _dataset_part(qrels, "qrels"):  # an ir_datasets dataset: its qrels
        qrels = qrels.qrels_iter()
    if isinstance(qrels, dict):
        columns = _dict_columns(qrels, "qrels", "relevance")
        if not len(columns):
            raise GraphsrInputError("the qrels are empty")
        return ElementQrels.from_columns(columns, "qrels")
    elif _is_frame(qrels):
        return _qrels_frame(qrels, lengths)
    elif isinstance(qrels, (bytes, int, float)) or qrels is None:
        raise GraphsrInputError(f"qrels: expected {_QRELS_SHAPES}; got {type(qrels).__name__}")
    else:
        triples = _records(qrels, ("query_id", "doc_id", "relevance"), "qrels", _QRELS_SHAPES)
    if not triples:
        raise GraphsrInputError("the qrels are empty")
    return _document_qrels([q for q, _, _ in triples], [d for _, d, _ in triples], [v for _, _, v in triples])


def _qrels_file(path):
    """Assessments from a file in the format its first record says (:mod:`graphsr.io.formats`); span judgments
    need their collection (:func:`graphsr.io.spans.read_spans`)."""
    from . import formats

    fmt = formats.detect(path, formats.ASSESSMENTS)
    if fmt.name == "spans":
        raise GraphsrInputError(
            f"{path}: span judgments count in the collection's texts: read them with "
            "graphsr.read_spans(path, collection)"
        )
    return fmt.read(str(path), formats.Given())


def _qrels_frame(qrels, lengths):
    """Assessments from a DataFrame: span judgments (``start``, ``end``), element or document judgments."""
    from ..core.qrels import ElementQrels

    if {"start", "end"} & set(qrels.columns):  # (one of them: spans lacking the other)
        from .spans import spans_from_frame

        if not len(qrels):
            raise GraphsrInputError("the qrels are empty")
        return spans_from_frame(qrels, lengths)
    _frame_columns(qrels, ("query_id", "doc_id", "relevance"), "qrels")
    if not len(qrels):
        raise GraphsrInputError("the qrels are empty")
    qrels = _text_ids(qrels, "qrels")
    if "xpath" in qrels.columns:
        return _element_frame_qrels(
            _strings(qrels["query_id"]),
            _strings(qrels["doc_id"]),
            _strings(qrels["xpath"]),
            _floats(qrels["relevance"], "qrels", "relevance"),
        )
    return ElementQrels.from_columns(_frame_columns_of(qrels, "relevance", "qrels"), "qrels")


def _dict_columns(data: dict, what: str, value: str, vocabulary=None):
    """The document columns of ``{query_id: {doc_id: value}}``: read in C when keys are str and values int or
    float (``vocabulary``: assessments read so, whose codes the run then shares), else one pass in Python over
    the topics and the rest in bulk (values converted by numpy; a value that is not a number is then looked
    for, to name it)."""
    from ._lines import c_scanner

    scan = c_scanner()
    if scan is not None:  # str keys and int or float values: in C
        got = _scanned_dict(scan, data, vocabulary)
        if got is not None:
            return got
    return _python_dict_columns(data, what, value)


def _scanned_dict(scan, data: dict, vocabulary):
    """:func:`_dict_columns` in C, or None where the C scanner declines (keys not str, values not numbers)."""
    from ..core.columns import DocumentColumns
    from ._lines import scanned

    shared = getattr(vocabulary, "columns", None)
    index = shared.own_index() if isinstance(shared, DocumentColumns) else None
    if index is not None and hasattr(scan, "scan_dict_coded"):
        # coded after the assessments' names (their codes for theirs), the others kept out of their vocabulary:
        # looked up by their bytes in the scanner's indexes, each new name made a str once, at the end
        try:
            got = scan.scan_dict_coded(data, *index)  # (not scanned(): new_names reads the indexes first)
            if got is not None:
                topic, doc, values, empty = got
                return DocumentColumns(
                    list(index[0]) + scan.new_names(0),
                    list(index[1]) + scan.new_names(1),
                    topic,
                    doc,
                    values,
                    empty_topics=tuple(empty),
                    coded_as=shared,
                )
        finally:
            scan.forget()
    if index is not None:
        # (keys that are not ASCII) the others kept out of their vocabulary, in tail dicts
        tails: tuple[dict, dict] = ({}, {})
        got = scanned(scan, "scan_dict", data, *index, *tails)
        if got is not None:
            topic, doc, values, empty = got
            return DocumentColumns(
                list(index[0]) + list(tails[0]),
                list(index[1]) + list(tails[1]),
                topic,
                doc,
                values,
                empty_topics=tuple(empty),
                coded_as=shared,
            )
    else:
        topic_index, doc_index = {}, {}
        got = scanned(scan, "scan_dict", data, topic_index, doc_index)
        if got is not None:
            topic, doc, values, empty = got
            return DocumentColumns(
                list(topic_index),
                list(doc_index),
                topic,
                doc,
                values,
                empty_topics=tuple(empty),
                index=(topic_index, doc_index),
            )
    return None


def _python_dict_columns(data: dict, what: str, value: str):
    """:func:`_dict_columns` in Python: one pass over the topics, the rest in bulk."""
    from ..core.columns import DocumentColumns

    topics, sizes, docs, values = [], [], [], []
    for q, per in data.items():
        if not isinstance(per, dict):
            raise GraphsrInputError(
                f"{what}: topic {q!r} maps to {type(per).__name__}; expected a dict {{doc_id: {value}}}"
            )
        topics.append(_key_text(q, f"{what}: a topic") if not isinstance(q, str) else q)
        sizes.append(len(per))
        docs.extend(per)
        values.extend(per.values())
    for d in docs:
        if d is None or isinstance(d, (float, np.floating)):
            _key_text(d, f"{what}: a document of topic {topics[0] if len(topics) == 1 else '...'}")
    if bool in set(map(type, values)) or not _numeric(values):
        for q, per in data.items():  # name the first value that is not a number
            for d, v in per.items():
                _number(v, f"{what}: topic {q}, document {d}")
    names = dict.fromkeys(docs)
    if set(map(type, names)) != {str}:
        docs = [str(d) for d in docs]
        names = dict.fromkeys(docs)
    index = {d: k for k, d in enumerate(names)}
    topic_index = {}
    doc = np.fromiter(map(index.__getitem__, docs), dtype=np.int64, count=len(docs))
    codes = [topic_index.setdefault(t, len(topic_index)) for t in topics]  # 1 and "1" are one topic
    topic = np.repeat(np.asarray(codes, dtype=np.int64), sizes)
    empty = tuple(t for t, n in zip(topics, sizes) if n == 0)
    return DocumentColumns(
        list(topic_index),
        list(index),
        topic,
        doc,
        np.asarray(values, dtype=float),
        empty_topics=empty,
        index=(topic_index, index),
    )


def _numeric(values: list) -> bool:
    try:
        return np.asarray(values).dtype.kind in "iuf" or not values
    except (TypeError, ValueError):
        return False


def _codes(column) -> tuple[np.ndarray, list[str]]:
    """A column's values as codes (in order of first appearance) and the names behind them."""
    import pandas as pd

    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    names = [str(x) for x in uniques.tolist()]
    if len(set(names)) < len(names):  # values of different types that read the same (1 and "1"): one name
        codes, uniques = pd.factorize(column.astype(str), use_na_sentinel=False)
        names = uniques.tolist()
    return codes.astype(np.int64, copy=False), names


def _codes_after(column, known: list[str]) -> tuple[np.ndarray, list[str]] | None:
    """A text column's values as codes in a vocabulary that starts with the distinct names ``known`` (each
    coded by its position) and goes on with the column's other values in order of first appearance: one
    factorisation of both together.  None where the column does not hold text, or where values of different
    types read the same (the caller then codes the column on its own)."""
    import pandas as pd

    if column.dtype.kind not in "OUT" and not isinstance(column.dtype, pd.StringDtype):
        return None  # numbers: 1 and "1" must be one name; _codes says so
    both = pd.concat([pd.Series(known, dtype=column.dtype), column], ignore_index=True)
    codes, uniques = pd.factorize(both, use_na_sentinel=False)
    names = uniques.tolist()
    if not all(type(x) is str for x in names[len(known) :]):
        names = [str(x) for x in names]
        if len(set(names)) < len(names):
            return None
    return codes[len(known) :].astype(np.int64, copy=False), names


def _frame_columns_of(frame, value: str, what: str, vocabulary=None):
    """The document columns of a DataFrame without an ``xpath`` column; with ``vocabulary`` (document
    assessments), coded in the assessments' codes where its columns hold text (then the flat measures look
    the grades up by code, with no map from one vocabulary to the other)."""
    from ..core.columns import DocumentColumns

    shared = getattr(vocabulary, "columns", None)
    joint = None
    if isinstance(shared, DocumentColumns):
        joint = _codes_after(frame["query_id"], shared.topic_names), _codes_after(frame["doc_id"], shared.doc_names)
    if joint is not None and None not in joint:
        (t, topics), (d, docs) = joint
    else:
        shared = None
        t, topics = _codes(frame["query_id"])
        d, docs = _codes(frame["doc_id"])
    try:
        values = frame[value].to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise GraphsrInputError(f"{what}: expected numbers in the column {value}") from None
    return DocumentColumns(topics, docs, t, d, values, coded_as=shared)


def _element_frame_qrels(topics: list[str], docids: list[str], xpaths: list[str], values: list[float]):
    """Element assessments from columns, coded and checked with array operations (as element qrels files are);
    a frame breaking a rule is read row by row, which names the problem."""
    import numpy as np

    from ..core.columns import codes_of
    from ..core.qrels import ElementQrels, QrelsRow
    from .qrels import element_qrels_of_columns

    topic_names, topic = codes_of(topics)
    doc_names, doc = codes_of(docids)
    path_names, path = codes_of(xpaths)
    none = np.full(len(topic), -1, dtype=np.int64)
    got = (topic, doc, path, np.asarray(values, dtype=float), none, none, None)
    qrels = element_qrels_of_columns(got, topic_names, doc_names, path_names, "qrels")
    if qrels is not None:
        return qrels
    return ElementQrels.from_rows([QrelsRow(q, d, x, v) for q, d, x, v in zip(topics, docids, xpaths, values)], "qrels")


def _document_qrels(topics: list[str], docids: list[str], values: list[float]):
    from ..core.columns import DocumentColumns
    from ..core.qrels import ElementQrels

    return ElementQrels.from_columns(DocumentColumns.from_lists(topics, docids, values), "qrels")


def as_run(run, name: str = "run", vocabulary=None):
    """An element or passage run from any of the accepted shapes (see the module docstring); ``vocabulary``:
    document assessments whose codes a TREC document run file should share."""
    from ..core.kinds import ANSWERS, kind_of

    if _is_fol(run, "FOLRun") or kind_of(run) == ANSWERS:
        return run
    if isinstance(run, (str, os.PathLike)):  # (element runs' modules are imported only for element runs)
        from .fol import read_passage_run
        from .sniff import run_format

        fmt = run_format(run)
        if fmt == "nq":
            from .nq import read_nq_predictions

            return read_nq_predictions(run)
        if fmt == "spans":
            from .chunks import read_chunk_run

            return read_chunk_run(run)
        if fmt != "element":
            return read_passage_run(run)
        from .runs import read_run

        return read_run(run, vocabulary=vocabulary)
    from ..core.run import Run
    from .runs import run_from_columns

    if isinstance(run, Run):
        return run
    if _dataset_part(run, "scoreddocs"):  # an ir_datasets dataset: its scored documents (a baseline run)
        run = run.scoreddocs_iter()
    if isinstance(run, dict):
        # a topic answered with nothing is scored as an empty ranking, as pytrec_eval scores it
        return Run.from_columns(_dict_columns(run, "a run", "score", vocabulary), name, None, (name,))
    if _is_frame(run) and {"start", "end"} & set(run.columns):  # a chunk run of spans
        from .chunks import chunk_run_from_frame

        return chunk_run_from_frame(run, name)
    if _is_frame(run):
        _frame_columns(run, ("query_id", "doc_id", "score"), "a run")
        run = _text_ids(run, "a run")
        if "run_id" in run.columns:
            named = set(run["run_id"].dropna().astype(str).unique().tolist())
            if len(named) == 1:
                name = named.pop()
        if "xpath" not in run.columns:
            from ..core.run import Run

            return Run.from_columns(_frame_columns_of(run, "score", "a run", vocabulary), name, None, (name,))
        return run_from_columns(
            _strings(run["query_id"]),
            _strings(run["doc_id"]),
            _floats(run["score"], "a run", "score"),
            _strings(run["xpath"]),
            name,
            ranks=run["rank"].tolist() if "rank" in run.columns else None,
        )
    if isinstance(run, (bytes, int, float)) or run is None:
        raise GraphsrInputError(f"a run: expected {_RUN_SHAPES}; got {type(run).__name__}")
    triples = _records(run, ("query_id", "doc_id", "score"), "a run", _RUN_SHAPES)
    return run_from_columns(
        [q for q, _, _ in triples], [d for _, d, _ in triples], [s for _, _, s in triples], None, name
    )
