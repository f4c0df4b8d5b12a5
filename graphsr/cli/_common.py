"""Helpers shared by the subcommands."""

from __future__ import annotations

import sys

__all__ = [
    "progress_default",
    "warn",
    "wrote",
    "positive_int",
    "write_results",
    "save_scores",
    "json_text",
    "write_frame",
]


EFFORT_HELP = (
    "step weights, each observed step adding 1/effort: count (default; every step costs 1) or duration "
    "(a step costs its duration_ms, so steps users took longer over are less likely)"
)
PROGRESS_HELP = "progress bar while reading the collection (default: when stderr is a terminal)"


def progress_default() -> bool:
    """Progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def wrote(path, what: str) -> None:
    """Say on stderr which file a command wrote (stdout holds the command's data)."""
    print(f"graphsr: wrote {what} to {path}", file=sys.stderr)


def warn(message: str) -> None:
    print(f"graphsr: warning: {message}", file=sys.stderr)


def number(dtype: type = float, interval: str | None = None, param=None):
    """An argparse type: a number of ``dtype`` (int or float) in ``interval`` (interval notation, as
    :class:`graphsr.measures.base.Param` declares a range; nan and inf are never in one), or, given ``param``
    (a measure's :class:`~graphsr.measures.base.Param`), in that parameter's declared range: one declaration
    for an option and the measure parameter it sets."""
    import argparse

    from .._ranges import admits

    if param is not None:
        dtype, interval = param.dtype, param.range
    what = f"{'an integer' if dtype is int else 'a number'} in {interval}"

    def parse(text: str):
        try:
            value = dtype(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not admits(interval, value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    parse.__name__ = what  # what argparse names in its own messages
    return parse


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


#: A random seed: numpy's generators take any integer in [0, 2^32 - 1] alike.
SEED = "[0, 4294967295]"


def _plain(value):
    """A value as standard JSON takes it: numpy scalars as Python numbers, NaN and infinities as null."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return None
    return value


def json_text(records) -> str:
    """Records (dicts) as standard JSON: numbers at full precision, NaN as null, ``/`` not escaped.

    >>> print(json_text([{"key": "/a/b", "pi": 0.1 + 0.2, "x": float("nan")}]), end="")
    [
     {
      "key": "/a/b",
      "pi": 0.30000000000000004,
      "x": null
     }
    ]
    """
    import json

    def clean(v):
        if isinstance(v, dict):
            return {str(k): clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return _plain(v)

    return json.dumps([clean(r) for r in records], indent=1, ensure_ascii=False) + "\n"


def write_frame(frame, fmt: str, note: str | None = None, table=None) -> None:
    """A DataFrame on stdout as ``--format`` asks: ``table`` (aligned, after the ``note`` line: ``table`` may
    shorten cells first), or data only -- CSV (values at full precision) or standard JSON records -- with the
    note on stderr."""
    if fmt == "csv":
        if note:
            print(note, file=sys.stderr)
        frame.to_csv(sys.stdout, index=False)  # (pandas writes floats at full precision)
    elif fmt == "json":
        if note:
            print(note, file=sys.stderr)
        sys.stdout.write(json_text(frame.to_dict(orient="records")))
    else:
        if note:
            sys.stdout.write(note + "\n")
        sys.stdout.write((frame if table is None else table(frame)).to_string(index=False) + "\n")


def write_rows(columns, rows, fmt: str, note: str | None = None) -> None:
    """Rows of plain values (str, int) as :func:`write_frame` writes a DataFrame of them: CSV and JSON without
    building one (a command answering at once need not import pandas), the aligned table through one."""
    if fmt == "csv":
        import csv

        if note:
            print(note, file=sys.stderr)
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(columns)
        out.writerows(rows)
    elif fmt == "json":
        if note:
            print(note, file=sys.stderr)
        sys.stdout.write(json_text([dict(zip(columns, r)) for r in rows]))
    else:
        import pandas as pd

        write_frame(pd.DataFrame(list(rows), columns=list(columns)), fmt, note)


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
    """``--save FILE``: the results as a score table (:class:`graphsr.analysis.scores.ScoreTable`), with the
    evaluation's provenance record."""
    path = getattr(args, "save", None)
    if path:
        from ..analysis.scores import ScoreTable

        ScoreTable.from_results(results, provenance=provenance_of(args)).write(path)
        wrote(path, "the score table")


#: The command line's inputs (argparse's names) and their roles in a provenance record.
INPUT_ROLES = (
    ("qrels", "qrels"),
    ("model_qrels", "model-qrels"),
    ("runs", "run"),
    ("collection", "collection"),
    ("chunks", "chunks"),
    ("routes", "routes"),
)


def provenance_of(args) -> dict:
    """The provenance record of the command ``args`` ran (:mod:`graphsr.evaluation.provenance`): its inputs by
    role, its other options, its words."""
    from ..evaluation.provenance import input_record, provenance_record

    inputs = []
    for name, role in INPUT_ROLES:
        value = getattr(args, name, None)
        for path in value if isinstance(value, list) else [value] if value else []:
            inputs.append(input_record(role, path))
    named = {name for name, _ in INPUT_ROLES} | {"save", "command", "_argv"}
    options = {k: v for k, v in vars(args).items() if k not in named and not k.startswith("_") and not callable(v)}
    return provenance_record(inputs, options, getattr(args, "_argv", sys.argv[1:]))
