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
    store_cmd.model_arguments(sub.add_parser("build", help="build a navigation model and store it"))
    a = sub.add_parser("list", help="list the stored models")
    store_cmd._store_arg(a)


def run(args: argparse.Namespace) -> int:
    args.store_command = "model" if args.model_command == "build" else "models"
    return store_cmd.run(args)
