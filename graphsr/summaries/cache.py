"""Summaries of large collections kept between evaluations, so that scoring SR from a collection's files a
second time reads only the documents its runs and assessments name.

A navigation model is over the summary of the whole collection: without a kept summary every document is parsed
in every evaluation, where the measures read only the documents named.  So a collection whose files hold at
least :func:`~graphsr.io.record_index.index_threshold` bytes (``$GRAPHSR_INDEX_FROM``, 8 MB by default, as
for the indexes of large files) has each summary it was read with kept under the cache
(``$GRAPHSR_CACHE``, :func:`~graphsr.io.record_index.cache_root`), in ``summary/``, readable by its owner only.

**Never stale.**  A kept summary is found by a digest of everything it was made from: the summary's kind, each
file of the collection (real path, size, modification time in nanoseconds, inode and device), the documents
listed in them (ids and where each is read from), and graphsr's own modules that read documents and key their
elements (each module's size and modification time: a graphsr changed in how it reads keeps nothing from
before).  A collection changed in any of them is summarised again, never read through an old summary.
**Checked.**  A summary written is read back and compared with the one made before it is used; a kept file
that cannot be read or does not hold a whole summary is summarised again (and said on stderr), never used in
part.  Deleting the directory is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zipfile
from pathlib import Path
from typing import Sequence

import numpy as np

from .summary import Summary

__all__ = ["SummaryCache", "summary_cache", "FORMAT"]

#: The kept summaries' format: a file of another format is not read.
FORMAT = 1
#: The arrays a kept summary holds beside its keys, in :meth:`Summary.from_parts`' order.
_ARRAYS = ("extent_size", "content_length", "edge_src", "edge_dst", "edge_pairs", "edge_child_length")
#: graphsr's packages whose code decides a document's tree and its elements' keys.
_READERS = ("io", "core", "summaries")


class SummaryCache:
    """The kept summaries of one collection as listed now (see the module docstring)."""

    def __init__(self, root: Path, digest: str):
        self.root, self.digest = root, digest

    def _file(self, kind: str) -> Path:
        return self.root / f"{self.digest}.{hashlib.sha256(kind.encode()).hexdigest()[:16]}.npz"

    def read(self, kinds: Sequence[str]) -> dict[str, Summary] | None:
        """The kept summary of every kind of ``kinds`` (None when one is not kept)."""
        out = {}
        for kind in kinds:
            path = self._file(kind)
            if not path.exists():
                return None
            try:
                out[kind] = _load(path, kind)
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
                print(
                    f"graphsr: warning: the kept {kind} summary {path} cannot be read ({exc}): summarised again",
                    file=sys.stderr,
                )
                return None
        return out

    def write(self, summaries: dict[str, Summary]) -> None:
        """Keep ``summaries``, each read back and compared with what was made (a difference is an error; a cache
        that cannot be written is said on stderr, and the summaries are not kept)."""
        try:
            for kind, summary in summaries.items():
                self._write(kind, summary)
        except OSError as exc:
            _cannot_keep(exc)

    def _write(self, kind: str, summary: Summary) -> None:
        """One summary kept (written to a part file, read back and compared, then renamed into place)."""
        path = self._file(kind)
        part = path.with_name(path.name + f".{os.getpid()}.part")
        keys = [_key_json(summary.readable_key(s)) for s in range(len(summary))]
        arrays = {name: np.asarray(getattr(summary, name), dtype=np.int64) for name in _ARRAYS}
        head = {"format": FORMAT, "kind": kind, "documents": summary.num_documents, "keys": keys}
        try:
            fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as fh:
                parts = {"head": np.frombuffer(json.dumps(head).encode(), dtype=np.uint8), **arrays}
                np.savez(fh, **parts)  # type: ignore[arg-type]
            if not _same(_load(part, kind), summary):
                raise RuntimeError(f"the {kind} summary kept in {part} does not read back as written")
            os.replace(part, path)
        finally:
            if part.exists():
                part.unlink()


def summary_cache(sources: list, kinds: Sequence[str]) -> SummaryCache | None:
    """The kept summaries of the collection listed as ``sources`` (:func:`graphsr.io.collection.list_collection`),
    or None where its files hold fewer bytes than are worth keeping a summary for (or no summary is asked)."""
    from ..io.record_index import cache_root, index_threshold

    if not kinds or not sources:
        return None
    files = sorted({s.path for s in sources})
    stats = [os.stat(f) for f in files]
    if sum(st.st_size for st in stats) < index_threshold():
        return None
    h = hashlib.sha256()
    h.update(json.dumps({"format": FORMAT, "readers": _reader_stamps()}).encode())
    real = sorted(os.path.realpath(d) for d in {os.path.dirname(f) for f in files})  # (where the files really are)
    h.update(json.dumps(real).encode())
    h.update(
        "\0".join(
            f"{f}\1{st.st_size}\1{st.st_mtime_ns}\1{st.st_ino}\1{st.st_dev}" for f, st in zip(files, stats)
        ).encode()
    )
    h.update("\0".join(f"{s.docid}\1{s.path}\1{s.member}\1{s.offset}" for s in sources).encode())
    try:
        root = cache_root() / "summary"
        root.mkdir(exist_ok=True, mode=0o700)
    except OSError as exc:
        _cannot_keep(exc)
        return None
    return SummaryCache(root, h.hexdigest())


def _cannot_keep(exc: OSError) -> None:
    print(
        f"graphsr: warning: cannot keep the collection's summary ({exc.strerror or exc}: {exc.filename or ''}); "
        "the next evaluation reads the whole collection again",
        file=sys.stderr,
    )


def _reader_stamps() -> list:
    """Each module of graphsr that reads documents or keys their elements: its name, size and modification time."""
    package = Path(__file__).resolve().parent.parent
    out = []
    for sub in _READERS:
        for f in sorted((package / sub).iterdir()):
            if f.suffix in (".py", ".so"):
                st = f.stat()
                out.append([f"{sub}/{f.name}", st.st_size, st.st_mtime_ns])
    return out


def _key_json(key: tuple) -> list:
    a, kids = key
    return [list(a) if isinstance(a, tuple) else a, isinstance(a, tuple), None if kids is None else sorted(kids)]


def _load(path: Path, kind: str) -> Summary:
    with np.load(path, allow_pickle=False) as z:
        head = json.loads(bytes(z["head"]).decode())
        if head.get("format") != FORMAT or head.get("kind") != kind:
            raise ValueError(f"format {head.get('format')} of kind {head.get('kind')!r}")
        keys = [
            (tuple(a) if is_path else a, None if kids is None else frozenset(kids)) for a, is_path, kids in head["keys"]
        ]
        arrays = [np.array(z[name]) for name in _ARRAYS]
    if len(keys) != len(arrays[0]) or len(arrays[1]) != len(keys) or len({len(a) for a in arrays[2:]}) != 1:
        raise ValueError("its parts differ in length")
    size, length, src, dst, pairs, child_length = arrays
    return Summary.from_parts(kind, keys, size, length, src, dst, pairs, child_length, int(head["documents"]))


def _same(a: Summary, b: Summary) -> bool:
    return (
        len(a) == len(b)
        and a.num_documents == b.num_documents
        and all(np.array_equal(getattr(a, n), getattr(b, n)) for n in _ARRAYS)
        and all(a.readable_key(s) == b.readable_key(s) for s in range(len(a)))
    )
