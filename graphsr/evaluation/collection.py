"""A collection read once for scoring: its summaries and the documents runs and assessments name, and the
SR navigation model of a summary."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from ..core.document import DocumentTree
from ..navigation.model import ModelSpec, NoNavigation, build_sr_model, parse_model_spec
from ..summaries.summary import Summary

__all__ = ["LoadedCollection", "load_collection", "navigation_for", "SRNavigation"]


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
        SID of each node of a kept document, per summary kind, filled as documents are first scored
        (:meth:`sids_of`).
    num_documents : int
        Documents read.
    path : str
        Where the collection was read from.
    """

    summaries: dict[str, Summary] = field(default_factory=dict)
    documents: dict[str, DocumentTree] = field(default_factory=dict)
    sids: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    num_documents: int = 0
    path: str = ""

    def __repr__(self) -> str:
        kinds = ", ".join(f"{k}: {len(s)} nodes" for k, s in self.summaries.items()) or "no summary"
        return f"LoadedCollection({self.path!r}, {self.num_documents} documents, {len(self.documents)} kept; {kinds})"

    def sids_of(self, kind: str, docid: str) -> np.ndarray:
        """The SID of each node of kept document ``docid`` in the ``kind`` summary (assigned when first asked:
        the documents never scored cost nothing)."""
        sids = self.sids.get((kind, docid))
        if sids is None:
            sids = self.sids[(kind, docid)] = self.summaries[kind].assign(self.documents[docid])
        return sids

    @property
    def num_elements(self) -> int | None:
        """Elements in the whole collection, as any summary counts them (None without a summary)."""
        return next(iter(self.summaries.values())).num_elements if self.summaries else None

    def navigation(self, model: ModelSpec | str = "p*:extent") -> "SRNavigation":
        """SR navigation under ``model`` (``SUMMARY:WEIGHT`` or ``none``); see :func:`navigation_for`."""
        return navigation_for(model, self)

    def context(self, model: ModelSpec | str | None = "p*:extent"):
        """A :class:`~graphsr.measures.provider.ScoringContext` for :func:`graphsr.evaluate`: the kept
        documents, SR navigation under ``model`` (None: none, for measures that need no navigation) and
        the collection's element count.

        Raises
        ------
        GraphsrInputError
            If ``model``'s summary was not built when the collection was read.
        """
        from ..measures.provider import ScoringContext

        nav = None if model is None else self.navigation(model)
        return ScoringContext(
            self.documents,
            None if nav is None else nav.seen_of,
            "" if nav is None else nav.name,
            None,
            self.num_elements,
        )


def load_collection(
    path: str | os.PathLike,
    kinds: Iterable[str] = (),
    keep: set[str] | None = None,
    progress: bool = False,
    workers: int = 1,
    known: Mapping[str, DocumentTree] | None = None,
) -> LoadedCollection:
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
    known : mapping, optional
        Trees of documents of this collection read already (by document id, e.g. for the lengths of span
        judgments): taken as they are, not read again.
    """
    from ..io.collection import iter_documents, list_collection
    from ..summaries.cache import summary_cache
    from ..summaries.parallel import scan_collection, summarize_collection

    sources = list_collection(path)
    out = LoadedCollection(path=str(path))
    kinds = list(dict.fromkeys(kinds))
    cache = summary_cache(sources, kinds)
    kept = cache.read(kinds) if cache is not None else None
    if kept is not None:  # the summaries kept from an earlier read: parse only the documents to keep
        out.summaries = kept
        out.num_documents = len(sources)
        wanted = None if keep is None else keep.__contains__
        out.documents = {d.docid: d for d in iter_documents(sources, docids=wanted, progress=progress, known=known)}
    elif not kinds and keep is not None:  # no summary: parse only the documents to keep
        out.num_documents = len(sources)
        chosen = iter_documents(sources, docids=keep.__contains__, progress=progress, known=known)
        out.documents = {d.docid: d for d in chosen}
    elif workers > 1 and kinds:
        out.summaries = summarize_collection(sources, kinds, workers=workers, progress=progress)
        out.num_documents = len(sources)
        wanted = None if keep is None else keep.__contains__
        out.documents = {d.docid: d for d in iter_documents(sources, docids=wanted, known=known)}
    else:

        def keep_documents(chunk, builders) -> None:
            out.num_documents += len(chunk)
            out.documents.update((d.docid, d) for d in chunk if keep is None or d.docid in keep)

        out.summaries = scan_collection(sources, kinds, on_chunk=keep_documents, progress=progress, known=known)
    if cache is not None and kept is None:
        cache.write(out.summaries)
    return out


@dataclass(frozen=True, repr=False)
class SRNavigation:
    """SR navigation over a loaded collection: the model (its steady state ``model.pi`` over the
    summary's nodes) and, per kept document, the probability of seeing each node (:meth:`seen_of`)."""

    spec: ModelSpec
    model: object  # SteadyStateModel or NoNavigation
    loaded: LoadedCollection

    @property
    def name(self) -> str:
        return str(self.spec)

    def seen_of(self, docid: str) -> np.ndarray:
        """``P(seen)`` of each node of document ``docid`` (SR Eq 7's ``1 - q``; zeros without navigation)."""
        if self.spec.summary == "none":
            return np.zeros(len(self.loaded.documents[docid]))
        return self.model.seen_probability(self.loaded.sids_of(self.spec.summary, docid))

    def __repr__(self) -> str:
        return f"SRNavigation({self.name!r})"


def navigation_for(spec: ModelSpec | str, loaded: LoadedCollection) -> SRNavigation:
    """The SR navigation a model spec names over a loaded collection.

    Raises
    ------
    GraphsrInputError
        If the spec's summary was not built when the collection was read.
    """
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    if spec.summary == "none":
        return SRNavigation(spec, NoNavigation(), loaded)
    summary = loaded.summaries.get(spec.summary)
    if summary is None:
        from ..errors import GraphsrInputError

        raise GraphsrInputError(
            f"model {spec} needs the {spec.summary} summary; the collection was read with "
            f"{sorted(loaded.summaries) or 'no summary'} (load_collection(..., kinds=[...]))"
        )
    return SRNavigation(spec, build_sr_model(summary, spec.weight), loaded)
