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
import math
import os

from .._gc import collector_paused
from ..errors import RouteLogError
from ..core.document import canonical_xpath, quoted
from ..core.routes import RouteReport, Routes, RouteStep
from ._lines import LineStream, iter_blocks
from .records import json_objects
from .sniff import routes_format

__all__ = ["RouteLogError", "read_routes"]

REQUIRED = ("route_id", "step", "docid", "from", "to")
OPTIONAL = ("user", "topic", "duration_ms", "timestamp")


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
