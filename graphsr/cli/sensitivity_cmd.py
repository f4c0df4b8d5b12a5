"""Navigation-model sensitivity: score runs with one measure under several navigation models (summary kinds x
weights, none; or route navigation over each partition and the depth prior) and print the means and the
matrix of Kendall's tau-b between the models' system rankings (--plot: its heat map)."""

from __future__ import annotations

import argparse
import sys

from ._common import EFFORT_HELP, PROGRESS_HELP, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", help="element assessments")
    p.add_argument("runs", nargs="+", metavar="RUN", help="element runs (at least 3 for a ranking)")
    p.add_argument("--collection", required=True, metavar="DIR", help="the collection")
    p.add_argument("-m", "--measure", default="SRP@10", help="the measure (default: SRP@10)")
    p.add_argument(
        "--model",
        action="append",
        dest="models",
        metavar="SPEC",
        help="a model (repeatable): SUMMARY:WEIGHT or none; depth4; routes:PARTITION (with --routes); "
        "default: every summary kind x weight and none (SR measures), or depth4 and the route "
        "models over every partition (ESR measures)",
    )
    p.add_argument("--routes", metavar="LOG", help="a navigation log to learn route models from")
    p.add_argument("--effort", choices=["count", "duration"], default="count", help=EFFORT_HELP)
    p.add_argument("--plot", metavar="FILE", help="the agreement heat map (.png, .pdf or .svg)")
    p.add_argument("--save", metavar="FILE", help="the scores under every model, as a score table")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def run(args: argparse.Namespace) -> int:
    from ..analysis.sensitivity import model_sensitivity
    from ..io import read_element_qrels, read_run

    if args.plot:
        from ..analysis.plots import check_plot_path

        check_plot_path(args.plot)
    qrels = read_element_qrels(args.qrels)
    runs = [read_run(p) for p in args.runs]
    result = model_sensitivity(
        qrels,
        runs,
        args.measure,
        args.collection,
        args.models,
        args.routes,
        args.effort,
        progress_default() if args.progress is None else args.progress,
    )
    sys.stdout.write(result.text())
    if args.save:
        from ._common import provenance_of

        result.scores.provenance = [provenance_of(args)]
        result.scores.write(args.save)
        from ._common import wrote

        wrote(args.save, "the score table")
    if args.plot:
        from ..analysis.figures import agreement_matrix_figure, figure_bytes

        fig = agreement_matrix_figure(result.scores)
        with open(args.plot, "wb") as out:
            out.write(figure_bytes(fig, args.plot.rsplit(".", 1)[-1].lower()))
        from ._common import wrote

        wrote(args.plot, "the figure")
    return 0
