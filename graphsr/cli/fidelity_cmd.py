"""Test a measure's fidelity (SR paper §7.3): score runs and their five perturbations, and check the expected
order S(i) >= S(iii) >= S0 >= S(iv) >= S(v) >= S(ii) across topics with Spearman's rho and its p-value.
Without RUN, the bundled Shakespeare sample's runs, assessments and collection."""

from __future__ import annotations

import argparse
import sys

from ..errors import GraphsrInputError
from ._common import progress_default
from .wording import CLI_WORDING


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "runs",
        nargs="*",
        metavar="RUN",
        help="runs, of any kind graphsr eval reads (default: the bundled sample's); passages as the elements "
        "containing them",
    )
    p.add_argument("--qrels", help="assessments, of any kind graphsr eval reads (with RUN)")
    p.add_argument(
        "--chunks", metavar="CHUNK_MAP", help="the chunk map TREC qrels and runs of chunk ids name (with RUN)"
    )
    p.add_argument("--collection", metavar="DIR", help="the collection (with RUN)")
    p.add_argument(
        "--sample",
        choices=["shakespeare", "mobydick"],
        default="shakespeare",
        help="bundled sample to use without RUN (default: shakespeare)",
    )
    p.add_argument("-m", "--measure", default="SRP@10", help="the measure to test (default: SRP@10)")
    p.add_argument(
        "--model", default="p*:extent", metavar="SUMMARY:WEIGHT", help="SR navigation model (default: p*:extent)"
    )
    p.add_argument("--nav", default="depth4", help="ESR navigation without a route log (default: depth4, the prior)")


def run(args: argparse.Namespace) -> int:
    from ..analysis.perturb import measure_fidelity
    from ..evaluation.collection import load_collection
    from ..evaluation.context import element_context
    from ..evaluation.elements_of import as_elements
    from ..evaluation.inputs import Inputs, Options

    if args.runs:
        if not (args.qrels and args.collection):
            raise GraphsrInputError("with RUN give --qrels FILE and --collection DIR")
        qrels_path, collection, paths = args.qrels, args.collection, args.runs
    else:
        if args.qrels or args.collection or args.chunks:  # they go with RUN; the sample has its own
            raise GraphsrInputError(
                "--qrels, --collection and --chunks go with RUN (without RUN the sample's own are used)"
            )
        from ..data import sample

        s = sample(args.sample)
        qrels_path, collection, paths = s["qrels"], s["collection"], [str(p) for p in s["runs"]]
    inputs = Inputs(qrels_path, paths, collection=collection, chunks=args.chunks)
    qrels, runs = as_elements(
        inputs, lambda wanted: load_collection(collection, [], keep=wanted).documents, Options(wording=CLI_WORDING)
    )
    ctx = element_context(
        qrels.docids().union(*(r.docids() for r in runs)),
        measures=[args.measure],
        collection=collection,
        model=args.model,
        nav=args.nav,
        progress=progress_default(),
        wording=CLI_WORDING,
    )
    result = measure_fidelity(qrels, runs, args.measure, ctx, progress=progress_default())
    sys.stdout.write(f"{len(runs)} run(s); {result.topics_used} run-topic pairs score the six runs differently\n")
    sys.stdout.write(result.text())
    return 0
