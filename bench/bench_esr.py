"""Benchmark: ESR measures on 50 runs x 100 topics x 1500 element results, next to pytrec_eval.

Set-up (seeded): the documents of the generated 50 MB INEX-like collection of
bench_summaries.py (bench/_data/, generated if missing); a p* summary of
them; 100,000 routes from the route simulator, learned as a p*-partition
navigation model; 100 topics with 60 assessed elements each (relevance in
(0, 1]); 50 runs of 1500 element results per topic (a third of them near the
assessed elements, the rest anywhere).

Timed, in one process:

* graphsr: from the runs' (document, node) arrays to per-topic ESRP@10,
  ESRR@1500, SRiP@10, SRiP2@10, NSRCG(m=10)@10, MASRiP@1000 and MASRiP2@1000
  for all 50 runs (ESR inputs built from arrays, curves, measures);
* pytrec_eval: ``map`` and ``P_10`` on 50 runs of 100 topics x 1000 documents
  (dicts built outside the timing, as its API takes them).

    python bench/bench_esr.py [--runs 50] [--topics 100] [--depth 1500] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--depth", type=int, default=1500)
    ap.add_argument("--routes", type=int, default=100_000)
    ap.add_argument("--data", type=Path, default=HERE / "_data")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_summaries import collection

    from graphsr.io import iter_documents
    from graphsr.measures import RankedNodes, compute_esr_family, parse_measure
    from graphsr.measures.esr.inputs import ESRInputBuilder
    from graphsr.navigation.from_routes import route_model
    from graphsr.simulation import RouteSimulator
    from graphsr.summaries import build_summary
    from graphsr.core.routes import Routes, RouteReport

    path, _ = collection(50, a.data)
    t = time.perf_counter()
    docs = {d.docid: d for d in iter_documents(path)}
    summary = build_summary(docs.values(), "p*")
    steps = list(RouteSimulator(seed=7).walk(list(docs.values()), a.routes))
    routes = Routes({"all": steps}, RouteReport(steps=len(steps), routes=a.routes))
    model = route_model(routes, docs, summary)
    setup = time.perf_counter() - t
    print(
        f"set-up: {len(docs)} documents, {sum(map(len, docs.values()))} elements, {len(steps)} simulated steps, "
        f"model learned in {setup:.1f} s",
        flush=True,
    )

    rng = np.random.default_rng(1)
    docids = list(docs)
    codes = {d: i for i, d in enumerate(docids)}
    sizes = np.array([len(docs[d]) for d in docids])
    judged = {}
    for q in range(a.topics):
        near = rng.choice(len(docids), size=8, replace=False)
        j = {}
        for _ in range(60):
            d = int(rng.choice(near))
            j[(docids[d], int(rng.integers(sizes[d])))] = float(rng.uniform(0.1, 1.0))
        judged[str(q)] = j
    runs = []
    for _ in range(a.runs):
        rt, rd, node = [], [], []
        for q in range(a.topics):
            rel_docs = np.array([codes[d] for d, _ in judged[str(q)]])
            d = np.where(
                rng.random(a.depth) < 1 / 3, rng.choice(rel_docs, a.depth), rng.integers(len(docids), size=a.depth)
            )
            i = rng.integers(sizes[d])
            key = np.unique(d * (1 << 32) + i, return_index=True)[1]
            keep = np.sort(key)
            rt.append(np.full(len(keep), q))
            rd.append(d[keep])
            node.append((d[keep] << 32) | i[keep])
        rt, rd, node = np.concatenate(rt), np.concatenate(rd), np.concatenate(node)
        runs.append((rt, rd, node))
    measures = [
        parse_measure(m)
        for m in ("ESRP@10", "ESRR@1500", "SRiP@10", "SRiP2@10", "NSRCG(m=10)@10", "MASRiP@1000", "MASRiP2@1000")
    ]
    topics = [str(q) for q in range(a.topics)]
    t = time.perf_counter()
    means = []
    build = ESRInputBuilder(judged, docs, model)  # once per set of assessments, as graphsr eval does
    for rt, rd, node in runs:
        n = len(rt)
        ranked = RankedNodes(topics, rt, rd, np.arange(n), node, np.zeros(n), np.zeros(n))
        x = build(ranked, dict(codes))
        vals = compute_esr_family(measures, x)
        means.append({str(m): float(v.mean()) for m, v in vals.items()})
    graphsr_s = time.perf_counter() - t
    print(
        f"graphsr ESR: {a.runs} runs x {a.topics} topics x {a.depth} results, {len(measures)} measures: "
        f"{graphsr_s:.2f} s ({graphsr_s / a.runs * 1000:.0f} ms per run)",
        flush=True,
    )

    import pytrec_eval

    qrel = {
        str(q): {f"d{int(x)}": int(rng.integers(0, 2)) for x in rng.choice(100000, 100, replace=False)}
        for q in range(a.topics)
    }
    trec_runs = []
    for _ in range(a.runs):
        trec_runs.append(
            {
                str(q): {
                    f"d{int(x)}": float(s) for x, s in zip(rng.choice(100000, 1000, replace=False), rng.random(1000))
                }
                for q in range(a.topics)
            }
        )
    t = time.perf_counter()
    ev = pytrec_eval.RelevanceEvaluator(qrel, {"map", "P_10"})
    for r in trec_runs:
        ev.evaluate(r)
    trec_s = time.perf_counter() - t
    print(
        f"pytrec_eval map + P@10: {a.runs} runs x {a.topics} topics x 1000 documents: {trec_s:.2f} s "
        f"({trec_s / a.runs * 1000:.0f} ms per run)"
    )
    print(f"graphsr / pytrec_eval time: {graphsr_s / trec_s:.2f}")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(
            json.dumps(
                {
                    "graphsr_seconds": graphsr_s,
                    "pytrec_eval_seconds": trec_s,
                    "setup_seconds": setup,
                    "means_first_run": means[0],
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
