"""Scoring with a model kept in a graph store."""

from __future__ import annotations

import os
from typing import Mapping

import numpy as np

from ..errors import UnknownNodeError
from ..core.document import DocumentTree
from ..navigation.stored import load_stored_model
from ..store.base import GraphStore
from ..store.services import collection_info, model_record
from ..store.trees import stored_trees

__all__ = ["stored_navigation"]


def stored_navigation(
    store: GraphStore,
    model_name: str,
    docids: set[str],
    collection: str | os.PathLike | None = None,
    progress: bool = False,
    documents: dict[str, DocumentTree] | None = None,
    known: Mapping[str, DocumentTree] | None = None,
):
    """Documents and ``seen_of`` for scoring with the stored model ``model_name``.

    Parameters
    ----------
    store : GraphStore
    model_name : str
        A stored model (``graphsr store models``).
    docids : set of str
        The documents the runs and assessments name.
    collection : path-like, optional
        Read those documents from this collection; default: rebuild them
        from the store's element nodes.
    documents : dict, optional
        Documents already at hand (e.g. from an earlier call); used as given.
    known : mapping, optional
        Trees of documents of ``collection`` read already, by document id: those of ``docids`` are not read
        again.

    Returns
    -------
    (dict of docid to DocumentTree, seen_of, model name)
    """
    from ..store.services import require_complete_collection

    record = model_record(store, model_name)  # (read once: the model's steady state, summary and collection)
    model = load_stored_model(store, model_name, record)
    cname = record["collection"]
    require_complete_collection(store, cname)
    if documents is not None:
        pass
    elif collection is not None:
        from ..io.collection import iter_documents

        documents = {d: known[d] for d in sorted(docids) if d in known} if known else {}
        if len(documents) < len(docids):  # (every document read already: the collection is not listed again)
            for doc in iter_documents(collection, docids=docids.__contains__, progress=progress, known=known):
                documents[doc.docid] = doc
    else:
        collection_info(store, cname)
        # a document without stored elements is left out: the evaluation reports it as unknown, with file and line
        documents = stored_trees(store, cname, docids)
    summary = model.summary
    sids: dict[str, np.ndarray] = {}

    def seen_of(docid: str) -> np.ndarray:
        s = sids.get(docid)
        if s is None:  # (a document's nodes assigned when first scored: those never scored cost nothing)
            s = sids[docid] = summary.assign(documents[docid])
        if (s < 0).any():
            i = int(np.flatnonzero(s < 0)[0])
            raise UnknownNodeError(
                f"document {docid!r}: node {documents[docid].xpath(i)} has a "
                f"{summary.kind.name} key the stored summary of {cname!r} lacks; was the model "
                "built from this collection?"
            )
        return model.seen_probability(s)

    return documents, seen_of, model_name
