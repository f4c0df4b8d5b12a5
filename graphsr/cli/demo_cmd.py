"""Run the whole pipeline on the bundled samples (Moby Dick of the SR paper, ten Shakespeare plays).

For each sample: read the collection once, build every summary kind, then
score the sample runs with SRP@5 and SRP@10 under each navigation model
(summary kind x weight scheme, and no navigation), and print the means.
"""

from __future__ import annotations

import argparse
import sys

from ._common import progress_default

MODELS = ["none", "p*:extent", "p*:length", "p*|c:extent", "p*|c:length", "c:extent", "tag:extent",
          "tag:uniform"]
MEASURES = ["SRP@5", "SRP@10"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sample", action="append", choices=["mobydick", "shakespeare"],
                   help="sample set(s) to run (default: both)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)


def run(args: argparse.Namespace) -> int:
    from ..data import sample
    from ..evaluation import evaluate, load_collection, navigation_for
    from ..io import read_element_qrels, read_run
    from ..measures import parse_measures

    progress = progress_default() if args.progress is None else args.progress
    measures = parse_measures(MEASURES)
    out = sys.stdout
    for name in args.sample or ["mobydick", "shakespeare"]:
        s = sample(name)
        qrels = read_element_qrels(s["qrels"])
        runs = [read_run(p, name=p.stem) for p in s["runs"]]
        kinds = sorted({m.split(":")[0] for m in MODELS if m != "none"})
        loaded = load_collection(s["collection"], kinds, keep=None, progress=progress)
        out.write(f"== sample {name}: {loaded.num_documents} document(s), "
                  f"{sum(len(d) for d in loaded.documents.values())} elements, "
                  f"{len(qrels.topics)} topic(s), {len(runs)} runs\n")
        out.write("   summaries: " + ", ".join(f"{k} {len(v)} nodes" for k, v in loaded.summaries.items()) + "\n\n")
        rows = []
        for spec in MODELS:
            _, seen_of = navigation_for(spec, loaded)
            res = evaluate(qrels, runs, measures, loaded.documents, seen_of)
            rows.append((spec, res))
        width = max(len(r.name) for r in runs)
        for m in measures:
            out.write(f"   mean {m} per run (rows) and navigation model (columns)\n")
            out.write(f"   {'run':<{width}}" + "".join(f"{spec:>13}" for spec, _ in rows) + "\n")
            for r in runs:
                out.write(f"   {r.name:<{width}}" + "".join(f"{res[r.name].mean(m):>13.4f}" for _, res in rows)
                          + "\n")
            out.write("\n")
        out.write("   the same from the command line, e.g.:\n")
        out.write(f"   graphsr eval {s['qrels']} {' '.join(str(p) for p in s['runs'][:2])} ... \\\n"
                  f"       --collection {s['collection']} --model 'p*|c:length' -m SRP@5 -m SRP@10\n\n")
    out.write("'none' is SR without navigation (SRP@k = P@k with binary relevance); other columns use the\n"
              "steady state (CIKM'08 Eq 8) of the summary graph under the given edge weights.\n")
    return 0
