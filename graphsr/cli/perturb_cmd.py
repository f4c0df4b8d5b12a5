"""Write the five systematic perturbations of an element run (SR paper §7.1): relevant results ranked
higher (i) and lower (ii), overlap removed (iii), leaf nodes (iv) and mid-branch nodes (v) ranked higher."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._common import progress_default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", help="an element run ('topic Q0 file rank score run_id xpath')")
    p.add_argument("--qrels", required=True, help="element assessments (which results are relevant)")
    p.add_argument("--collection", required=True, metavar="DIR", help="the collection (leaves, nesting)")
    p.add_argument("-o", "--out", required=True, metavar="DIR", help="directory to write RUN.i.run .. RUN.v.run")


def run(args: argparse.Namespace) -> int:
    from ..analysis.perturb import PERTURBATIONS, perturbations
    from ..evaluation.collection import load_collection
    from ..io import read_element_qrels, read_run, write_run

    qrels = read_element_qrels(args.qrels)
    base = read_run(args.run)
    docs = load_collection(
        args.collection, [], keep=base.docids() | qrels.docids(), progress=progress_default()
    ).documents
    from ..io.atomic import output_directory

    out = output_directory(args.out, "the perturbed runs")
    stem = Path(args.run).name.removesuffix(".run")
    run_id = base.run_ids[0] if base.run_ids else stem
    for kind, variant in perturbations(base, qrels, docs).items():
        path = out / f"{stem}.{kind}.run"
        write_run(variant, path, f"{run_id}-{kind}")
        sys.stdout.write(f"{path}\t{PERTURBATIONS[kind]}\t{variant.num_results} results\n")
    return 0
