"""Navigation models: build one and store it (same as `graphsr store model`).

``graphsr model build --collection NAME --model p*|c:length`` (SR, from a
stored summary) or ``--from-routes STUDY --nav p*`` (ESR, from a stored
study's route steps aggregated in the database).
"""

from __future__ import annotations

import argparse

from . import store_cmd


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    a = sub.add_parser("build", help="build a navigation model and store it")
    store_cmd._store_arg(a)
    a.add_argument("--collection", required=True, help="the stored collection's name")
    a.add_argument("--model", metavar="SUMMARY:WEIGHT", help="an SR model, e.g. p*|c:length")
    a.add_argument("--from-routes", metavar="STUDY", help="a model of route steps of a stored study")
    a.add_argument("--nav", default="p*", metavar="SUMMARY", help="summary partition for --from-routes (p*)")
    a.add_argument("--effort", choices=["count", "duration"], default="count")
    a.add_argument("--name", help="name to store it under")
    a.add_argument("--solver", choices=["eq8", "general"], default="eq8")
    a = sub.add_parser("list", help="list the stored models")
    store_cmd._store_arg(a)


def run(args: argparse.Namespace) -> int:
    args.store_command = "model" if args.model_command == "build" else "models"
    return store_cmd.run(args)
