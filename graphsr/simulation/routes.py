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
"""

from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from ..model.document import DocumentTree
from ..model.routes import RouteStep

__all__ = ["RouteSimulator", "write_routes"]

DEFAULT_DEPTH_WEIGHTS = {1: 0.5, 2: 1.0, 3: 1.0, 4: 1.0}
DEEP_WEIGHT = 0.3


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
        Mean number of steps per route (>= 1).
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
        if self.mean_steps < 1:
            raise ValueError(f"mean_steps must be >= 1, got {self.mean_steps}")
        if self.entry not in ("depth", "root"):
            raise ValueError(f"entry must be 'depth' or 'root', got {self.entry!r}")
        if any(w < 0 for w in self.depth_weights.values()) or self.deep_weight < 0:
            raise ValueError("depth weights must be non-negative")

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

    def walk(self, docs: Sequence[DocumentTree], n_routes: int) -> Iterator[RouteStep]:
        """``n_routes`` simulated routes over ``docs``, as steps (XPaths), deterministic for a seed."""
        rng = np.random.default_rng(self.seed)
        docs = list(docs)
        if not docs:
            raise ValueError("no documents to walk")
        cache: dict[int, tuple] = {}
        p_stop = 1.0 / self.mean_steps
        mu, sigma = self.dwell_ms
        clock = 0.0
        for r in range(n_routes):
            k = int(rng.integers(len(docs)))
            doc = docs[k]
            if k not in cache:
                cache[k] = (self.transition_matrix(doc), self.weights(doc.depth), doc.xpaths())
            m, w, xpaths = cache[k]
            if self.entry == "root" or w.sum() == 0:
                cur = 0
            else:
                cur = int(rng.choice(len(doc), p=w / w.sum()))
            steps = int(rng.geometric(p_stop))
            user = f"u{int(rng.integers(self.users)) + 1}" if self.users else None
            topic = f"t{int(rng.integers(self.topics)) + 1}" if self.topics else None
            for s in range(1, steps + 1):
                row = m[cur]
                if row.sum() == 0:
                    break
                nxt = int(rng.choice(len(row), p=row))
                dwell = float(rng.lognormal(mu, sigma))
                clock += dwell
                yield RouteStep(f"r{r + 1}", s, doc.docid, xpaths[cur], xpaths[nxt], user, topic, round(dwell, 1),
                                f"{clock / 1000:.3f}")
                cur = nxt


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
