"""One summary partition: its elements (document, node, XPath, length), paged, and its neighbours in the
summary graph -- from the collection read in memory, or from the graph store with --store."""

from __future__ import annotations

import argparse

from ._common import number


def add_arguments(p: argparse.ArgumentParser) -> None:
    from .partitions_cmd import add_arguments as common

    common(p)
    p.add_argument("sid", help="the summary node, e.g. S3")
    p.add_argument("--limit", type=number(int, "[0, inf)"), default=50, help="elements to list (default: 50)")
    p.add_argument("--offset", type=number(int, "[0, inf)"), default=0, help="elements to skip first")


def run(args: argparse.Namespace) -> int:
    from ..analysis.partitions import PAGE_COLUMNS, partition_page, partition_row
    from ._common import write_rows
    from .partitions_cmd import load

    parts, store = load(args)
    try:
        rows, total = partition_page(parts, args.sid, args.limit, args.offset)
        row = partition_row(parts, args.sid)
    finally:
        if store is not None:
            store.close()
    write_rows(
        PAGE_COLUMNS,
        rows,
        args.format,
        f"# {row['sid']}: {row['key']}; {total} elements (showing "
        f"{len(rows)} from {args.offset}); pi {row['pi']:.6f} under "
        f"{parts.model}; in: {row['in_edges'] or '-'}; out: "
        f"{row['out_edges'] or '-'}",
    )
    return 0
