"""Loading a navigation log as a study of a stored collection (:func:`store_steps`).

The log's steps are handled as columns (:meth:`graphsr.core.routes.Routes.columns`), never one object a step:
100,000 routes of 400,803 steps are read, resolved and sent in a few seconds.  On the local store the routes
are created whole, a batch of routes per statement, by one writer thread while this one encodes the next
batch and then takes the log's digest: the server works while Python does.  A study is never a mix of two
logs (:mod:`graphsr.store.named`): a log for a study of that name already stored is compared (its digest)
before anything is written; a new study's digest is taken while its routes are written, and stored with its
completion.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable

from .._gc import collector_paused
from ..core.document import canonical_xpath
from ..core.routes import STEP_FIELDS, Routes
from ..errors import UnknownNodeError
from ._falkor_params import Literal, literals, string_literal
from .base import GraphStore, writes
from .ids import _part, node_id, node_id_prefix
from .receipts import check_receipt

__all__ = ["store_steps", "StepsReport"]


@dataclass
class StepsReport:
    """What loading a log as a study did: ``steps`` and ``routes`` the study holds, and whether it was
    ``unchanged`` (the same log was stored) or ``replaced`` (another was)."""

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
    messages), or a :class:`~graphsr.core.routes.RouteStep`; or a whole :class:`~graphsr.core.routes.Routes`
    log (read as columns).  The elements must be stored.  ``steps`` is read once.

    A study is never a mix of two logs (see :mod:`graphsr.store.named`: the same log again changes nothing,
    another is refused unless ``replace``).  The steps written are counted against the log: its routes, its
    steps, and one FROM and one TO edge each.
    """
    with collector_paused():  # (columns of hundreds of thousands of values, no cycles among them)
        return _store_steps(store, collection, study, _columns(steps), source, replace)


def _columns(steps) -> tuple[list, ...]:
    """The steps as columns (:data:`~graphsr.core.routes.STEP_FIELDS`), XPaths canonical, each route's rows
    together (in their given order; routes in the order they first appear)."""
    if isinstance(steps, Routes):
        return steps.columns()  # (canonical, grouped by route: the reader's)
    rows = [_step_fields(s) for s in steps]
    if not rows:
        return tuple([] for _ in STEP_FIELDS)
    columns = [list(c) for c in zip(*rows)]
    canonical = {x: canonical_xpath(x) for x in {*columns[3], *columns[4]}}
    columns[3] = list(map(canonical.__getitem__, columns[3]))
    columns[4] = list(map(canonical.__getitem__, columns[4]))
    first: dict = {}
    route = [first.setdefault(r, i) for i, r in enumerate(columns[0])]
    if any(a > b for a, b in zip(route, route[1:])):  # a route's rows apart: together, in their order
        order = sorted(range(len(route)), key=route.__getitem__)
        columns = [[c[i] for i in order] for c in columns]
    return tuple(columns)


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


def _resolve(store: GraphStore, collection: str, columns, source, node_ids: dict) -> tuple[list[int], list[int]]:
    """The element keys of every step's ``from`` and ``to``; an element not stored is one
    :class:`~graphsr.errors.UnknownNodeError` naming the first line of the log that names it."""
    from .resolve import require_elements

    docids, src, dst, lines = columns[2], columns[3], columns[4], columns[9]
    pairs = set(zip(docids, src))
    pairs.update(zip(docids, dst))
    try:
        index = require_elements(store, collection, pairs, source, node_ids=node_ids, canonical=True)
    except UnknownNodeError:  # again, with the line of each pair (a map only the message needs)
        first: dict = {}
        for d, a, b, line in zip(docids, src, dst, lines):
            first.setdefault((d, a), line)
            first.setdefault((d, b), line)
        require_elements(store, collection, pairs, source, lines=first, canonical=True)
        raise
    return list(map(index.__getitem__, zip(docids, src))), list(map(index.__getitem__, zip(docids, dst)))


def _digest(columns, src_keys: list[int], dst_keys: list[int]) -> str:
    """The log's digest (:func:`~graphsr.store.named.content_digest` of its steps sorted, elements as keys)."""
    from .named import content_digest

    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    return content_digest(sorted(zip(route_ids, seqs, src_keys, dst_keys, users, topics, durations, times)))


def _store_steps(
    store: GraphStore, collection: str, study: str, columns: tuple[list, ...], source, replace: bool
) -> StepsReport:
    from .named import _make_room
    from .services import drop_study

    node_ids: dict[int, int] = {}  # the local store's node ids of the elements (see _create_steps)
    src_keys, dst_keys = _resolve(store, collection, columns, source, node_ids)
    stid = node_id("Study", collection, study)
    n_steps, n_routes = len(columns[0]), len(set(columns[0]))
    report = StepsReport(steps=n_steps, routes=n_routes)
    what = f"study {study!r} of collection {collection!r}"
    state = store.run("study_state", study=stid)
    digest = None
    if state:  # a study of that name: compared before anything is written
        digest = _digest(columns, src_keys, dst_keys)
        report.unchanged, report.replaced = _make_room(
            state,
            digest,
            replace,
            what,
            "another log",
            f"this one: {n_steps} steps of {n_routes} routes",
            source,
            lambda: drop_study(store, collection, study),
        )
        if report.unchanged:
            return report
    store.run("begin_study", study=stid, name=study, collection=collection)  # INCOMPLETE until the last batch
    if store.exclusive_writer:  # no other load writes: the study is empty, its routes are created whole
        prefixes = (node_id_prefix("Route", collection, study), node_id_prefix("Step", collection, study))
        digest = _create_steps(store, stid, prefixes, columns, (src_keys, dst_keys), node_ids, digest)
    else:  # other loads may write at once: MERGE on the ids the constraints keep unique
        _merge_steps(store, collection, study, stid, columns, src_keys, dst_keys)
    if digest is None:
        digest = _digest(columns, src_keys, dst_keys)
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


def _merge_steps(store: GraphStore, collection: str, study: str, stid: str, columns, src_keys, dst_keys) -> None:
    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    route_prefix, step_prefix = node_id_prefix("Route", collection, study), node_id_prefix("Step", collection, study)
    store.write(
        "merge_steps",
        (
            {
                "src": src,
                "dst": dst,
                "study": stid,
                "study_name": study,
                "route": route_prefix + _part(route_id),
                "route_id": route_id,
                "user_id": user,
                "topic_id": topic,
                "id": step_prefix + _part(route_id) + "/" + str(seq),
                "seq": seq,
                "duration_ms": duration,
                "time": time,
            }
            for route_id, seq, src, dst, user, topic, duration, time in zip(
                route_ids, seqs, src_keys, dst_keys, users, topics, durations, times
            )
        ),
    )


def _create_steps(
    store: GraphStore,
    study: str,
    prefixes: tuple[str, str],
    columns,
    keys: tuple[list[int], list[int]],
    node: dict[int, int],
    digest: str | None,
) -> str:
    """Write an empty study's steps with ``create_steps``: whole routes per statement (a route's steps all in the
    statement that creates it), about ``store.batch_size`` steps each, their elements by the store's own node ids
    (``node``, read with them under the same writer lock, which keeps them fixed); routes and steps have the ids
    ``prefixes`` begin (:func:`~graphsr.store.ids.node_id_prefix`).  One writer thread sends the statements while
    this one encodes the next; then this one takes the log's digest if ``digest`` is None.  Returns the
    digest."""
    src_keys, dst_keys = keys
    route_prefix, step_prefix = prefixes
    if not {*src_keys, *dst_keys} <= node.keys():
        raise AssertionError(f"{len({*src_keys, *dst_keys} - node.keys())} element(s) of the study have no node id")
    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    # every step's literal [node of from, node of to, seq, duration_ms, time], as params_header encodes it (tested)
    step_rows = list(
        map(
            "[%s,%s,%s,%s,%s]".__mod__,
            zip(
                map(str, map(node.__getitem__, src_keys)),
                map(str, map(node.__getitem__, dst_keys)),
                literals(seqs),
                literals(durations),
                literals(times),
            ),
        )
    )
    starts = [i for i in range(len(route_ids)) if i == 0 or route_ids[i] != route_ids[i - 1]]  # (rows together)
    ends = starts[1:] + [len(route_ids)]
    first = [route_ids[i] for i in starts]
    route_heads = list(
        map(
            "[%s,%s,%s,%s,%s,[".__mod__,
            zip(
                [string_literal(route_prefix + _part(r)) for r in first],
                literals(first),
                literals([users[i] for i in starts]),
                literals([topics[i] for i in starts]),
                [string_literal(step_prefix + _part(r) + "/") for r in first],
            ),
        )
    )
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-writer")
    pending = []
    try:
        batch: list[str] = []
        size = 0
        for head, a, b in zip(route_heads, starts, ends):
            batch.append(head + ",".join(step_rows[a:b]) + "]]")
            size += b - a
            if size >= store.batch_size:
                pending.append(writer.submit(store.execute, _prepared(store, study, batch)))
                batch, size = [], 0
        if batch:
            pending.append(writer.submit(store.execute, _prepared(store, study, batch)))
        del step_rows, route_heads
        if digest is None:  # while the server creates the routes
            digest = _digest(columns, src_keys, dst_keys)
        for p in pending:
            p.result()
    finally:
        for p in pending:
            p.cancel()
        writer.shutdown(wait=True)
    return digest


def _prepared(store: GraphStore, study: str, batch: list[str]):
    return store.prepare("create_steps", study=study, rows=Literal("[" + ",".join(batch) + "]"))
