"""How much a compressed input may expand to, declared once and checked before (and while) it is read.

A few megabytes of zip, tar or gzip can hold gigabytes (a 5.7 MB zip held a 1 GB Markdown member, read whole), so
every compressed input graphsr reads is bounded by two limits:

``member size``
    The most an archive's member (a zip's or a tar's) may hold, uncompressed: ``$GRAPHSR_ARCHIVE_MEMBER_SIZE``, a
    size such as ``512M`` or ``8G`` (default 4 GiB, as Apache POI bounds a zip's entries).  Checked against the
    archive's own listing, before anything of the member is read.
``compression ratio``
    The most an input may expand, uncompressed bytes over compressed ones: ``$GRAPHSR_ARCHIVE_RATIO`` (default 100:
    text compresses 3 to 20 times, the deflate bombs a thousand times and more).  Checked on a zip member's listed
    sizes before it is read, and while a compressed tar or a gzipped file of records is decompressed (their
    listings give no compressed size): decompression stops at the limit.  Below
    :data:`RATIO_FLOOR` uncompressed bytes nothing is refused for its ratio (a small tar of small files is mostly
    zeros, which compress a thousand times over).

What is read within these limits is then held to the bound on one document's reading
(:mod:`graphsr.io.budget`).  A member or input past a limit is refused in one line naming it, the limit and the
variable that sets it.
"""

from __future__ import annotations

import io
import os

from .._sizes import parse_size

__all__ = ["limits", "check_member", "BoundedReader", "open_bounded", "RATIO_FLOOR", "ENV_SIZE", "ENV_RATIO"]

ENV_SIZE = "GRAPHSR_ARCHIVE_MEMBER_SIZE"
ENV_RATIO = "GRAPHSR_ARCHIVE_RATIO"
DEFAULT_SIZE = 4 << 30
DEFAULT_RATIO = 100.0
#: Uncompressed bytes below which no input is refused for its compression ratio.
RATIO_FLOOR = 16 << 20


def limits() -> tuple[int, float]:
    """The member size and the compression ratio in force (from the environment, else the defaults).

    Raises
    ------
    GraphsrInputError
        For a value that is not a size (a ratio of at least 1).
    """
    from ..errors import GraphsrInputError

    text = os.environ.get(ENV_SIZE, "").strip()
    size = parse_size(text, f"${ENV_SIZE}") if text else DEFAULT_SIZE
    text = os.environ.get(ENV_RATIO, "").strip()
    try:
        ratio = float(text) if text else DEFAULT_RATIO
    except ValueError:
        raise GraphsrInputError(f"${ENV_RATIO}: expected a number (uncompressed over compressed bytes), got {text!r}")
    if not (ratio >= 1 and ratio < float("inf")):
        raise GraphsrInputError(f"${ENV_RATIO}: expected a ratio of at least 1, got {text!r}")
    return size, ratio


def _human(n: float) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):,.1f} {unit}"
    return f"{int(n)} bytes"


def check_member(
    archive, member: str, size: int, packed: int | None, error, bounds: tuple[int, float] | None = None
) -> None:
    """Refuse, with ``error(message, archive)``, a member of ``size`` uncompressed bytes (``packed`` compressed;
    None: not known) past the limits (``bounds``: :func:`limits`, read once for a listing's many members)."""
    most, ratio = limits() if bounds is None else bounds
    if size > most:
        raise error(
            f"member {member}: {_human(size)} uncompressed, more than an archive member may hold "
            f"({_human(most)}; ${ENV_SIZE} sets it)",
            archive,
        )
    if packed is not None and size > RATIO_FLOOR and size > ratio * max(packed, 1):
        raise error(
            f"member {member}: {_human(size)} uncompressed from {_human(packed)} ({size / max(packed, 1):,.0f} to 1), "
            f"more than an archive member may expand ({ratio:g} to 1; ${ENV_RATIO} sets it)",
            archive,
        )


class BoundedReader(io.RawIOBase):
    """A decompressing file (gzip, bz2, lzma; its ``tell`` the uncompressed position) that refuses to give more
    than ``most`` bytes: past them, reading or seeking raises ``error(message, name)``."""

    def __init__(self, inner, most: int, name: str, error, packed: int):
        super().__init__()
        self._inner, self._most, self._name, self._error, self._packed = inner, most, name, error, packed

    def _check(self) -> None:
        if self._inner.tell() > self._most:
            _, ratio = limits()
            raise self._error(
                f"expands past {_human(self._most)} from {_human(self._packed)} compressed: more than "
                f"{ratio:g} to 1 (${ENV_RATIO} sets it)",
                self._name,
            )

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self._inner.readinto(buffer)
        self._check()
        return n

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        at = self._inner.seek(offset, whence)
        self._check()
        return at

    def tell(self) -> int:
        return self._inner.tell()

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            super().close()


_OPENERS = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "lzma"}


def compression_of(path) -> str | None:
    """The compression a file's first bytes say (``gzip``, ``bz2``, ``lzma``), or None."""
    with open(path, "rb") as fh:
        head = fh.read(6)
    return next((name for magic, name in _OPENERS.items() if head.startswith(magic)), None)


def open_bounded(path, error, module: str | None = None):
    """A compressed file (``module``: gzip, bz2 or lzma; by default what its first bytes say) opened for reading
    bytes, bounded to :data:`RATIO_FLOOR` or its compressed size times the ratio in force, whichever is more."""
    import importlib

    name = module or compression_of(path) or "gzip"
    packed = os.path.getsize(path)
    _, ratio = limits()
    inner = importlib.import_module(name).open(path, "rb")
    return io.BufferedReader(BoundedReader(inner, max(RATIO_FLOOR, int(ratio * packed)), str(path), error, packed))
