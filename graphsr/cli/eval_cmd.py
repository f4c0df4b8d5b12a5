"""Score runs: element/tree runs against element assessments (SR, ESR), or passage runs against
INEX FOL assessments (iP, MAiP, gP, gR, MAgP; the qrels format is detected from the file).

Output is trec_eval style, ``measure<TAB>topic<TAB>value``: for each run, in
the order given, a ``runid`` line naming the run file, ``num_q`` (topics
averaged), per-topic lines with ``-q`` and the means as topic ``all``.

The navigation model is either built in memory from ``--collection`` and a
``SUMMARY:WEIGHT`` spec, or, with ``--store`` (or without ``--collection``),
a model stored under ``--model NAME`` in the graph store; documents then come
from ``--collection`` if given, else from the store's element nodes.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import GraphsrInputError
from ._common import EFFORT_HELP, PROGRESS_HELP, number, positive_int, progress_default, write_results
from .wording import CLI_WORDING

DEFAULT_MEASURES = ["SRP@5", "SRP@10"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "qrels",
        help="element assessments ('topic Q0 file xpath rel' lines), INEX FOL assessments "
        "('topic Q0 file rel_chars doc_len [bep offset:length ...]'), span judgments "
        "(JSON lines or CSV of query_id, doc_id, start, end, relevance, or Chroma's "
        "questions_df.csv; with --collection), or with --chunks TREC qrels of chunk ids",
    )
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="runs: 'topic Q0 file rank score run_id xpath' lines; "
        "with FOL assessments or span judgments 'topic Q0 file "
        "rank score run_id offset length' lines, an INEX XML "
        "submission, an element run (with --collection), a "
        "chunk run of spans (JSON lines of query_id, doc_id, "
        "start, end, score), or with --chunks a TREC run of "
        "chunk ids",
    )
    p.add_argument(
        "--collection",
        metavar="DIR",
        help="the collection (directory, file or tar/zip archive of XML, Markdown, text or HTML; a JSON lines "
        "corpus or a directory of its shards, such as MS MARCO v2.1's documents): only the documents the runs and "
        "assessments name are read",
    )
    p.add_argument(
        "--ties",
        choices=["trec_eval", "average"],
        default=None,
        help="results tied in score: trec_eval (default: ordered as trec_eval orders them, score then "
        "document name descending; a line says where ties straddle a cut-off) or average (each "
        "rank measure's expected value over every ordering of the tied results)",
    )
    p.add_argument(
        "--qrels-format",
        choices=["element", "fol", "spans"],
        default=None,
        help="the assessments' format, where the first record would say otherwise (default: detected)",
    )
    p.add_argument(
        "--run-format",
        choices=["element", "fol", "xml", "spans"],
        default=None,
        help="every run's format, where the first record would say otherwise (default: detected)",
    )
    p.add_argument(
        "--chunks",
        metavar="CHUNK_MAP",
        help="the chunking's chunk map (JSON lines, CSV, TSV or Parquet of chunk_id, doc_id, start, "
        "end; MS MARCO v2.1 segments), a file or a directory of shards: TREC runs and qrels name its chunks; "
        "ChromaIoU/P/R without @k count them; only the chunks the inputs touch are read (large files through an "
        "index kept in $GRAPHSR_CACHE)",
    )
    p.add_argument(
        "--model",
        default=None,
        metavar="SUMMARY:WEIGHT|NAME",
        help="navigation model: SUMMARY in p*, p*|c, c, tag (or 'none' for no navigation), "
        "WEIGHT in extent, length, uniform (default: p*:extent); with --store, the name of a "
        "stored model",
    )
    p.add_argument(
        "--store",
        metavar="URL",
        nargs="?",
        const="",
        help="use a model stored in this graph store (local:PATH, bolt://..., neo4j://...; "
        "'--store' alone: $GRAPHSR_STORE or the per-user local store)",
    )
    p.add_argument(
        "-m",
        "--measure",
        action="append",
        dest="measures",
        metavar="MEASURE",
        help=f"measure to compute, e.g. SRP@10, or trec_eval's name or set (P.5,10, official, all_trec) "
        f"(repeatable; default: {' '.join(DEFAULT_MEASURES)}, or trec_eval's official set for TREC "
        "document qrels)",
    )
    p.add_argument("-q", "--per-topic", action="store_true", help="also print per-topic values")
    p.add_argument(
        "-c",
        "--all-topics",
        action="store_true",
        help="average over every assessed topic (a topic missing from a run scores 0)",
    )
    p.add_argument(
        "--unknown",
        choices=["error", "warn"],
        default="error",
        help="run/qrels lines naming unknown documents or XPaths: fail (default) or drop them with a counted warning",
    )
    p.add_argument(
        "--format", choices=["trec", "csv", "json", "table"], default="trec", help="output format (default: trec)"
    )
    p.add_argument(
        "--ci",
        choices=["t", "percentile", "bca", "ppi"],
        default=None,
        help="print each run's mean with its confidence interval over the topics: the t interval, the "
        "bootstrap percentile or BCa interval (10,000 resamples, seed 0), or ppi: the prediction-powered "
        "estimate and interval (PPI++) from the topics people judged (QRELS) and those only a model judged "
        "(--model-qrels)",
    )
    p.add_argument(
        "--model-qrels",
        metavar="FILE",
        help="a model's judgments (an LLM's, say) in QRELS's format, of the topics people judged and others: "
        "with --ci ppi, the runs are scored against both and combined",
    )
    p.add_argument(
        "--qrels-judge",
        default="person",
        metavar="JUDGE",
        type=judge_option,
        help="who judged QRELS's judgments that name no judge: person (default), model:NAME or checked:NAME (a "
        "model's, checked by a person); judgments may name theirs in a fifth field of TREC and chunk qrels, or a "
        "judge column of span judgments, and each run is then told the share of its judged results that rest on "
        "a model's (judged_by_model)",
    )
    p.add_argument(
        "--ppi-lambda",
        type=number(float, "[0, 1]"),
        default=None,
        metavar="X",
        help="--ci ppi's power-tuning weight, in [0, 1] (1: PPI; 0: people's judgments alone; default: "
        "PPI++'s choice from the scores)",
    )
    p.add_argument(
        "--confidence", type=number(float, "(0, 1)"), default=0.95, help="confidence of --ci, in (0, 1) (default: 0.95)"
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        help="also write every per-topic score to FILE (.parquet or .csv), a score table for "
        "'graphsr compare', 'graphsr agree' and 'graphsr report'",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    p.add_argument(
        "--routes",
        metavar="LOG",
        help="navigation log (CSV or JSON lines) to learn the ESR measures' navigation from (with --collection)",
    )
    p.add_argument(
        "--routes-model",
        metavar="NAME",
        help="a stored navigation model learned from routes (graphsr store model --from-routes) for the ESR measures",
    )
    p.add_argument(
        "--nav",
        default="elements",
        metavar="PARTITION",
        help="states of the learned navigation: elements (default), a summary kind (p*, p*|c, c, tag) "
        "or depth4 (article/sec/ss1/other); depth4 without --routes is the paper's "
        "depth-weighted prior model",
    )
    p.add_argument("--effort", choices=["count", "duration"], default="count", help=EFFORT_HELP)
    g = p.add_argument_group("passage runs (INEX FOL assessments), as the official tool inex_eval 3.1")
    g.add_argument(
        "--task",
        choices=["focused", "thorough", "ric", "t2i", "bic"],
        default=None,
        help="the task (the official -f, -t, -r, -i, -b; default focused): without -m its headline "
        "measures (focused, thorough: iP[0.00], iP[0.01], iP[0.05], iP[0.10], MAiP; ric, t2i, "
        "bic: MAgP, gP@1..50, gR@1..50); with -m the task of the measures that name none",
    )
    g.add_argument(
        "--report",
        choices=["official"],
        help="official: every line the official tool prints for the task, with its names "
        "(num_ret ... char_f1, iP[x], AiP, gP[k], AgP, ircl_prn.x) and full values",
    )
    from ..measures.fol.params import BEP_DISTANCE, BETA, IRR

    g.add_argument(
        "--beta",
        type=number(param=BETA),
        metavar="X",
        help="Relevant in Context: F-measure weight of recall per article, in "
        f"{BETA.range} (the official -beta; default {BETA.default:g})",
    )
    g.add_argument(
        "--irr",
        type=number(param=IRR),
        metavar="N",
        help=f"T2I: non-highlighted characters a reader tolerates, in {IRR.range} (the official -irr; "
        f"default {IRR.default})",
    )
    g.add_argument(
        "--bep-distance",
        type=number(param=BEP_DISTANCE),
        metavar="N",
        help="Best in Context: characters within which an entry point scores, in "
        f"{BEP_DISTANCE.range} (the official -n; default {BEP_DISTANCE.default:g})",
    )
    g.add_argument(
        "--lenient",
        action="store_true",
        help="score runs the official tool refuses (overlapping passages are skipped in focused, "
        "merged in ric/t2i; BiC scores an article's first result); not the official numbers",
    )
    g.add_argument(
        "--order",
        choices=["file", "rank"],
        default="file",
        help="order of each topic's results: file (default, the official tool, which reads neither "
        "rank nor score) or rank (the rank column; not the official numbers)",
    )
    g.add_argument(
        "--curve", action="store_true", help="add the 101-point interpolated precision curve iP[0.00] .. iP[1.00]"
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw into FILE (.png, .pdf or .svg): passage runs, the task's curve (interpolated "
        "precision for focused/thorough, gP@k for ric/t2i/bic) labelled with MAiP or MAgP; element "
        "runs, the first measure given at several cut-offs over k, else its mean per run",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help="processes that read the collection for the summary, at most one per CPU and per 256 "
        "documents (default: 1)",
    )


def _element_requests(args: argparse.Namespace, kind: str):
    """The measures asked for against element (or TREC document) assessments, passage options applied to the
    passage measures among them; an option that applies to none is an error.  Without ``-m``: SRP for element
    assessments, trec_eval's official set for plain TREC document assessments."""
    from ..core.kinds import DOCUMENTS
    from ..measures.parse import parse_requests, relabel

    requests = parse_requests(args.measures or (["official"] if kind == DOCUMENTS else DEFAULT_MEASURES))
    measures = [r.measure for r in requests]
    passage = any(m.FAMILY == "fol" for m in measures)
    for option, given in (("--report", args.report), ("--curve", args.curve)):
        if given:
            raise GraphsrInputError(f"{option} applies to passage runs scored against FOL assessments")
    for option, given in (
        ("--task", args.task),
        ("--beta", args.beta),
        ("--irr", args.irr),
        ("--bep-distance", args.bep_distance),
        ("--lenient", args.lenient),
        ("--order", args.order != "file"),
    ):
        if given and not passage:
            raise GraphsrInputError(
                f"{option} applies to passage runs scored against FOL assessments, or to "
                "passage measures (-m MAiP, ...) of element runs"
            )
    if passage:
        from .eval_passages import apply_passage_options

        requests = relabel(requests, apply_passage_options(measures, args, keep_all=True))
    return requests


def _intervals(results, method: str, confidence: float) -> dict:
    """``--ci``: each run's interval of each measure averaged over topics (measures summed or geometrically
    averaged over topics, and runs of fewer than 2 topics, get none)."""
    from ..analysis.intervals import bootstrap_interval, t_interval

    out = {}
    for r in results.runs:
        for m in results.measures:
            values = r.values[m]
            if m.AGGREGATE != "mean" or len(values) < 2 or abs(r.mean(m) - float(values.mean())) > 1e-9:
                continue  # (an interval of the mean over topics: for the values reported as that mean only)
            out[r.name, m] = (
                t_interval(values, confidence)
                if method == "t"
                else bootstrap_interval(values, confidence, method, 10000, 0)
            )
    return out


def judge_option(text: str) -> str:
    """A judge on the command line (one line refusing anything else)."""
    from ..core.judges import parse_judge

    try:
        return parse_judge(text)
    except GraphsrInputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _check_ppi_options(args: argparse.Namespace) -> None:
    """--ci ppi and --model-qrels go together (checked before any work)."""
    if args.ci == "ppi" and not args.model_qrels:
        raise GraphsrInputError("--ci ppi needs --model-qrels FILE: the model's judgments beside QRELS (people's)")
    if args.model_qrels and args.ci != "ppi":
        raise GraphsrInputError("--model-qrels is read for --ci ppi: give --ci ppi, or leave --model-qrels out")
    if args.ppi_lambda is not None and args.ci != "ppi":
        raise GraphsrInputError("--ppi-lambda is --ci ppi's weight: give --ci ppi, or leave --ppi-lambda out")


def _ppi(results, args: argparse.Namespace, requests, options) -> None:
    """--ci ppi: the same runs scored against the model's judgments, and each run's prediction-powered estimate
    and interval (:func:`graphsr.analysis.ppi.run_estimates`) kept in ``results``."""
    from .._records import replace

    from ..analysis.ppi import run_estimates
    from ..core.topics import missing_topics_warning
    from ..evaluation.inputs import evaluate

    inputs, _ = inputs_of(args)
    by_model = evaluate(replace(inputs, qrels=args.model_qrels), requests, options)
    for exc in by_model.errors:
        raise exc
    estimates = run_estimates(results, by_model.results, args.confidence, args.ppi_lambda)
    for people, model in zip(results.runs, by_model.results.runs):  # the topics only the model judged are used
        if people.unassessed:
            people.warnings.remove(missing_topics_warning(people.source, people.unassessed))
        if model.unassessed:
            people.warnings.insert(0, missing_topics_warning(model.source, model.unassessed))
    results.estimates = estimates
    results.intervals = {key: (e.low, e.high) for key, e in estimates.items()}


def _report_unjudged(done) -> None:
    """Span or chunk judgments judge some text only: each run's share of the characters it retrieved (each
    once) that no judgment covers, on stderr (taken in the evaluation's pass: the measure unjudged_chars)."""
    from ._common import warn

    for label, share in done.unjudged.items():
        if share > 0:
            warn(
                f"{label}: {100 * share:.1f}% of the characters it retrieved were never judged (mean over topics; "
                "-m unjudged_chars per topic)"
            )


def passage_requests_of(args: argparse.Namespace, kind: str):
    """The measures asked for against assessments of ``kind`` and, for passage assessments, the official tool's
    table of lines (None otherwise)."""
    from ..core.kinds import PASSAGES

    if kind == PASSAGES:
        from .eval_passages import passage_requests

        return passage_requests(args)
    return _element_requests(args, kind), None


def inputs_of(args: argparse.Namespace):
    """The evaluation's inputs and options, as the command line gives them (built once)."""
    from ..evaluation.inputs import Inputs, Options

    inputs = Inputs(
        args.qrels,
        args.runs,
        collection=args.collection,
        chunks=args.chunks,
        model=args.model,
        store=args.store,
        routes=args.routes,
        routes_model=args.routes_model,
        qrels_format=args.qrels_format,
        run_format=args.run_format,
        qrels_judge=args.qrels_judge,
    )
    options = Options(
        all_topics=args.all_topics,
        order=args.order,
        lenient=args.lenient,
        unknown=args.unknown,
        ties=args.ties,
        nav=args.nav,
        effort=args.effort,
        progress=progress_default() if args.progress is None else args.progress,
        workers=args.workers,
        wording=CLI_WORDING,
    )
    return inputs, options


def run(args: argparse.Namespace) -> int:
    """Build the evaluation's inputs once, choose the measures from the options and the assessments' kind (from
    their first record), score every run through :func:`graphsr.evaluation.inputs.evaluate`, print what it
    returns."""
    from ..core.kinds import PASSAGES
    from ..evaluation.inputs import evaluate

    if args.ci and getattr(args, "report", None):  # (before any work)
        raise GraphsrInputError(
            "--ci prints intervals in graphsr's formats (--format trec, csv, json, table); "
            "--report official prints the official tool's own lines only"
        )
    _check_ppi_options(args)
    inputs, options = inputs_of(args)
    kind = inputs.kind()
    requests, table = passage_requests_of(args, kind)
    if args.plot and kind == PASSAGES:  # (the figure's curves taken in the evaluation's pass)
        from .._records import replace

        from .eval_passages import curve_measures

        options = replace(options, also=tuple(curve_measures(args, args.task or "focused")))
    if args.plot:
        from ..analysis.plots import check_plot_path

        check_plot_path(args.plot)  # before the work, not after
    done = evaluate(inputs, requests, options)
    if getattr(done.qrels, "lengths_known", True) is False:
        from ._common import warn

        warn(
            f"{args.qrels}: ranges not checked against the documents' texts (no --collection DIR): offsets taken as "
            "given, each document as long as the furthest end judged in it"
        )
    for exc in done.errors:  # a refused run refuses only itself
        print(f"graphsr: error: {exc}", file=sys.stderr)
    if not done.results.runs:
        return 2
    if args.ci == "ppi":
        _ppi(done.results, args, requests, options)
    elif args.ci:
        done.results.intervals = _intervals(done.results, args.ci, args.confidence)
    _report_unjudged(done)
    if done.qrels.kind == PASSAGES:
        from .eval_passages import write_passages

        code = write_passages(done, table, args)
    else:
        code = write_results(done.results, args)
        if args.plot:
            from ..analysis.plots import plot_measures

            plot_measures(done.results, args.plot)
            from ._common import wrote

            wrote(args.plot, "the figure")
    return 2 if done.errors else code
