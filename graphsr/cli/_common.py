"""Helpers shared by the subcommands."""

from __future__ import annotations

import sys

__all__ = ["progress_default", "warn", "positive_int", "write_results", "save_scores"]


EFFORT_HELP = ("step weights, each observed step adding 1/effort: count (default; every step costs 1) or duration "
               "(a step costs its duration_ms, so steps users took longer over are less likely)")
PROGRESS_HELP = "progress bar while reading the collection (default: when stderr is a terminal)"


def progress_default() -> bool:
    """Progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def warn(message: str) -> None:
    print(f"graphsr: warning: {message}", file=sys.stderr)


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def write_results(results, args) -> int:
    """Print a command's results as ``--format`` asks (trec, csv, json, table), warnings on stderr; with
    ``--save FILE`` also write the score table (every per-topic value and the ``all`` rows)."""
    for r in results:
        for w in r.warnings:
            warn(w)
    save_scores(results, args)
    if args.format == "trec":
        text = results.to_trec(per_topic=args.per_topic)
    elif args.format == "csv":
        text = results.to_csv()
    elif args.format == "json":
        text = results.to_json()
    else:
        text = results.table(per_topic=args.per_topic)
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


def save_scores(results, args) -> None:
    """``--save FILE``: the results as a score table (:class:`graphsr.analysis.scores.ScoreTable`)."""
    path = getattr(args, "save", None)
    if path:
        from ..analysis.scores import ScoreTable

        ScoreTable.from_results(results).write(path)
