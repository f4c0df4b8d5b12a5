"""Navigation logs: load a log into the graph store as a study's routes (same as `graphsr store routes`)."""

from __future__ import annotations

import argparse

from . import store_cmd


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="routes_command", metavar="ACTION", required=True)
    store_cmd.routes_arguments(
        sub.add_parser("load", help="load a navigation log (CSV or JSON lines) as a study's routes")
    )


def run(args: argparse.Namespace) -> int:
    args.store_command = "routes"
    return store_cmd.run(args)
