"""Records of a file as dicts, each with its line: JSON lines, CSV or TSV with a header, or Parquet -- one reader
for the files of records graphsr reads beside its line formats (span judgments, chunk runs and maps, and the JSON
lines of navigation logs).

JSON lines are read one object a line (blank lines skipped; a line that is not a JSON object is one error naming
it).  A file whose first character (after white space and a byte order mark) is ``{`` is JSON lines; otherwise
CSV, or TSV where its first line holds a tab, read with the csv module on the file's own line endings (a quoted
field keeps its ``\\r\\n``); a name ending in ``.parquet`` is Parquet (row numbers as lines); a name ending in
``.gz`` is read through gzip, as graphsr's line files are.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import GraphsrInputError

__all__ = ["json_objects", "read_records", "iter_records", "is_json_lines", "record_int", "record_number"]


def json_objects(lines: Iterable[str], path, error: type[GraphsrInputError]) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` of each non-blank line of ``lines``, each a JSON object; ``error`` otherwise."""
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"expected a JSON object per line: {exc.msg}", path, lineno) from None
        if not isinstance(obj, dict):
            raise error(f"expected a JSON object per line, got {type(obj).__name__}", path, lineno)
        yield lineno, obj


def _open_text(path: str | os.PathLike, error: type[GraphsrInputError] = GraphsrInputError, **kw):
    """The file as text (through gzip for ``.gz``, bounded as :mod:`graphsr.io.archive_limits` says: ``error``
    for one that expands past it)."""
    if str(path).endswith(".gz"):
        import io

        from .archive_limits import open_bounded

        return io.TextIOWrapper(open_bounded(path, error, "gzip"), **kw)
    return open(path, **kw)


def _json_lines(lines: list[str], path, error) -> list[tuple[int, dict]]:
    """:func:`json_objects` of a file's lines, parsed as one JSON array where every line is an object (one call
    into the JSON parser, not one a line); line by line where one is not, to name it."""
    numbered = [(k, line) for k, line in enumerate(lines, 1) if line.strip()]
    try:
        objects = json.loads("[" + ",".join(line for _, line in numbered) + "]")
    except json.JSONDecodeError:
        objects = None
    if objects is not None and len(objects) == len(numbered) and all(isinstance(o, dict) for o in objects):
        return [(k, o) for (k, _), o in zip(numbered, objects)]
    return list(json_objects(lines, path, error))


def is_json_lines(path: str | os.PathLike) -> bool:
    """Whether a file of records is JSON lines (its first character, after white space, is ``{``)."""
    try:
        with _open_text(path, encoding="utf-8-sig", errors="replace") as fh:
            return fh.read(4096).lstrip().startswith("{")
    except (OSError, EOFError):  # (a damaged gzip stream: the reader says so)
        return False


def read_records(path: str | os.PathLike, error: type[GraphsrInputError]) -> list[tuple[int, dict]]:
    """``(line, record)`` of every record of a JSON lines, CSV, TSV or Parquet file (see the module docstring).

    Raises
    ------
    error
        A missing file, bytes that are not UTF-8, a line that is not a JSON object.
    """
    if not Path(path).is_file():
        raise error("no such file", path)
    try:
        if str(path).lower().endswith(".parquet"):
            return [(k + 1, row) for k, row in enumerate(_parquet(path, error).to_dict(orient="records"))]
        if is_json_lines(path):
            with _open_text(path, error, encoding="utf-8-sig") as fh:
                lines = fh.read().splitlines()
            return _json_lines(lines, path, error)
        import csv

        with _open_text(path, error, encoding="utf-8-sig", newline="") as fh:
            first = fh.readline()
            fh.seek(0)
            reader = csv.DictReader(fh, delimiter="\t" if "\t" in first else ",")
            return [(reader.line_num, row) for row in reader]
    except UnicodeDecodeError as exc:
        raise error(f"expected UTF-8 text ({exc.reason} at byte {exc.start})", path) from None
    except (OSError, EOFError) as exc:  # a damaged gzip stream
        raise error(f"cannot read the file ({exc})", path) from None


def iter_records(path: str | os.PathLike, error: type[GraphsrInputError]) -> Iterator[tuple[int, dict]]:
    """``(line, record)`` of every record, as :func:`read_records` gives them, streaming: memory holds one record
    (a Parquet file one batch of rows) at a time, not the file."""
    if not Path(path).is_file():
        raise error("no such file", path)
    try:
        if str(path).lower().endswith(".parquet"):
            yield from _parquet_rows(path, error)
            return
        if is_json_lines(path):
            with _open_text(path, error, encoding="utf-8-sig") as fh:
                yield from json_objects(fh, path, error)
            return
        import csv

        with _open_text(path, error, encoding="utf-8-sig", newline="") as fh:
            first = fh.readline()
            fh.seek(0)
            reader = csv.DictReader(fh, delimiter="\t" if "\t" in first else ",")
            for row in reader:
                yield reader.line_num, row
    except UnicodeDecodeError as exc:
        raise error(f"expected UTF-8 text ({exc.reason} at byte {exc.start})", path) from None
    except (OSError, EOFError) as exc:  # a damaged gzip stream
        raise error(f"cannot read the file ({exc})", path) from None


def _parquet_rows(path, error: type[GraphsrInputError]) -> Iterator[tuple[int, dict]]:
    """A Parquet file's rows a batch at a time (pyarrow), numbered from 1; the whole frame where pyarrow is not
    there to stream it."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        yield from ((k + 1, row) for k, row in enumerate(_parquet(path, error).to_dict(orient="records")))
        return
    n = 0
    try:
        batches = pq.ParquetFile(path).iter_batches(batch_size=65536)
        for batch in batches:
            for row in batch.to_pylist():
                n += 1
                yield n, row
    except Exception as exc:  # pyarrow's ArrowInvalid, ... : as _parquet words them
        if not (type(exc).__module__.startswith("pyarrow") or isinstance(exc, (OSError, ValueError))):
            raise
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise error(f"not a readable Parquet file ({reason[:200]})", path) from None


def _parquet(path, error: type[GraphsrInputError]):
    """A Parquet file as a DataFrame; a file pyarrow cannot read (damaged, cut short, not Parquet) is ``error``
    in one line with pyarrow's reason."""
    import pandas as pd

    try:
        return pd.read_parquet(path)
    except ImportError:
        raise
    except Exception as exc:  # pyarrow's ArrowInvalid, ArrowIOError, ... (and OSError, ValueError)
        if not (type(exc).__module__.startswith("pyarrow") or isinstance(exc, (OSError, ValueError))):
            raise
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise error(f"not a readable Parquet file ({reason[:200]})", path) from None


def record_int(value, what: str, path, line: int, error: type[GraphsrInputError]) -> int:
    """A record's field as an integer: an int, a float holding one (JSON's ``3.0``), or text of one; ``error``
    naming ``what`` for anything else (booleans, None, ``2.5``, ``nan``)."""
    if isinstance(value, bool) or value is None:
        raise error(f"expected an integer {what}, got {value!r}", path, line)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise error(f"expected an integer {what}, got {value!r}", path, line) from None


def record_number(value, what: str, path, line: int, error: type[GraphsrInputError], why: str = "") -> float:
    """A record's field as a finite number; ``error`` naming ``what`` for anything else (text that is not a
    number, None, nan, inf), ``why`` added to the message for a non-finite one."""
    import math

    try:
        number = float(value)
    except (TypeError, ValueError):
        raise error(f"expected a number as the {what}, got {value!r}", path, line) from None
    if not math.isfinite(number):
        raise error(f"expected a finite {what}, got {value!r}{why}", path, line)
    return number
