"""PyTerrier's ``pt.Experiment`` with graphsr's nDCG@10 beside ir_measures' own, as a PyTerrier user runs it: two
DataFrame systems x 200 topics x 1,000 results (scores with ties), baseline significance on; values checked
equal first, then each timed in one process (median of the repeats).

    python bench/bench_pyterrier.py [--topics 200] [--depth 1000] [--repeat 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
import pandas as pd


def data(topics: int, depth: int, seed: int = 0):
    import pyterrier as pt

    rng = np.random.default_rng(seed)
    qrels = pd.DataFrame(
        [
            (str(t), f"d{t}-{d}", int(rng.integers(0, 3)))
            for t in range(topics)
            for d in rng.choice(depth * 3, 200, replace=False)
        ],
        columns=["qid", "docno", "label"],
    )
    systems = []
    for _ in range(2):
        frames = []
        for t in range(topics):
            docs = rng.choice(depth * 3, depth, replace=False)
            scores = np.sort(rng.integers(0, depth // 4, depth))[::-1].astype(float)
            frames.append(
                pd.DataFrame(
                    {"qid": str(t), "docno": [f"d{t}-{d}" for d in docs], "score": scores, "rank": np.arange(depth)}
                )
            )
        systems.append(pt.Transformer.from_df(pd.concat(frames, ignore_index=True)))
    return systems, pd.DataFrame({"qid": [str(t) for t in range(topics)], "query": "q"}), qrels


def main() -> None:
    import ir_measures
    import pyterrier as pt

    import graphsr

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args()
    systems, topics, qrels = data(args.topics, args.depth)
    tools = {"graphsr nDCG@10": graphsr.parse_measure("nDCG@10"), "ir_measures nDCG@10": ir_measures.nDCG @ 10}

    def run(measure):
        return pt.Experiment(systems, topics, qrels, eval_metrics=[measure], names=["a", "b"], baseline=0)

    frames = {name: run(m) for name, m in tools.items()}
    a, b = frames.values()
    assert np.allclose(
        a.drop(columns="name").to_numpy(float), b.drop(columns="name").to_numpy(float), atol=1e-12, equal_nan=True
    ), (a, b)
    times: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(args.repeat):
        for name, m in tools.items():
            t = time.perf_counter()
            run(m)
            times[name].append(time.perf_counter() - t)
    medians = {name: statistics.median(v) for name, v in times.items()}
    print(
        f"pt.Experiment, 2 systems x {args.topics} topics x {args.depth}, nDCG@10 with a baseline "
        f"(values equal; medians of {args.repeat}, one process):"
    )
    for name, v in medians.items():
        print(f"  {name:<22} {v:.3f} s  ({', '.join(f'{x:.3f}' for x in times[name])})")
    ratio = medians["ir_measures nDCG@10"] / medians["graphsr nDCG@10"]
    print(f"  graphsr's measure makes pt.Experiment {ratio:.2f}x as fast")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"medians": medians, "times": times, "ratio": ratio}, fh, indent=1)


if __name__ == "__main__":
    main()
