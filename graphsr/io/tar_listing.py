"""The members of a plain tar archive, listed from its headers without the tarfile module's per-member cost.

``tarfile`` reads a member's header through several Python calls (60,000 members took about 1.2 s of a 9 s load
of small documents).  A plain (uncompressed) archive whose members are all plain ustar or GNU headers of files,
directories and links (with GNU long names) is listed here from one read of each header; the names, sizes and data offsets are those
``tarfile`` gives (tested on archives of every format Python writes).  Anything else -- a compressed archive, a
pax header, a sparse file, a size in base-256, a checksum that does not add up, a header cut
off -- returns None, and :func:`tar_members` lists the archive with ``tarfile`` (with its messages).
"""

from __future__ import annotations

import os
import tarfile
from typing import Callable

from ..errors import CollectionError

__all__ = ["plain_tar_members", "tar_members"]

#: Type flags listed here: files (regular, old-style regular, contiguous), hard and symbolic links, character
#: and block devices, directories, FIFOs.  Others (pax, GNU long names, sparse files, volume labels) are
#: tarfile's.
_FILES = {b"0", b"\0", b"7"}
_OTHERS = {b"1", b"2", b"3", b"4", b"5", b"6"}
_KNOWN = _FILES | _OTHERS | {b"L", b"K"}
_COMPRESSED = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")


def _text(field: bytes) -> str:
    cut = field.find(b"\0")
    return (field if cut < 0 else field[:cut]).decode("utf-8", "surrogateescape")


def _octal(field: bytes) -> int | None:
    """A header number as tarfile reads it (octal digits, NUL- or space-terminated); None for base-256 or
    anything tarfile would refuse."""
    if field[:1] in (b"\x80", b"\xff"):
        return None
    digits = field.split(b"\0", 1)[0].strip()
    if not digits:
        return 0
    try:
        return int(digits, 8)
    except ValueError:
        return None


def _checksum_ok(header: bytes) -> bool:
    stored = _octal(header[148:156])
    unsigned = sum(header) - sum(header[148:156]) + 256  # the checksum field counted as eight spaces
    if stored == unsigned:
        return True
    high = sum(1 for b in header[:148] + header[156:] if b > 127)
    return stored == unsigned - 256 * high  # (the bytes read as signed)


def plain_tar_members(path: str | os.PathLike) -> list[tuple[str, int, int]] | None:
    """``(name, size, offset of the data)`` of every file member of a plain tar archive, in archive order; None
    where only tarfile can say (see the module docstring).  Headers are read one by one (``pread``): the members'
    data is never read, nor mapped into memory."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return _members(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)


def _zeros_from(fd: int, at: int, size: int) -> bool:
    while at < size:
        block = os.pread(fd, min(1 << 20, size - at), at)
        if not block or block.count(0) != len(block):
            return False
        at += len(block)
    return True


def _members(fd: int, size: int) -> list[tuple[str, int, int]] | None:
    if size < 512 or os.pread(fd, 6, 0).startswith(_COMPRESSED):
        return None
    out: list[tuple[str, int, int]] = []
    at = 0
    long_name: str | None = None
    while True:
        if at == size and at:
            return out  # (no end-of-archive blocks: tarfile stops there too)
        if at + 512 > size:
            return None  # a header cut off: tarfile decides what that is
        header = os.pread(fd, 512, at)
        if len(header) != 512:
            return None
        if header.count(0) == 512:
            if at == 0:
                return None  # (tarfile refuses an archive that starts with its end)
            return out if _zeros_from(fd, at, size) else None  # (what follows must be zeros too)
        kind = header[156:157]
        length = _octal(header[124:136])
        if length is None or not _checksum_ok(header) or kind not in _KNOWN:
            return None
        if kind in (b"L", b"K"):  # a GNU long name (or link name) for the next header
            step = _long_name(fd, kind, length, at, size, long_name)
            if step is None:
                return None
            long_name, at = step
            continue
        at = _entry(header, kind, length, at, long_name, out)
        long_name = None


def _long_name(fd: int, kind: bytes, length: int, at: int, size: int, long_name: str | None):
    """The long name a GNU ``L`` header gives the next one (a ``K``'s link name is skipped), and where the next
    header starts; None where tarfile decides (two in a row, or cut off)."""
    if long_name is not None or at + 512 + length > size:
        return None
    if kind == b"L":
        long_name = _text(os.pread(fd, length, at + 512))
    return long_name, at + 512 + -(-length // 512) * 512


def _entry(header: bytes, kind: bytes, length: int, at: int, long_name: str | None, out: list) -> int:
    """A member's header: a file's (name, size, data offset) into ``out``; where the next header starts."""
    name = _text(header[0:100])
    prefix = _text(header[345:500])
    is_file = kind in _FILES and not (kind == b"\0" and name.endswith("/"))  # (old-style directory)
    if is_file:
        if long_name is not None:
            name, prefix = long_name, ""
        out.append((f"{prefix}/{name}" if prefix else name, length, at + 512))
    return at + 512 + (-(-length // 512) * 512 if is_file else 0)


def tar_members(p: str | os.PathLike, wanted: Callable[[str], bool]) -> list[tuple[str, int, int]]:
    """(name, size, data offset; -1 for a sparse file) of the file members of a tar archive whose names are
    ``wanted``, sorted by name: read from the headers where :func:`plain_tar_members` can, by tarfile otherwise
    (any archive it reads: compressed, pax, sparse files; and its messages for a damaged one).

    Raises
    ------
    CollectionError
        For an archive that cannot be read, or whose end is damaged.
    """
    try:
        plain = plain_tar_members(p)
    except OSError as exc:
        raise CollectionError(f"cannot read tar archive: {' '.join(str(exc).split())}", p) from None
    if plain is not None:
        return sorted(m for m in plain if wanted(m[0]))
    from .archive_limits import compression_of, open_bounded

    try:
        compressed = compression_of(p)
    except OSError as exc:
        raise CollectionError(f"cannot read tar archive: {' '.join(str(exc).split())}", p) from None
    try:
        # a compressed archive through a decompressor bounded as graphsr.io.archive_limits says
        with open_bounded(p, CollectionError, compressed) if compressed else open(p, "rb") as fh:
            try:
                tar = tarfile.open(fileobj=fh, mode="r:")
            except tarfile.ReadError:
                raise CollectionError(
                    "cannot read tar archive: not a tar archive (plain, gzip, bz2 or xz)", p
                ) from None
            names: list[tuple[str, int, int]] = []
            while (m := tar.next()) is not None:  # one header at a time: tarfile would keep every one it reads
                if m.isfile() and wanted(m.name):
                    names.append((m.name, m.size, -1 if m.issparse() else m.offset_data))
                tar.members.clear()  # type: ignore[attr-defined]
            _check_tar_end(tar, p)
            return sorted(names)
    except (tarfile.TarError, OSError, EOFError) as exc:
        text = str(exc)
        if "could not be opened successfully" in text:
            text = "not a tar archive (plain, gzip, bz2 or xz)"
        raise CollectionError(f"cannot read tar archive: {' '.join(text.split())}", p) from None


def _check_tar_end(tar: tarfile.TarFile, path) -> None:
    """After the last member only zero blocks may follow: anything else is a member cut off (tarfile stops
    quietly at a truncated header)."""
    fh = tar.fileobj
    fh.seek(tar.offset)
    while True:
        block = fh.read(1 << 16)
        if not block:
            return
        if block.count(0) != len(block):
            raise CollectionError(
                f"cannot read tar archive: data after its last complete member (offset "
                f"{tar.offset}) is not a member: the archive is truncated or damaged",
                path,
            )
