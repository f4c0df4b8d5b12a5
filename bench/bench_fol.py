"""Benchmark: the official INEX passage measures on 10 runs of the 52 INEX 2010 topics.

Runs are generated from the official qrels with a seed (bench/_data/fol-runs/,
git-ignored): per topic up to 1500 passages over 500 articles -- the judged
articles in random order, each with 1-3 passages near its highlighted text
or anywhere in it, consecutive per article so the same run is a valid
focused and Relevant in Context run.

Timed in one process: reading the qrels once, then for each run reading it
and computing MAiP (focused) and MAgP (RiC) over its topics.  Also timed: one
``graphsr eval QRELS RUN -m MAiP -m MAgP`` command per run (interpreter start
and imports included), the figure to compare with the official Java tool's
~1.1 s per run (JVM start included).

    python bench/bench_fol.py [--runs 10] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
QRELS = HERE.parents[1] / "shared" / "data" / "inex2010" / "inex2010.qrels"


def generate(out: Path, runs: int, seed: int = 2010) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    judged: dict[str, list] = {}
    for line in QRELS.read_text().splitlines():
        f = line.split()
        if f:
            judged.setdefault(f[0], []).append((f[2], int(f[4]), [tuple(map(int, p.split(":"))) for p in f[6:]]))
    rng = np.random.default_rng(seed)
    paths = []
    for r in range(runs):
        path = out / f"run{r:02d}.fol"
        paths.append(path)
        if path.exists():
            continue
        lines = []
        for topic, docs in judged.items():
            rank = 0
            for i in rng.permutation(len(docs))[:500]:
                docid, length, spans = docs[i]
                for _ in range(int(rng.integers(1, 4))):
                    if spans and rng.random() < 0.7:
                        o, n = spans[int(rng.integers(len(spans)))]
                        o = max(0, o + int(rng.integers(-100, 100)))
                        n = max(1, n + int(rng.integers(-100, 100)))
                    else:
                        o, n = int(rng.integers(0, max(length, 1))), int(rng.integers(1, 1000))
                    rank += 1
                    lines.append(f"{topic} Q0 {docid} {rank} {10000 - rank} bench{r} {o} {n}\n")
                    if rank >= 1500:
                        break
                if rank >= 1500:
                    break
        path.write_text("".join(lines))
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--data", type=Path, default=HERE / "_data" / "fol-runs")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    paths = generate(a.data, a.runs)
    lines = sum(1 for p in paths for _ in p.open())
    print(f"{len(paths)} runs, {lines} passages in all", flush=True)

    from graphsr.evaluation.fol_evaluate import evaluate_passages
    from graphsr.io import read_fol_qrels, read_fol_run

    t0 = time.perf_counter()
    qrels = read_fol_qrels(QRELS)
    t_qrels = time.perf_counter() - t0
    t1 = time.perf_counter()
    means = []
    for p in paths:
        res = evaluate_passages(qrels, [read_fol_run(p)], ["MAiP", "MAgP"])
        means.append({str(m): res.runs[0].mean(m) for m in res.measures})
    t_runs = time.perf_counter() - t1
    total = t_qrels + t_runs
    print(f"in one process: qrels {t_qrels:.2f} s, {len(paths)} runs {t_runs:.2f} s "
          f"({t_runs / len(paths) * 1000:.0f} ms per run); {len(paths) / total:.1f} runs/s with the qrels")
    cli = []
    for p in paths:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "graphsr", "eval", str(QRELS), str(p), "-m", "MAiP", "-m", "MAgP"],
                       check=True, capture_output=True)
        cli.append(time.perf_counter() - t)
    print(f"one graphsr eval command per run: median {np.median(cli):.2f} s "
          f"(official tool ~1.1 s: {1.1 / np.median(cli):.1f}x); one command for all {len(paths)} runs:", end=" ")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "graphsr", "eval", str(QRELS), *map(str, paths), "-m", "MAiP", "-m",
                    "MAgP"], check=True, capture_output=True)
    t_all = time.perf_counter() - t
    print(f"{t_all:.2f} s ({len(paths) / t_all:.1f} runs/s; official tool ~{1 / 1.1:.1f} runs/s: "
          f"{len(paths) / t_all * 1.1:.1f}x)")
    print("first run:", means[0])
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"qrels_seconds": t_qrels, "runs_seconds": t_runs, "runs": len(paths),
                                      "cli_median_seconds": float(np.median(cli)), "cli_all_seconds": t_all,
                                      "means": means}, indent=1))


if __name__ == "__main__":
    main()
