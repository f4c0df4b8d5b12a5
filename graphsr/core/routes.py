"""Navigation logs: routes of steps between nodes of a document.

A step is one row of a log (docs/conventions.md, file formats): ``route_id, step, docid, from,
to`` (XPaths) with optional ``user, topic, duration_ms, timestamp``.  A
route's steps are ordered by their ``step`` number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["RouteStep", "Routes", "RouteReport", "STEP_FIELDS"]


@dataclass(frozen=True)
class RouteStep:
    """One navigation step ``from -> to`` within document ``docid``."""

    route_id: str
    step: int
    docid: str
    src: str
    dst: str
    user: str | None = None
    topic: str | None = None
    duration_ms: float | None = None
    timestamp: str | None = None
    line: int | None = None

    def as_dict(self) -> dict:
        """The step as the store's loader takes it."""
        return {
            "route_id": self.route_id,
            "step": self.step,
            "docid": self.docid,
            "from": self.src,
            "to": self.dst,
            "user": self.user,
            "topic": self.topic,
            "duration_ms": self.duration_ms,
            "timestamp": self.timestamp,
        }


@dataclass
class RouteReport:
    """What reading a log found and did about it (policies of :mod:`graphsr.io.routes`)."""

    steps: int = 0
    routes: int = 0
    reordered_routes: int = 0  # steps listed out of order, sorted by step number
    gaps: int = 0  # missing step numbers inside a route (kept: steps are independent)
    discontinuities: int = 0  # a step starts elsewhere than where the previous one ended
    document_changes: int = 0  # consecutive steps of a route in different documents
    examples: list = field(default_factory=list)

    def note(self, message: str) -> None:
        if len(self.examples) < 5:
            self.examples.append(message)

    def lines(self) -> list[str]:
        out = [f"{self.steps} steps in {self.routes} routes"]
        for name, n in (
            ("routes listed out of step order (sorted)", self.reordered_routes),
            ("gaps in step numbers (kept)", self.gaps),
            ("steps not starting where the previous one ended (kept)", self.discontinuities),
            ("changes of document within a route (kept as separate steps)", self.document_changes),
        ):
            if n:
                out.append(f"{n} {name}")
        out += [f"  e.g. {e}" for e in self.examples]
        return out


#: A step's fields in the order of :class:`RouteStep` (and of :meth:`Routes.columns`).
STEP_FIELDS = ("route_id", "step", "docid", "src", "dst", "user", "topic", "duration_ms", "timestamp", "line")


class Routes:
    """Routes of a navigation log: ``routes[route_id]`` = its steps in step order.

    A log read a column at a time (:meth:`from_columns`) keeps its columns and makes the :class:`RouteStep`
    objects only when they are asked for (``routes``, iteration): storing a log of 400,000 steps reads the
    columns alone."""

    def __init__(self, routes: dict[str, list[RouteStep]], report: RouteReport, source: str | None = None):
        self._routes: dict[str, list[RouteStep]] | None = routes
        self._columns: tuple[list, ...] | None = None
        self.report = report
        self.source = source

    @classmethod
    def from_columns(cls, columns: tuple[list, ...], report: RouteReport, source: str | None = None) -> "Routes":
        """Routes from the columns of their steps (one list per field of :data:`STEP_FIELDS`, all of one length),
        rows in step order within each route and each route's rows together, routes in their order."""
        if len(columns) != len(STEP_FIELDS) or len({len(c) for c in columns}) > 1:
            raise ValueError(f"expected {len(STEP_FIELDS)} columns of one length ({', '.join(STEP_FIELDS)})")
        routes = cls({}, report, source)
        routes._routes = None
        routes._columns = tuple(columns)
        return routes

    @property
    def routes(self) -> dict[str, list[RouteStep]]:
        """The steps of each route, by route id (made from the columns the first time)."""
        if self._routes is None:
            by_route: dict[str, list[RouteStep]] = {}
            assert self._columns is not None
            for values in zip(*self._columns):
                steps = by_route.get(values[0])
                if steps is None:
                    steps = by_route[values[0]] = []
                steps.append(RouteStep(*values))
            self._routes = by_route
            self._columns = None  # (the dict may be changed from now on: the columns are made from it)
        return self._routes

    def columns(self) -> tuple[list, ...]:
        """The steps as columns, one list per field of :data:`STEP_FIELDS`, in the order of iteration."""
        if self._columns is not None:
            return self._columns
        rows = [tuple(getattr(s, f) for f in STEP_FIELDS) for s in self]  # (routes may change: made anew)
        return tuple(map(list, zip(*rows))) if rows else tuple([] for _ in STEP_FIELDS)

    def __iter__(self):
        for steps in self.routes.values():
            yield from steps

    def __len__(self) -> int:
        if self._columns is not None:
            return len(self._columns[0])
        return sum(len(s) for s in self.routes.values())

    def docids(self) -> set[str]:
        if self._columns is not None:
            return set(self._columns[2])
        return {s.docid for s in self}

    def __repr__(self) -> str:
        routes = len(set(self._columns[0])) if self._routes is None and self._columns is not None else len(self.routes)
        return f"Routes(routes={routes}, steps={len(self)})"
