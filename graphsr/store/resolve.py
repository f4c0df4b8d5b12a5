"""Resolving (docid, XPath) pairs to stored elements: their keys and, on the local store, their node ids.

Assessments, runs and a study's routes name elements by document and XPath; the store keys them by document code
and pre-order number.  A document stored with its shape (:mod:`.shapes`) is resolved from that one property; one
stored without (by a graphsr before shapes) from its stored elements, read a batch of documents at a time.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Iterable

import numpy as np

from ..core.document import canonical_xpath, normalize_xpath, quoted
from ..errors import UnknownNodeError
from .trees import _document_shapes, _xpaths, element_batches
from .base import GraphStore, StoreError
from .ids import KEY_SPAN, document_id
from .shapes import ShapeError, decode_tree

__all__ = ["require_elements", "Reads"]


def require_elements(
    store: GraphStore,
    collection: str,
    nodes: Iterable[tuple[str, str]],
    source: str | None,
    lines: dict | None = None,
    node_ids: dict | None = None,
    canonical: bool = False,
    on_keyed: Callable[[list[str], dict[tuple[str, str], int]], None] | None = None,
    reads: "Reads | None" = None,
) -> dict[tuple[str, str], int]:
    """Element keys of (docid, XPath) pairs, which must be stored.

    Returns a dict keyed by (docid, canonical XPath).  ``lines`` maps a pair
    to the line of ``source`` that names it, for the message.  ``node_ids``, on the local store, is filled
    with the store's own node id of each key (see ``documents_shapes`` in ``cypher/collection.cypher``).
    ``canonical``: the XPaths of ``nodes`` and ``lines`` are canonical already (not made so again).
    ``on_keyed(docids, keys)``, if given, is called as the resolution goes with documents every pair of which
    is keyed (and has its node id, where asked) and the keys so far; the documents left are given at the end
    when no pair is unknown (otherwise the error is raised, and the caller undoes what it did with those given).
    ``reads``: the reads of the documents of ``nodes``, started by the caller ahead (:class:`Reads`).

    Raises
    ------
    UnknownNodeError
        For a document whose elements are not stored or an XPath it lacks,
        with the file and line.
    """
    by_doc: dict[str, set[str]] = {}
    for docid, xp in nodes:
        by_doc.setdefault(docid, set()).add(xp if canonical else canonical_xpath(xp))
    where = {(d, x if canonical else canonical_xpath(x)): ln for (d, x), ln in (lines or {}).items() if ln is not None}

    def first_line(docid: str, xps) -> int | None:
        found = [where[(docid, x)] for x in xps if (docid, x) in where]
        return min(found) if found else None

    # the documents' codes in a few statements, then their elements a batch of documents at a time (about
    # ELEMENTS_PER_READ elements per statement): a log over tens of thousands of documents is not read with one
    # statement per document
    docids = sorted(by_doc)
    if reads is None:
        reads = Reads(store, collection, docids, node_ids is not None, ahead=1)
    elif reads.docids != docids:
        raise AssertionError("the reads started ahead are not of the documents resolved")
    state = reads.state  # (filled as the documents are read, by _resolve_by_shapes)
    problems: list[tuple] = []  # (line, docid, message): the first in the file is reported

    def missing_document(docid: str) -> None:
        problems.append(
            (
                first_line(docid, by_doc[docid]),
                docid,
                f"document {docid!r} has no stored elements in "
                f"collection {collection!r}; load them first (graphsr store load --elements ...)",
            )
        )

    out: dict[tuple[str, str], int] = {}

    def record(code: int, docid: str, hits, pres) -> list[int]:
        """Key the elements found in one document (``hits``: each XPath asked with its row, None or -1 for
        none; ``pres``: the rows' pre-order numbers), note the XPaths it lacks; return the rows keyed."""
        found = []
        for xp, i in hits:
            if i is not None and i >= 0:
                out[(docid, xp)] = code * KEY_SPAN + pres[i]
                found.append(i)
            else:
                problems.append((where.get((docid, xp)), docid, f"document {docid!r} has no node {quoted(xp)}"))
        return found

    def name(code: int, docid: str, pres, depths: list[int], tags: list[str]) -> list[int]:
        """Key the elements the log names in one document; return their rows (in ``pres``)."""
        at = {xp: i for i, xp in enumerate(_xpaths(depths, tags))}
        return record(code, docid, ((xp, at.get(xp)) for xp in by_doc[docid]), pres)

    def name_many(docs: list[tuple[int, str, list[str], np.ndarray, np.ndarray]]) -> list[list[int]]:
        """:func:`name` for documents given as (code, docid, tag names, depths, tags), in C where it is built
        (:mod:`graphsr.store._paths`, which walks each document once rather than writing out every element's
        XPath); the rows keyed per document."""
        found = paths.find(docs, by_doc) if paths is not None else None
        if found is None:
            return [
                name(code, docid, range(1, len(d) + 1), d.tolist(), [n[t] for t in t_.tolist()])
                for code, docid, n, d, t_ in docs
            ]
        return [record(code, docid, hits, range(1, len(d) + 1)) for (code, docid, _, d, _), hits in zip(docs, found)]

    def resolve(batch: list[tuple[int, str]]) -> None:
        shapes = _document_shapes(store, [code for code, _ in batch], numbers=(0, 1))  # ids: those named
        for code, docid in batch:
            if code not in shapes:
                missing_document(docid)
                continue
            pres, depths, tags, ids, _, _ = shapes.pop(code)
            found = name(code, docid, pres, depths, tags)
            if node_ids is not None and ids is not None:
                node_ids.update((code * KEY_SPAN + pres[i], int(ids[i])) for i in found)

    reported: set[str] = set()

    def keyed(ready: list[str]) -> None:
        if on_keyed is None:
            return
        wrong = {p[1] for p in problems}
        ready = [d for d in ready if d not in wrong]
        reported.update(ready)
        if ready:
            on_keyed(ready, out)

    # documents stored with their shape are resolved from it, without reading their elements; the others (stored
    # by a graphsr before shapes) from their elements
    paths = _PathFinder.made()
    unshaped = _resolve_by_shapes(store, reads, name_many, node_ids, keyed)
    left: list[tuple[int, str, int]] = []  # code, docid, elements
    for docid in docids:
        r = state.get(document_id(collection, docid))
        if r is None:
            missing_document(docid)
        elif docid in unshaped:
            left.append((int(r["code"]), docid, int(r["elements"] or 0)))
    for batch in element_batches(left, lambda d: d[2]):
        resolve([(code, docid) for code, docid, _ in batch])
    if problems:
        line, _, message = min(problems, key=lambda p: (p[0] is None, p[0] or 0, p[1]))
        raise UnknownNodeError(message, source, line)
    keyed([d for d in docids if d not in reported])
    return out


class Reads:
    """The reads a resolution starts with -- the state and shape of its documents, :data:`SHAPES_PER_READ` a
    statement -- sent from the moment the documents are known by a thread of their own, ``ahead`` statements
    at once: while the caller does what does not need them (a log's digest, its pairs), the server reads.  The
    resolution (:func:`require_elements`) takes them from here, and sends the reads of the later parts by the
    same thread; ``state`` holds the documents' state (by document id) as they are read."""

    def __init__(self, store: GraphStore, collection: str, docids, node_ids: bool, ahead: int = 8):
        self.store, self.collection = store, collection
        self.docids: list[str] = sorted(set(docids))
        self.want_ids = node_ids and store.backend == "falkordb"
        self.query = "documents_state_shapes_and_roots" if self.want_ids else "documents_state_and_shapes"
        self.parts = [self.docids[at : at + SHAPES_PER_READ] for at in range(0, len(self.docids), SHAPES_PER_READ)]
        self.state: dict[str, dict] = {}
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-reads")
        self.fetched: list[Future] = []
        for k in range(min(ahead, len(self.parts))):
            self.fetch(k)

    def _read(self, k: int) -> tuple[list[str], list[dict]]:
        ids = [document_id(self.collection, d) for d in self.parts[k]]
        return ids, self.store.run(self.query, ids=ids)

    def fetch(self, k: int) -> None:
        """Send the read of part ``k`` (after those sent before), unless sent already."""
        if len(self.fetched) <= k < len(self.parts):
            self.fetched.append(self.pool.submit(self._read, k))

    def close(self) -> None:
        """Send nothing more; wait for what is under way."""
        for answer in self.fetched:
            answer.cancel()  # (after a failure: what is not sent yet is not)
        self.pool.shutdown(wait=True)


#: Element node ids checked per statement (see :func:`_resolve_by_shapes`).
IDS_PER_CHECK = 50_000

#: Documents whose shapes are read per statement (:func:`_resolve_by_shapes`).
SHAPES_PER_READ = 2_500

#: Elements of decoded shapes held at once while their documents are named (:func:`_resolve_by_shapes`).
ELEMENTS_PER_NAMING = 1_000_000


class _PathFinder:
    """The elements (document, XPath) pairs name in decoded shapes, found by :mod:`graphsr.store._paths`: tag
    names and XPaths are numbered once for the whole resolution, each document walked once in C."""

    def __init__(self, module):
        self.module = module
        self.tag_ids: dict[str, int] = {}
        self.path_ids: dict[str, int] = {}
        self.steps: list[int] = []  # (tag id, position) of every step of the paths numbered, path after path
        self.path_start: list[int] = [0]

    @classmethod
    def made(cls) -> "_PathFinder | None":
        try:
            from . import _paths
        except ImportError:  # pragma: no cover - the extension is optional
            return None
        return cls(_paths)

    def _path(self, xp: str) -> int:
        at = self.path_ids.get(xp)
        if at is None:
            at = self.path_ids[xp] = len(self.path_ids)
            for tag, pos in normalize_xpath(xp):
                self.steps += (self.tag_ids.setdefault(tag, len(self.tag_ids)), pos)
            self.path_start.append(len(self.steps) // 2)
        return at

    def find(self, docs: list[tuple], by_doc: dict[str, set[str]]) -> list[list[tuple[str, int]]] | None:
        """Per document of ``docs`` ((code, docid, tag names, depths, tags)), each XPath ``by_doc`` asks of it
        with the row of its element (-1: none); None where a shape is not a tree of one root (the caller's
        Python walk then names them)."""
        if not docs:
            return []
        tag_ids = self.tag_ids
        pair_doc: list[int] = []
        pair_path: list[int] = []
        asked: list[list[str]] = []
        for at, (_, docid, _, _, _) in enumerate(docs):
            xps = list(by_doc[docid])
            asked.append(xps)
            pair_doc += [at] * len(xps)
            pair_path += map(self._path, xps)
        global_tags = [
            np.array([tag_ids.setdefault(n, len(tag_ids)) for n in names], dtype=np.int64)[tags]
            for _, _, names, _, tags in docs
        ]
        sizes = [len(d) for _, _, _, d, _ in docs]
        starts = np.zeros(len(docs) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        hits = self.module.find(
            np.concatenate([d for _, _, _, d, _ in docs]),
            np.concatenate(global_tags),
            starts,
            np.array(pair_doc, dtype=np.int64),
            np.array(pair_path, dtype=np.int64),
            np.array(self.path_start, dtype=np.int64),
            np.array(self.steps, dtype=np.int64),
        )
        if hits is None:
            return None
        rows = (hits - np.where(hits >= 0, starts[np.array(pair_doc, dtype=np.int64)], 0)).tolist()
        found = []
        at = 0
        for xps in asked:
            found.append(list(zip(xps, rows[at : at + len(xps)])))
            at += len(xps)
        return found


def _resolve_by_shapes(
    store: GraphStore,
    reads: Reads,
    name_many,
    node_ids: dict | None,
    keyed: Callable[[list[str]], None],
) -> set[str]:
    """Key the elements named in the documents of ``reads`` (those stored) that were stored with their
    shape (:mod:`.shapes`), with ``name_many(docs)`` (``docs``: (code, docid, tag names, depths, tags) each;
    returns the rows of the elements keyed in each); return the docids left (stored without a shape) to resolve
    from their stored elements.

    Where ``node_ids`` is asked (the local store, under its writer lock, which keeps node ids fixed), it gets the
    node id of every element keyed.  A document's elements are created by one statement, in pre-order, so into
    a run of fresh ids where none were freed before: an element's id is then its root's plus its pre-order
    number less one.  Every id so taken is checked against the element's key (``elements_at_nodes``, a look-up
    by id); the documents of a statement where any does not check (ids reused after a drop) have their ids read
    with their elements (``documents_shapes``).  ``keyed(docids)`` is told of each part's documents once they
    are keyed and their ids checked (those whose ids do not check are resolved, and told, at the end)."""
    want_ids = reads.want_ids and node_ids is not None
    parts, fetched, state = reads.parts, reads.fetched, reads.state
    # one thread sends the reads (the parts' states and shapes, ahead), another the checks of the ids taken, while
    # this one decodes and names: the server reads while Python walks; a part's documents are told once the checks
    # sent by its end are answered, while the next parts are named
    checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-checks")

    shaped: set[int] = set()
    pending: list[int] = []  # the documents whose ids await their check
    checks: list[list[int]] = []  # [node id, key]
    checked: list[tuple] = []  # (the check's answer to come, its checks, their documents)
    unchecked: list[int] = []  # documents whose ids did not check
    sent = [0, 0]  # checks sent, checks answered
    waiting: list[tuple[int, list[tuple[int, str]]]] = []  # (checks sent by its end, its documents) per part

    def settle() -> None:
        if checks:
            checked.append(
                (checker.submit(store.run, "elements_at_nodes", pairs=list(checks)), list(checks), list(pending))
            )
            sent[0] += 1
        pending.clear()
        checks.clear()

    named: dict[int, list[int]] = {}  # the pre-order numbers keyed, per document
    sizes: dict[int, int] = {}
    chunk: list[tuple] = []  # (code, docid, names, depths, tags) of documents decoded, not yet named
    roots: dict[int, int] = {}

    def name_chunk() -> None:
        for (code, _, _, _, _), found in zip(chunk, name_many(chunk)):
            if want_ids and found:
                pres = [i + 1 for i in found]
                named[code] = pres
                pending.append(code)
                root = roots[code]
                checks.extend([root + pre - 1, code * KEY_SPAN + pre] for pre in pres)
                if len(checks) >= IDS_PER_CHECK:
                    settle()
        chunk.clear()

    def answered(wait: bool) -> None:
        """Take the checks' answers (those come, or all where ``wait``), and tell the parts whose checks are."""
        while checked and (wait or checked[0][0].done()):
            answer, taken, documents = checked.pop(0)
            [row] = answer.result()
            sent[1] += 1
            if int(row["n"]) == len(taken):
                node_ids.update((key, node) for node, key in taken)  # type: ignore[union-attr]
            else:
                unchecked.extend(documents)
        while waiting and waiting[0][0] <= sent[1]:
            _, part = waiting.pop(0)
            late = set(unchecked)
            keyed([docid for code, docid in part if code in shaped and code not in late])

    coded: list[tuple[int, str]] = []  # every stored document's code and docid
    try:
        reads.fetch(0)
        for k in range(len(parts)):
            reads.fetch(k + 1)
            held = 0
            shapes = {}
            ids, rows = fetched[k].result()
            for r in rows:
                state[r["id"]] = r
                if r["shape"] is not None and r["elements"] is not None and (not want_ids or r["root"] is not None):
                    shapes[int(r["code"])] = (r["shape"], int(r["elements"]), r.get("root"))
            part = [(int(state[i]["code"]), d) for i, d in zip(ids, parts[k]) if i in state]
            coded += part
            shaped.update(shapes)
            for code, docid in part:
                if code not in shapes:
                    continue
                text, elements, root = shapes.pop(code)
                sizes[code] = elements
                if root is not None:
                    roots[code] = int(root)
                try:
                    names, depths, tags = decode_tree(text, elements)
                except ShapeError as e:
                    raise StoreError(
                        f"{store.url}: the stored shape of document {docid!r} does not read back ({e}); "
                        "load the collection again with --replace"
                    ) from None
                chunk.append((code, docid, names, depths, tags))
                held += elements
                if held >= ELEMENTS_PER_NAMING:
                    name_chunk()
                    held = 0
            name_chunk()
            settle()
            waiting.append((sent[0], part))
            answered(wait=False)
        answered(wait=True)
    finally:
        for answer in [c[0] for c in checked]:
            answer.cancel()  # (after a failure: what is not sent yet is not)
        checker.shutdown(wait=True)
        reads.close()
    if want_ids:
        for batch in element_batches(unchecked, sizes.__getitem__):
            read = _document_shapes(store, batch, numbers=(0,))
            for c in batch:
                pres, _, _, ids, _, _ = read.get(c, ((), (), (), (), (), ()))
                row = {pre: at for at, pre in enumerate(map(int, pres))}
                if not set(named[c]) <= row.keys():
                    raise StoreError(
                        f"{store.url}: the stored elements of document {int(c)} do not match its "
                        "shape; load the collection again with --replace"
                    )
                node_ids.update((c * KEY_SPAN + pre, int(ids[row[pre]])) for pre in named[c])
    return {d for c, d in coded if c not in shaped}
