"""Every file graphsr writes is written whole or not at all.

Output goes to a hidden temporary file beside the target (``.NAME.partial``),
renamed over the target when it is complete (a target that is a device or a
pipe, ``/dev/stdout`` say, is written in place); if anything fails -- a full
disk, a directory that cannot be written, an error while producing the
content, an interrupt -- the temporary file is removed and the target is left
as it was.  A failure to write is one :class:`~graphsr.errors.GraphsrInputError`
line naming the file (or the error type given).

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> with atomic_write(target) as fh:
...     _ = fh.write("whole\\n")
>>> target.read_text()
'whole\\n'
>>> with atomic_write(target) as fh:
...     _ = fh.write("half")
...     raise ValueError("stopped halfway")
Traceback (most recent call last):
...
ValueError: stopped halfway
>>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
('whole\\n', ['out.txt'])
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import GraphsrInputError

__all__ = ["atomic_write", "atomic_path", "output_directory"]


@contextmanager
def atomic_path(
    path: str | os.PathLike, what: str = "the file", error: type[GraphsrInputError] = GraphsrInputError
) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to (for writers that take a path, e.g. pandas'
    ``to_parquet``), renamed to ``path`` when the block ends without an error."""
    path = Path(path)
    if path.is_dir():
        raise error(f"cannot write {what}: it is a directory", path)
    if path.exists() and not path.is_file():  # a device or a pipe (/dev/stdout, a FIFO): written in place, never
        try:  # replaced by a file renamed over it
            yield path
        except OSError as exc:
            raise error(f"cannot write {what} ({exc.strerror or exc})", path) from None
        return
    tmp = path.with_name(f".{path.name}.partial")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise error(f"cannot write {what} ({exc.strerror or exc})", path) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(
    path: str | os.PathLike,
    what: str = "the file",
    error: type[GraphsrInputError] = GraphsrInputError,
    binary: bool = False,
    newline: str | None = None,
):
    """A file open for writing whose content replaces ``path`` only once the block ends without an error
    (text in UTF-8 unless ``binary``; text to a name ending ``.gz`` is gzip-compressed, as the readers expect)."""
    with atomic_path(path, what, error) as tmp:
        if binary:
            opened = open(tmp, "wb")
        elif str(path).endswith(".gz"):  # (no name or time in the header: the same content, the same bytes)
            import gzip
            import io

            raw = open(tmp, "wb")
            opened = io.TextIOWrapper(
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0), encoding="utf-8", newline=newline
            )
            try:
                with opened as fh:
                    yield fh
            finally:
                raw.close()
            return
        else:
            opened = open(tmp, "w", encoding="utf-8", newline=newline)
        with opened as fh:
            yield fh


def output_directory(path: str | os.PathLike, what: str = "the output") -> Path:
    """The directory ``path``, created with its parents if missing; a file there, or a directory that cannot
    be made, is one :class:`~graphsr.errors.GraphsrInputError` line."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise GraphsrInputError(f"expected a directory for {what}, got a file", path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise GraphsrInputError(f"cannot make the directory for {what} ({exc.strerror or exc})", path) from None
    return path
