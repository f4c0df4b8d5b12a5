"""Build a structural summary of a collection and print its nodes, edges and steady state.

Prints one line per summary node: SID, extent size, content length, the
steady-state probability under the chosen weight scheme (CIKM'08 Eq 8) and
the node's key.
"""

from __future__ import annotations

import argparse
import sys

from ._common import PROGRESS_HELP, positive_int, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "collection",
        help="the collection (directory, file, tar/zip archive or JSON lines corpus of XML, Markdown, text or HTML)",
    )
    p.add_argument("--kind", default="p*", help="summary kind: p*, p*|c, c or tag (default: p*)")
    p.add_argument("--weight", default="extent", help="weight scheme for pi: extent, length, uniform (default: extent)")
    p.add_argument("--edges", action="store_true", help="also list the summary edges")
    p.add_argument("--plot", metavar="FILE", help="draw the summary graph with pi on its nodes (.png, .pdf, .svg)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="processes that read the collection, at most one per CPU and per 256 documents (default: 1)",
    )


def run(args: argparse.Namespace) -> int:
    from ..navigation import build_sr_model, parse_model_spec
    from ..summaries import summarize_collection

    spec = parse_model_spec(f"{args.kind}:{args.weight}")
    progress = progress_default() if args.progress is None else args.progress
    summary = summarize_collection(args.collection, [spec.summary], workers=args.workers, progress=progress)[
        spec.summary
    ]
    model = build_sr_model(summary, spec.weight)
    out = [
        f"# {summary.kind.name} summary: {len(summary)} nodes, {len(summary.edge_src)} edges, "
        f"{summary.num_documents} documents, {summary.num_elements} elements; pi by Eq 8 with "
        f"{spec.weight} weights",
        "sid\textent_size\tcontent_length\tpi\tkey",
    ]
    for s in range(len(summary)):
        out.append(
            f"S{s + 1}\t{summary.extent_size[s]}\t{summary.content_length[s]}\t{model.pi[s]:.6f}\t{summary.label(s)}"
        )
    if args.edges:
        out.append("parent\tchild\tpairs\tchild_length")
        for a, b, n, ln in zip(summary.edge_src, summary.edge_dst, summary.edge_pairs, summary.edge_child_length):
            out.append(f"S{a + 1}\tS{b + 1}\t{n}\t{ln}")
    sys.stdout.write("\n".join(out) + "\n")
    if args.plot:
        from ..analysis.figures import figure_bytes, summary_figure
        from ..analysis.plots import check_plot_path

        check_plot_path(args.plot)
        with open(args.plot, "wb") as f:
            f.write(figure_bytes(summary_figure(summary, model.pi), args.plot.rsplit(".", 1)[-1].lower()))
        from ._common import wrote

        wrote(args.plot, "the summary figure")
    return 0
