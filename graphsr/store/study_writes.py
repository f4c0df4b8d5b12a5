"""Loading a navigation log as a study of a stored collection (:func:`store_steps`).

The log's steps are handled as columns (:meth:`graphsr.core.routes.Routes.columns`), never one object a step:
100,000 routes of 400,803 steps are read, resolved and sent in a few seconds.  The server is kept busy from the
start: it reads the documents the log names (:class:`~graphsr.store.resolve.Reads`) while this thread takes the
log's digest and encodes what of the rows needs no element; then, on the local store, the routes are created
whole, a batch of routes per statement, by one writer thread while this one names the elements of the next
documents.  A study is never a mix of two logs (:mod:`graphsr.store.named`): a log for a study of that name
already stored is compared (its digest) before anything is written, and a new study's digest is stored with
its completion.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable

from .._gc import collector_paused
from ..core.document import canonical_xpath
from ..core.routes import STEP_FIELDS, Routes
from ..errors import UnknownNodeError
from ._falkor_params import Literal, literals
from .base import GraphStore, writes
from .ids import _part, node_id, node_id_prefix
from .receipts import check_receipt
from .study_digest import held_digest, log_digest, route_starts

__all__ = ["store_steps", "StepsReport"]


def _c_writer():
    """The C writer of create_steps' rows (graphsr.store._rows, see setup.py), or None where it was not built."""
    try:
        from . import _rows
    except ImportError:  # pragma: no cover - the extension is optional
        return None
    return _rows


_rows = _c_writer()


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


class _Pairs:
    """The (docid, XPath) pairs a log names, each once and numbered, and every step's ``from`` and ``to`` as the
    number of its pair: the tuples of 400,803 steps are hashed once here, not again by each reader of them."""

    def __init__(self, columns):
        docids, src, dst = columns[2], columns[3], columns[4]
        starts, ends = list(zip(docids, src)), list(zip(docids, dst))
        number = {p: i for i, p in enumerate(dict.fromkeys(starts + ends))}
        self.list: list[tuple[str, str]] = list(number)
        self.src: list[int] = list(map(number.__getitem__, starts))
        self.dst: list[int] = list(map(number.__getitem__, ends))
        self.of_doc: dict[str, list[int]] = {}
        for i, (d, _) in enumerate(self.list):
            self.of_doc.setdefault(d, []).append(i)

    def keys(self, index: dict[tuple[str, str], int]) -> tuple[list[int], list[int]]:
        """Every step's ``from`` and ``to`` keys, given each pair's (``index``)."""
        key = list(map(index.__getitem__, self.list))
        return list(map(key.__getitem__, self.src)), list(map(key.__getitem__, self.dst))


def _resolve(
    store: GraphStore, collection: str, columns, pairs: _Pairs, source, node_ids: dict, on_keyed=None, reads=None
) -> tuple[dict[tuple[str, str], int], list[int], list[int]]:
    """The key of each (docid, XPath) the log names, and of every step's ``from`` and ``to`` (``on_keyed``: see
    :func:`~graphsr.store.resolve.require_elements`); an element not stored is one
    :class:`~graphsr.errors.UnknownNodeError` naming the first line of the log that names it."""
    from .resolve import require_elements

    try:
        index = require_elements(
            store, collection, pairs.list, source, node_ids=node_ids, canonical=True, on_keyed=on_keyed, reads=reads
        )
    except UnknownNodeError:  # again, with the line of each pair (a map only the message needs)
        docids, src, dst, lines = columns[2], columns[3], columns[4], columns[9]
        first: dict = {}
        for d, a, b, line in zip(docids, src, dst, lines):
            first.setdefault((d, a), line)
            first.setdefault((d, b), line)
        require_elements(store, collection, pairs.list, source, lines=first, canonical=True)
        raise
    return (index, *pairs.keys(index))


def _store_steps(
    store: GraphStore, collection: str, study: str, columns: tuple[list, ...], source, replace: bool
) -> StepsReport:
    from .named import _make_room
    from .resolve import Reads
    from .services import drop_study

    stid = node_id("Study", collection, study)
    n_steps, n_routes = len(columns[0]), len(set(columns[0]))
    report = StepsReport(steps=n_steps, routes=n_routes)
    what = f"study {study!r} of collection {collection!r}"
    node_ids: dict[int, int] = {}  # the local store's node ids of the elements (see _RouteWriter)
    state = store.run("study_state", study=stid)
    # the server reads the documents the log names while this thread takes the log's digest and readies the rows
    reads = Reads(store, collection, columns[2], node_ids=True)
    try:
        streamed = not state and store.exclusive_writer  # a new study: its routes written as its elements resolve
        digest = (
            "" if streamed else log_digest(columns)
        )  # (a streamed log's is taken while its last routes are written)
        if state and state[0]["complete"] is not False and state[0]["digest"] == digest:
            report.unchanged = True  # the same log (compared before anything is resolved)
            return report
        pairs = _Pairs(columns)
        before = None
        if streamed:
            before = _kind_counts(store)
            src_keys, dst_keys, digest = _stream_steps(
                store, collection, study, columns, pairs, source, node_ids, reads
            )
        else:
            index, src_keys, dst_keys = _resolve(store, collection, columns, pairs, source, node_ids, reads=reads)
            if state:  # a study of that name: compared before anything is written
                report.unchanged, report.replaced = _make_room(
                    state,
                    held_digest(state, columns, src_keys, dst_keys, digest),
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
                _create_steps(store, stid, _prefixes(collection, study), columns, index, node_ids, pairs)
            else:  # other loads may write at once: MERGE on the ids the constraints keep unique
                _merge_steps(store, collection, study, stid, columns, src_keys, dst_keys)
    finally:
        reads.close()
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
    store: GraphStore, collection: str, study: str, columns, pairs: _Pairs, source, node_ids: dict, reads
) -> tuple[list[int], list[int], str]:
    """A new study's routes, written as the log resolves: each route once every document it names is keyed
    (:func:`~graphsr.store.resolve.require_elements`' ``on_keyed``), by the writer thread of a
    :class:`_RouteWriter`, while this one resolves the next documents (``reads``: theirs, started ahead).  A
    log that names an element not stored, or any failure, removes what was written (the study with it) before
    the error is raised; where that removal fails too, the study stays INCOMPLETE.  Returns every step's
    ``from`` and ``to`` keys, and the log's digest (taken while the server creates the last routes)."""
    from .services import drop_study

    stid = node_id("Study", collection, study)
    store.run("begin_study", study=stid, name=study, collection=collection)  # INCOMPLETE until the last batch
    writer = _RouteWriter(store, stid, _prefixes(collection, study), columns, node_ids, pairs)
    docids = columns[2]
    waiting = [0] * len(writer.starts)  # per route: its documents not keyed yet
    routes_of: dict[str, list[int]] = {}
    for r, (a, b) in enumerate(zip(writer.starts, writer.ends)):
        for d in set(docids[a:b]):
            routes_of.setdefault(d, []).append(r)
            waiting[r] += 1

    def keyed(done: list[str], keys: dict) -> None:
        writer.key(done, keys)
        ready = []
        for d in done:
            for r in routes_of.pop(d, ()):
                waiting[r] -= 1
                if not waiting[r]:
                    ready.append(r)
        writer.add(ready)

    try:
        _, src_keys, dst_keys = _resolve(store, collection, columns, pairs, source, node_ids, keyed, reads)
        writer.flush()
        digest = log_digest(columns)  # while the server creates the last routes
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
    node ids (``node``: read with them under the same writer lock, which keeps them fixed), each written out once
    per pair of the log (:meth:`key`), not once per step naming it."""

    def __init__(
        self, store: GraphStore, study: str, prefixes: tuple[str, str], columns, node: dict[int, int], pairs: _Pairs
    ):
        self.store, self.study, self.columns, self.node, self.pairs = store, study, columns, node, pairs
        route_ids = columns[0]
        self.starts = route_starts(route_ids)
        self.ends = self.starts[1:] + [len(route_ids)]  # (a route's rows are together: _columns)
        self.prefixes = prefixes
        self.nodes: list[int | None] = [None] * len(pairs.list)  # each pair's node id, once keyed
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphsr-writer")
        self.pending: list = []
        self.batch: list[int] = []
        self.size = 0

    def key(self, docids: list[str], keys: dict) -> None:
        """Note the node ids of the pairs of documents ``docids``, keyed by ``keys`` ((docid, XPath) -> key)."""
        node, pair, nodes, of_doc = self.node, self.pairs.list, self.nodes, self.pairs.of_doc
        for d in docids:
            for p in of_doc.get(d, ()):
                nodes[p] = node[keys[pair[p]]]

    def add(self, routes: list[int]) -> None:
        """Write the routes numbered ``routes`` (in the log's order of routes), whose documents are keyed."""
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
        route_ids, seqs, _, _, _, users, topics, durations, times, _ = self.columns
        src, dst = self.pairs.src, self.pairs.dst
        text = None
        if _rows is not None:  # (in C; None where a value is of a kind it leaves to Python)
            args = (routes, self.starts, self.ends, route_ids, users, topics, self.prefixes, src, dst, self.nodes)
            text = _rows.routes(*args, seqs, durations, times)
        if text is None:
            text = self._text(routes)
        return self.store.prepare("create_steps", study=self.study, rows=Literal(text))

    def _text(self, routes: list[int]) -> str:
        """The routes' rows as literal text, written in Python."""
        starts, ends, nodes = self.starts, self.ends, self.nodes
        src, dst = self.pairs.src, self.pairs.dst
        rows = [i for r in routes for i in range(starts[r], ends[r])]
        # every step's [node of from, node of to, seq, duration_ms, time]
        steps = list(
            map(
                "[%s,%s%s".__mod__,
                zip([nodes[src[i]] for i in rows], [nodes[dst[i]] for i in rows], _step_tails(self.columns, rows)),
            )
        )
        out = []
        at = 0
        for head, r in zip(_route_heads(self.columns, [starts[r] for r in routes], self.prefixes), routes):
            n = ends[r] - starts[r]
            out.append(head + ",".join(steps[at : at + n]) + "]]")
            at += n
        return "[" + ",".join(out) + "]"


def _route_heads(columns, starts: list[int], prefixes: tuple[str, str]) -> list[str]:
    """The row up to its steps of each route whose first row is one of ``starts``: ``[id, route_id, user_id,
    topic_id, steps' id prefix, [``."""
    route_ids, users, topics = columns[0], columns[5], columns[6]
    route_prefix, step_prefix = prefixes
    names = [route_ids[i] for i in starts]
    parts = list(map(_part, names))  # (as ids write them)
    return list(
        map(
            "[%s,%s,%s,%s,%s,[".__mod__,
            zip(
                literals([route_prefix + p for p in parts]),
                literals(names),
                literals([users[i] for i in starts]),
                literals([topics[i] for i in starts]),
                literals([step_prefix + p + "/" for p in parts]),
            ),
        )
    )


def _step_tails(columns, rows: list[int]) -> list[str]:
    """The rows' steps after their elements: ``,seq,duration_ms,time]``."""
    seqs, durations, times = columns[1], columns[7], columns[8]
    return list(
        map(
            ",%s,%s,%s]".__mod__,
            zip(
                literals([seqs[i] for i in rows]),
                literals([durations[i] for i in rows]),
                literals([times[i] for i in rows]),
            ),
        )
    )


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
    index: dict[tuple[str, str], int],
    node: dict[int, int],
    pairs: _Pairs | None = None,
) -> None:
    """Write an empty study's steps, whose elements' keys are known (``index``: (docid, XPath) -> key, as
    :func:`_resolve` gives them), with a :class:`_RouteWriter`."""
    if not set(index.values()) <= node.keys():
        raise AssertionError(f"{len(set(index.values()) - node.keys())} element(s) of the study have no node id")
    pairs = _Pairs(columns) if pairs is None else pairs
    writer = _RouteWriter(store, study, prefixes, columns, node, pairs)
    try:
        writer.key(list(pairs.of_doc), index)
        writer.add(list(range(len(writer.starts))))
        writer.flush()
        writer.wait()
    finally:
        writer.abandon()
