"""A documented, seeded simulator of user routes through XML documents.

There are no public navigation logs, so tests, the demo and sensitivity
analyses use simulated ones.  A simulated user:

1. picks a document (uniformly among those given) and an **entry point**:
   an element drawn with probability proportional to its depth weight
   (``entry='depth'``, default) or the root (``entry='root'``);
2. takes a number of steps drawn as ``1 + Geometric`` with mean
   ``mean_steps`` (at least one step);
3. at each step moves to a **neighbour** in the tree (the parent or a child:
   the elementary navigation graph of the ESR paper is the tree with edges
   both ways), chosen with probability proportional to the neighbour's depth
   weight; a node without neighbours ends the route;
4. dwells on each target a log-normal time (``dwell_ms``: median
   ``exp(mu)`` ms, shape ``sigma``), reported as the step's ``duration_ms``.

**Depth preference.**  Interactive INEX studies found users prefer elements
at depth 2-4 (the root is depth 1); the default weights are 0.5 at depth 1,
1.0 at depths 2-4 and 0.3 deeper.  So the walk is a Markov chain whose
transition probabilities, :meth:`RouteSimulator.transition_matrix`, are
known exactly: a model learned from enough simulated routes must converge to
them (a test checks).

**Memory.**  Moves are drawn from each node's neighbour list
(:meth:`RouteSimulator.neighbours`), never from an ``n x n`` matrix; and
:meth:`RouteSimulator.walk_collection` reads a collection on disk once, one
document at a time, so simulating routes takes the memory of the largest
document whatever the collection's size (``graphsr simulate-routes`` uses it).
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from ..core.document import DocumentTree
from ..core.routes import RouteStep

__all__ = ["RouteSimulator", "write_routes"]

DEFAULT_DEPTH_WEIGHTS = {1: 0.5, 2: 1.0, 3: 1.0, 4: 1.0}
DEEP_WEIGHT = 0.3


#: The longest mean route the simulator walks (steps are drawn one at a time, in Python).
MAX_MEAN_STEPS = 10_000


@dataclass(frozen=True)
class RouteSimulator:
    """Seeded random walks over document trees (see the module docstring).

    Parameters
    ----------
    seed : int
    depth_weights : dict of int to float
        Weight of each depth; depths not listed get ``deep_weight``.
    deep_weight : float
    mean_steps : float
        Mean number of steps per route, in [1, :data:`MAX_MEAN_STEPS`].
    dwell_ms : (float, float)
        ``(mu, sigma)`` of the log-normal dwell time in milliseconds.
    entry : {'depth', 'root'}
    users, topics : int
        Routes are attributed to ``u1..uN`` and ``t1..tM`` at random (0: none).
    """

    seed: int = 0
    depth_weights: dict = field(default_factory=lambda: dict(DEFAULT_DEPTH_WEIGHTS))
    deep_weight: float = DEEP_WEIGHT
    mean_steps: float = 4.0
    dwell_ms: tuple = (8.5, 1.0)
    entry: str = "depth"
    users: int = 20
    topics: int = 0

    def __post_init__(self) -> None:
        import math

        if not 1 <= self.mean_steps <= MAX_MEAN_STEPS:  # (nan is in no range)
            raise ValueError(f"mean_steps must lie in [1, {MAX_MEAN_STEPS}], got {self.mean_steps}")
        if self.entry not in ("depth", "root"):
            raise ValueError(f"entry must be 'depth' or 'root', got {self.entry!r}")
        weights = [*self.depth_weights.values(), self.deep_weight]
        if not all(math.isfinite(w) and w >= 0 for w in weights):
            raise ValueError(f"depth weights must be finite and non-negative, got {weights}")
        if not any(w > 0 for w in weights):
            raise ValueError("every depth weight is 0: no route could take a step")
        for name in ("seed", "users", "topics"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= 2**32 - 1:
                raise ValueError(f"{name} must be an integer in [0, 4294967295], got {v!r}")

    def weights(self, depth: np.ndarray) -> np.ndarray:
        """Depth weight of each node."""
        w = np.full(len(depth), float(self.deep_weight))
        for d, v in self.depth_weights.items():
            w[depth == d] = v
        return w

    def transition_matrix(self, doc: DocumentTree) -> np.ndarray:
        """``M[from, to]``: the walk's exact probability of the step ``from -> to`` within ``doc``."""
        n = len(doc)
        w = self.weights(doc.depth)
        m = np.zeros((n, n))
        child = np.flatnonzero(doc.parent >= 0)
        m[doc.parent[child], child] = w[child]
        m[child, doc.parent[child]] = w[doc.parent[child]]
        rows = m.sum(axis=1, keepdims=True)
        return np.divide(m, rows, out=np.zeros_like(m), where=rows > 0)

    def neighbours(self, doc: DocumentTree) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The walk's moves from each node of ``doc``, without an ``n x n`` matrix: ``ptr``, ``to`` and ``prob``
        (node ``i`` moves to ``to[ptr[i]:ptr[i + 1]]``, its parent and children in document order, with the
        probabilities ``prob[...]``: the nonzero entries of :meth:`transition_matrix`'s row ``i``) and each
        node's total neighbour weight (0: the route ends there)."""
        n = len(doc)
        w = self.weights(doc.depth)
        child = np.flatnonzero(doc.parent >= 0)
        parent = doc.parent[child].astype(np.int64)
        src = np.concatenate([parent, child])
        dst = np.concatenate([child, parent])
        order = np.lexsort((dst, src))
        src, dst = src[order], dst[order]
        ptr = np.concatenate(([0], np.cumsum(np.bincount(src, minlength=n))))
        weight = w[dst]
        total = np.add.reduceat(weight, ptr[:-1]) if len(weight) else np.zeros(n)
        total = np.where(np.diff(ptr) > 0, total, 0.0)
        prob = np.divide(weight, total[src], out=np.zeros_like(weight), where=total[src] > 0)
        return ptr, dst, prob, total

    def _routes_of(self, rng, doc: DocumentTree, route_ids, clock_of) -> Iterator[RouteStep]:
        """The routes ``route_ids`` over ``doc``, drawn from ``rng`` (one generator, in turn), each step's
        timestamp from ``clock_of(route, dwell)`` (seconds)."""
        ptr, to, prob, total = self.neighbours(doc)
        w = self.weights(doc.depth)
        xpaths: dict[int, str] = {}  # the XPaths of the nodes visited (a route sees a few of a document's nodes)

        def xpath(i: int) -> str:
            x = xpaths.get(i)
            if x is None:
                x = xpaths[i] = doc.xpath(i)
            return x

        p_stop = 1.0 / self.mean_steps
        mu, sigma = self.dwell_ms
        entry = None if self.entry == "root" or w.sum() == 0 else _cdf(w / w.sum())
        cdfs: dict[int, np.ndarray] = {}  # each node's moves, as numpy's choice draws them, made on first visit
        for r in route_ids:
            rng_r = rng(r)
            cur = 0 if entry is None else _choose(entry, rng_r)
            steps = int(rng_r.geometric(p_stop))
            user = f"u{int(rng_r.integers(self.users)) + 1}" if self.users else None
            topic = f"t{int(rng_r.integers(self.topics)) + 1}" if self.topics else None
            for s in range(1, steps + 1):
                if total[cur] == 0:
                    break
                cdf = cdfs.get(cur)
                if cdf is None:
                    cdf = cdfs[cur] = _cdf(prob[ptr[cur] : ptr[cur + 1]])
                nxt = int(to[ptr[cur] + _choose(cdf, rng_r)])
                dwell = float(rng_r.lognormal(mu, sigma))
                yield RouteStep(
                    f"r{r + 1}",
                    s,
                    doc.docid,
                    xpath(cur),
                    xpath(nxt),
                    user,
                    topic,
                    round(dwell, 1),
                    f"{clock_of(r, dwell):.3f}",
                )
                cur = nxt

    def walk(self, docs: Sequence[DocumentTree], n_routes: int) -> Iterator[RouteStep]:
        """``n_routes`` simulated routes over ``docs`` (held in memory), as steps (XPaths), deterministic for a
        seed: one generator draws, route after route, the document, the entry point, the length and the moves;
        timestamps run on one clock across the routes.  For a collection on disk, :meth:`walk_collection`
        streams the documents instead."""
        rng = np.random.default_rng(self.seed)
        docs = list(docs)
        if not docs:
            raise ValueError("no documents to walk")
        clock = [0.0]

        def tick(_route, dwell):
            clock[0] += dwell
            return clock[0] / 1000

        for r in range(n_routes):
            k = int(rng.integers(len(docs)))
            yield from self._routes_of(lambda _r: rng, docs[k], [r], tick)

    #: Seconds between the starts of two consecutive routes of :meth:`walk_collection`'s log.
    ROUTE_GAP_S = 3600.0

    def walk_collection(self, collection, n_routes: int, progress: bool = False) -> Iterator[RouteStep]:
        """``n_routes`` simulated routes over a collection on disk, reading one document at a time: memory is
        that of the largest document, whatever the collection's size.

        Deterministic for a seed, by another scheme than :meth:`walk` (which needs every document at hand):
        each route's document is drawn first (one generator for all), then the collection is read once, in
        its order, and each route is walked with a generator of its own (seeded by the seed and the route's
        number), so the steps do not depend on the order the documents are read in.  Steps come document by
        document; route ``r`` (from 1) starts at ``(r - 1) * ROUTE_GAP_S`` seconds and its timestamps add its
        dwell times.

        Parameters
        ----------
        collection : path-like or list of CollectionSource
            The collection (:func:`graphsr.io.list_collection`).
        n_routes : int
        progress : bool
            A progress bar over the documents read.
        """
        from ..io.collection import iter_documents, list_collection

        sources = list_collection(collection) if isinstance(collection, (str, os.PathLike)) else list(collection)
        if not sources:
            raise ValueError("no documents to walk")
        picks = np.random.default_rng([self.seed, 0]).integers(len(sources), size=n_routes)
        order = np.argsort(picks, kind="stable")
        starts = np.searchsorted(picks[order], np.arange(len(sources) + 1))
        wanted = {sources[k].docid: k for k in np.unique(picks).tolist()}
        elapsed: dict[int, float] = {}

        def tick(route, dwell):
            elapsed[route] = elapsed.get(route, 0.0) + dwell
            return (route * self.ROUTE_GAP_S * 1000 + elapsed[route]) / 1000

        for doc in iter_documents(
            [sources[k] for k in sorted(wanted.values())], progress=progress, desc="simulating routes"
        ):
            k = wanted[doc.docid]
            routes = order[starts[k] : starts[k + 1]].tolist()
            yield from self._routes_of(lambda r: np.random.default_rng([self.seed, 1, r]), doc, routes, tick)
            for r in routes:
                elapsed.pop(r, None)


def _cdf(p: np.ndarray) -> np.ndarray:
    """The cumulative distribution numpy's ``Generator.choice(len(p), p=p)`` searches."""
    cdf = p.cumsum()
    cdf /= cdf[-1]
    return cdf


def _choose(cdf: np.ndarray, rng) -> int:
    """``rng.choice(len(cdf), p=...)`` for a distribution given by :func:`_cdf`: the same uniform draw, the same
    index, without re-checking and re-summing the probabilities at every step."""
    return int(cdf.searchsorted(rng.random(), side="right"))


def write_routes(steps: Iterable[RouteStep], path: str | os.PathLike, fmt: str | None = None) -> int:
    """Write steps as a CSV or JSON-lines navigation log (by ``fmt`` or the file extension)."""
    from ..io.sniff import routes_format_of_name

    fmt = fmt or routes_format_of_name(path)
    cols = ["route_id", "step", "docid", "from", "to", "user", "topic", "duration_ms", "timestamp"]
    from ..io.atomic import atomic_write

    n = 0
    with atomic_write(path, "the navigation log", newline="") as fh:  # nothing half-written
        if fmt == "csv":
            w = csv.writer(fh)
            w.writerow(cols)
        for s in steps:
            d = s.as_dict()
            if fmt == "csv":
                w.writerow(["" if d[c] is None else d[c] for c in cols])
            else:
                fh.write(json.dumps({c: d[c] for c in cols if d[c] is not None}) + "\n")
            n += 1
    return n
