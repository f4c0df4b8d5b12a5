"""Exact PRUM at scale: 100 topics x 1500 ranks with 200 ideal elements per topic (issue 12's target: at most
1 s per topic), every recall value r = 1..200 at once.

Two parts, both timed:

* the kernel alone (Eq 5-8 from the navigation links), on links drawn like an XML run's: each entry leads to
  the ideal elements of its document that nest with it (0-6 of them, probabilities from length ratios, the
  entry itself with probability 1 when it is ideal);
* the whole measure through ``graphsr.evaluate`` on a generated INEX-like collection (``bench/inexlike.py``)
  with the structural model (Eq 9): resolving the run, choosing the ideal elements, building the links.

    python bench/bench_prum.py [--topics 100] [--ranks 1500] [--ideal 200] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


def synthetic_links(rng, ranks: int, ideal: int):
    rows_k, rows_p, ptr = [], [], [0]
    for _ in range(ranks):
        m = int(rng.choice([0, 0, 1, 1, 2, 3, 6]))
        k = rng.choice(ideal, size=m, replace=False)
        p = rng.uniform(0.02, 1.0, size=m)
        if m and rng.random() < 0.1:
            p[0] = 1.0
        rows_k.append(k)
        rows_p.append(p)
        ptr.append(ptr[-1] + m)
    return np.array(ptr), np.concatenate(rows_k).astype(np.int64), np.concatenate(rows_p)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--ranks", type=int, default=1500)
    ap.add_argument("--ideal", type=int, default=200)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    from graphsr.measures.prum import prum_by_recall

    rng = np.random.default_rng(1)
    cases = [synthetic_links(rng, a.ranks, a.ideal) for _ in range(a.topics)]
    t0 = time.perf_counter()
    for ptr, ks, prob in cases:
        prum_by_recall(a.ideal, ptr, ks, prob, 1_000_000)
    kernel = time.perf_counter() - t0
    print(
        f"kernel: {a.topics} topics x {a.ranks} ranks x {a.ideal} ideal elements, every r: {kernel:.2f} s "
        f"({kernel / a.topics * 1000:.0f} ms per topic; {len(cases[0][1])} links in the first topic)",
        flush=True,
    )
    figures = {"kernel_seconds": kernel, "kernel_ms_per_topic": kernel / a.topics * 1000}
    sys.path.insert(0, str(HERE))
    from bench_summaries import collection

    from graphsr.evaluation import element_context, evaluate
    from graphsr.core.qrels import ElementQrels
    from graphsr.core.run import Run, TreeResult

    path, _ = collection(50, HERE / "_data")
    from graphsr.io import iter_documents

    docs = {d.docid: d for d in iter_documents(path)}
    docids = sorted(docs)
    topics = [str(q) for q in range(a.topics)]
    judgments, results = {}, {}
    for q in topics:  # 200 assessed elements in 20 documents; the run: 1500 elements, a third from those
        near = rng.choice(len(docids), size=20, replace=False)
        j = {}
        while len(j) < a.ideal:
            d = docids[int(rng.choice(near))]
            j[(d, docs[d].xpath(int(rng.integers(len(docs[d])))))] = 1.0
        judgments[q] = j
        picked = set()
        rs = []
        while len(rs) < a.ranks:
            d = docids[int(rng.choice(near))] if rng.random() < 1 / 3 else docids[int(rng.integers(len(docids)))]
            xp = docs[d].xpath(int(rng.integers(len(docs[d]))))
            if (d, xp) not in picked:
                picked.add((d, xp))
                rs.append(TreeResult(q, len(rs) + 1, d, (xp,), -len(rs)))
        results[q] = rs
    qrels, run = ElementQrels(judgments), Run("bench", results)
    t0 = time.perf_counter()
    ctx = element_context(qrels.docids() | run.docids(), measures=["PRUM"], collection=path)
    setup = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = evaluate(qrels, [run], ["PRUM(r=10)", "MAPRUM"], ctx)
    whole = time.perf_counter() - t0
    print(
        f"graphsr.evaluate, structural model, PRUM(r=10) + MAPRUM: {whole:.2f} s ({whole / a.topics * 1000:.0f} "
        f"ms per topic; reading the collection once before: {setup:.1f} s); MAPRUM "
        f"{res.runs[0].mean(res.measures[1]):.4f}"
    )
    figures.update(
        {"evaluate_seconds": whole, "evaluate_ms_per_topic": whole / a.topics * 1000, "collection_seconds": setup}
    )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
