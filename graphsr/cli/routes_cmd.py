"""Navigation logs: load a log into the graph store as a study's routes (same as `graphsr store routes`)."""

from __future__ import annotations

import argparse

from . import store_cmd


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="routes_command", metavar="ACTION", required=True)
    a = sub.add_parser("load", help="load a navigation log (CSV or JSON lines) as a study's routes")
    store_cmd._store_arg(a)
    a.add_argument("log", help="the navigation log")
    a.add_argument("--collection", required=True, help="the stored collection (its route documents' elements "
                                                       "must be stored)")
    a.add_argument("--study", required=True, help="name of the study the routes belong to")


def run(args: argparse.Namespace) -> int:
    args.store_command = "routes"
    return store_cmd.run(args)
