"""Write a simulated navigation log: seeded random walks over a collection's documents.

See graphsr.simulation.routes for the model (entry points and moves weighted
by depth, users preferring depths 2-4; geometric route lengths; log-normal
dwell times).  The collection is read once, one document at a time, so the
command's memory is that of the largest document; the same seed writes the
same log.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import GraphsrInputError
from ._common import PROGRESS_HELP, SEED, number, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "collection",
        help="the collection (directory, file, tar/zip archive or JSON lines corpus of XML, Markdown, text or HTML)",
    )
    p.add_argument("-o", "--output", required=True, help="log file to write (.csv, or .jsonl for JSON lines)")
    p.add_argument("--routes", type=number(int, "[1, inf)"), default=1000, help="number of routes (default 1000)")
    p.add_argument(
        "--seed", type=number(int, SEED), default=0, help="random seed: the same seed writes the same log (default 0)"
    )
    p.add_argument(
        "--mean-steps", type=number(float, "[1, 10000]"), default=4.0, help="mean steps per route (default 4)"
    )
    p.add_argument(
        "--depth-weights",
        default="1:0.5,2:1,3:1,4:1",
        help="DEPTH:WEIGHT,... preference for targets by depth (default 1:0.5,2:1,3:1,4:1)",
    )
    p.add_argument(
        "--deep-weight", type=number(float, "[0, inf)"), default=0.3, help="weight of depths not listed (default 0.3)"
    )
    p.add_argument(
        "--entry",
        choices=["depth", "root"],
        default="depth",
        help="where a route starts: an element drawn by the depth weights (default), or the root",
    )
    p.add_argument(
        "--users",
        type=number(int, "[1, inf)"),
        default=20,
        help="simulated users the routes are spread over (0: no user column; default 20)",
    )
    p.add_argument(
        "--topics",
        type=number(int, "[0, inf)"),
        default=0,
        help="topics the routes are spread over (0: no topic column; default 0)",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def run(args: argparse.Namespace) -> int:
    from ..simulation import RouteSimulator, write_routes

    try:
        weights = {int(d): float(w) for d, w in (part.split(":") for part in args.depth_weights.split(","))}
    except ValueError:
        raise GraphsrInputError(f"--depth-weights: expected DEPTH:WEIGHT,..., got {args.depth_weights!r}") from None
    try:
        sim = RouteSimulator(
            args.seed,
            weights,
            args.deep_weight,
            args.mean_steps,
            entry=args.entry,
            users=args.users,
            topics=args.topics,
        )
    except ValueError as exc:
        raise GraphsrInputError(str(exc)) from None
    # the collection is read once, one document at a time, and the steps go straight to the file
    steps = sim.walk_collection(
        args.collection, args.routes, progress=progress_default() if args.progress is None else args.progress
    )
    n = write_routes(_some(steps, args), args.output)
    sys.stdout.write(f"wrote {n} steps of {args.routes} routes to {args.output}\n")
    return 0


def _some(steps, args):
    """``steps``, refused (before the log is kept) if the walk took none: no document has an element at a depth
    of positive weight with a neighbour to move to."""
    n = 0
    for step in steps:
        n += 1
        yield step
    if n == 0:
        raise GraphsrInputError(
            f"the walk took no step in {args.routes} routes (no element of the collection at a "
            "depth of positive weight has a neighbour to move to): check --depth-weights and "
            "--deep-weight; no log was written"
        )
