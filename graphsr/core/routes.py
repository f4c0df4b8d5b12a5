"""Navigation logs: routes of steps between nodes of a document.

A step is one row of a log (docs/conventions.md, file formats): ``route_id, step, docid, from,
to`` (XPaths) with optional ``user, topic, duration_ms, timestamp``.  A
route's steps are ordered by their ``step`` number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["RouteStep", "Routes", "RouteReport"]


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


class Routes:
    """Routes of a navigation log: ``routes[route_id]`` = its steps in step order."""

    def __init__(self, routes: dict[str, list[RouteStep]], report: RouteReport, source: str | None = None):
        self.routes = routes
        self.report = report
        self.source = source

    def __iter__(self):
        for steps in self.routes.values():
            yield from steps

    def __len__(self) -> int:
        return sum(len(s) for s in self.routes.values())

    def docids(self) -> set[str]:
        return {s.docid for s in self}

    def __repr__(self) -> str:
        return f"Routes(routes={len(self.routes)}, steps={len(self)})"
