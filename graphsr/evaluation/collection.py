"""A collection read once for scoring: its summaries and the documents runs and assessments name, and the
SR navigation model of a summary."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from ..model.document import DocumentTree
from ..navigation.model import ModelSpec, NoNavigation, build_sr_model, parse_model_spec
from ..summaries.summary import Summary

__all__ = ["LoadedCollection", "load_collection", "navigation_for"]


@dataclass
class LoadedCollection:
    """What one pass over a collection keeps: summaries and the documents that matter.

    Attributes
    ----------
    summaries : dict of str to Summary
        One per requested kind.
    documents : dict of str to DocumentTree
        The documents that runs or assessments name (all, if asked).
    sids : dict of (kind, docid) to ndarray
        SID of each node of each kept document, per summary kind.
    """

    summaries: dict[str, Summary] = field(default_factory=dict)
    documents: dict[str, DocumentTree] = field(default_factory=dict)
    sids: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    num_documents: int = 0


def load_collection(path: str | os.PathLike, kinds: Iterable[str] = (), keep: set[str] | None = None,
                    progress: bool = False, workers: int = 1) -> LoadedCollection:
    """Read a collection once: build a summary of each kind, keep the documents in ``keep``.

    Parameters
    ----------
    path : path-like
        Collection directory, XML file or tar archive.
    kinds : iterable of str
        Summary kinds to build (``p*``, ``p*|c``, ``c``, ``tag``).
    keep : set of str, optional
        Document ids whose trees to keep; None keeps every document.
    progress : bool
        Progress bar on stderr.
    workers : int
        Processes for the summary pass (see
        :func:`graphsr.summaries.summarize_collection`); the kept documents
        are then read again in this process.
    """
    from ..io.collection import iter_documents, list_collection
    from ..summaries.parallel import scan_collection, summarize_collection

    sources = list_collection(path)
    out = LoadedCollection()
    kinds = list(dict.fromkeys(kinds))
    if not kinds and keep is not None:  # no summary: parse only the documents to keep
        out.num_documents = len(sources)
        out.documents = {d.docid: d for d in iter_documents(sources, docids=keep.__contains__, progress=progress)}
    elif workers > 1 and kinds:
        out.summaries = summarize_collection(sources, kinds, workers=workers, progress=progress)
        out.num_documents = len(sources)
        wanted = None if keep is None else keep.__contains__
        out.documents = {d.docid: d for d in iter_documents(sources, docids=wanted)}
    else:
        def keep_documents(chunk, builders) -> None:
            out.num_documents += len(chunk)
            out.documents.update((d.docid, d) for d in chunk if keep is None or d.docid in keep)

        out.summaries = scan_collection(sources, kinds, on_chunk=keep_documents, progress=progress)
    kept = list(out.documents.values())
    for k, summary in out.summaries.items():
        for doc, sids in zip(kept, summary.assign_many(kept)):
            out.sids[(k, doc.docid)] = sids
    return out


def navigation_for(spec: ModelSpec | str, loaded: LoadedCollection):
    """The SR navigation model a spec names, and ``seen_of(docid)`` for it."""
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    if spec.summary == "none":
        model = NoNavigation()

        def seen_of(docid: str) -> np.ndarray:
            return np.zeros(len(loaded.documents[docid]))
        return model, seen_of
    summary = loaded.summaries[spec.summary]
    model = build_sr_model(summary, spec.weight)

    def seen_of(docid: str) -> np.ndarray:
        return model.seen_probability(loaded.sids[(spec.summary, docid)])
    return model, seen_of
