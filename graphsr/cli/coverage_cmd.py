"""Which partitions runs retrieve from, and which hold the relevant elements they miss: per run and summary
partition, the elements retrieved, the relevant assessed, the relevant retrieved, and the relevant a user
reaches by navigation (expected, under the SR model); as a table and a heat map -- from the collection read in
memory, or from the graph store with --store."""

from __future__ import annotations

import argparse
import sys

from ._common import PROGRESS_HELP


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", help="element assessments")
    p.add_argument("runs", nargs="+", metavar="RUN", help="element runs")
    p.add_argument(
        "--collection",
        required=True,
        metavar="DIR|NAME",
        help="the collection (a path: XML, Markdown, text or HTML), or with --store a stored collection's name",
    )
    p.add_argument(
        "--store",
        metavar="URL",
        nargs="?",
        const="",
        help="read the stored collection (its summary, and the elements of the documents named)",
    )
    p.add_argument("--kind", default="p*", help="summary kind: p*, p*|c, c or tag (default: p*)")
    p.add_argument(
        "--model", help="in memory: SUMMARY:WEIGHT (default KIND:extent); stored: a model's name or a weight scheme"
    )
    p.add_argument("--plot", metavar="FILE", help="heat map of relevant retrieved / relevant (partition x run)")
    p.add_argument(
        "--format",
        choices=["table", "csv", "json"],
        default="table",
        help="aligned table (default), CSV, or JSON records",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def run(args: argparse.Namespace) -> int:
    from ..analysis.partitions import partition_coverage
    from ..io import read_element_qrels, read_run
    from .partitions_cmd import load, write_frame

    if args.plot:
        from ..analysis.plots import check_plot_path

        check_plot_path(args.plot)
    qrels, runs = read_element_qrels(args.qrels), [read_run(p) for p in args.runs]
    parts, store = load(args)
    try:
        table = partition_coverage(parts, qrels, runs)
    finally:
        if store is not None:
            store.close()
    write_frame(table, args.format)
    if args.plot:
        from ..analysis.figures import coverage_figure, figure_bytes

        fig = coverage_figure(table, parts.summary.kind.name)
        with open(args.plot, "wb") as out:
            out.write(figure_bytes(fig, args.plot.rsplit(".", 1)[-1].lower()))
        from ._common import wrote

        wrote(args.plot, "the coverage heat map")
    sys.stdout.flush()
    return 0
