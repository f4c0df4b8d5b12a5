"""Which partitions runs retrieve from, and which hold the relevant elements they miss: per run and summary
partition, the elements retrieved, the relevant assessed, the relevant retrieved, and the relevant a user
reaches by navigation (expected, under the SR model); as a table and a heat map -- from the collection read in
memory, or from the graph store with --store."""

from __future__ import annotations

import argparse
import sys

from ._common import PROGRESS_HELP


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "qrels",
        help="assessments: element or TREC qrels, INEX passage qrels, span judgments, or TREC qrels of chunk ids "
        "(with --chunks); passages count as the elements they highlight",
    )
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="runs: element, passage, INEX XML, chunk runs of spans or of chunk ids (with --chunks); a passage "
        "counts as the smallest element containing it",
    )
    p.add_argument("--chunks", metavar="CHUNK_MAP", help="the chunk map TREC qrels and runs of chunk ids name")
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
    from ..analysis.partitions import named_documents, partition_coverage
    from ..evaluation.elements_of import as_elements
    from ..evaluation.inputs import Inputs
    from .partitions_cmd import load, write_frame

    if args.plot:
        from ..analysis.plots import check_plot_path

        check_plot_path(args.plot)
    parts, store = load(args)
    try:
        inputs = Inputs(args.qrels, args.runs, collection=_collection(args), chunks=args.chunks)
        qrels, runs = as_elements(inputs, lambda wanted: named_documents(parts, wanted), _options())
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


def _collection(args: argparse.Namespace):
    """The collection's path, where the summary is read from one (its texts check span judgments' ranges)."""
    return args.collection if getattr(args, "store", None) is None else None


def _options():
    from ..evaluation.inputs import Options
    from .wording import CLI_WORDING

    return Options(wording=CLI_WORDING)
