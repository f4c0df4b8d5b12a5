"""trec_eval 9.0.8's command line and output, byte for byte: graphsr trec_eval [options] QRELS RUN.

Options as trec_eval reads them (short and long, joined or apart, before or after the files):
-q per topic; -m MEASURE[.PARAMS] (repeatable; sets official, all_trec, set, qrels_jg, prefs, all_prefs); -c
average over every topic of the qrels; -n no summary; -l N relevance level; -J judged documents only; -N N
documents in the collection; -M N documents kept per topic; -Z FILE z-scores; -R qrels, qrels_jg (judgment
groups), prefs or qrels_prefs (preferences); -T trec_results; -D N[.QID] (only topic QID; no debug output); -o
(obsolete, no effect); -h help; -v version.  Exit status and stderr lines are trec_eval's, with graphsr's
clearer line after them.

--trec_eval_version=10.0 behaves as trec_eval 10.0 instead: the topics of the qrels are scored (one the run
lacks stops it unless -c, which scores and prints it), scores compare in double precision, recall levels round
to counts, measures rbp, rbp_resid and unj (and all_trec with them), comment lines (#) skipped, and a run named -
read from standard input.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_arguments", "run", "main"]

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = [
    "help",
    "version",
    "query_eval_wanted",
    "measure=",
    "complete_rel_info_wanted",
    "level_for_rel=",
    "nosummary",
    "Debug_level=",
    "Judged_docs_only",
    "Number_docs_in_coll=",
    "Max_retrieved_per_topic=",
    "Rel_info_format=",
    "Results_format=",
    "Output_old_results_format=",
    "Zscore=",
    "trec_eval_version=",
]
_ALIASES = {
    "--help": "-h",
    "--version": "-v",
    "--query_eval_wanted": "-q",
    "--measure": "-m",
    "--complete_rel_info_wanted": "-c",
    "--level_for_rel": "-l",
    "--nosummary": "-n",
    "--Debug_level": "-D",
    "--Judged_docs_only": "-J",
    "--Number_docs_in_coll": "-N",
    "--Max_retrieved_per_topic": "-M",
    "--Rel_info_format": "-R",
    "--Results_format": "-T",
    "--Output_old_results_format": "-o",
    "--Zscore": "-Z",
}

USAGE = """Usage: graphsr trec_eval [-h] [-q] {-m measure}* trec_rel_file trec_top_file
   -h: help: every option, and the measures (with -m, theirs)
   -q: each topic's values too, before the summary
   -m: the measures to compute and print (a measure, measure.params, or a set:
       official (the default), all_trec, set, qrels_jg, prefs, all_prefs)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "args",
        nargs=argparse.REMAINDER,
        metavar="[options] QRELS RUN",
        help="trec_eval's options and files (graphsr trec_eval -h lists them)",
    )


def run(args: argparse.Namespace) -> int:
    return main(list(args.args))


def main(argv: list[str]) -> int:
    """Run ``graphsr trec_eval`` with ``argv`` (what follows ``trec_eval``); returns the exit status."""
    import getopt

    from ..evaluation.trec_eval import TrecEvalOptions, TrecEvalStop, run_trec_eval

    try:
        opts, files = getopt.gnu_getopt(argv, _SHORT, _LONG)
    except getopt.GetoptError as exc:
        sys.stderr.write(f"graphsr trec_eval: {exc.msg}\n{USAGE}")
        return 1
    o = TrecEvalOptions()
    wanted_help = False
    try:
        for flag, value in opts:
            flag = _ALIASES.get(flag, flag)
            if flag == "-h":
                wanted_help = True
            elif flag == "-v":
                version = "9.0.7" if o.version == "9.0.8" else "10.0-rc3"  # (what these releases call themselves)
                sys.stderr.write(f"trec_eval version {version}\n")
                return 0
            elif flag == "--trec_eval_version":
                from ..measures.trec_table import VERSIONS

                if value not in VERSIONS:
                    return _stop(f"--trec_eval_version={value}: expected one of {', '.join(VERSIONS)}", [], 1)
                o.version = value
            elif flag == "-q":
                o.per_topic = True
            elif flag == "-m":
                o.measures.append(value)
            elif flag == "-c":
                o.complete = True
            elif flag == "-l":
                o.level = _whole(value, "-l", "the relevance level")
            elif flag == "-n":
                o.summary = False
            elif flag == "-D":
                level, _, qid = value.partition(".")
                _whole(level, "-D", "the debug level")
                o.only_topic = qid.encode() if qid else None
            elif flag == "-J":
                o.judged_only = True
            elif flag == "-N":
                o.num_docs = _whole(value, "-N", "the number of documents in the collection", 0)
            elif flag == "-M":
                o.max_docs = _whole(value, "-M", "the documents kept per topic", 0)
            elif flag == "-R" and value in ("qrels", "qrels_jg", "prefs", "qrels_prefs"):
                o.rel_format = value
            elif flag == "-R":
                return _stop(
                    f"-R {value}: expected qrels, qrels_jg, prefs or qrels_prefs",
                    [f"trec_eval: Illegal rel_format '{value}'"],
                    2,
                )
            elif flag == "-T" and value != "trec_results":
                return _stop(
                    f"-T {value}: graphsr reads TREC results only (-T trec_results)",
                    [f"trec_eval: Illegal retrieval results format '{value}'"],
                    2,
                )
            elif flag == "-Z":
                o.zscores = value
    except _BadNumber as exc:
        return _stop(str(exc), [], 1)
    if wanted_help:
        sys.stdout.write(_help(o.measures, o.version))
        return 0
    if len(files) != 2:
        sys.stderr.write(USAGE)
        return 1
    sys.stdout.flush()
    text_only = not hasattr(sys.stdout, "buffer")  # (a text stream without bytes underneath: collect, then write)
    if text_only:
        import io

        out = io.BytesIO()
    else:
        out = sys.stdout.buffer
    try:
        run_trec_eval(files[0], files[1], o, out, warn=lambda m: sys.stderr.write(f"graphsr trec_eval: warning: {m}\n"))
    except TrecEvalStop as exc:
        _flush(out, text_only)
        return _stop(exc.message, exc.trec_lines, exc.code)
    _flush(out, text_only)
    return 0


def _flush(out, text_only: bool) -> None:
    if text_only:
        sys.stdout.write(out.getvalue().decode("utf-8", "surrogateescape"))
    else:
        out.flush()
    sys.stdout.flush()


class _BadNumber(Exception):
    pass


def _whole(text: str, flag: str, what: str, low: int | None = None) -> int:
    """A number option read as trec_eval reads it (C's atol: ``5x`` is 5); where no number starts it (trec_eval
    reads 0) or it is below ``low``, refused in one line."""
    from ..io.cnumbers import c_atol

    value = c_atol(text)
    if value is None or (low is not None and value < low):
        raise _BadNumber(
            f"{flag} {text}: expected {what} as a whole number" + (f" >= {low}" if low is not None else "")
        )
    return value


def _stop(message: str, trec_lines: list[str], code: int) -> int:
    for line in trec_lines:
        sys.stderr.write(line + "\n")
    sys.stderr.write(f"graphsr trec_eval: {message}\n")
    return code


def _help(wanted_measures: list[str], version: str) -> str:
    """The options, then each measure of trec_eval ``version`` (those of ``-m`` if given)."""
    from ..measures.trec_table import measures, sets

    named = sets(version)
    wanted = None
    if wanted_measures:
        wanted = set()
        for m in wanted_measures:
            name = m.partition(".")[0]
            wanted.update(named.get(name, (name,)))
    lines = [
        __doc__.strip(),
        "",
        f"Measures (trec_eval {version}'s, in the order it prints them; sets: "
        + ", ".join(f"{k} ({len(v)})" for k, v in named.items())
        + "):",
    ]
    for m in measures(version).values():
        if wanted is None or m.name in wanted:
            default = f" [default {','.join(map(_param, m.default))}]" if m.default else ""
            lines.append(f"  {m.name:<22} {m.description}{default}")
    return "\n".join(lines) + "\n"


def _param(v) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)
