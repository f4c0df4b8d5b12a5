"""List a collection's summary partitions: every summary node's SID, key, extent size, content length, pi
under a model and its edges -- from the collection read in memory, or from the graph store with --store."""

from __future__ import annotations

import argparse

from ._common import PROGRESS_HELP, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "collection",
        help="the collection (a path: XML, Markdown, text or HTML), or with --store a stored collection's name",
    )
    p.add_argument("--kind", default="p*", help="summary kind: p*, p*|c, c or tag (default: p*)")
    p.add_argument(
        "--model", help="in memory: SUMMARY:WEIGHT (default KIND:extent); stored: a model's name or a weight scheme"
    )
    p.add_argument("--store", metavar="URL", nargs="?", const="", help="read the stored collection")
    p.add_argument(
        "--sort", default="sid", help="column to sort by: sid, key, extent_size, content_length, pi (default: sid)"
    )
    p.add_argument(
        "--format",
        choices=["table", "csv", "json"],
        default="table",
        help="aligned table (default), CSV, or JSON records",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def load(args):
    """The Partitions the options name (used by 'partitions' and 'partition')."""
    from ..analysis.partitions import memory_partitions, stored_partitions

    progress = getattr(args, "progress", None)
    if args.store is None:
        return memory_partitions(
            args.collection, args.kind, args.model, progress_default() if progress is None else progress
        ), None
    from ..store import open_store

    store = open_store(args.store or None, create=False)
    try:
        return stored_partitions(store, args.collection, args.kind, args.model), store
    except BaseException:
        store.close()  # the caller closes it only once it has it
        raise


#: Edges shown per cell in the table format (CSV and JSON keep every edge).
EDGES_SHOWN = 6


def shorten_edges(cell, shown: int | None = None):
    """A table cell's edge list ``S2:12 S7:4 ...`` cut to its first ``shown`` edges and a count of the rest.

    >>> shorten_edges("S1:5 S2:4 S3:1", 2)
    'S1:5 S2:4 ... (+1)'
    """
    if not isinstance(cell, str):
        return cell
    shown = EDGES_SHOWN if shown is None else shown
    edges = cell.split()
    return cell if len(edges) <= shown else " ".join(edges[:shown]) + f" ... (+{len(edges) - shown})"


def _shortened(frame):
    """The table format's view: long edge lists cut, with a count of what is left out."""
    shown = frame.copy()
    for column in ("in_edges", "out_edges"):
        if column in shown.columns:
            shown[column] = shown[column].map(shorten_edges)
    return shown


def write_frame(frame, fmt: str, note: str | None = None) -> None:
    """A partition table as ``--format`` asks (see :func:`graphsr.cli._common.write_frame`)."""
    from ._common import write_frame as write

    write(frame, fmt, note, table=_shortened)


def run(args: argparse.Namespace) -> int:
    from ..analysis.partitions import partition_table
    from ..errors import GraphsrInputError

    parts, store = load(args)
    try:
        table = partition_table(parts)
    finally:
        if store is not None:
            store.close()
    if args.sort not in table.columns:
        raise GraphsrInputError(f"--sort: expected one of {', '.join(table.columns)}, got {args.sort!r}")
    if args.sort != "sid":
        table = table.sort_values(args.sort, ascending=args.sort in ("key",), kind="stable")
    write_frame(
        table,
        args.format,
        f"# {parts.summary.kind.name} summary of {parts.collection} ({parts.source}): "
        f"{len(table)} partitions, pi under {parts.model}",
    )
    return 0
