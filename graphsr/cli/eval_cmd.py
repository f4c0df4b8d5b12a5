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
from ._common import progress_default, warn

DEFAULT_MEASURES = ["SRP@5", "SRP@10"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", help="element assessments ('topic Q0 file xpath rel' lines) or INEX FOL assessments "
                                 "('topic Q0 file rel_chars doc_len [bep offset:length ...]')")
    p.add_argument("runs", nargs="+", metavar="RUN", help="runs: 'topic Q0 file rank score run_id xpath' lines; "
                                                          "with FOL assessments 'topic Q0 file rank score run_id "
                                                          "offset length' lines, an INEX XML submission, or an "
                                                          "element run (with --collection)")
    p.add_argument("--collection", metavar="DIR",
                   help="the XML collection (directory, XML file or tar archive)")
    p.add_argument("--model", default=None, metavar="SUMMARY:WEIGHT|NAME",
                   help="navigation model: SUMMARY in p*, p*|c, c, tag (or 'none' for no navigation), "
                        "WEIGHT in extent, length, uniform (default: p*:extent); with --store, the name of a "
                        "stored model")
    p.add_argument("--store", metavar="URL", nargs="?", const="",
                   help="use a model stored in this graph store (local:PATH, bolt://..., neo4j://...; "
                        "'--store' alone: $GRAPHSR_STORE or the per-user local store)")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"measure to compute, e.g. SRP@10 (repeatable; default: {' '.join(DEFAULT_MEASURES)})")
    p.add_argument("-q", "--per-topic", action="store_true", help="also print per-topic values")
    p.add_argument("-c", "--all-topics", action="store_true",
                   help="average over every assessed topic (a topic missing from a run scores 0)")
    p.add_argument("--unknown", choices=["error", "warn"], default="error",
                   help="run/qrels lines naming unknown documents or XPaths: fail (default) or drop them "
                        "with a counted warning")
    p.add_argument("--format", choices=["trec", "csv", "json", "table"], default="trec",
                   help="output format (default: trec)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar while reading the collection (default: when stderr is a terminal)")
    p.add_argument("--routes", metavar="LOG",
                   help="navigation log (CSV or JSON lines) to learn the ESR measures' navigation from "
                        "(with --collection)")
    p.add_argument("--routes-model", metavar="NAME",
                   help="a stored navigation model learned from routes (graphsr store model --from-routes) for the "
                        "ESR measures")
    p.add_argument("--nav", default="elements", metavar="PARTITION",
                   help="states of the learned navigation: elements (default), a summary kind (p*, p*|c, c, tag) "
                        "or depth4 (article/sec/ss1/other); depth4 without --routes is the paper's "
                        "depth-weighted prior model")
    p.add_argument("--effort", choices=["count", "duration"], default="count",
                   help="step weights: number of steps (default) or summed dwell time")
    p.add_argument("--task", choices=["focused", "ric", "bic"], default="focused",
                   help="passage runs without -m: the official tool's measures for this task (focused: "
                        "iP[0.00], iP[0.01], iP[0.05], iP[0.10], MAiP; ric/bic: MAgP, gP@1..50, gR@1..50)")
    p.add_argument("--curve", action="store_true",
                   help="passage runs: add the 101-point interpolated precision curve iP[0.00] .. iP[1.00]")
    p.add_argument("--plot", metavar="FILE",
                   help="passage runs: draw each run's interpolated precision-recall curve (mean over topics) "
                        "into FILE (.png, .pdf or .svg; needs matplotlib)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="processes that read the collection for the summary (default: 1)")


def run(args: argparse.Namespace) -> int:
    from ..evaluation import evaluate
    from ..io import read_element_qrels, read_run
    from ..measures import parse_measures

    from ..io import qrels_format

    if qrels_format(args.qrels) == "fol":
        return _passages(args)
    if args.plot:
        raise GraphsrInputError("--plot draws interpolated precision curves of passage runs (FOL assessments)")
    measures = parse_measures(args.measures or DEFAULT_MEASURES)
    stored = args.store is not None or args.collection is None
    if stored and not args.model:
        raise GraphsrInputError("a stored model needs --model NAME (see 'graphsr store models'); for a model "
                                "built in memory give --collection DIR and --model SUMMARY:WEIGHT")
    qrels = read_element_qrels(args.qrels)
    runs = [read_run(path) for path in args.runs]
    touched = qrels.docids().union(*(r.docids() for r in runs))
    progress = progress_default() if args.progress is None else args.progress
    routes = None
    prior = args.nav == "depth4" and not (args.routes or args.routes_model)
    if any(m.FAMILY == "esr" for m in measures) and not (args.routes or args.routes_model or prior):
        raise GraphsrInputError("ESR measures need navigation: give --routes LOG (with --collection DIR) or "
                                "--routes-model NAME (a stored model)")
    if args.routes:
        from ..io import read_routes

        if stored:
            raise GraphsrInputError("--routes learns navigation from a log over --collection DIR; give it")
        routes = read_routes(args.routes)
        touched |= routes.docids()
    if stored:
        documents, seen_of, model_name = _stored_model(args, touched, progress)
        loaded = None
    else:
        documents, seen_of, model_name, loaded = _memory_model(args, touched, progress)
    route_model = None
    if args.routes_model:
        from ..navigation.stored import load_stored_route_model
        from ..store import open_store

        with open_store(args.store or None) as store:
            route_model = load_stored_route_model(store, args.routes_model, documents)
    elif routes is not None:
        from ..navigation.from_routes import route_model as learn

        partition = args.nav if args.nav in ("elements", "depth4") else loaded.summaries[args.nav]
        route_model = learn(routes, documents, partition, args.effort)
    elif prior:
        from ..navigation.from_routes import depth4_prior

        route_model = depth4_prior(documents)
    results = evaluate(qrels, runs, measures, documents, seen_of, unknown=args.unknown,
                       all_topics=args.all_topics, model_name=model_name, route_model=route_model)
    return _write(results, args)


def _write(results, args) -> int:
    for r in results:
        for w in r.warnings:
            warn(w)
    if args.format == "trec":
        text = results.to_trec(per_topic=args.per_topic)
    elif args.format == "csv":
        text = results.to_csv()
    elif args.format == "json":
        text = results.to_json()
    else:
        text = results.table()
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


def _memory_model(args, touched, progress):
    from ..evaluation import load_collection, navigation_for
    from ..navigation import parse_model_spec

    from ..summaries.kinds import partition_kind

    spec = parse_model_spec(args.model or "p*:extent")
    kinds = [] if spec.summary == "none" else [spec.summary]
    if args.routes and args.nav not in ("elements", "depth4"):
        kinds.append(partition_kind(args.nav).name)
    loaded = load_collection(args.collection, kinds, keep=touched, progress=progress, workers=args.workers)
    _, seen_of = navigation_for(spec, loaded)
    return loaded.documents, seen_of, str(spec), loaded


def _stored_model(args, touched, progress):
    from ..evaluation.stored import stored_navigation
    from ..store import open_store

    with open_store(args.store or None) as store:
        return stored_navigation(store, args.model, touched, args.collection, progress=progress)


def _passages(args) -> int:
    """Passage runs against INEX FOL assessments."""
    from ..evaluation.fol_convert import passage_run
    from ..evaluation.fol_evaluate import evaluate_passages
    from ..io import read_fol_qrels, read_fol_run, read_inex_submission, read_run, run_format, submission_files
    from ..measures import parse_measures
    from ..measures.fol_family import IP_CURVE, OFFICIAL_CONTEXT, OFFICIAL_FOCUSED

    for option, given in (("--model", args.model), ("--store", args.store), ("--routes", args.routes),
                          ("--routes-model", args.routes_model)):
        if given is not None:
            raise GraphsrInputError(f"{option} does not apply to FOL (passage) assessments")
    if args.measures:
        names = list(args.measures)
    elif args.task == "focused":
        names = list(OFFICIAL_FOCUSED)
    else:
        suffix = "(task=bic)" if args.task == "bic" else ""
        names = [n.replace("@", suffix + "@") if "@" in n else n + suffix for n in OFFICIAL_CONTEXT]
    if args.curve:
        names += [n for n in IP_CURVE if n not in names]
    measures = parse_measures(names)
    qrels = read_fol_qrels(args.qrels)
    formats = [run_format(p) for p in args.runs]
    element_runs = {p: read_run(p) for p, f in zip(args.runs, formats) if f == "element"}
    if element_runs and not args.collection:
        raise GraphsrInputError(f"{next(iter(element_runs))}: an element run scored against FOL assessments needs "
                                "--collection DIR to map its elements to character ranges")
    documents = None
    if args.collection:
        wanted = set().union(*(submission_files(p) for p, f in zip(args.runs, formats) if f == "xml"),
                             *(r.docids() for r in element_runs.values()))
        if wanted:
            from ..evaluation import load_collection

            progress = progress_default() if args.progress is None else args.progress
            documents = load_collection(args.collection, [], keep=wanted, progress=progress).documents
    runs = [passage_run(element_runs[p], documents) if f == "element" else
            read_inex_submission(p, documents) if f == "xml" else read_fol_run(p)
            for p, f in zip(args.runs, formats)]  # each file's format detected once, above
    results = evaluate_passages(qrels, runs, measures, all_topics=args.all_topics)
    if args.plot:
        from ..analysis import plot_interpolated_precision

        curve = results if all(n in {str(m) for m in measures} for n in IP_CURVE) else \
            evaluate_passages(qrels, runs, IP_CURVE, all_topics=args.all_topics)
        plot_interpolated_precision(curve, args.plot)
    return _write(results, args)
