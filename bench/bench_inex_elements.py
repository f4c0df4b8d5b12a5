"""The INEX 2002-2005 element measures and PRUM through ``graphsr.evaluate``, as a user scores an element run:
resolving the run and the (e, s) assessments against the documents, choosing the ideal elements, the kernels.

On the generated INEX-like collection of ``bench_summaries`` (50 MB), 100 topics x 1,500 ranked elements (a
third from the 20 documents each topic's 200 assessed elements come from), (e, s) assessments drawn from the
INEX scale; each measure group timed in one process after one untimed run, median of ``--repeat``.

    python bench/bench_inex_elements.py [--topics 100] [--ranks 1500] [--assessed 200] [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent

GROUPS = {
    "PRUM (structural), MAPRUM": ["PRUM(r=10)", "MAPRUM"],
    "GRP[0.5], GRPng[0.5]": ["GRP[0.5]", "GRPng[0.5]"],
    "nxCG@10, nxCG@50, MAep, ep[0.5]": ["nxCG@10", "nxCG@50", "MAep", "ep[0.5]"],
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--ranks", type=int, default=1500)
    ap.add_argument("--assessed", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_summaries import collection

    from graphsr.core.qrels import ElementQrels, QrelsRow
    from graphsr.core.run import Run, RunRow
    from graphsr.evaluation import element_context, evaluate
    from graphsr.io import iter_documents

    rng = np.random.default_rng(7)
    path, _ = collection(50, HERE / "_data")
    docs = {d.docid: d for d in iter_documents(path)}
    docids = sorted(docs)
    pairs = [(e, s) for e in range(4) for s in range(4) if (e == 0) == (s == 0)]
    qrows, rrows = [], []
    for q in map(str, range(a.topics)):
        near = rng.choice(len(docids), size=20, replace=False)
        seen = set()
        while len(seen) < a.assessed:
            d = docids[int(rng.choice(near))]
            xp = docs[d].xpath(int(rng.integers(len(docs[d]))))
            if (d, xp) not in seen:
                seen.add((d, xp))
                qrows.append(QrelsRow(q, d, xp, 0.0, None, pairs[int(rng.integers(len(pairs)))]))
        picked = set()
        while len(picked) < a.ranks:
            d = docids[int(rng.choice(near))] if rng.random() < 1 / 3 else docids[int(rng.integers(len(docids)))]
            xp = docs[d].xpath(int(rng.integers(len(docs[d]))))
            if (d, xp) not in picked:
                picked.add((d, xp))
                rrows.append(RunRow(q, d, len(picked), -len(picked), xp))
    qrels, run = ElementQrels.from_rows(qrows), Run.from_rows(rrows, "bench")
    measures = [m for ms in GROUPS.values() for m in ms]
    ctx = element_context(qrels.docids() | run.docids(), measures=measures, collection=path)
    figures = {}
    for label, ms in GROUPS.items():
        evaluate(qrels, [run], ms, ctx)  # untimed: first imports
        times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            res = evaluate(qrels, [run], ms, ctx)
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        means = ", ".join(f"{m} {res.runs[0].mean(m):.4f}" for m in res.measures)
        print(f"{label}: {t:.2f} s ({t / a.topics * 1000:.1f} ms per topic); {means}", flush=True)
        figures[label] = {"seconds": t, "means": {str(m): res.runs[0].mean(m) for m in res.measures}}
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
