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


def _resolve(
    store: GraphStore, collection: str, columns, source, node_ids: dict, on_keyed=None
) -> tuple[dict[tuple[str, str], int], list[int], list[int]]:
    """The key of each (docid, XPath) the log names, and of every step's ``from`` and ``to`` (``on_keyed``: see
    :func:`~graphsr.store.resolve.require_elements`); an element not stored is one
    :class:`~graphsr.errors.UnknownNodeError` naming the first line of the log that names it."""
    from .resolve import require_elements

    docids, src, dst, lines = columns[2], columns[3], columns[4], columns[9]
    pairs = set(zip(docids, src))
    pairs.update(zip(docids, dst))
    try:
        index = require_elements(store, collection, pairs, source, node_ids=node_ids, canonical=True, on_keyed=on_keyed)
    except UnknownNodeError:  # again, with the line of each pair (a map only the message needs)
        first: dict = {}
        for d, a, b, line in zip(docids, src, dst, lines):
            first.setdefault((d, a), line)
            first.setdefault((d, b), line)
        require_elements(store, collection, pairs, source, lines=first, canonical=True)
        raise
    return index, list(map(index.__getitem__, zip(docids, src))), list(map(index.__getitem__, zip(docids, dst)))


def _digest(columns, src_keys: list[int], dst_keys: list[int]) -> str:
    """The log's digest (:func:`~graphsr.store.named.content_digest` of its steps sorted, elements as keys)."""
    from .named import content_digest

    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    row = (route_ids, seqs, src_keys, dst_keys, users, topics, durations, times)
    order = _sorted_rows(route_ids, seqs)
    if order is None:
        return content_digest(sorted(zip(*row)))
    return content_digest(zip(*(map(c.__getitem__, order) for c in row)))


def _route_starts(route_ids: list[str]) -> list[int]:
    """The first row of each run of consecutive rows of one route."""
    return [i for i in range(len(route_ids)) if i == 0 or route_ids[i] != route_ids[i - 1]]


def _sorted_rows(route_ids: list[str], seqs: list[int]) -> list[int] | None:
    """The rows in the order of the steps sorted, found from their routes alone where that is the order (each
    route's rows together, with step numbers rising: then the rows sort by (route, step), which no two share),
    else None.  Sorts the 100,000 routes of a log of 400,803 steps rather than its steps."""
    n = len(route_ids)
    starts = _route_starts(route_ids)
    if any(seqs[i - 1] >= seqs[i] for i in range(1, n) if route_ids[i - 1] == route_ids[i]):
        return None
    firsts = sorted(starts, key=route_ids.__getitem__)
    if any(route_ids[a] == route_ids[b] for a, b in zip(firsts, firsts[1:])):  # (a route's rows apart)
        return None
    ends = dict(zip(starts, starts[1:] + [n]))
    return [i for a in firsts for i in range(a, ends[a])]


def _store_steps(
    store: GraphStore, collection: str, study: str, columns: tuple[list, ...], source, replace: bool
) -> StepsReport:
    from .named import _make_room
    from .services import drop_study

    stid = node_id("Study", collection, study)
    n_steps, n_routes = len(columns[0]), len(set(columns[0]))
    report = StepsReport(steps=n_steps, routes=n_routes)
    what = f"study {study!r} of collection {collection!r}"
    node_ids: dict[int, int] = {}  # the local store's node ids of the elements (see _RouteWriter)
    state = store.run("study_state", study=stid)
    before = None
    if not state and store.exclusive_writer:  # a new study: its routes are written as their elements resolve
        before = _kind_counts(store)
        src_keys, dst_keys, digest = _stream_steps(store, collection, study, columns, source, node_ids)
    else:
        index, src_keys, dst_keys = _resolve(store, collection, columns, source, node_ids)
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
        if store.exclusive_writer:
            before = _kind_counts(store)
        store.run("begin_study", study=stid, name=study, collection=collection)  # INCOMPLETE until the last batch
        if store.exclusive_writer:  # no other load writes: the study is empty, its routes are created whole
            digest = _create_steps(
                store, stid, _prefixes(collection, study), columns, (index, src_keys, dst_keys), node_ids, digest
            )
        else:  # other loads may write at once: MERGE on the ids the constraints keep unique
            _merge_steps(store, collection, study, stid, columns, src_keys, dst_keys)
    if digest is None:
        digest = _digest(columns, src_keys, dst_keys)
    held = _study_holds(store, stid, before)
    check_receipt(
        what,
        held,
        {kind: n_routes if kind in _PER_ROUTE else n_steps for kind in held},
        "the log has",
        "the study is INCOMPLETE (drop it or load the log again)",
    )
    store.run("finish_study", study=stid, digest=digest)
    return report


#: What a study's routes and steps are in the store: per route a Route node and its HAS_ROUTE edge, per step a
#: Step node, its HAS_STEP edge, and one FROM and one TO edge.
_STUDY_KINDS = ("Route", "HAS_ROUTE", "Step", "HAS_STEP", "FROM", "TO")
_PER_ROUTE = ("Route", "HAS_ROUTE")


def _kind_counts(store: GraphStore) -> dict[str, int]:
    """The store's own counts of the nodes and edges a study is made of (read from its statistics: milliseconds)."""
    return {kind: int(store.run(f"count_{kind}")[0]["n"]) for kind in _STUDY_KINDS}


def _study_holds(store: GraphStore, stid: str, before: dict[str, int] | None) -> dict[str, int]:
    """What the store holds of study ``stid``, per kind of :data:`_STUDY_KINDS`.  Under the store's exclusive
    writer lock (``before``: the store's counts taken under it, before the study's first write), what the store
    gained since: nothing else wrote, so that is the study (milliseconds, where counting along the study's
    edges takes a second per 400,000 steps).  Otherwise its routes, steps, FROM and TO edges counted along the
    study's edges."""
    if before is not None:
        after = _kind_counts(store)
        return {kind: after[kind] - before[kind] for kind in _STUDY_KINDS}
    [held] = store.run("study_holds", study=stid)
    return {"Route": held["routes"], "Step": held["steps"], "FROM": held["from_edges"], "TO": held["to_edges"]}


def _prefixes(collection: str, study: str) -> tuple[str, str]:
    return node_id_prefix("Route", collection, study), node_id_prefix("Step", collection, study)


def _stream_steps(
    store: GraphStore, collection: str, study: str, columns, source, node_ids: dict
) -> tuple[list[int], list[int], str]:
    """A new study's routes, written as the log resolves: each route once every document it names is keyed
    (:func:`~graphsr.store.resolve.require_elements`' ``on_keyed``), by the writer thread of a
    :class:`_RouteWriter`, while this one resolves the next documents and then takes the log's digest.  A
    log that names an element not stored, or any failure, removes what was written (the study with it) before
    the error is raised; where that removal fails too, the study stays INCOMPLETE.  Returns the keys and the
    digest."""
    from .services import drop_study

    stid = node_id("Study", collection, study)
    store.run("begin_study", study=stid, name=study, collection=collection)  # INCOMPLETE until the last batch
    writer = _RouteWriter(store, stid, _prefixes(collection, study), columns, node_ids)
    docids = columns[2]
    waiting = [0] * len(writer.starts)  # per route: its documents not keyed yet
    routes_of: dict[str, list[int]] = {}
    for r, (a, b) in enumerate(zip(writer.starts, writer.ends)):
        for d in set(docids[a:b]):
            routes_of.setdefault(d, []).append(r)
            waiting[r] += 1

    def keyed(done: list[str], keys: dict) -> None:
        ready = []
        for d in done:
            for r in routes_of.pop(d, ()):
                waiting[r] -= 1
                if not waiting[r]:
                    ready.append(r)
        writer.add(ready, keys)

    try:
        _, src_keys, dst_keys = _resolve(store, collection, columns, source, node_ids, on_keyed=keyed)
        writer.flush()
        digest = _digest(columns, src_keys, dst_keys)  # while the server creates the routes
        writer.wait()
    except BaseException:
        writer.abandon()
        try:
            drop_study(store, collection, study)
        except Exception:  # the study stays INCOMPLETE, and the first failure is the one reported
            pass
        raise
    if any(waiting):
        raise AssertionError(f"{sum(1 for w in waiting if w)} route(s) of the study were never written")
    return src_keys, dst_keys, digest


class _RouteWriter:
    """Whole routes sent with ``create_steps``, about ``store.batch_size`` steps a statement, by a writer thread
    of their own, while the caller goes on.  Rows are written as literal parameter text, as
    :func:`~graphsr.store._falkor_params.params_header` encodes the same lists (tested); elements by the store's own
    node ids (``node``: read with them under the same writer lock, which keeps them fixed)."""

    def __init__(self, store: GraphStore, study: str, prefixes: tuple[str, str], columns, node: dict[int, int]):
        self.store, self.study, self.prefixes, self.columns, self.node = store, study, prefixes, columns, node
        route_ids = columns[0]
        self.starts = _route_starts(route_ids)
        self.ends = self.starts[1:] + [len(route_ids)]  # (a route's rows are together: _columns)
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-writer")
        self.pending: list = []
        self.batch: list[int] = []
        self.size = 0
        self.keys: dict = {}

    def add(self, routes: list[int], keys: dict) -> None:
        """Write the routes numbered ``routes`` (in the log's order of routes), their elements keyed by ``keys``
        ((docid, XPath) -> key)."""
        self.keys = keys
        for r in routes:
            self.batch.append(r)
            self.size += self.ends[r] - self.starts[r]
            if self.size >= self.store.batch_size:
                self.flush()

    def flush(self) -> None:
        if self.batch:
            self.pending.append(self.writer.submit(self.store.execute, self._prepared(self.batch)))
            self.batch, self.size = [], 0

    def wait(self) -> None:
        """Wait for every statement sent; raise the first failure."""
        try:
            for p in self.pending:
                p.result()
        finally:
            self.abandon()

    def abandon(self) -> None:
        for p in self.pending:
            p.cancel()
        self.writer.shutdown(wait=True)

    def _prepared(self, routes: list[int]):
        route_ids, seqs, docids, src, dst, users, topics, durations, times, _ = self.columns
        rows = [i for r in routes for i in range(self.starts[r], self.ends[r])]
        keys, node = self.keys, self.node
        # every step's [node of from, node of to, seq, duration_ms, time]
        step_rows = list(
            map(
                "[%s,%s,%s,%s,%s]".__mod__,
                zip(
                    [str(node[keys[(docids[i], src[i])]]) for i in rows],
                    [str(node[keys[(docids[i], dst[i])]]) for i in rows],
                    literals([seqs[i] for i in rows]),
                    literals([durations[i] for i in rows]),
                    literals([times[i] for i in rows]),
                ),
            )
        )
        route_prefix, step_prefix = self.prefixes
        firsts = [self.starts[r] for r in routes]
        heads = map(
            "[%s,%s,%s,%s,%s,[".__mod__,
            zip(
                [string_literal(route_prefix + _part(route_ids[i])) for i in firsts],
                literals([route_ids[i] for i in firsts]),
                literals([users[i] for i in firsts]),
                literals([topics[i] for i in firsts]),
                [string_literal(step_prefix + _part(route_ids[i]) + "/") for i in firsts],
            ),
        )
        text = []
        at = 0
        for head, r in zip(heads, routes):
            n = self.ends[r] - self.starts[r]
            text.append(head + ",".join(step_rows[at : at + n]) + "]]")
            at += n
        return self.store.prepare("create_steps", study=self.study, rows=Literal("[" + ",".join(text) + "]"))


def _merge_steps(store: GraphStore, collection: str, study: str, stid: str, columns, src_keys, dst_keys) -> None:
    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    route_prefix, step_prefix = _prefixes(collection, study)
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
    keys: tuple[dict[tuple[str, str], int], list[int], list[int]],
    node: dict[int, int],
    digest: str | None,
) -> str:
    """Write an empty study's steps, whose elements' keys are known (``keys``: (docid, XPath) -> key, and every
    step's ``from`` and ``to``, as :func:`_resolve` gives them), with a :class:`_RouteWriter`; take the log's
    digest while the server creates them if ``digest`` is None.  Returns the digest."""
    index, src_keys, dst_keys = keys
    if not set(index.values()) <= node.keys():
        raise AssertionError(f"{len(set(index.values()) - node.keys())} element(s) of the study have no node id")
    writer = _RouteWriter(store, study, prefixes, columns, node)
    try:
        writer.add(list(range(len(writer.starts))), index)
        writer.flush()
        if digest is None:  # while the server creates the routes
            digest = _digest(columns, src_keys, dst_keys)
        writer.wait()
    finally:
        writer.abandon()
    return digest
