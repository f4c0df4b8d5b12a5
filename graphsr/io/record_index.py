"""Indexes of large files of records, built once and kept while the file is unchanged, so that an evaluation
reads of a chunk map or a corpus only the records its runs and assessments name.

Two kinds of file are indexed, each by the id of its records:

``chunks``
    a chunk map (:mod:`graphsr.io.chunks`): each chunk id's document, start and end, and the line it is on;
``documents``
    a JSON lines corpus (MS MARCO v2.1's document shards among them): each document id's line, the byte offset
    of that line in the uncompressed file and the length of its text in code points.

**Where and when.** A file of at least :data:`INDEX_FROM` bytes on disk (``$GRAPHSR_INDEX_FROM``, a size such as
``64M``; ``0`` indexes every file) is indexed the first time it is read; a smaller one is read whole each time
(reading it costs less than loading an index).  Indexes are kept under ``$GRAPHSR_CACHE`` (default
``$XDG_CACHE_HOME/graphsr``, else ``~/.cache/graphsr``), in ``index/``, one directory per file and kind, readable
by its owner only.  An index records the file's real path, size, modification time (ns), inode and device, and
the version of the index format: a file changed in any of them is indexed again, never read through a stale
index.  Deleting the directory is always safe.

**What an index is.** Parts of at most :data:`PART_ROWS` records, each a set of NumPy arrays sorted by id
(``ids`` as fixed-width UTF-8 bytes, and the columns of the kind), written with ``numpy.save`` and read back
by ``pread`` (:class:`Column`), with a fence (every :data:`FENCE`-th id) held whole: a lookup of *n* ids reads the
fence and *n* blocks of a few kilobytes, whatever the file's size, so that memory follows the ids looked up, not
the file.  Building one reads the file once, streaming (gzip through the bounds of
:mod:`graphsr.io.archive_limits`); a line of JSON whose fields can be taken without a full parse (one object, no
escape in the id, plain integers) is read by search, any other by :func:`json.loads`.  Every part written is
read back and counted against the records read; an id given twice in one part is refused when building, and
in two parts when it is looked up.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from ..errors import GraphsrInputError
from .fenced_columns import FENCE, Column, fence, fenced_find, fenced_search, same_width

__all__ = [
    "INDEX_FROM",
    "PART_ROWS",
    "FileIndex",
    "cache_root",
    "file_index",
    "file_indexes",
    "index_threshold",
    "raw_lines",
    "fast_fields",
    "string_field",
    "int_field",
    "VERSION",
    "listed",
    "FENCE",
    "Column",
    "fence",
    "fenced_find",
    "fenced_search",
    "same_width",
]

#: Files of at least this many bytes on disk are indexed (``$GRAPHSR_INDEX_FROM``).
INDEX_FROM = 8 << 20
ENV_INDEX_FROM = "GRAPHSR_INDEX_FROM"
ENV_CACHE = "GRAPHSR_CACHE"
#: The most records in one sorted part of an index (bounds the memory of building one).
PART_ROWS = 2_000_000
#: The index format's version: an index of another version is built again.
VERSION = 4
#: The columns each kind of index keeps beside ``ids`` and ``line``.
COLUMNS = {"chunks": ("doc", "start", "end"), "documents": ("offset", "length")}


def index_threshold() -> int:
    """The size from which a file is indexed (``$GRAPHSR_INDEX_FROM``, else :data:`INDEX_FROM`)."""
    from .._sizes import parse_size

    text = os.environ.get(ENV_INDEX_FROM, "").strip()
    return parse_size(text, f"${ENV_INDEX_FROM}") if text else INDEX_FROM


def cache_root() -> Path:
    """Where indexes are kept (see the module docstring), made readable by its owner only."""
    base = os.environ.get(ENV_CACHE, "").strip()
    if base:
        root = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "graphsr"
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    return root


def raw_lines(path: str, error: type[GraphsrInputError], block: int = 4 << 20) -> Iterator[tuple[int, int, bytes]]:
    """``(byte offset, line number, line)`` of every line of ``path`` in the uncompressed stream (through gzip for
    ``.gz``, bounded), the line without its ``\\n``; offsets count the file's own bytes (a byte order mark and
    ``\\r`` included)."""
    from ._lines import MAX_LINE

    if path.endswith(".gz"):
        from .archive_limits import open_bounded

        fh = open_bounded(path, error, "gzip")
    else:
        fh = open(path, "rb")
    at, lineno, rest = 0, 0, b""
    with fh:
        while True:
            try:
                chunk = fh.read(block)
            except (OSError, EOFError) as exc:  # a damaged or cut gzip stream
                raise error(f"cannot read the file ({exc})", path) from None
            if not chunk:
                if rest:
                    yield at, lineno + 1, rest
                return
            data = rest + chunk if rest else chunk
            lines = data.split(b"\n")
            rest = lines.pop()
            if len(rest) > MAX_LINE:
                raise error(f"a line longer than {MAX_LINE >> 20} MB: not a file of records", path, lineno + 1)
            for line in lines:
                lineno += 1
                yield at, lineno, line
                at += len(line) + 1


# ---- taking fields from a JSON line without parsing all of it -------------------------------------------------


def string_field(key: str) -> re.Pattern:
    return re.compile(rb'"' + re.escape(key.encode()) + rb'"\s*:\s*"([^"\\]*)"')


def int_field(key: str) -> re.Pattern:
    return re.compile(rb'"' + re.escape(key.encode()) + rb'"\s*:\s*(-?[0-9]+)\s*[,}]')


def _one(pattern: re.Pattern, line: bytes) -> bytes | None:
    """The group of the one match of a key's pattern in a flat JSON object line, or None: absent, given twice,
    or not sure to be a key (anything but ``{`` or ``,`` before its opening quote)."""
    found = pattern.finditer(line)
    m = next(found, None)
    if m is None or next(found, None) is not None:
        return None
    j = m.start() - 1
    while j >= 0 and line[j] in b" \t\r":
        j -= 1
    return m.group(1) if j >= 0 and line[j] in b"{," else None


def fast_fields(line: bytes, strings, ints) -> tuple | None:
    """The searched fields of a flat JSON object line (strings decoded, integers as int), or None where a full
    parse is needed."""
    if line.count(b"{") != 1:
        return None
    out: list = []
    for p in strings:
        v = _one(p, line)
        if v is None:
            return None
        try:
            out.append(v.decode("utf-8"))
        except UnicodeDecodeError:
            return None
    for p in ints:
        v = _one(p, line)
        if v is None:
            return None
        out.append(int(v))
    return tuple(out)


# ---- the index of one file ------------------------------------------------------------------------------------


@dataclass
class Part:
    """One sorted part of an index: ``ids`` (bytes, sorted), their fence, and the kind's columns, row for row."""

    ids: Column
    columns: dict

    def find(self, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(which, rows)``: the positions in ``wanted`` (bytes) found here and their rows."""
        if not len(self.ids) or not len(wanted):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        fits, keys = same_width(wanted, self.ids)
        at, hit = fenced_find(self.ids, self.columns["ids_fence"], keys)
        which = np.flatnonzero(hit)
        return fits[which], at[which]


class FileIndex:
    """The index of one file (see the module docstring): its parts, looked up by id."""

    def __init__(self, path: str, kind: str, parts: list[Part], rows: int):
        self.path, self.kind, self.parts, self.rows = path, kind, parts, rows

    def lookup(self, ids: Iterable[str], error: type[GraphsrInputError]) -> dict[str, tuple]:
        """``{id: (line, *columns)}`` of the ``ids`` the file holds (those it does not are left out); an id held
        in two parts is ``error``."""
        wanted_str = sorted(set(ids))
        if not wanted_str:
            return {}
        wanted = np.array([w.encode("utf-8") for w in wanted_str])
        out: dict[str, tuple] = {}
        names = COLUMNS[self.kind]
        for part in self.parts:
            which, rows = part.find(wanted)
            if not len(which):
                continue
            records = part.columns["records"].take(rows)
            keys = [wanted_str[k] for k in which.tolist()]
            values = zip(*(listed(records[c]) for c in ("line", *names)))
            if out:
                for key, row in zip(keys, values):
                    if key in out:
                        raise error(
                            f"{_what(self.kind)} {key!r} is given twice (lines {out[key][0]} and {row[0]})", self.path
                        )
                    out[key] = row
            else:  # (the ids of one part are distinct)
                out = dict(zip(keys, values))
        return out

    def document_rows(self, docs: Iterable[str]):
        """``(part, rows)`` of the chunks of the documents ``docs`` in each part that has some (a chunk index)."""
        wanted = np.array(sorted({d.encode("utf-8") for d in docs}))
        if not len(wanted):
            return
        for part in self.parts:
            order, doc_sorted, fences = part.columns["doc_order"], part.columns["doc_sorted"], part.columns["doc_fence"]
            _, keys = same_width(wanted, doc_sorted)
            lo = fenced_search(doc_sorted, fences, keys, "left")
            hi = fenced_search(doc_sorted, fences, keys, "right")
            spans = [(a, b) for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
            if spans:
                yield part, np.concatenate([order.block(a, b) for a, b in spans])

    def by_document(self, docs: Iterable[str]) -> dict[str, tuple]:
        """``{chunk id: (line, doc, start, end)}`` of every chunk of the documents ``docs`` (a chunk index)."""
        fields = ("line", "doc", "start", "end")
        out: dict[str, tuple] = {}
        for part, rows in self.document_rows(docs):
            records = part.columns["records"].take(rows)
            chunks = listed(part.ids.take(rows))
            out.update(zip(chunks, zip(*(listed(records[c]) for c in fields))))
        return out


def listed(column: np.ndarray) -> list:
    """A column's values as Python objects, bytes decoded as UTF-8 (in one step where they are ASCII)."""
    if column.dtype.kind != "S":
        return column.tolist()
    try:
        return column.astype(f"U{max(column.dtype.itemsize, 1)}").tolist()
    except UnicodeDecodeError:
        return [v.decode("utf-8") for v in column.tolist()]


def _what(kind: str) -> str:
    return "chunk" if kind == "chunks" else "document"


def _identity(path: str) -> dict:
    st = os.stat(path)
    return {
        "path": os.path.realpath(path),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "inode": st.st_ino,
        "device": st.st_dev,
        "version": VERSION,
    }


def _directory(path: str, kind: str) -> Path:
    digest = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return cache_root() / "index" / f"{digest}.{kind}"


def _load(where: Path, identity: dict, kind: str) -> FileIndex | None:
    """The index kept at ``where`` if it was built from the file as it is now, else None."""
    try:
        meta = json.loads((where / "meta.json").read_text())
    except (OSError, ValueError):
        return None
    if meta.get("identity") != identity or meta.get("kind") != kind:
        return None
    names = ("ids", "ids_fence", "records") + (("doc_order", "doc_sorted", "doc_fence") if kind == "chunks" else ())
    parts = []
    try:
        for k in range(int(meta["parts"])):
            arrays = {
                n: np.load(where / f"part{k}.{n}.npy") if n.endswith("_fence") else Column(where / f"part{k}.{n}.npy")
                for n in names
            }
            if any(len(a) != int(meta["part_rows"][k]) for n, a in arrays.items() if not n.endswith("_fence")):
                return None
            ids = arrays.pop("ids")
            parts.append(Part(ids, arrays))
    except (OSError, ValueError, KeyError):
        return None
    return FileIndex(identity["path"], kind, parts, int(meta["rows"]))


def file_index(
    path: str,
    kind: str,
    rows: Callable[[str], Iterator[tuple]],
    error: type[GraphsrInputError],
) -> FileIndex:
    """The index of ``path`` (kind ``chunks`` or ``documents``), built from ``rows(path)`` -- ``(line, id, *columns)``
    tuples, each record checked by the reader -- where none is kept for the file as it is now."""
    identity = _identity(path)
    where = _directory(path, kind)
    kept = _load(where, identity, kind)
    if kept is not None:
        return kept
    return _build(path, kind, rows, error, identity, where)


def file_indexes(
    paths: list[str], kind: str, rows: Callable[[str], Iterator[tuple]], error: type[GraphsrInputError]
) -> dict[str, FileIndex]:
    """:func:`file_index` of each of ``paths``: those kept read back here, the others built side by side, a
    process a core (``rows`` a module-level function, as the processes take it)."""
    from functools import partial

    kept = {p: _load(_directory(p, kind), _identity(p), kind) for p in paths}
    todo = sorted(p for p, index in kept.items() if index is None)
    workers = min(len(todo), os.cpu_count() or 1)
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(partial(_rows_indexed, kind=kind, rows=rows, error=error), todo))
    return {p: index if index is not None else file_index(p, kind, rows, error) for p, index in kept.items()}


def _rows_indexed(path: str, kind: str, rows, error) -> int:
    """Build (or read back) one file's index in a worker process: the records it holds."""
    return file_index(path, kind, rows, error).rows


def _build(path, kind, rows, error, identity: dict, where: Path) -> FileIndex:
    import shutil
    import tempfile

    names = COLUMNS[kind]
    where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = Path(tempfile.mkdtemp(prefix=where.name + ".partial-", dir=where.parent))
    try:
        part_rows: list[int] = []
        batch: list[tuple] = []
        total = 0
        for row in rows(path):
            batch.append(row)
            if len(batch) >= PART_ROWS:
                part_rows.append(_write_part(tmp, len(part_rows), batch, kind, names, path, error))
                total += len(batch)
                batch = []
        if batch or not part_rows:
            part_rows.append(_write_part(tmp, len(part_rows), batch, kind, names, path, error))
            total += len(batch)
        if sum(part_rows) != total:
            raise error(f"the index holds {sum(part_rows)} records, the file {total}", path)
        meta = {"identity": identity, "kind": kind, "parts": len(part_rows), "part_rows": part_rows, "rows": total}
        (tmp / "meta.json").write_text(json.dumps(meta))
        if where.exists():
            shutil.rmtree(where, ignore_errors=True)
        try:
            os.replace(tmp, where)
        except OSError:  # another process kept the same index meanwhile
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    built = _load(where, identity, kind)
    if built is None or built.rows != total:
        raise error(f"the index kept for the file could not be read back ({where})", path)
    return built


def _write_part(tmp: Path, k: int, batch: list[tuple], kind: str, names, path: str, error) -> int:
    """Sort one part by id, refuse an id given twice in it, save its arrays; the number of rows saved."""
    n = len(batch)
    ids = np.array([r[1].encode("utf-8") for r in batch], dtype=bytes) if n else np.zeros(0, dtype="S1")
    line = np.fromiter((r[0] for r in batch), dtype=np.int64, count=n)
    order = np.argsort(ids, kind="stable")
    ids, line = ids[order], line[order]
    if n > 1:
        same = np.flatnonzero(ids[1:] == ids[:-1])
        if len(same):
            j = int(same[0])
            first, second = sorted((int(line[j]), int(line[j + 1])))
            raise error(f"{_what(kind)} {ids[j].decode()!r} is given twice (also on line {first})", path, second)
    arrays = {"ids": ids, "line": line}
    for c, name in enumerate(names, 2):
        values = [r[c] for r in batch]
        if name == "doc":
            col = np.array([v.encode("utf-8") for v in values], dtype=bytes) if n else np.zeros(0, dtype="S1")
        else:
            col = np.fromiter(values, dtype=np.int64, count=n)
        arrays[name] = col[order]
    if kind == "chunks":  # (the rows by document, and the documents in that order: searched as they are kept)
        arrays["doc_order"] = np.argsort(arrays["doc"], kind="stable").astype(np.int64)
        arrays["doc_sorted"] = arrays["doc"][arrays["doc_order"]]
        arrays["doc_fence"] = fence(arrays["doc_sorted"])
    arrays["ids_fence"] = fence(arrays["ids"])
    fields = ("line", *names)  # (a record's columns side by side: one read a record)
    records = np.zeros(n, dtype=[(f, arrays[f].dtype) for f in fields])
    for f in fields:
        records[f] = arrays.pop(f)
    arrays["records"] = records
    for name, a in arrays.items():
        np.save(tmp / f"part{k}.{name}.npy", a)
    back = Column(tmp / f"part{k}.ids.npy")
    if len(back) != n:
        raise error(f"wrote {len(back)} records of an index part, expected {n}", path)
    return n
