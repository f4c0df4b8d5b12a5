"""The records of one chunk map file, streaming and checked: ``(line, chunk_id, doc_id, start, end)`` from JSON lines
(graphsr's ``chunk_id, doc_id, start, end`` or MS MARCO v2.1's segments, ``docid, start_char, end_char``), CSV,
TSV or Parquet, gzipped or not (:mod:`graphsr.io.chunks` says what a chunk map is)."""

from __future__ import annotations

import re
from typing import Iterator

from ..errors import RunFormatError
from .records import iter_records, record_int

__all__ = ["MAP_SUFFIXES", "iter_chunk_records"]

#: The names of a chunk map's files (and of the shards of a directory of them), each also gzipped but Parquet.
MAP_SUFFIXES = (".jsonl", ".json", ".ndjson", ".csv", ".tsv", ".parquet")


def iter_chunk_records(path: str) -> Iterator[tuple[int, str, str, int, int]]:
    """``(line, chunk_id, doc_id, start, end)`` of every record of one chunk map file, streaming, each checked (see
    :func:`read_chunk_map`); JSON lines are read by search where that is sure (:mod:`graphsr.io.record_index`)."""
    from .records import is_json_lines

    if not path.lower().endswith(".parquet") and is_json_lines(path):
        yield from _json_chunk_records(path)
        return
    for line, r in iter_records(path, RunFormatError):
        yield _chunk_record(r, path, line)


_OURS = (("chunk_id", "doc_id"), ("start", "end"))
_MSMARCO = (("docid",), ("start_char", "end_char"))

#: A line exactly as graphsr writes a chunk map (write_chunk_map: these keys in this order, JSON's white space
#: between the tokens): matched whole in one step; its strings hold no escape, quote or control character (any
#: other line is read field by field, or parsed).
_OWN_LINE = re.compile(
    rb'[ \t\r]*\{[ \t\r]*"chunk_id"[ \t\r]*:[ \t\r]*"([^"\\\x00-\x1f]*)"[ \t\r]*,[ \t\r]*"doc_id"[ \t\r]*:[ \t\r]*'
    rb'"([^"\\\x00-\x1f]*)"[ \t\r]*,[ \t\r]*"start"[ \t\r]*:[ \t\r]*(-?[0-9]+)[ \t\r]*,[ \t\r]*"end"[ \t\r]*:'
    rb"[ \t\r]*(-?[0-9]+)[ \t\r]*\}[ \t\r]*"
)


def _json_chunk_records(path: str):
    import json

    from .record_index import fast_fields, int_field, raw_lines, string_field

    shapes = [
        ([string_field(k) for k in s], [int_field(k) for k in i], bool(len(s) == 1)) for s, i in (_OURS, _MSMARCO)
    ]
    own = _OWN_LINE.fullmatch
    for _, line, raw in raw_lines(path, RunFormatError):
        m = own(raw)
        if m is not None:
            try:
                chunk, doc = m.group(1).decode("utf-8"), m.group(2).decode("utf-8")
            except UnicodeDecodeError:
                m = None
        if m is not None:
            start, end = int(m.group(3)), int(m.group(4))
            if not 0 <= start < end:
                raise RunFormatError(f"chunk {chunk!r}: expected 0 <= start < end, got [{start}, {end})", path, line)
            yield line, chunk, doc, start, end
            continue
        for strings, ints, msmarco in shapes:
            got = fast_fields(raw, strings, ints)
            if got is not None:
                if msmarco:
                    chunk, start, end = got
                    doc = chunk.split("#", 1)[0]
                else:
                    chunk, doc, start, end = got
                if not 0 <= start < end:
                    raise RunFormatError(
                        f"chunk {chunk!r}: expected 0 <= start < end, got [{start}, {end})", path, line
                    )
                yield line, chunk, doc, start, end
                break
        else:
            if not raw.strip():
                continue
            try:
                r = json.loads(raw[3:] if line == 1 and raw.startswith(b"\xef\xbb\xbf") else raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else f"not UTF-8 ({exc.reason})"
                raise RunFormatError(f"expected a JSON object per line: {reason}", path, line) from None
            if not isinstance(r, dict):
                raise RunFormatError(f"expected a JSON object per line, got {type(r).__name__}", path, line)
            yield _chunk_record(r, path, line)


def _chunk_record(r: dict, path, line: int) -> tuple[int, str, str, int, int]:
    """One chunk map record checked: ``(line, chunk_id, doc_id, start, end)``."""
    if "chunk_id" in r:
        missing = [c for c in ("doc_id", "start", "end") if c not in r]
        if missing:
            raise RunFormatError(f"expected chunk_id, doc_id, start, end; missing {', '.join(missing)}", path, line)
        chunk, doc, start, end = str(r["chunk_id"]), str(r["doc_id"]), r["start"], r["end"]
    elif {"docid", "start_char", "end_char"} <= set(r):  # MS MARCO v2.1 segments
        chunk = str(r["docid"])
        doc, start, end = chunk.split("#", 1)[0], r["start_char"], r["end_char"]
    else:
        raise RunFormatError(
            "expected the columns chunk_id, doc_id, start, end (or MS MARCO v2.1's docid, start_char, end_char)",
            path,
            line,
        )
    if "\x00" in chunk or "\x00" in doc:
        raise RunFormatError(f"chunk {chunk!r}: expected ids without NUL characters", path, line)
    start, end = (
        record_int(start, "start", path, line, RunFormatError),
        record_int(end, "end", path, line, RunFormatError),
    )
    if not 0 <= start < end:
        raise RunFormatError(f"chunk {chunk!r}: expected 0 <= start < end, got [{start}, {end})", path, line)
    return line, chunk, doc, start, end
