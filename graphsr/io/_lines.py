"""Line-oriented reading shared by the run and qrels readers."""

from __future__ import annotations

import os
from typing import Iterator

from ..errors import GraphsrInputError

__all__ = ["iter_fields", "open_binary", "read_bytes", "c_scanner", "scanned"]


def open_binary(path: str | os.PathLike):
    """The file for reading bytes; a name ending in ``.gz`` is read through gzip."""
    if str(path).endswith(".gz"):
        import gzip

        return gzip.open(path, "rb")
    return open(path, "rb")


def iter_fields(path: str | os.PathLike, error: type[GraphsrInputError]) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, whitespace-split fields)`` of non-blank lines.

    Lines whose first field starts with ``#`` are comments and are skipped,
    as trec_eval skips them.  Lines may end with trailing spaces (INEX qrels
    do).  A file that is not
    UTF-8 raises ``error`` with the line of the first bad byte.  A ``.gz``
    file is read through gzip.
    """
    try:
        fh = open_binary(path)
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror}", path) from None
    with fh:
        for lineno, raw in enumerate(_lines(fh, path, error), 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise error(f"expected UTF-8 text, got byte 0x{raw[exc.start]:02x}", path, lineno) from None
            if lineno == 1 and line.startswith("\ufeff"):  # a UTF-8 byte order mark is no part of a field
                line = line[1:]
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                yield lineno, fields


def _lines(fh, path, error):
    try:
        yield from fh
    except (OSError, EOFError) as exc:  # a damaged gzip stream
        raise error(f"cannot read file: {exc}", path) from None


def read_bytes(path: str | os.PathLike, error: type[GraphsrInputError]) -> bytes:
    """The file's bytes (through gzip for ``.gz``), without a UTF-8 byte order mark."""
    try:
        with open_binary(path) as fh:
            data = fh.read()
            return data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    except (OSError, EOFError) as exc:
        raise error(f"cannot read file: {getattr(exc, 'strerror', None) or exc}", path) from None


def scanned(scan, function: str, *args):
    """``scan.function(*args)``, then the scanner's name indexes dropped (they would keep the vocabularies
    alive, and take memory the scoring needs)."""
    try:
        return getattr(scan, function)(*args)
    finally:
        scan.forget()


def c_scanner():
    """The C scanner of well-formed run and qrels files (graphsr.io._folscan), or None where it was not built:
    the line-by-line readers then read everything (and always explain a line the scanner declines)."""
    try:
        from . import _folscan
    except ImportError:  # pragma: no cover - the extension is optional
        return None
    return _folscan
