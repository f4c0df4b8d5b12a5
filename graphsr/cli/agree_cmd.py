"""Agreement of system rankings: Kendall's tau and tau-b, Spearman's rho and tau_AP with p-values, between two
measures of one score table, or one measure in two score tables (e.g. under two navigation models); with
--rank-change A B, how the two measures move each system's rank across their common cut-offs (Pearson r)."""

from __future__ import annotations

import argparse
import sys

from ..errors import GraphsrInputError
from ._common import SEED, number, positive_int


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "scores",
        nargs="+",
        metavar="SCORES",
        help="one score table (give two -m) or two (give one -m: the same measure in both)",
    )
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        dest="measures",
        metavar="MEASURE",
        help="the reference measure, then the other (tau_AP takes the first as the reference)",
    )
    p.add_argument(
        "--rank-change",
        nargs=2,
        metavar=("A", "B"),
        help="measures given at several cut-offs (A@k, B@k): the relative change in rank across "
        "cut-offs (SR paper 7.2) and Pearson's r between the two",
    )
    p.add_argument(
        "--samples",
        type=positive_int,
        default=10000,
        help="random orders for tau_AP's p-value beyond 8 systems (default: 10000)",
    )
    p.add_argument("--seed", type=number(int, SEED), default=0, help="random seed for tau_AP's p-value")
    p.add_argument(
        "--format", choices=["text", "csv", "json"], default="text", help="aligned text (default), CSV, or JSON"
    )


def run(args: argparse.Namespace) -> int:
    from ..analysis.agreement import rank_agreement
    from ..analysis.scores import ScoreTable

    tables = [ScoreTable.read(p) for p in args.scores]
    if args.rank_change:
        from ..analysis.agreement import rank_change

        if len(tables) != 1 or args.measures:
            raise GraphsrInputError("--rank-change takes one score table and no -m")
        sys.stdout.write(rank_change(tables[0], *args.rank_change).text())
        return 0
    args.measures = args.measures or []
    if len(tables) == 1 and len(args.measures) == 2:
        a, b = tables[0].means(args.measures[0]), tables[0].means(args.measures[1])
    elif len(tables) == 2 and len(args.measures) in (1, 2):
        a = tables[0].means(args.measures[0])
        b = tables[1].means(args.measures[-1])
    else:
        raise GraphsrInputError(
            "give one score table and two measures (-m A -m B), or two score tables and one measure"
        )
    result = rank_agreement(a, b, args.samples, args.seed)
    from ._common import warn

    for w in result.warnings:
        warn(w)
    if args.format == "text":
        sys.stdout.write(result.text())
    elif args.format == "csv":

        def cell(v):  # full precision; an undefined value (NaN) as an empty field, as CSV readers take it
            return "" if v != v else repr(float(v))

        sys.stdout.write("statistic,value,p\n" + "".join(f"{n},{cell(v)},{cell(p)}\n" for n, v, p in result.rows()))
    else:
        import json

        def number(v):  # NaN is not JSON: null
            return None if v != v else v

        sys.stdout.write(
            json.dumps([{"statistic": n, "value": number(v), "p": number(p)} for n, v, p in result.rows()], indent=1)
            + "\n"
        )
    return 0
