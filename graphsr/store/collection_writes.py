"""A collection's documents and elements written to a store, chunk after chunk, as the one pass over the
collection reads them (:func:`graphsr.store.load.store_collection` drives the pass and checks what was written
against what was read).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

import numpy as np

from ..core.document import DocumentTree
from ..errors import GraphsrInputError
from ..summaries.summary import SummaryBuilder
from .base import GraphStore, batched
from .ids import KEY_SPAN, MEMBERSHIP_PROPERTIES, collection_id, document_id, membership_property
from ._falkor_params import Literal, string_literal
from .shapes import encode_shape

__all__ = ["CollectionLoad", "ChangedCollection", "WriteCounts"]


class WriteCounts(Protocol):
    """What a load counts as it writes (:class:`graphsr.store.load.LoadReport`)."""

    documents: int
    elements: int
    edges: int


class ChangedCollection(GraphsrInputError):
    """A stored document's element count differs from the one read: the collection changed since it was stored."""


#: The summary kinds in the order of the membership columns of an element row (after key, pre, tag, depth,
#: offset and length).
_MEMBER_KINDS = tuple(MEMBERSHIP_PROPERTIES)


def _element_rows(doc: DocumentTree, code: int, sids: dict[str, np.ndarray]) -> tuple[list[list], list[int]]:
    """The element rows of a document coded ``code`` (``[key, pre, tag, depth, offset, length, in_p_star,
    in_p_star_c, in_c, in_tag]``, memberships None for kinds not in ``sids``) and each element's parent (its
    row, -1 for the root)."""
    n = len(doc)
    base = code * KEY_SPAN
    tags = doc.tag_names()
    none = [None] * n
    members = [sids[k].tolist() if k in sids else none for k in _MEMBER_KINDS]
    rows = [
        list(r)
        for r in zip(
            range(base + 1, base + n + 1),
            range(1, n + 1),
            tags,
            doc.depth.tolist(),
            doc.start.tolist(),
            doc.length.tolist(),
            *members,
        )
    ]
    return rows, doc.parent.tolist()


#: One element row of ``create_elements`` as a Cypher literal: key, pre, tag (an encoded string), depth, offset,
#: length and the four memberships (an integer, or null).
_ROW = "[%d,%d,%s,%d,%d,%d,%s,%s,%s,%s]"


def _element_literal(doc: DocumentTree, code: int, sids: dict[str, np.ndarray], at: int) -> tuple[str, str]:
    """The rows of :func:`_element_rows` and the ``[parent row, child row]`` pairs of the document's CHILD edges
    (its rows numbered from ``at``) as Cypher literal text, encoded as :func:`params_header` encodes those lists
    (tested), without building a list per element: the local store's loads of many small documents spent a
    fifth of their time encoding rows."""
    n = len(doc)
    base = code * KEY_SPAN
    names = [string_literal(t) for t in doc.tags]
    none = ["null"] * n
    members = [list(map(str, sids[k].tolist())) if k in sids else none for k in _MEMBER_KINDS]
    rows = ",".join(
        map(
            _ROW.__mod__,
            zip(
                range(base + 1, base + n + 1),
                range(1, n + 1),
                [names[t] for t in doc.tag.tolist()],
                doc.depth.tolist(),
                doc.start.tolist(),
                doc.length.tolist(),
                *members,
            ),
        )
    )
    edges = ",".join([f"[{at + p},{at + c}]" for c, p in enumerate(doc.parent.tolist()) if p >= 0])
    return rows, edges


def _c_writer():
    """The C writer of the element rows (graphsr.store._rows, see setup.py), or None where it was not built."""
    try:
        from . import _rows
    except ImportError:  # pragma: no cover - the extension is optional
        return None
    return _rows


_C_ROWS = _c_writer()


def _column_of(docs: list[DocumentTree], name: str) -> np.ndarray:
    return np.concatenate([getattr(d, name) for d in docs]).astype(np.int64, copy=False)


def _chunk_literal(documents: list[tuple[int, DocumentTree, dict[str, np.ndarray]]], c_rows=_C_ROWS) -> tuple[str, str]:
    """The rows and CHILD edges of a chunk's documents (``(code, document, SIDs by kind)`` each, their rows
    numbered from 0 in that order) as literal text: what :func:`_element_literal` writes document after
    document, joined by commas (tested), written in C from the chunk's columns (in Python where the C writer was
    not built, or a tag name is not text UTF-8 can encode).  Per document, formatting in Python cost a tiny
    document's load about 25 µs."""
    docs = [d for _, d, _ in documents]
    kinds = documents[0][2].keys() if documents else set()
    if c_rows is not None and docs and all(s.keys() == kinds for _, _, s in documents):
        sizes = np.fromiter((len(d) for d in docs), np.int64, len(docs))
        first = np.cumsum(sizes) - sizes  # each document's first row
        own = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(first, sizes)  # each row within its document
        codes = np.fromiter((c for c, _, _ in documents), np.int64, len(docs))
        names: list[str] = []
        name_at: dict[tuple[str, ...], int] = {}  # each vocabulary's first name among the names (shared by many)
        offsets = []
        for d in docs:
            vocabulary = tuple(d.tags)
            at = name_at.get(vocabulary)
            if at is None:
                at = name_at[vocabulary] = len(names)
                names += [string_literal(t) for t in vocabulary]
            offsets.append(at)
        start, parent = _column_of(docs, "start"), _column_of(docs, "parent")
        members = tuple(
            np.concatenate([s[k] for _, _, s in documents]).astype(np.int64, copy=False) if k in kinds else None
            for k in _MEMBER_KINDS
        )
        text = c_rows.elements(
            np.repeat(codes * KEY_SPAN, sizes) + own + 1,
            own + 1,
            _column_of(docs, "tag") + np.repeat(np.asarray(offsets, dtype=np.int64), sizes),
            _column_of(docs, "depth"),
            start,
            _column_of(docs, "end") - start,
            members,
            names,
            np.where(parent >= 0, parent + np.repeat(first, sizes), -1),
        )
        if text is not None:
            return text
    rows: list[str] = []
    children: list[str] = []
    at = 0
    for code, doc, doc_sids in documents:
        r, edges = _element_literal(doc, code, doc_sids, at)
        rows.append(r)
        if edges:
            children.append(edges)
        at += len(doc)
    return ",".join(rows), ",".join(children)


class CollectionLoad:
    """One load's writes, chunk after chunk (:meth:`flush_chunk`, called by the pass over the collection).

    One writer thread sends the queries, in order, while the pass parses and summarises the next chunk: the
    database works while Python does.  Reads go through the same queue.  Under the writer lock (the local
    store) nothing else writes meanwhile: every document's state and code are known before the pass
    (:meth:`know`), and each chunk's documents are written without waiting for the writer.  Without the lock
    (Neo4j) another load may store a document between two chunks: each chunk asks, and uses the codes the store
    returns (a document keeps the code it was first stored with).
    """

    def __init__(
        self,
        store: GraphStore,
        cname: str,
        path,
        kinds: list[str],
        wanted: set[str] | None,
        marked: bool,
        report: WriteCounts,
    ):
        self.store, self.cname, self.cid, self.path = store, cname, collection_id(cname), path
        self.kinds, self.wanted, self.marked, self.report = kinds, wanted, marked, report
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-writer")
        self.pending: list = []
        self.total_elements = 0
        self.held = {"elements": 0, "roots": 0}  # what the store should hold after the load (stored documents)
        self.known_state: dict[str, dict] = {}
        self.known_codes: dict[str, int] = {}

    def know(self, every: list[str]) -> None:
        """Under the writer lock, the state and code of every document of the collection, before the pass."""
        if not self.store.exclusive_writer:
            return
        for part in batched(every, 10_000):
            self.known_state.update({r["id"]: r for r in self.store.run("documents_state", ids=part)})
        self.known_codes = {i: int(r["code"]) for i, r in self.known_state.items()}
        self.known_codes.update(self.allocate(every, self.known_state))

    def close(self) -> None:
        self.writer.shutdown(wait=True)

    def send(self, name: str, rows: list) -> None:
        # parameters are encoded here; the writer only sends them
        for batch in batched(rows, self.store.batch_size):
            self.pending.append(self.writer.submit(self.store.execute, self.store.prepare(name, rows=batch)))

    def call(self, name: str, **params) -> list[dict]:
        return self.writer.submit(self.store.run, name, **params).result()

    def settle(self, keep: int = 0) -> None:
        """Wait for all but the last ``keep`` writes; raise the first failure."""
        while len(self.pending) > keep:
            self.pending.pop(0).result()

    def allocate(self, ids: list[str], state: dict[str, dict]) -> dict[str, int]:
        """Codes for the documents ``ids`` not in ``state`` (stored before), from the store's counter."""
        new = [i for i in ids if i not in state]
        first = int(self.call("allocate_document_codes", n=len(new))[0]["first"]) if new else 0
        return dict(zip(new, range(first, first + len(new))))

    def document_rows(
        self, chunk: list[DocumentTree], ids: list[str], codes: dict[str, int], writing: set[str], shaped: set[str]
    ):
        """The Document rows of a chunk: those in ``writing`` marked as being written, those in ``shaped`` (the
        documents whose elements this load writes) with their shape (:mod:`.shapes`), the others' kept."""
        wanted = self.wanted
        return [
            {
                "collection": self.cid,
                "id": i,
                "docid": d.docid,
                "elements": len(d),
                "length": int(d.length[0]),
                "stored": wanted is None or d.docid in wanted,
                "code": codes[i],
                "writing": i in writing,
                "shape": encode_shape(d) if i in shaped else None,
            }
            for i, d in zip(ids, chunk)
        ]

    def state_of(self, ids: list[str]) -> dict[str, dict]:
        """The state of the documents ``ids`` stored before (known before the pass under the writer lock)."""
        if self.store.exclusive_writer:
            return {i: self.known_state[i] for i in ids if i in self.known_state}
        return {r["id"]: r for r in self.call("documents_state", ids=ids)}

    def merge_documents(
        self, chunk: list[DocumentTree], ids: list[str], state: dict[str, dict], writing: set[str]
    ) -> dict[str, int]:
        """Merge the chunk's Document nodes (those in ``writing`` marked as being written) and return every
        document's code: without the writer lock, the codes the store returns (another load may have stored a
        document meanwhile, and it keeps the code it was first stored with)."""
        store = self.store
        if store.exclusive_writer:
            rows = self.document_rows(chunk, ids, self.known_codes, writing, writing)
            for name, part in (
                ("create_documents", [r for r in rows if r["id"] not in self.known_state]),
                ("merge_documents", [r for r in rows if r["id"] in self.known_state]),
            ):
                for batch in batched(part, store.batch_size):  # (new documents are created, with no look-up)
                    params = {"collection": self.cid} if name == "create_documents" else {}
                    self.pending.append(self.writer.submit(store.execute, store.prepare(name, rows=batch, **params)))
            return self.known_codes
        codes = {i: int(r["code"]) for i, r in state.items()}
        codes.update(self.allocate(ids, state))
        out: list[dict] = []
        for batch in batched(self.document_rows(chunk, ids, codes, set(), writing), store.batch_size):
            out += self.writer.submit(store.run, "merge_documents", rows=batch).result()
        return {r["id"]: int(r["code"]) for r in out}

    def flush_chunk(self, chunk: list[DocumentTree], builders: dict[str, SummaryBuilder]) -> None:
        store, cname, kinds, wanted, held, report = (
            self.store,
            self.cname,
            self.kinds,
            self.wanted,
            self.held,
            self.report,
        )
        self.total_elements += sum(len(d) for d in chunk)
        ids = [document_id(cname, d.docid) for d in chunk]
        state = self.state_of(ids)
        # the documents to write afresh, the complete ones lacking some kinds' memberships, and those an earlier
        # load began to write and did not finish
        todo, extend, begun = [], [], set()
        for i, d in enumerate(chunk):
            r = state.get(ids[i])
            if r is not None and r.get("elements") is not None and int(r["elements"]) != len(d):
                raise ChangedCollection(
                    f"collection {cname!r}: document {d.docid!r} has {len(d)} elements, the "
                    f"stored one {int(r['elements'])}: the collection changed since it was "
                    "stored (the load stopped, the collection is INCOMPLETE); load it with "
                    "--replace to swap it for this one",
                    self.path,
                )
            if wanted is not None and d.docid not in wanted:
                if r is not None and (r["complete"] or r["writing"]):  # stored by an earlier load
                    held["elements"] += len(d)
                    held["roots"] += 1
                continue
            if r is not None and (r["writing"] or not self.marked):
                begun.add(ids[i])
            done = set(r["complete"] or []) if r is not None else set()
            held["elements"] += len(d)
            held["roots"] += 1
            if not done:
                todo.append((i, d))
            elif not set(kinds) <= done:
                extend.append((i, d, done))
        codes = self.merge_documents(chunk, ids, state, {ids[i] for i, _ in todo})
        report.documents += len(chunk)
        sids = {k: b.sids(chunk) for k, b in builders.items()}  # (the summaries are written whole after the pass)
        members = []
        for i, d, done in extend:  # the memberships of the kinds loaded now
            base = codes[document_id(cname, d.docid)] * KEY_SPAN
            new_kinds = [k for k in builders if k not in done]
            columns = [sids[k][i].tolist() for k in new_kinds]
            members += [
                [base + pre, {membership_property(k): s for k, s in zip(new_kinds, values)}]
                for pre, values in enumerate(zip(*columns), start=1)
            ]
        if members:
            self.send("add_members", members)
        marks: dict[tuple, list[str]] = {}
        for i, d, done in extend:
            marks.setdefault(tuple(sorted(done | set(kinds))), []).append(document_id(cname, d.docid))
        for done_kinds, doc_ids in marks.items():
            self.pending.append(
                self.writer.submit(store.run, "mark_documents_complete", ids=doc_ids, kinds=list(done_kinds))
            )
        if todo:
            doc_ids = [document_id(cname, d.docid) for _, d in todo]
            if store.exclusive_writer:  # delete what an interrupted load left (documents never begun have none)
                leftovers = [codes[i] for i in doc_ids if i in begun]
                if leftovers:
                    self.pending.append(self.writer.submit(store.run, "delete_document_elements", codes=leftovers))
                self.write_created(
                    [(codes[did], d, {k: sids[k][i] for k in builders}) for did, (i, d) in zip(doc_ids, todo)]
                )
            else:  # another load may be writing them now: MERGE over them, trim only a longer old version
                self.send(
                    "trim_document_elements",
                    [{"code": codes[did], "elements": len(d)} for did, (_, d) in zip(doc_ids, todo)],
                )
                self.write_merged(
                    [(codes[did], d, {k: sids[k][i] for k in builders}) for did, (i, d) in zip(doc_ids, todo)]
                )
            report.elements += sum(len(d) for _, d in todo)
            report.edges += sum(len(d) for _, d in todo)  # a ROOT or a CHILD edge per element
            if not store.exclusive_writer:  # (under the lock, create_elements marks them complete)
                self.pending.append(
                    self.writer.submit(store.run, "mark_documents_complete", ids=doc_ids, kinds=sorted(kinds))
                )
        self.settle(keep=8)

    def write_created(self, documents: list[tuple[int, DocumentTree, dict]]) -> None:
        """The chunk's documents in one statement (a chunk is bounded by elements), each element created with
        its CHILD edge to the nodes just created, found by their row, and each root with its document's ROOT edge
        (under the writer lock; after the statements that created the documents, in the same writer thread).
        Each statement makes the server fold its new nodes and edges into its matrices, at a cost that grows
        with the graph: few large statements load fastest."""
        store = self.store
        if store.backend != "falkordb":  # (literal text is the local store's way of sending parameters)
            raise AssertionError("elements are created from literal rows on the local store only")
        roots: list[list[int]] = []
        at = 0
        for code, doc, _ in documents:
            roots.append([code, at])
            at += len(doc)
        if at:
            rows, children = _chunk_literal(documents)
            self.pending.append(
                self.writer.submit(
                    store.execute,
                    store.prepare(
                        "create_elements",
                        rows=Literal("[" + rows + "]"),
                        children=Literal("[" + children + "]"),
                        roots=roots,
                        kinds=sorted(self.kinds),
                    ),
                )
            )

    def write_merged(self, documents: list[tuple[int, DocumentTree, dict]]) -> None:
        """MERGE the documents' elements on their keys, then their ROOT and CHILD edges (no writer lock)."""
        rows: list[list] = []
        roots: list[list[int]] = []
        children: list[list[int]] = []
        for code, doc, doc_sids in documents:
            r, parent = _element_rows(doc, code, doc_sids)
            base = code * KEY_SPAN
            rows += r
            roots.append([code, base + 1])
            children += [[base + p + 1, base + c + 1] for c, p in enumerate(parent) if p >= 0]
        self.send("merge_elements", rows)
        self.send("merge_roots", roots)
        self.send("merge_children", children)
