"""Resolving (docid, XPath) pairs to stored elements: their keys and, on the local store, their node ids.

Assessments, runs and a study's routes name elements by document and XPath; the store keys them by document code
and pre-order number.  A document stored with its shape (:mod:`.shapes`) is resolved from that one property; one
stored without (by a graphsr before shapes) from its stored elements, read a batch of documents at a time.
"""

from __future__ import annotations

from typing import Iterable

from ..core.document import canonical_xpath, quoted
from ..errors import UnknownNodeError
from .trees import _document_shapes, _xpaths, element_batches
from .base import GraphStore, StoreError
from .ids import KEY_SPAN, document_id
from .shapes import ShapeError, decode_shape

__all__ = ["require_elements"]


def require_elements(
    store: GraphStore,
    collection: str,
    nodes: Iterable[tuple[str, str]],
    source: str | None,
    lines: dict | None = None,
    node_ids: dict | None = None,
) -> dict[tuple[str, str], int]:
    """Element keys of (docid, XPath) pairs, which must be stored.

    Returns a dict keyed by (docid, canonical XPath).  ``lines`` maps a pair
    to the line of ``source`` that names it, for the message.  ``node_ids``, on the local store, is filled
    with the store's own node id of each key (see ``documents_shapes`` in ``cypher/collection.cypher``).

    Raises
    ------
    UnknownNodeError
        For a document whose elements are not stored or an XPath it lacks,
        with the file and line.
    """
    by_doc: dict[str, set[str]] = {}
    for docid, xp in nodes:
        by_doc.setdefault(docid, set()).add(canonical_xpath(xp))
    where = {(d, canonical_xpath(x)): ln for (d, x), ln in (lines or {}).items() if ln is not None}

    def first_line(docid: str, xps) -> int | None:
        found = [where[(docid, x)] for x in xps if (docid, x) in where]
        return min(found) if found else None

    # the documents' codes in a few statements, then their elements a batch of documents at a time (about
    # ELEMENTS_PER_READ elements per statement): a log over tens of thousands of documents is not read with one
    # statement per document
    docids = sorted(by_doc)
    state: dict[str, dict] = {}
    for at in range(0, len(docids), 10_000):
        ids = [document_id(collection, d) for d in docids[at : at + 10_000]]
        state.update({r["id"]: r for r in store.run("documents_state", ids=ids)})
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

    def name(code: int, docid: str, pres: list[int], depths: list[int], tags: list[str]) -> list[int]:
        """Key the elements the log names in one document; return their rows (in ``pres``)."""
        at = {xp: i for i, xp in enumerate(_xpaths(depths, tags))}
        found = []
        for xp in by_doc[docid]:
            i = at.get(xp)
            if i is not None:
                out[(docid, xp)] = code * KEY_SPAN + pres[i]
                found.append(i)
            else:
                problems.append((where.get((docid, xp)), docid, f"document {docid!r} has no node {quoted(xp)}"))
        return found

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

    # documents stored with their shape are resolved from it, without reading their elements; the others (stored
    # by a graphsr before shapes) from their elements
    unshaped = _resolve_by_shapes(store, collection, docids, state, name, node_ids)
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
    return out


#: Element node ids checked per statement (see :func:`_resolve_by_shapes`).
IDS_PER_CHECK = 50_000


def _resolve_by_shapes(
    store: GraphStore, collection: str, docids: list[str], state: dict[str, dict], name, node_ids: dict | None
) -> set[str]:
    """Key the elements named in the documents ``docids`` (those ``state`` holds) that were stored with their
    shape (:mod:`.shapes`), with ``name(code, docid, pres, depths, tags)`` (which returns the rows of the elements
    it keyed); return the docids left (stored without a shape) to resolve from their stored elements.

    Where ``node_ids`` is asked (the local store, under its writer lock, which keeps node ids fixed), it gets the
    node id of every element keyed.  A document's elements are created by one statement, in pre-order, so into
    a run of fresh ids where none were freed before: an element's id is then its root's plus its pre-order
    number less one.  Every id so taken is checked against the element's key (``elements_at_nodes``, a look-up
    by id); the documents of a statement where any does not check (ids reused after a drop) have their ids read
    with their elements (``documents_shapes``)."""
    want_ids = node_ids is not None and store.backend == "falkordb"
    coded = [(int(state[document_id(collection, d)]["code"]), d) for d in docids if document_id(collection, d) in state]
    shapes: dict[int, tuple] = {}
    for at in range(0, len(coded), 10_000):
        part = [code for code, _ in coded[at : at + 10_000]]
        for r in store.run("documents_stored_shapes_and_roots" if want_ids else "documents_stored_shapes", codes=part):
            if r["shape"] is not None and r["elements"] is not None and (not want_ids or r["root"] is not None):
                shapes[int(r["code"])] = (r["shape"], int(r["elements"]), r.get("root"))
    shaped = set(shapes)
    pending: list[int] = []  # the documents whose ids await their check
    checks: list[list[int]] = []  # [node id, key]
    unchecked: list[int] = []  # documents whose ids did not check

    def settle() -> None:
        if checks:
            [row] = store.run("elements_at_nodes", pairs=checks)
            if int(row["n"]) == len(checks):
                node_ids.update((key, node) for node, key in checks)
            else:
                unchecked.extend(pending)
        pending.clear()
        checks.clear()

    named: dict[int, list[int]] = {}  # the pre-order numbers keyed, per document
    sizes: dict[int, int] = {}
    for code, docid in coded:
        if code not in shapes:
            continue
        text, elements, root = shapes.pop(code)
        sizes[code] = elements
        try:
            depths, tags = decode_shape(text, elements)
        except ShapeError as e:
            raise StoreError(
                f"{store.url}: the stored shape of document {docid!r} does not read back ({e}); "
                "load the collection again with --replace"
            ) from None
        found = name(code, docid, range(1, elements + 1), depths, tags)
        if want_ids and found:
            pres = [i + 1 for i in found]
            named[code] = pres
            pending.append(code)
            checks.extend([int(root) + pre - 1, code * KEY_SPAN + pre] for pre in pres)
            if len(checks) >= IDS_PER_CHECK:
                settle()
    if want_ids:
        settle()
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
