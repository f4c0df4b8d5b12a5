"""Line-oriented reading shared by every reader of lines (runs, qrels, passage files, navigation logs).

A line ends at LF, CR or CRLF, as a person means them (a file written on old Mac
OS, or one mixing endings, reads as its LF copy does): trec_eval 9.0.8 splits on
LF only and reads a CR-only file as one line; graphsr does not.  A line longer
than :data:`MAX_LINE` bytes (no text file of records has one; ``/dev/zero`` or a
binary file does) is one error naming the file and line, never an exhausted
memory, and so is a NUL byte (``/dev/urandom``, a binary file).
"""

from __future__ import annotations

import io
import os
from typing import Generator, Iterator

from ..errors import GraphsrInputError

__all__ = ["iter_fields", "open_binary", "read_bytes", "iter_blocks", "LineStream", "c_scanner", "scanned", "MAX_LINE"]

#: The longest line read, in bytes.
MAX_LINE = 64 << 20

#: Bytes read at a time.
BLOCK = 1 << 20


def _lf(data: bytes) -> bytes:
    """``data`` with every CRLF and lone CR made LF."""
    if b"\r" not in data:
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def iter_blocks(
    path: str | os.PathLike, error: type[GraphsrInputError], block: int = BLOCK, max_line: int | None = None
) -> Generator[bytes, None, None]:
    """The file's bytes in blocks of whole lines ending in LF (CR and CRLF made LF), a UTF-8 byte order mark
    dropped, through gzip for ``.gz``; a line longer than ``max_line`` (default :data:`MAX_LINE`), a NUL byte
    (binary data: no text file of records holds one) or a file that cannot be read raises ``error``."""
    limit = MAX_LINE if max_line is None else max_line
    try:
        fh = open_binary(path)
    except OSError as exc:
        raise error(f"cannot read file: {exc.strerror}", path) from None
    lines = 0
    try:
        with fh:
            rest = b""
            first = True
            while True:
                chunk = fh.read(block)
                if first:
                    chunk = chunk[3:] if chunk.startswith(b"\xef\xbb\xbf") else chunk
                    first = False
                if not chunk:
                    if rest:
                        yield _lf(rest)
                    return
                data = rest + chunk if rest else chunk
                if b"\0" in chunk:  # /dev/zero, /dev/urandom, a binary file: not lines of text
                    at = lines + _lf(data[: data.index(b"\0")]).count(b"\n") + 1
                    raise error("expected a text file of lines, got a NUL byte (binary data)", path, at)
                end = len(data) - 1 if data.endswith(b"\r") else len(data)  # a CRLF may be cut here: wait
                cut = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end)) + 1
                if cut:
                    out = _lf(data[:cut])
                    lines += out.count(b"\n")
                    rest = data[cut:]
                    yield out
                else:
                    rest = data
                if len(rest) > limit:
                    raise error(
                        f"line {lines + 1} is longer than {limit:,} bytes; expected a text file of lines",
                        path,
                        lines + 1,
                    )
    except (OSError, EOFError) as exc:  # a damaged gzip stream
        raise error(f"cannot read file: {getattr(exc, 'strerror', None) or exc}", path) from None


class LineStream(io.RawIOBase):
    """:func:`iter_blocks` as a readable binary stream (for ``io.TextIOWrapper`` and the csv module)."""

    def __init__(self, path: str | os.PathLike, error: type[GraphsrInputError]):
        self._blocks = iter_blocks(path, error)
        self._buf = memoryview(b"")
        self._at = 0  # (a block is read from an offset: slicing off what was read copied the rest at every read,
        # which made a line of 64 MB take minutes, read 8 KB at a time)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while self._at >= len(self._buf):
            try:
                self._buf, self._at = memoryview(next(self._blocks)), 0
            except StopIteration:
                return 0
        n = min(len(b), len(self._buf) - self._at)
        b[:n] = self._buf[self._at : self._at + n]
        self._at += n
        return n


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
    lineno = 0
    for block in iter_blocks(path, error):
        lines = block.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        for raw in lines:
            lineno += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise error(f"expected UTF-8 text, got byte 0x{raw[exc.start]:02x}", path, lineno) from None
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                yield lineno, fields


def read_bytes(path: str | os.PathLike, error: type[GraphsrInputError]) -> bytearray:
    """The file's bytes (through gzip for ``.gz``), without a UTF-8 byte order mark, every line ending LF
    (:func:`iter_blocks`), in one buffer grown block by block (no second copy of the file at the end)."""
    data = bytearray()
    for block in iter_blocks(path, error, block=16 << 20):
        data += block
    return data


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
