"""What an evaluation reads of a chunk map: the chunks its assessments and run files name, found without reading
them whole -- the chunk ids in TREC qrels and runs of chunk ids, the documents of span judgments -- and the
documents its passage runs name (what their ranges are checked against)."""

from __future__ import annotations

import os
from typing import Mapping, Sequence

from ..errors import GraphsrInputError
from . import formats

__all__ = ["read_chunks", "run_documents"]


def read_chunks(chunks, qrels=None, runs: Sequence = (), qrels_format: str | None = None, run_format=None):
    """A chunk map as a :class:`~graphsr.io.chunk_table.ChunkTable` (None as it is; a mapping's items in its order);
    from a path (a file or a directory of shards), the chunks the
    inputs touch (:meth:`graphsr.io.chunk_source.ChunkSource.working_set`: those the assessments ``qrels`` and the
    run files ``runs`` name, and every chunk of the documents judged), or, given no inputs, the whole map."""
    if chunks is None:
        return None
    if isinstance(chunks, Mapping):
        from .chunk_table import as_chunk_table

        return as_chunk_table(chunks)
    source = formats.detect(chunks, formats.CHUNK_MAP).read(str(chunks), formats.Given())
    if qrels is None and not runs:
        return source.whole()
    judged, docs = _judged(qrels, qrels_format)
    named = set().union(*(_run_chunk_ids(p, run_format) for p in runs))
    return source.working_set(named, docs_of=judged, docs=docs)


def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def _judged(qrels, fmt: str | None) -> tuple[set, set]:
    """The chunk ids TREC qrels judge, and the documents span judgments (or assessments in memory) judge."""
    if qrels is None:
        return set(), set()
    if not _is_path(qrels):
        docid = getattr(qrels, "docid", None)
        return set(), set() if docid is None else {str(d) for d in docid.tolist()}
    found = formats.detect(qrels, formats.ASSESSMENTS, fmt).name
    if found == "element":
        return _third_fields(qrels), set()
    if found == "spans":  # (the records kept for the judgments' reading, which follows)
        from .spans import span_records

        return set(), {str(r.get("doc_id", r.get("corpus_id"))) for _, r in span_records(os.fspath(qrels), keep=True)}
    return set(), set()


def _third_fields(path) -> set:
    """The ids in the third field of a TREC file's lines; a file that cannot be read names none (its reader
    refuses it in its turn)."""
    from ._lines import iter_fields

    try:
        return {f[2] for _, f in iter_fields(path, GraphsrInputError) if len(f) >= 3}
    except GraphsrInputError:
        return set()


def _run_format(path, declared: str | None) -> str | None:
    """A run file's format name (as declared, or detected), or None for one that cannot be read."""
    if not _is_path(path):
        return None
    try:
        return formats.detect(path, formats.RUN, declared).name
    except GraphsrInputError:
        return None


def _run_chunk_ids(path, run_format: str | None) -> set:
    """The chunk ids a TREC run of chunk ids names (none for a run in another format), from the run's columnar
    scan, which reading the run then takes up (a run that cannot be read names none: its reader refuses it in
    its turn)."""
    if _run_format(path, run_format) != "element":
        return set()
    from .chunks import scanned_chunk_run

    try:
        return set(scanned_chunk_run(os.fspath(path)).columns.doc_names)
    except GraphsrInputError:
        return _third_fields(path)


def run_documents(runs: Sequence, chunk_map, run_format: str | None) -> frozenset:
    """The documents the passage runs ``runs`` name: through the chunk map for runs of chunk ids, their ``doc_id``
    for runs of spans, their units' documents for a framework's nodes, and those of a run read already (what their
    ranges are checked against)."""
    docs: set = set()
    for path in runs:
        if hasattr(path, "doc_code"):  # a passage run read already
            docs |= set(path.vocab.doc_names()[path.doc_code].tolist())
            continue
        fmt = _run_format(path, run_format)
        if fmt == "retrieved nodes":
            from .records import iter_records
            from .retrieved import unit_of

            try:
                docs |= {unit_of(r)[0].doc for _, r in iter_records(path, GraphsrInputError)}
            except GraphsrInputError:
                continue
        elif fmt == "element" and chunk_map is not None:
            docs |= _chunk_run_documents(path, chunk_map)
        elif fmt == "spans":
            from .records import iter_records

            try:
                docs |= {str(r.get("doc_id")) for _, r in iter_records(path, GraphsrInputError)}
            except GraphsrInputError:
                continue
    return frozenset(docs)


def _chunk_run_documents(path, chunk_map) -> set:
    """The documents of the chunks a TREC run of chunk ids names that the chunk map holds (none for a run that
    cannot be read: its reader refuses it in its turn)."""
    import numpy as np

    from .chunk_table import as_chunk_table
    from .chunks import chunk_places

    table = as_chunk_table(chunk_map)
    try:
        _, rows = chunk_places(os.fspath(path), table)
    except GraphsrInputError:
        return set()
    return {table.doc_names[d] for d in np.unique(table.doc[rows[rows >= 0]]).tolist()}
