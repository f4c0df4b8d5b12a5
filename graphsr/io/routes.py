"""Reader of navigation logs: CSV or JSON lines, one step per row (docs/conventions.md, file formats).

Columns / keys: ``route_id, step, docid, from, to`` (required; ``from`` and
``to`` are XPaths) and ``user, topic, duration_ms, timestamp`` (optional).

Errors (file, line, what was expected): a missing required column or key, a
step number that is not a positive integer, a negative, infinite or non-numeric
duration, the same (route_id, step) twice, an empty log.

Policies for what real logs contain, counted in the :class:`RouteReport`:

* steps listed out of order are sorted by step number within their route;
* gaps in step numbers (lost events) are kept: steps are independent
  transitions;
* a step that does not start where the previous one ended, or a route that
  moves to another document, is kept as separate steps (no step is invented
  between them; navigation across documents is never a step).

Unknown documents or nodes are checked where the log meets a collection
(loading into the store), as for runs.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import os

from .._gc import collector_paused
from ..errors import RouteLogError
from ..core.document import canonical_xpath, quoted
from ..core.routes import RouteReport, Routes, RouteStep
from ._lines import MAX_LINE, LineStream, iter_blocks, open_binary
from .records import json_objects
from .first_records import routes_format

__all__ = ["RouteLogError", "read_routes"]

REQUIRED = ("route_id", "step", "docid", "from", "to")
OPTIONAL = ("user", "topic", "duration_ms", "timestamp")


#: The largest log read a column at a time (:func:`_csv_steps`): about 7 bytes of memory a byte of log (its text,
#: lines, fields and columns at once; measured: 370 MB for a log of 52.7 MB and 400,803 steps); a larger one is
#: read a row at a time.
_COLUMNS_MAX_BYTES = 256 << 20

#: The longest CSV field read (the csv module's default, 128 KiB, is below what a log may hold).
_FIELD_LIMIT = 64 * 1024 * 1024


def _first_bad_byte(path) -> tuple[int, int]:
    """The line and the value of the first byte of ``path`` that is not UTF-8."""
    lineno = 0
    for block in iter_blocks(path, RouteLogError):
        for raw in block.split(b"\n"):
            lineno += 1
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                return lineno, raw[exc.start]
    return 1, 0


def _rows(path: str | os.PathLike):
    """(line number, dict) of a CSV (with header) or JSON-lines file; a byte that is not UTF-8 or malformed
    CSV is one :class:`RouteLogError` naming the line."""
    try:
        yield from _parsed_rows(path)
    except UnicodeDecodeError:
        lineno, byte = _first_bad_byte(path)
        raise RouteLogError(f"expected UTF-8 text, got byte 0x{byte:02x}", path, lineno) from None
    except (OSError, EOFError) as exc:  # a damaged gzip stream
        raise RouteLogError(f"cannot read file: {exc}", path) from None


def _parsed_rows(path: str | os.PathLike):
    form = routes_format(path)
    try:
        fh = io.TextIOWrapper(io.BufferedReader(LineStream(path, RouteLogError)), encoding="utf-8", newline="")
    except OSError as exc:  # pragma: no cover - LineStream opens the file on first read
        raise RouteLogError(f"cannot read file: {exc.strerror}", path) from None
    with fh:
        if form == "jsonl":
            yield from json_objects(fh, path, RouteLogError)
        else:
            if csv.field_size_limit() < _FIELD_LIMIT:
                csv.field_size_limit(_FIELD_LIMIT)
            reader = csv.reader(fh, strict=True)  # a stray quote is an error, not the rest of the file
            last = 0  # the line the last record read ended on
            try:
                header = next(reader, [])
                last = reader.line_num
                missing = [c for c in REQUIRED if c not in header]
                if missing:
                    raise RouteLogError(
                        f"CSV header lacks column(s) {', '.join(missing)}; expected "
                        f"{', '.join(REQUIRED)} (+ optional {', '.join(OPTIONAL)})",
                        path,
                        1,
                    )
                for row in reader:  # (as csv.DictReader makes them, blank lines skipped, without its Python loop)
                    last = reader.line_num
                    if row:
                        yield last, dict(zip(header, row))
            except csv.Error as exc:  # in the record after the last one read
                raise RouteLogError(
                    f"malformed CSV: {exc} (in the record starting on this line)", path, last + 1
                ) from None


def _text(v) -> str | None:
    if v is None:
        return None
    s = str(v).strip()
    return s or None


def read_routes(path: str | os.PathLike) -> Routes:
    """Read a navigation log (CSV or JSON lines).

    Returns
    -------
    Routes
        With a :class:`~graphsr.core.routes.RouteReport` of what the
        policies did.

    Raises
    ------
    RouteLogError
        For malformed lines (file and line in the message).

    Examples
    --------
    >>> import tempfile, os
    >>> f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    >>> _ = f.write("route_id,step,docid,from,to,duration_ms\\nr1,2,d,/a/b,/a,20\\nr1,1,d,/a,/a/b,10\\n")
    >>> f.close()
    >>> routes = read_routes(f.name)
    >>> [(s.step, s.src, s.dst) for s in routes.routes["r1"]]
    [(1, '/a[1]', '/a[1]/b[1]'), (2, '/a[1]/b[1]', '/a[1]')]
    >>> routes.report.reordered_routes
    1
    >>> os.unlink(f.name)
    """
    with collector_paused():  # (hundreds of thousands of steps, no cycles among them)
        return _read_routes(path)


def _read_routes(path) -> Routes:
    columns = _csv_steps(path)
    routes = None if columns is None else _column_routes(path, columns)
    return routes if routes is not None else _routes(path, _row_steps(path))


def _csv_steps(path) -> tuple[list, ...] | None:
    """The log's steps as columns (:data:`~graphsr.core.routes.STEP_FIELDS`, in the file's order), read a column
    at a time, for a CSV log as loggers write them: no quoted field, every row with the header's columns, every
    value as the row reader takes it.  ``None`` for any other log (JSON
    lines, a quote, a short row, a value the row reader refuses...), which :func:`_row_steps` then reads with
    its messages; for every log it takes, the same steps as :func:`_row_steps` (tested).  ``read_routes`` of
    400,803 steps: 1.6 s rather than 3.6 s (the row path, and a RouteStep object a step, made only if asked)."""
    lines = _plain_csv_lines(path)
    if lines is None:
        return None
    header = lines[0].split(",")
    width = len(header)
    at = {name: i for i, name in enumerate(header)}  # the last column of a name, as dict(zip(header, row))
    if width < 2 or any(c not in at for c in REQUIRED):
        return None
    line_numbers = None
    if "" in lines:  # blank lines are no rows (as in the csv module), but count as lines
        line_numbers = [n for n, line in enumerate(lines, 1) if line][1:]
        lines = [line for line in lines if line]
    del lines[0]
    if set(map(str.count, lines, itertools.repeat(","))) != {width - 1}:
        return None  # a row with fewer or more fields than the header
    fields = ",".join(lines).split(",")
    n = len(lines)
    del lines
    columns = [fields[i::width] for i in range(width)]
    del fields

    def stripped(name: str) -> list:
        if name not in at:
            return [None] * n
        values = list(map(str.strip, columns[at[name]]))
        return [v or None for v in values] if "" in values else values

    route_ids, step_texts, docids, src_texts, dst_texts = (stripped(c) for c in REQUIRED)
    if any(None in c for c in (route_ids, step_texts, docids, src_texts, dst_texts)):
        return None
    typed = _typed_columns(step_texts, src_texts, dst_texts, stripped("duration_ms"))
    if typed is None:
        return None
    steps, src, dst, durations = typed
    users, topics, timestamps = stripped("user"), stripped("topic"), stripped("timestamp")
    return (
        route_ids,
        steps,
        docids,
        src,
        dst,
        users,
        topics,
        durations,
        timestamps,
        line_numbers or list(range(2, n + 2)),
    )


def _plain_csv_lines(path) -> list[str] | None:
    """A CSV log's lines, decoded, where it is read a column at a time (see :func:`_csv_steps`): None for JSON
    lines, a log too large, a NUL, a quote, a line too long, bytes that are not UTF-8."""
    if routes_format(path) != "csv":
        return None
    try:
        if os.path.getsize(path) > _COLUMNS_MAX_BYTES:
            return None
        with open_binary(path) as fh:  # (read at once: iter_blocks' blocks cost 0.35 s more for 52 MB here)
            raw = fh.read(_COLUMNS_MAX_BYTES + 1)
        if len(raw) > _COLUMNS_MAX_BYTES or b"\0" in raw or b'"' in raw:
            return None  # a NUL (the row reader's error), quoted fields (the csv module's reading)
        # lines as iter_blocks ends them (LF, CRLF, CR: bytes.splitlines' boundaries), measured in bytes as it
        # measures them, decoded at once
        raw_lines = raw.removeprefix(b"\xef\xbb\xbf").splitlines()
        del raw
        if len(raw_lines) < 2 or max(map(len, raw_lines)) > MAX_LINE:
            return None
        return b"\n".join(raw_lines).decode("utf-8").split("\n")
    except (OSError, EOFError, UnicodeDecodeError):
        return None


def _typed_columns(step_texts: list, src_texts: list, dst_texts: list, durations: list):
    """Steps as integers (at least 1), node paths canonical, durations as finite numbers of at least 0 (None
    where not given); None where any is not so (the row reader says which)."""
    try:
        steps = list(map(int, step_texts))
        canonical = {x: canonical_xpath(x) for x in {*src_texts, *dst_texts}}
        durations = (
            [None if d is None else float(d) for d in durations] if None in durations else list(map(float, durations))
        )
    except ValueError:
        return None
    if min(steps) < 1 or not all(0 <= d < math.inf for d in durations if d is not None):
        return None
    return steps, list(map(canonical.__getitem__, src_texts)), list(map(canonical.__getitem__, dst_texts)), durations


def _column_routes(path, columns: tuple[list, ...]) -> Routes | None:
    """:class:`Routes` of steps given as columns in the log's order (:func:`_csv_steps`), with the report
    :func:`_routes` makes of the same steps (tested): steps sorted by number within their route, routes in the
    order they first appear."""
    import numpy as np

    route_ids, steps, docids, src, dst = columns[:5]
    n = len(steps)
    first: dict[str, int] = {}
    route = np.fromiter(map(first.setdefault, route_ids, range(n)), dtype=np.int64, count=n)  # first row
    number = np.array(steps, dtype=np.int64)
    order = np.lexsort((number, route))  # (stable; a route's step numbers are distinct)
    moved = bool(np.any(order[1:] < order[:-1]))
    file_route_ids, file_lines = route_ids, columns[9]
    if moved:
        order_list = order.tolist()
        columns = tuple([c[i] for i in order_list] for c in columns)
        route_ids, steps, docids, src, dst = columns[:5]
        route, number = route[order], number[order]
    same = route[1:] == route[:-1]
    if np.any(same & (number[1:] == number[:-1])):
        return None  # a step twice: the row reader names its lines
    report = RouteReport(steps=n, routes=len(first))
    if moved:  # a route whose steps are not in file order: one row after a later one of the file
        late = np.zeros(n, dtype=bool)
        late[1:] = same & (order[1:] < order[:-1])
        reordered = np.unique(route[late])  # their first rows in the file, so in the routes' order
        report.reordered_routes = len(reordered)
        for r in reordered[:5].tolist():
            report.note(f"route {file_route_ids[r]!r}: steps listed out of order (line {file_lines[r]})")
    report.gaps = int(np.sum((np.diff(number) - 1)[same]))
    doc_codes: dict[str, int] = {}
    doc = np.fromiter(map(doc_codes.setdefault, docids, range(n)), dtype=np.int64, count=n)
    path_codes: dict[str, int] = {}
    start = np.fromiter(map(path_codes.setdefault, src, range(n)), dtype=np.int64, count=n)
    end = np.fromiter(map(path_codes.setdefault, dst, range(n, 2 * n)), dtype=np.int64, count=n)
    changed = same & (doc[1:] != doc[:-1])
    report.document_changes = int(np.sum(changed))
    report.discontinuities = int(np.sum(same & ~changed & (start[1:] != end[:-1])))
    return Routes.from_columns(columns, report, str(path))


def _row_steps(path) -> dict[str, list[RouteStep]]:
    """The log's steps by route, a row at a time: every check of the module docstring, each failure one
    :class:`RouteLogError` naming its line."""
    by_route: dict[str, list[RouteStep]] = {}
    seen: dict[tuple[str, int], int] = {}
    canonical: dict[str, str] = {}  # each XPath written in the log, canonical (logs repeat a few thousand)
    for lineno, row in _rows(path):
        get = row.get
        route_id, step_text, docid = _text(get("route_id")), _text(get("step")), _text(get("docid"))
        src_text, dst_text = _text(get("from")), _text(get("to"))
        if route_id is None or step_text is None or docid is None or src_text is None or dst_text is None:
            missing = [c for c in REQUIRED if _text(get(c)) is None]
            raise RouteLogError(f"missing {', '.join(missing)}; expected {', '.join(REQUIRED)}", path, lineno)
        try:
            step = int(step_text)
            if step < 1:
                raise ValueError
        except ValueError:
            raise RouteLogError(
                f"expected a positive integer step number, got {quoted(row['step'])}", path, lineno
            ) from None
        key = (route_id, step)
        if key in seen:
            raise RouteLogError(
                f"route {route_id!r} has step {step} twice (also line {seen[key]}); expected one row per step",
                path,
                lineno,
            )
        seen[key] = lineno
        src, dst = canonical.get(src_text), canonical.get(dst_text)
        if src is None or dst is None:
            try:
                src = canonical[src_text] = canonical_xpath(src_text)
                dst = canonical[dst_text] = canonical_xpath(dst_text)
            except ValueError as exc:
                raise RouteLogError(str(exc), path, lineno) from None
        duration = _text(get("duration_ms"))
        if duration is not None:
            try:
                duration = float(duration)
            except ValueError:
                raise RouteLogError(
                    f"expected a number of milliseconds in duration_ms, got {quoted(duration)}", path, lineno
                ) from None
            if not 0 <= duration < math.inf:
                raise RouteLogError(
                    f"expected a finite, non-negative duration_ms, got {quoted(get('duration_ms'))}", path, lineno
                )
        by_route.setdefault(route_id, []).append(
            RouteStep(
                route_id,
                step,
                docid,
                src,
                dst,
                _text(get("user")),
                _text(get("topic")),
                duration,
                _text(get("timestamp")),
                lineno,
            )
        )
    return by_route


def _routes(path, by_route: dict[str, list[RouteStep]]) -> Routes:
    if not by_route:
        raise RouteLogError("the log has no steps: expected rows of " + ", ".join(REQUIRED), path)
    report = RouteReport()
    for route_id, steps in by_route.items():
        numbers = [s.step for s in steps]
        if numbers != sorted(numbers):
            report.reordered_routes += 1
            report.note(f"route {route_id!r}: steps listed out of order (line {steps[0].line})")
            steps.sort(key=lambda s: s.step)
        for prev, cur in zip(steps, steps[1:]):
            if cur.step != prev.step + 1:
                report.gaps += cur.step - prev.step - 1
            if cur.docid != prev.docid:
                report.document_changes += 1
            elif cur.src != prev.dst:
                report.discontinuities += 1
        report.steps += len(steps)
    report.routes = len(by_route)
    return Routes(by_route, report, str(path))
