"""Loading what belongs to a stored collection under a name: assessments, runs and a study's routes.

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

from .._gc import collector_paused
from ..errors import GraphsrInputError
from ..core.document import canonical_xpath
from ..core.qrels import ElementQrels
from ..core.run import Run
from .base import GraphStore, writes
from .ids import _part, node_id, node_id_prefix
from .load import run_name
from .receipts import check_receipt

__all__ = ["store_assessments", "store_run", "store_steps", "NamedReport", "StepsReport", "content_digest"]


def content_digest(rows: Iterable[tuple]) -> str:
    """A SHA-256 of rows of plain values (order matters: give them sorted), the fingerprint a named thing is
    stored with so that loading it again is told apart from loading something else under its name."""
    import hashlib
    import json

    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # (json.dumps makes one a call)
    h = hashlib.sha256()
    for r in rows:
        h.update(encode(r).encode("utf-8", "surrogatepass"))
        h.update(b"\n")
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
    store.run(f"finish_{kind}", id=ident, digest=digest)
    return report


@writes
def store_assessments(
    store: GraphStore, qrels: ElementQrels, collection: str, name: str, replace: bool = False
) -> NamedReport:
    """Attach element assessments to stored element nodes (they must be stored) as assessments ``name`` of
    ``collection`` (``Q/collection/name``, topics ``T/collection/name/topic``).  Each ASSESSES relationship
    holds ``rel`` and, for INEX (e, s) assessments, ``e`` and ``s``.  A name loaded twice is never merged: the
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
        ("topic", "element", "rel", "e", "s"),
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


@dataclass
class StepsReport:
    """What loading a log as a study did: ``steps`` and ``routes`` the study holds, and whether it was
    ``unchanged`` (the same log was stored already) or ``replaced`` (another log was)."""

    steps: int = 0
    routes: int = 0
    unchanged: bool = False
    replaced: bool = False


@writes
def store_steps(
    store: GraphStore, collection: str, study: str, steps: Iterable, source: str | None = None, replace: bool = False
) -> StepsReport:
    """Store navigation steps as study ``study`` of ``collection``.

    Each step is a dict with ``route_id``, ``step`` (order in the route),
    ``docid``, ``from`` and ``to`` (XPaths) and optional ``user``, ``topic``,
    ``duration_ms``, ``timestamp``, ``line`` (of ``source``, the log, for
    messages), or a :class:`~graphsr.core.routes.RouteStep` (a :class:`~graphsr.core.routes.Routes` log is
    such steps).  The elements must be stored.  ``steps`` is read once.

    A study is never a mix of two logs (see the module docstring: the same log again changes nothing, another
    is refused unless ``replace``).  The steps written are counted against the log: its routes, its steps, and
    one FROM and one TO edge each.
    """
    with collector_paused():  # (a row per step, no cycles among them)
        return _store_steps(store, collection, study, steps, source, replace)


def _store_steps(
    store: GraphStore, collection: str, study: str, steps: Iterable, source: str | None = None, replace: bool = False
) -> StepsReport:
    from .resolve import require_elements
    from .services import drop_study

    given = [_step_fields(s) for s in steps]  # (route_id, step, docid, from, to, user, topic, duration, time, line)
    lines: dict = {}
    for g in given:
        lines.setdefault((g[2], g[3]), g[9])
        lines.setdefault((g[2], g[4]), g[9])
    node_ids: dict[int, int] = {}  # the local store's node ids of the elements (see _create_steps)
    index = require_elements(store, collection, set(lines), source, lines=lines, node_ids=node_ids)
    del lines
    stid = node_id("Study", collection, study)

    route_prefix, step_prefix = node_id_prefix("Route", collection, study), node_id_prefix("Step", collection, study)
    route_ids: dict = {}
    xpaths: dict = {}

    def key(docid, xpath):
        canonical = xpaths.get(xpath)
        if canonical is None:
            canonical = xpaths[xpath] = canonical_xpath(xpath)
        return index[(docid, canonical)]

    # (route, route_id, user_id, topic_id, step id's prefix, seq, src, dst, duration_ms, time) per step: the
    # step's id is the prefix and its number (node_id("Step", ...))
    rows = []
    for route_id, seq, docid, src, dst, user, topic, duration, time, _ in given:
        ids = route_ids.get(route_id)
        if ids is None:  # node_id("Route", ...) and node_id("Step", ...) but the step's number
            ids = route_ids[route_id] = (route_prefix + _part(route_id), step_prefix + _part(route_id) + "/")
        rows.append((ids[0], route_id, user, topic, ids[1], seq, key(docid, src), key(docid, dst), duration, time))
    del given
    content = sorted([(r[1], r[5], r[6], r[7], r[2], r[3], r[8], r[9]) for r in rows])
    digest = content_digest(content)
    n_steps, n_routes = len(content), len(route_ids)
    del content
    what = f"study {study!r} of collection {collection!r}"
    unchanged, replaced = _make_room(
        store.run("study_state", study=stid),
        digest,
        replace,
        what,
        "another log",
        f"this one: {n_steps} steps of {n_routes} routes",
        source,
        lambda: drop_study(store, collection, study),
    )
    report = StepsReport(steps=n_steps, routes=n_routes, unchanged=unchanged, replaced=replaced)
    if unchanged:
        return report
    store.run("begin_study", study=stid, name=study, collection=collection)  # INCOMPLETE until the last batch
    if store.exclusive_writer:  # no other load writes: the study is empty, its routes are created whole
        _create_steps(store, stid, rows, node_ids, set(index.values()))
    else:  # other loads may write at once: MERGE on the ids the constraints keep unique
        store.write(
            "merge_steps",
            (
                {
                    "src": r[6],
                    "dst": r[7],
                    "study": stid,
                    "study_name": study,
                    "route": r[0],
                    "route_id": r[1],
                    "user_id": r[2],
                    "topic_id": r[3],
                    "id": r[4] + str(r[5]),
                    "seq": r[5],
                    "duration_ms": r[8],
                    "time": r[9],
                }
                for r in rows
            ),
        )
    [held] = store.run("study_holds", study=stid)
    check_receipt(
        what,
        {
            "routes": held["routes"],
            "steps": held["steps"],
            "FROM edges": held["from_edges"],
            "TO edges": held["to_edges"],
        },
        {"routes": n_routes, "steps": n_steps, "FROM edges": n_steps, "TO edges": n_steps},
        "the log has",
        "the study is INCOMPLETE (drop it or load the log again)",
    )
    store.run("finish_study", study=stid, digest=digest)
    return report


def _step_fields(s) -> tuple:
    """A step (a dict as :func:`store_steps` takes it, or a :class:`~graphsr.core.routes.RouteStep`) as
    ``(route_id, step, docid, from, to, user, topic, duration_ms, timestamp, line)``."""
    if isinstance(s, dict):
        return (
            str(s["route_id"]),
            int(s["step"]),
            s["docid"],
            s["from"],
            s["to"],
            s.get("user"),
            s.get("topic"),
            s.get("duration_ms"),
            s.get("timestamp"),
            s.get("line"),
        )
    return (str(s.route_id), int(s.step), s.docid, s.src, s.dst, s.user, s.topic, s.duration_ms, s.timestamp, s.line)


def _create_steps(store: GraphStore, study: str, rows: Iterable[tuple], node: dict[int, int], keys: set[int]) -> None:
    """Write an empty study's steps with ``create_steps``: whole routes per statement (a route's steps all in the
    statement that creates it), about ``store.batch_size`` steps each, their elements (``keys``: every one the
    steps name) by the store's own node ids (``node``, read with them under the same writer lock, which keeps
    them fixed)."""
    if not keys <= node.keys():
        raise AssertionError(f"{len(keys - node.keys())} element(s) of the study have no node id")
    by_route: dict[str, list] = {}
    for route_node, route_id, user, topic, prefix, seq, src, dst, duration, time in rows:
        route = by_route.get(route_node)
        if route is None:
            route = by_route[route_node] = [route_node, route_id, user, topic, prefix, []]
        route[5].append([node[src], node[dst], seq, duration, time])
    batch: list[list] = []
    size = 0
    for route in by_route.values():
        batch.append(route)
        size += len(route[5])
        if size >= store.batch_size:
            store.run("create_steps", study=study, rows=batch)
            batch, size = [], 0
    if batch:
        store.run("create_steps", study=study, rows=batch)
