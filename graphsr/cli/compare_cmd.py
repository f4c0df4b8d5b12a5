"""Compare runs for significance: every pair of runs (or every run against a baseline) under every measure of a
score table, with a correction over each measure's pairs or Tukey's HSD, as a table of means marked with the runs
each beats significantly (text, Markdown, LaTeX), or every pair's difference, confidence interval, effect size,
wins/ties/losses and p-values (csv, json)."""

from __future__ import annotations

import argparse
import sys

from ..analysis.significance import SAMPLES
from ._common import SEED, number, positive_int, progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "scores",
        nargs="+",
        help="score tables (graphsr eval ... --save FILE): .parquet or .csv; several are compared as one, if they "
        "were scored against the same judgments",
    )
    p.add_argument(
        "--mixed-qrels",
        action="store_true",
        help="compare score tables whose provenance says they were scored against different judgments",
    )
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        dest="measures",
        metavar="MEASURE",
        help="measure to compare on (repeatable; default: every measure of the table)",
    )
    p.add_argument(
        "--run", action="append", dest="runs", metavar="RUN", help="run to compare (repeatable; default: every run)"
    )
    p.add_argument(
        "--test",
        choices=["t", "randomization", "bootstrap", "tukey", "ppi", "lmm"],
        default="t",
        help="paired t-test (default), paired randomization test, paired bootstrap test, the "
        "randomised Tukey HSD over all runs (with the two-way ANOVA's HSD beside it), or ppi: "
        "prediction-powered means, differences, intervals and z tests from SCORES (people's judgments) and "
        "--model-scores (a model's), or lmm: a linear mixed model of every run's scores with a random intercept "
        "per topic (statsmodels), systems' runs as replicates (Wald tests)",
    )
    p.add_argument(
        "--system",
        action="append",
        dest="systems",
        metavar="NAME=RUN,RUN,...",
        help="a system made of several runs (seeds, folds): compared as one, by its runs' per-topic means "
        "(with --test lmm, every run's scores); repeatable; other runs are systems of their own",
    )
    p.add_argument(
        "--systems-by",
        metavar="REGEX",
        help="group runs into systems by a regular expression whose first group names the system "
        "(e.g. '(.*)-seed[0-9]+')",
    )
    p.add_argument(
        "--model-scores",
        metavar="FILE",
        help="with --test ppi: a score table of the same runs against a model's judgments (graphsr eval "
        "MODEL_QRELS ... --save FILE), of the topics people judged and others",
    )
    p.add_argument(
        "--ppi-lambda",
        type=number(float, "[0, 1]"),
        default=None,
        metavar="X",
        help="--test ppi's power-tuning weight, in [0, 1] (default: PPI++'s choice)",
    )
    p.add_argument(
        "--correction",
        choices=["holm", "bh", "none"],
        default="holm",
        help="multiple-comparison correction over each measure's pairs of runs (default: holm; Tukey's HSD needs none)",
    )
    p.add_argument("--baseline", metavar="RUN", help="compare every run with this one only")
    p.add_argument(
        "--confidence",
        type=number(float, "(0, 1)"),
        default=0.95,
        help="confidence of the intervals of the differences, in (0, 1) (default: 0.95): t intervals, "
        "bootstrap intervals with --test bootstrap, Tukey's simultaneous intervals with --test tukey",
    )
    p.add_argument(
        "--interval",
        choices=["bca", "percentile"],
        default="bca",
        help="the bootstrap interval with --test bootstrap (default: bca)",
    )
    p.add_argument(
        "--alpha", type=number(float, "(0, 1)"), default=0.05, help="significance level in (0, 1) (default: 0.05)"
    )
    p.add_argument(
        "--samples",
        type=number(int, f"[{SAMPLES[0]}, {SAMPLES[1]}]"),
        default=10000,
        help=f"randomization/bootstrap samples, {SAMPLES[0]:,} to {SAMPLES[1]:,} (default: 10000; fewer "
        "than 100 cannot give a p-value below 0.01)",
    )
    p.add_argument(
        "--seed", type=number(int, SEED), default=0, help="random seed (the same p-values for any --threads)"
    )
    p.add_argument("--threads", type=positive_int, default=1, help="threads drawing the samples (default: 1)")
    p.add_argument(
        "--format",
        choices=["text", "markdown", "latex", "pairs", "csv", "json"],
        default="text",
        help="text (default), markdown or latex table of means with significance letters; pairs: every "
        "pair's difference, interval, effect size, wins/ties/losses and p-values, as text; csv or "
        "json: every pair with every column",
    )


def read_tables(paths: list[str], mixed: bool):
    """Score tables read and joined into one, refused when their records say they rest on different judgments
    (unless ``mixed``); tables without records are said to be unchecked."""
    from ..analysis.scores import ScoreTable, check_same_qrels
    from ._common import warn

    tables = [ScoreTable.read(p) for p in paths]
    for line in check_same_qrels(list(zip(paths, tables)), mixed):
        warn(line)
    return tables[0] if len(tables) == 1 else ScoreTable.concat(tables)


def run(args: argparse.Namespace) -> int:
    from ..analysis.scores import ScoreTable
    from ..analysis.significance import compare_runs

    from ..errors import GraphsrInputError

    if (args.test == "ppi") != bool(args.model_scores):
        raise GraphsrInputError(
            "--test ppi needs --model-scores FILE: the runs' scores against the model's judgments"
            if args.test == "ppi"
            else "--model-scores is read for --test ppi: give --test ppi, or leave --model-scores out"
        )
    if args.ppi_lambda is not None and args.test != "ppi":
        raise GraphsrInputError("--ppi-lambda is --test ppi's weight: give --test ppi, or leave --ppi-lambda out")
    if args.systems and args.systems_by:
        raise GraphsrInputError("give systems by --system or by --systems-by, not both")
    scores = read_tables(args.scores, args.mixed_qrels)
    systems = None
    if args.systems:
        from ..analysis.systems import parse_systems

        systems = parse_systems(args.systems)
    elif args.systems_by:
        from ..analysis.systems import systems_by_pattern

        systems = systems_by_pattern(scores.runs, args.systems_by)
    model_scores = ScoreTable.read(args.model_scores) if args.model_scores else None
    comparison = compare_runs(
        scores,
        args.measures,
        args.runs,
        args.test,
        args.correction,
        args.alpha,
        args.samples,
        args.seed,
        args.threads,
        progress_default(),
        args.confidence,
        args.interval,
        args.baseline,
        model_scores=model_scores,
        lam=args.ppi_lambda,
        systems=systems,
    )
    if args.format == "pairs":
        sys.stdout.write(comparison.pairs_table())
    elif args.format == "csv":
        comparison.pairs.to_csv(sys.stdout, index=False)
    elif args.format == "json":
        import json
        import math

        def plain(v):  # numbers as Python numbers at full precision; NaN (not computed) as null
            v = v.item() if hasattr(v, "item") else v
            return None if isinstance(v, float) and math.isnan(v) else v

        records = [{k: plain(v) for k, v in row.items()} for row in comparison.pairs.to_dict(orient="records")]
        sys.stdout.write(json.dumps(records, indent=1) + "\n")
    else:
        sys.stdout.write(comparison.table(args.format))
    return 0
