"""Summaries of a whole collection, read in one pass, optionally by several processes.

With ``workers > 1`` the collection's files are cut into consecutive chunks;
worker processes parse and summarise chunks, and the parent merges the
partial summaries in chunk order.  Key hashes depend only on tag names
(:mod:`graphsr.summaries._keys`), so the result equals a sequential pass,
SID numbering included.  Memory per process is bounded by one chunk's
documents and the summary itself, whatever the collection's size.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from ..io.collection import CollectionSource, iter_documents, list_collection, read_document
from ..io.progress import progress_bar
from .summary import Summary, SummaryBuilder

if TYPE_CHECKING:
    from ..core.document import DocumentTree

__all__ = ["scan_collection", "summarize_collection"]


#: A worker's open tar archives, kept from chunk to chunk: opening one reads every member's header (and
#: decompresses a compressed one), which per chunk made a 25,000-member archive take minutes.
_WORKER_TARS: dict = {}


def _summarize_chunk(args: tuple[list[CollectionSource], tuple[str, ...]]) -> tuple[int, list[dict]]:
    sources, kinds = args
    builders = [SummaryBuilder(k) for k in kinds]
    for src in sources:
        doc = read_document(src, _WORKER_TARS)
        for b in builders:
            b.add(doc)
    return len(sources), [b.state() for b in builders]


#: Elements a chunk handed to ``on_chunk`` holds at most (with one document more than that if need be): chunks
#: are bounded in memory whatever the documents' sizes.
CHUNK_ELEMENTS = 50_000


def usable_workers(workers: int, tasks: int) -> int:
    """``workers`` processes, at most one per CPU this process may run on and one per task (a chunk of
    documents): more would only fork idle processes (4,284 for a 10-document collection and 100,000 asked)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(int(workers), cpus, max(tasks, 1)))


def scan_collection(
    path: str | os.PathLike | Sequence[CollectionSource],
    kinds: Iterable[str] = ("p*",),
    *,
    on_chunk: Callable[[list, dict], None] | None = None,
    chunk_docs: int | Sequence[int] = 256,
    workers: int = 1,
    progress: bool = False,
    desc: str = "reading collection",
    chunk_elements: int = CHUNK_ELEMENTS,
    known: Mapping[str, DocumentTree] | None = None,
) -> dict[str, Summary]:
    """The one pass over a collection: parse every document, build summaries of ``kinds``, and hand each
    chunk of documents to ``on_chunk(documents, builders)`` (evaluation keeps the documents it needs, the
    store loader writes them; the builders hold every summary node met so far).

    Parameters
    ----------
    path : path-like or sequence of CollectionSource
        The collection (see :func:`graphsr.io.list_collection`).
    kinds : iterable of str
        Summary kinds (``p*``, ``p*|c``, ``c``, ``tag``).
    on_chunk : callable, optional
        Called with each chunk of documents, in collection order, and the
        summary builders by kind: ``chunk_docs`` documents, or fewer when
        they hold ``chunk_elements`` elements (a chunk is never empty).
        A sequence gives the sizes of the first chunks, its last the size of every chunk after them (a writer
        that works while the pass reads gets its first chunk sooner).
    workers : int
        Processes that parse and summarise when there is no ``on_chunk``
        (the documents then stay in the workers); 1 = in this process.
    progress : bool
        Progress bar on stderr, labelled ``desc``.
    known : mapping, optional
        Trees of documents read already, by document id (in this process): not read again.

    Returns
    -------
    dict of str to Summary

    Raises
    ------
    CollectionError
        As :func:`graphsr.io.iter_documents` (the first error in collection order).
    """
    sources = list_collection(path) if isinstance(path, (str, os.PathLike)) else list(path)
    kinds = tuple(dict.fromkeys(kinds))
    builders = {k: SummaryBuilder(k) for k in kinds}
    sizes = [chunk_docs] if isinstance(chunk_docs, int) else list(chunk_docs)
    if not sizes or min(sizes) < 1:
        raise ValueError(f"chunk_docs: expected documents per chunk (at least 1 each), got {chunk_docs!r}")
    if on_chunk is not None or workers <= 1:
        chunk: list = []
        held = 0
        most = sizes.pop(0)  # the documents of the chunk being filled

        def pass_on() -> None:
            nonlocal chunk, held, most
            on_chunk(chunk, builders)
            chunk, held = [], 0
            most = sizes.pop(0) if sizes else most

        for doc in iter_documents(sources, progress=progress, desc=desc, known=known):
            for b in builders.values():
                b.add(doc)
            if on_chunk is not None:
                if chunk and held + len(doc) > chunk_elements:  # the chunk would grow past its bound: pass it on
                    pass_on()
                chunk.append(doc)
                held += len(doc)
                if len(chunk) >= most:
                    pass_on()
        if chunk:
            on_chunk(chunk, builders)
        return {k: b.build() for k, b in builders.items()}
    import multiprocessing as mp

    chunk_docs = sizes[-1]

    chunks = [(sources[i : i + chunk_docs], kinds) for i in range(0, len(sources), chunk_docs)]
    workers = usable_workers(workers, len(chunks))
    bar = progress_bar(len(sources), "summarising", progress)
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    try:
        with ctx.Pool(workers) as pool:
            for ndocs, states in pool.imap(_summarize_chunk, chunks):
                for st in states:
                    builders[st["kind"]].merge(st)
                bar.update(ndocs)
    finally:
        bar.close()
    return {k: b.build() for k, b in builders.items()}


def summarize_collection(
    path: str | os.PathLike | Sequence[CollectionSource],
    kinds: Iterable[str] = ("p*",),
    workers: int = 1,
    progress: bool = False,
    chunk_docs: int = 256,
) -> dict[str, Summary]:
    """Build summaries of several kinds in one pass over a collection (:func:`scan_collection` without
    keeping documents; ``workers`` processes parse and summarise, chunks of ``chunk_docs`` documents each).

    Raises
    ------
    CollectionError
        As :func:`graphsr.io.iter_documents` (the first error in collection order).
    """
    return scan_collection(path, kinds, workers=workers, progress=progress, chunk_docs=chunk_docs, desc="summarising")
