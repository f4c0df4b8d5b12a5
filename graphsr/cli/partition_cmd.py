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
    from ..analysis.partitions import partition_elements, partition_table
    from .partitions_cmd import load, write_frame

    parts, store = load(args)
    try:
        frame, total = partition_elements(parts, args.sid, args.limit, args.offset)
        row = partition_table(parts).set_index("sid").loc[f"S{int(args.sid.lstrip('Ss'))}"]
    finally:
        if store is not None:
            store.close()
    write_frame(frame, args.format, f"# {args.sid}: {row['key']}; {total} elements (showing {len(frame)} from "
                                    f"{args.offset}); pi {row['pi']:.6f} under {parts.model}; in: "
                                    f"{row['in_edges'] or '-'}; out: {row['out_edges'] or '-'}")
    return 0
