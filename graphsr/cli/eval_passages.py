"""``graphsr eval`` with INEX FOL assessments: passage runs scored as the official tool inex_eval 3.1 does.

Each run is read and scored on its own: a run the official tool refuses (an
overlapping passage, interleaved articles, a second Best in Context result
for an article) or a malformed run file gets one line on stderr naming the
file, line, topic and article, prints nothing on stdout, and makes the exit
code 2; the other runs are still scored and printed.  Imports stay small
(numpy and graphsr's passage modules; no pandas, scipy, networkx, lxml or
store) unless XML submissions, element runs or a plot ask for more.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import GraphsrInputError
from ..measures.fol import SCORE_PARAM
from ._common import warn, write_results

__all__ = ["passage_requests", "write_passages", "apply_passage_options"]

_SCORE_OPTIONS = (("beta", "--beta", "ric"), ("irr", "--irr", "t2i"), ("bep_distance", "--bep-distance", "bic"))


def _measures(args: argparse.Namespace, task: str):
    """The measures to compute, as asked for (:class:`~graphsr.measures.parse.Requested`), with ``--task``,
    ``--beta``, ``--irr``, ``--bep-distance`` applied."""
    from ..measures.fol import headline_measures
    from ..measures.parse import parse_requests, relabel

    if args.report:
        if args.measures or args.curve:
            raise GraphsrInputError("--report official prints the official tool's lines; it takes no -m or --curve")
        from ..evaluation.official import official_measures

        for attr, opt, t in _SCORE_OPTIONS:
            if getattr(args, attr) is not None and t != task:
                raise GraphsrInputError(f"{opt} applies to --task {t}, not {task}")
        table = official_measures(
            task,
            **{
                SCORE_PARAM[t][0]: getattr(args, attr)
                for attr, _, t in _SCORE_OPTIONS
                if getattr(args, attr) is not None
            },
        )
        return parse_requests([m for _, _, m in table]), table
    if args.measures:
        requests = parse_requests(args.measures)
        if args.curve:
            asked = [r.measure for r in requests]
            requests += parse_requests([m for m in headline_measures("focused", curve=True)[5:] if m not in asked])
    else:
        requests = parse_requests(headline_measures(task, curve=args.curve))
    return relabel(requests, apply_passage_options([r.measure for r in requests], args, keep_all=True)), None


def apply_passage_options(ms, args, keep_all: bool = False):
    """The measures with ``--task``, ``--beta``, ``--irr`` and ``--bep-distance`` set where a passage
    measure leaves them unset; an option no passage measure takes is an error.  Repeats are dropped unless
    ``keep_all`` (then the list matches ``ms`` one for one)."""
    used = set()
    out = []
    for m in ms:
        if m.FAMILY != "fol":
            out.append(m)
            continue
        if args.task and args.task in m.TASKS:
            m = m.with_defaults(task=args.task)
        for attr, opt, t in _SCORE_OPTIONS:
            value = getattr(args, attr)
            if value is not None and m["task"] == t and m.SCORED:
                m = m.with_defaults(**{SCORE_PARAM[t][0]: value})
                used.add(opt)
        if keep_all or m not in out:
            out.append(m)
    for attr, opt, t in _SCORE_OPTIONS:
        if getattr(args, attr) is not None and opt not in used:
            raise GraphsrInputError(f"{opt} applies to measures of task {t}; none of the measures asked for is one")
    return out


def passage_requests(args: argparse.Namespace):
    """The measures asked for against FOL assessments (with ``--task``, ``--beta``, ``--irr``,
    ``--bep-distance`` applied) and, for ``--report official``, the official tool's table of lines."""
    if args.report and args.format == "table":
        raise GraphsrInputError("--report official prints lines: give --format trec, csv or json")
    return _measures(args, args.task or "focused")


def write_passages(done, table, args: argparse.Namespace) -> int:
    """Print the scores of passage runs (the official tool's lines with ``--report official``), draw
    ``--plot``; returns the exit code."""
    res = done.results
    if args.plot:
        _plot(args, done.qrels, done.runs, res, args.task or "focused", done.context, done.also)
        from ._common import wrote

        wrote(args.plot, "the figure")
    if table is not None:
        from ._common import save_scores

        _write_official(res, table, args)
        save_scores(res, args)
        return 0
    return write_results(res, args)


def curve_measures(args, task: str) -> list:
    """The measures a task's curve draws: interpolated precision at 101 recall levels and MAiP (focused,
    thorough), generalized precision at the first 50 article ranks and MAgP (ric, t2i, bic)."""
    from ..measures.fol import CHARACTER_TASKS
    from ..measures.parse import parse_measures

    if task in CHARACTER_TASKS:
        names = [f"iP[{j / 100:.2f}](task={task})" for j in range(101)] + [f"MAiP(task={task})"]
    else:
        names = [f"gP(task={task})@{k}" for k in range(1, 51)] + [f"MAgP(task={task})"]
    return apply_passage_options(parse_measures(names), args)


def _plot(args, qrels, runs, res, task, context, also=None) -> None:
    """The task's own curve per run, labelled with the task's headline measure and its topic count:
    interpolated precision (focused, thorough; MAiP) or generalized precision over article ranks (ric, t2i,
    bic; MAgP)."""
    from ..analysis.plots import plot_generalized_precision, plot_interpolated_precision
    from ..evaluation.entry import evaluate
    from ..measures.fol import CHARACTER_TASKS

    measures = curve_measures(args, task)
    if not all(m in res.measures for m in measures):
        res = also if also is not None and all(m in also.measures for m in measures) else None
        if res is None:  # (passage measures not among those scored: the curve's own)
            res = evaluate(qrels, runs, measures, context, all_topics=args.all_topics)
    headline = measures[-1]
    if task in CHARACTER_TASKS:
        plot_interpolated_precision(res, args.plot, headline=headline)
    else:
        plot_generalized_precision(res, args.plot, task, headline=headline)


def _write_official(res, table, args) -> None:
    """Every line the official tool prints, per run: ``name<TAB>topic<TAB>value``."""
    from ..evaluation.official import official_lines
    from ..measures.fol import OFFICIAL_RUN

    for r in res:
        for w in r.warnings:
            warn(w)
    rows = []
    for r in res:
        rows.append((r.name, OFFICIAL_RUN, "all", r.run_id if r.run_id is not None else r.name))
        rows += [(r.name, *line) for line in official_lines(r, table, args.per_topic)]
    out = sys.stdout
    if args.format == "trec":
        out.write("".join(f"{name}\t{topic}\t{value}\n" for _, name, topic, value in rows))
    elif args.format == "csv":
        import csv

        w = csv.writer(out, lineterminator="\n")
        w.writerow(["run", "measure", "topic", "value"])
        w.writerows(rows)
    else:
        import json

        out.write(
            json.dumps([{"run": run, "measure": n, "topic": t, "value": _number(v)} for run, n, t, v in rows], indent=1)
            + "\n"
        )
    out.flush()


def _number(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text
