"""Loading what belongs to a stored collection under a name: assessments, runs and (:mod:`.study_writes`) a study's
routes.

A name is never a mix of two loads.  Each thing keeps its content's digest (:func:`content_digest`): the
same content loaded again changes nothing; other content under a stored name is refused unless ``replace``,
which removes what the name held first (the thing is INCOMPLETE until the new content is whole); a thing left
INCOMPLETE (a load or drop that did not finish) holds nothing whole and is replaced (:func:`_make_room`).  What
the store then holds is counted against what was loaded (:func:`~graphsr.store.receipts.check_receipt`): a
difference raises :class:`~graphsr.errors.StoreError` and the thing stays INCOMPLETE.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import GraphsrInputError
from ..core.qrels import ElementQrels
from ..core.run import Run
from .base import GraphStore, writes
from .ids import node_id
from .load import run_name
from .receipts import check_receipt

__all__ = ["store_assessments", "store_run", "NamedReport", "content_digest"]


def content_digest(rows: Iterable[tuple]) -> str:
    """A SHA-256 of rows of plain values (order matters: give them sorted), the fingerprint a named thing is
    stored with so that loading it again is told apart from loading something else under its name."""
    import hashlib
    import itertools
    import json

    json_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    h = hashlib.sha256()
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # (no C accelerator: the encoder row by row)
        for r in rows:
            h.update(json_encoder.encode(r).encode("utf-8", "surrogatepass"))
            h.update(b"\n")
        return h.hexdigest()
    # the C encoder JSONEncoder.encode makes at every call, made once with the same arguments (the same text,
    # tested; 400,803 rows of a log in 1.1 rather than 1.6 s), its lines hashed 10,000 at a time
    c = json_encoder
    encode = make(
        {}, c.default, json.encoder.encode_basestring, None, c.key_separator, c.item_separator, False, False, True
    )
    it = iter(rows)
    while batch := list(itertools.islice(it, 10_000)):
        h.update("".join(["".join(encode(r, 0)) + "\n" for r in batch]).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _make_room(
    state: list[dict],
    digest: str,
    replace: bool,
    what: str,
    other: str,
    incoming: str,
    source,
    drop: Callable[[], object],
) -> tuple[bool, bool]:
    """Decide a load under a name from the stored thing's ``state`` (its ``complete`` flag and ``digest``; empty:
    nothing stored): ``(unchanged, replaced)``.  The same content is unchanged; other content is refused (one
    :class:`GraphsrInputError` naming ``what`` it holds, ``other``, and the ``incoming`` load) unless
    ``replace``; what is replaced, or INCOMPLETE, is removed with ``drop``."""
    if not state:
        return False, False
    complete, held = state[0]["complete"] is not False, state[0]["digest"]
    if complete and held == digest:
        return True, False
    if complete and not replace:
        held_text = other if held else "content loaded by an earlier graphsr, whose content cannot be compared"
        raise GraphsrInputError(
            f"{what} already holds {held_text} ({incoming}); give --replace to swap it for "
            "this one, or load it under another name",
            source,
        )
    drop()
    return False, True


@dataclass
class NamedReport:
    """What loading a named thing (assessments, a run) did: the ``rows`` it holds, and whether it was
    ``unchanged`` (the same content was stored) or ``replaced`` (other content was)."""

    rows: int = 0
    unchanged: bool = False
    replaced: bool = False


def _load_named(
    store: GraphStore,
    kind: str,
    ident: str,
    what: str,
    name: str,
    collection: str,
    rows: list[dict],
    fields: tuple,
    query: str,
    source,
    replace: bool,
) -> NamedReport:
    """Write ``rows`` with ``query`` as the named node ``ident`` (``kind``: qrels or run, whose queries are
    ``begin_KIND``, ``KIND_state``, ``KIND_holds``, ``drop_KIND``, ``finish_KIND``), never merged with what
    the name held (:func:`_make_room`); the rows the store then holds are counted against ``rows``."""
    digest = content_digest(sorted(tuple(r[k] for k in fields) for r in rows))
    unchanged, replaced = _make_room(
        store.run(f"{kind}_state", id=ident),
        digest,
        replace,
        what,
        "other content",
        f"this load: {len(rows)} rows",
        source,
        lambda: store.run(f"drop_{kind}", id=ident),
    )
    report = NamedReport(rows=len(rows), unchanged=unchanged, replaced=replaced)
    if unchanged:
        return report
    store.run(f"begin_{kind}", id=ident, name=name, collection=collection)
    store.write(query, rows)
    [held] = store.run(f"{kind}_holds", id=ident)
    check_receipt(what, {"rows": held["rows"]}, {"rows": len(rows)}, "loaded", "it is INCOMPLETE (load it again)")
    store.run(f"finish_{kind}", id=ident, digest=digest, **_provenance(source, rows))
    return report


def _provenance(source, rows: list[dict]) -> dict:
    """What a stored load rests on: graphsr's version, its file's SHA-256 (None: not from a file), and for
    assessments the judges their judgments name (a person's where none is named)."""
    from .._version import __version__
    from ..io.digests import file_sha256

    judges = sorted({r["judge"] or "person" for r in rows}) if rows and "judge" in rows[0] else None
    return {"graphsr": __version__, "source_sha256": file_sha256(source), "judges": judges}


@writes
def store_assessments(
    store: GraphStore, qrels: ElementQrels, collection: str, name: str, replace: bool = False
) -> NamedReport:
    """Attach element assessments to stored element nodes (they must be stored) as assessments ``name`` of
    ``collection`` (``Q/collection/name``, topics ``T/collection/name/topic``).  Each ASSESSES relationship
    holds ``rel`` and, for INEX (e, s) assessments, ``e`` and ``s``; where the file named who judged each
    judgment, ``judge`` (:mod:`graphsr.core.judges`).  A name loaded twice is never merged: the
    same assessments again change nothing, others are refused unless ``replace``."""
    from .resolve import require_elements

    index = require_elements(
        store,
        collection,
        {(d, xp) for _, d, xp, _ in qrels},
        qrels.source,
        lines={(d, xp): ln for (_, d, xp), ln in qrels.lines.items()},
    )
    qid = node_id("Qrels", collection, name)
    grades = qrels.grades or {}
    judges = getattr(qrels, "judges", None)  # (who judged each node, where the file said)
    rows = [
        {
            "element": index[(docid, xp)],
            "qrels": qid,
            "name": name,
            "collection": collection,
            "topic": topic,
            "topic_id": node_id("Topic", collection, name, topic),
            "rel": float(rel),
            "e": grades.get(topic, {}).get((docid, xp), (None, None))[0],
            "s": grades.get(topic, {}).get((docid, xp), (None, None))[1],
            "judge": judges.get((topic, docid, xp)) if judges else None,
        }
        for topic, docid, xp, rel in qrels
    ]
    pairs = {(r["topic"], r["element"]) for r in rows}
    if len(pairs) != len(rows):
        raise GraphsrInputError(f"assessments {name!r} judge an element twice in one topic", qrels.source)
    return _load_named(
        store,
        "qrels",
        qid,
        f"assessments {name!r} of collection {collection!r}",
        name,
        collection,
        rows,
        ("topic", "element", "rel", "e", "s") + (("judge",) if judges else ()),  # (unjudged: digests as before)
        "merge_assessments",
        qrels.source,
        replace,
    )


@writes
def store_run(
    store: GraphStore, run: Run, collection: str, name: str | None = None, replace: bool = False
) -> NamedReport:
    """Attach a run's results to stored element nodes (they must be stored), as run ``name`` (default
    :func:`~graphsr.store.load.run_name`) of ``collection`` (``U/collection/name``); a name loaded twice is
    never merged: the same run again changes nothing, another is refused unless ``replace``."""
    from .resolve import require_elements

    name = name or run_name(run)
    index = require_elements(
        store,
        collection,
        {(r.docid, xp) for r in run for xp in r.xpaths},
        run.source,
        lines={(r.docid, xp): ln for r in run for xp, ln in zip(r.xpaths, r.lines)},
    )
    rid = node_id("Run", collection, name)
    rows = [
        {
            "element": index[(r.docid, xp)],
            "run": rid,
            "name": name,
            "collection": collection,
            "topic": r.topic,
            "rank": int(r.rank),
            "score": float(r.score),
        }
        for r in run
        for xp in r.xpaths
    ]
    if len({(r["topic"], r["rank"], r["element"]) for r in rows}) != len(rows):
        raise GraphsrInputError(f"run {name!r} returns an element twice at one rank of a topic", run.source)
    return _load_named(
        store,
        "run",
        rid,
        f"run {name!r} of collection {collection!r}",
        name,
        collection,
        rows,
        ("topic", "rank", "element", "score"),
        "merge_results",
        run.source,
        replace,
    )
