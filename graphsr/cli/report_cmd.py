"""Write one self-contained HTML page of score tables: the runs' aggregates, significance letters, rank
agreement, and plots embedded (no network needed); on request every figure as a PNG, SVG or PDF file."""

from __future__ import annotations

import argparse
import sys

from ._common import number, positive_int, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scores", nargs="+", help="score tables (graphsr eval ... --save FILE): .parquet or .csv")
    p.add_argument(
        "--mixed-qrels",
        action="store_true",
        help="report score tables whose provenance says they were scored against different judgments",
    )
    p.add_argument("-o", "--output", default="report.html", metavar="FILE", help="the page (default: report.html)")
    p.add_argument("--title", default="graphsr report", help="the page's title (default: graphsr report)")
    p.add_argument("--figures", metavar="DIR", help="also write every figure to DIR")
    p.add_argument(
        "--figure-format",
        choices=["png", "svg", "pdf"],
        default="png",
        help="format of the figure files (default: png)",
    )
    p.add_argument(
        "--max-measures",
        type=positive_int,
        default=40,
        help="measures to draw and test (default: 40; the aggregates table has them all)",
    )
    p.add_argument(
        "--collection",
        metavar="DIR",
        help="add the collection's summary graph with pi on its nodes, "
        "and write its interactive view (graphsr view) beside the "
        "page, linked from it",
    )
    p.add_argument(
        "--model",
        default="p*:extent",
        metavar="SUMMARY:WEIGHT",
        help="the summary and weights of that graph (default: p*:extent)",
    )
    p.add_argument(
        "--model-scores",
        metavar="FILE",
        help="the same runs scored against a model's judgments (graphsr eval MODEL_QRELS ... --save FILE): each "
        "mean with its prediction-powered interval, runs compared by the prediction-powered test (SCORES: "
        "people's judgments)",
    )
    p.add_argument(
        "--ppi-lambda",
        type=number(float, "[0, 1]"),
        default=None,
        metavar="X",
        help="with --model-scores: the power-tuning weight, in [0, 1] (default: PPI++'s choice)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar while drawing (default: when stderr is a terminal)",
    )


def run(args: argparse.Namespace) -> int:
    from .._extras import need

    for module in ("matplotlib", "jinja2"):
        need(module, "graphsr report")
    from ..analysis.report import build_report, write_report
    from ..analysis.scores import ScoreTable

    if args.ppi_lambda is not None and not args.model_scores:
        from ..errors import GraphsrInputError

        raise GraphsrInputError("--ppi-lambda is the weight of --model-scores' estimates: give --model-scores")
    from .compare_cmd import read_tables

    scores = read_tables(args.scores, args.mixed_qrels)
    model_scores = ScoreTable.read(args.model_scores) if args.model_scores else None
    progress = progress_default() if args.progress is None else args.progress
    summary = parts = None
    if args.collection:
        from ..analysis.partitions import memory_partitions
        from ..navigation import parse_model_spec

        spec = parse_model_spec(args.model)
        parts = memory_partitions(args.collection, spec.summary, str(spec), progress)
        summary = (parts.summary, parts.pi, str(spec))
    report = build_report(
        scores,
        args.title,
        ", ".join(map(str, args.scores)),
        args.max_measures,
        progress,
        (args.figure_format,) if args.figures else (),
        summary,
        model_scores=model_scores,
        lam=args.ppi_lambda,
    )
    if parts is not None:
        from pathlib import Path

        from ..analysis.view import view_data, write_view

        view = Path(args.output).with_name(Path(args.output).stem + ".view.html")
        write_view(view_data(parts), view, "html")
        report.views.append((view.name, f"the {parts.summary.kind.name} summary of the collection"))
    path = write_report(report, args.output, args.figures, args.figure_format)
    sys.stdout.write(f"{path}: {len(report.figures)} figures, {len(report.tables)} tables\n")
    return 0
