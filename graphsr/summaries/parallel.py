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
from typing import Iterable, Sequence

from ..io.collection import CollectionSource, iter_documents, list_collection
from ..io.progress import progress_bar
from .summary import Summary, SummaryBuilder

__all__ = ["summarize_collection"]


def _summarize_chunk(args: tuple[list[CollectionSource], tuple[str, ...]]) -> tuple[int, list[dict]]:
    sources, kinds = args
    builders = [SummaryBuilder(k) for k in kinds]
    for doc in iter_documents(sources):
        for b in builders:
            b.add(doc)
    return len(sources), [b.state() for b in builders]


def summarize_collection(path: str | os.PathLike | Sequence[CollectionSource], kinds: Iterable[str] = ("p*",),
                         workers: int = 1, progress: bool = False, chunk_docs: int = 256) -> dict[str, Summary]:
    """Build summaries of several kinds in one pass over a collection.

    Parameters
    ----------
    path : path-like or sequence of CollectionSource
        The collection (see :func:`graphsr.io.list_collection`).
    kinds : iterable of str
        Summary kinds (``p*``, ``p*|c``, ``c``, ``tag``).
    workers : int
        Processes that parse and summarise (1 = in this process).
    progress : bool
        Progress bar on stderr.
    chunk_docs : int
        Documents per chunk handed to a worker.

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
    if workers <= 1:
        for doc in iter_documents(sources, progress=progress):
            for b in builders.values():
                b.add(doc)
        return {k: b.build() for k, b in builders.items()}
    import multiprocessing as mp

    chunks = [(sources[i:i + chunk_docs], kinds) for i in range(0, len(sources), chunk_docs)]
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
