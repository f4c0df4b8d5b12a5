"""An interactive view of a collection's summary: one self-contained HTML page (the summary as a labelled tree one
expands, partitions coloured by pi, by what a run retrieves or by what one run finds and another misses; a
partition's steps and elements shown when selected), or its data as JSON, GraphML or GEXF -- from the collection
read in memory, or from the graph store with --store."""

from __future__ import annotations

import argparse

from ._common import PROGRESS_HELP, number

FORMATS = ("html", "json", "graphml", "gexf")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "collection",
        help="the collection (a path: XML, Markdown, text or HTML), or with --store a stored collection's name",
    )
    p.add_argument("--store", metavar="URL", nargs="?", const="", help="read the stored collection")
    p.add_argument("--kind", default="p*", help="summary kind: p*, p*|c, c or tag (default: p*)")
    p.add_argument(
        "--model",
        help="in memory: SUMMARY:WEIGHT (default KIND:extent); stored: a model's name or a "
        "weight scheme; a weight scheme also gives the edges' transition probabilities",
    )
    p.add_argument(
        "--qrels",
        metavar="FILE",
        help="assessments (element or TREC qrels, INEX passage qrels, span judgments, or TREC qrels of chunk ids "
        "with --chunks): where the relevant elements fall (a passage: the elements it highlights)",
    )
    p.add_argument("--chunks", metavar="CHUNK_MAP", help="the chunk map TREC qrels and runs of chunk ids name")
    p.add_argument(
        "--run",
        dest="runs",
        action="append",
        default=[],
        metavar="FILE",
        help="a run (repeat for several; element, passage, INEX XML, or a chunk run of spans or chunk ids): what it "
        "retrieves, per partition and topic (a passage: the smallest element containing it)",
    )
    p.add_argument(
        "--routes",
        metavar="LOG",
        help="a navigation log (CSV or JSON lines): the steps users take "
        "between partitions, drawn as the model learned from them",
    )
    p.add_argument(
        "--routes-model",
        metavar="NAME",
        help="with --store: a stored route model over the summary shown (graphsr store model --from-routes)",
    )
    p.add_argument(
        "--effort",
        choices=["count", "duration"],
        default="count",
        help="with --routes: each step weighs 1 (count, default) or 1 / its duration",
    )
    p.add_argument(
        "--elements-per-node",
        type=number(int, "[0, 100000]"),
        default=20,
        metavar="N",
        help="elements listed per partition besides the assessed and retrieved ones, first in document "
        "order (default 20)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="html (default; the page), json (its data), graphml or gexf (for Gephi, yEd); "
        "by default from the output's suffix",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="where to write (default: view.html, or view.FORMAT)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def run(args: argparse.Namespace) -> int:
    from ..analysis.partitions import named_documents
    from ..analysis.view import route_transitions, view_data, write_view
    from ..errors import GraphsrInputError
    from ..evaluation.elements_of import as_elements
    from ..evaluation.inputs import Inputs
    from ._common import wrote
    from .coverage_cmd import _collection, _options
    from .partitions_cmd import load

    form = args.format
    if form is None:
        suffix = (args.output or "").rsplit(".", 1)[-1].lower() if args.output and "." in args.output else "html"
        if suffix not in FORMATS:
            raise GraphsrInputError(
                f"cannot tell the format from the output's suffix .{suffix}; give --format ({', '.join(FORMATS)})",
                args.output,
            )
        form = suffix
    output = args.output or f"view.{form}"
    if args.routes and args.routes_model:
        raise GraphsrInputError("give --routes or --routes-model, not both")
    log = None
    if args.routes:
        from ..io import read_routes

        log = read_routes(args.routes)
    parts, store = load(args)
    try:
        inputs = Inputs(args.qrels, args.runs, collection=_collection(args), chunks=args.chunks)
        qrels, runs = as_elements(inputs, lambda wanted: named_documents(parts, wanted), _options())
        routes = (
            route_transitions(parts, log, args.routes_model, args.effort)
            if log is not None or args.routes_model
            else None
        )
        data = view_data(parts, qrels, runs, elements_per_node=args.elements_per_node, routes=routes)
    finally:
        if store is not None:
            store.close()
    write_view(data, output, form)
    wrote(
        output,
        f"the view of the {data['kind']} summary ({len(data['nodes'])} partitions, "
        f"{len(data['runs'])} run{'' if len(data['runs']) == 1 else 's'}; {form})",
    )
    return 0
