"""Benchmark: the official INEX passage measures, whole commands as a user runs them.

Runs are generated from the official INEX 2010 qrels with a seed
(bench/_data/fol-runs-v2/, git-ignored): 52 topics, per topic up to 850
passages over up to 500 judged articles in random order, 1-3 disjoint
passages per article (near its highlighted text or anywhere in it), an
article's passages consecutive -- about 44,000 passages a run, valid for the
focused, thorough, Relevant in Context and T2I tasks.

Timed as whole processes (interpreter start and imports included), each
command repeated ``--repeat`` times after one untimed run, median and best
reported, with Python's bytecode caches on as on a user's machine:

* ``graphsr --help`` and ``graphsr measures``;
* ``graphsr eval QRELS RUN`` (focused headline) on one run;
* the same on ten runs in one command;
* ``graphsr eval QRELS RUN --report official -q`` (every line of the tool);
* ``--task ric`` and ``--task t2i`` on one run.

Then, in one process, reading the qrels once and scoring each run (MAiP and
MAgP), for the throughput without start-up.  The official Java tool is not on
this machine: the issue measured it here at 0.6-1.1 s for one such run and
2.2-3.5 s for ten (JVM start included).

    python bench/bench_fol.py [--runs 10] [--repeat 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
QRELS = HERE.parent / "graphsr" / "data" / "samples" / "inex2010" / "qrels.txt"
GRAPHSR = Path(sys.executable).parent / "graphsr"


def generate(out: Path, runs: int, seed: int = 2010, per_topic: int = 850) -> list[Path]:
    """Seeded runs of disjoint passages (see the module docstring)."""
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
                if length < 2:
                    continue
                k = int(rng.integers(1, 4))
                if spans and rng.random() < 0.7:  # around a highlighted passage
                    o, n = spans[int(rng.integers(len(spans)))]
                    lo, hi = max(0, o - 200), min(length, o + n + 200)
                else:
                    lo, hi = 0, length
                cuts = np.unique(rng.integers(lo, max(hi, lo + 1) + 1, size=2 * k))
                pieces = [(int(a), int(b)) for a, b in zip(cuts[0::2], cuts[1::2]) if b > a]
                for a, b in pieces:
                    rank += 1
                    lines.append(f"{topic} Q0 {docid} {rank} {10000 - rank} bench{r} {a} {b - a}\n")
                if rank >= per_topic:
                    break
        path.write_text("".join(lines))
    return paths


# as on a user's machine: Python caches compiled modules (this workplace sets PYTHONDONTWRITEBYTECODE, which
# would recompile graphsr's modules at every start); one untimed run per command writes the caches
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], repeat: int) -> tuple[float, float]:
    """Median and best wall-clock seconds of a command run ``repeat`` times (after one untimed run)."""
    times = []
    for k in range(repeat + 1):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        if k:
            times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--data", type=Path, default=HERE / "_data" / "fol-runs-v2")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    paths = generate(a.data, a.runs)
    sizes = [sum(1 for _ in p.open()) for p in paths]
    print(f"{len(paths)} runs of 52 topics, {min(sizes)}-{max(sizes)} passages each", flush=True)
    g, q, one, all_ = str(GRAPHSR), str(QRELS), str(paths[0]), [str(p) for p in paths]
    commands = {
        "graphsr --help": [g, "--help"],
        "graphsr measures": [g, "measures"],
        "eval, 1 focused run": [g, "eval", q, one],
        f"eval, {len(paths)} focused runs": [g, "eval", q, *all_],
        "eval, 1 run --report official -q": [g, "eval", q, one, "--report", "official", "-q"],
        "eval, 1 run --task ric": [g, "eval", q, one, "--task", "ric"],
        "eval, 1 run --task t2i": [g, "eval", q, one, "--task", "t2i"],
        f"eval, {len(paths)} runs --task thorough": [g, "eval", q, *all_, "--task", "thorough"],
    }
    figures = {}
    print(f"{'whole command':<40} {'median':>8} {'best':>8}")
    for name, cmd in commands.items():
        med, best = timed(cmd, a.repeat)
        figures[name] = {"median": med, "best": best}
        print(f"{name:<40} {med:>7.3f}s {best:>7.3f}s", flush=True)

    from graphsr.evaluation import evaluate
    from graphsr.io.fol import read_fol_qrels, read_fol_run

    t0 = time.perf_counter()
    qrels = read_fol_qrels(QRELS)
    t_qrels = time.perf_counter() - t0
    t1 = time.perf_counter()
    for p in paths:
        evaluate(qrels, [read_fol_run(p, vocab=qrels.vocab)], ["MAiP", "MAgP"])
    t_runs = time.perf_counter() - t1
    print(
        f"in one process: qrels {t_qrels * 1000:.0f} ms, {len(paths)} runs {t_runs:.2f} s "
        f"({t_runs / len(paths) * 1000:.0f} ms per run, MAiP + MAgP, reading included)"
    )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(
            json.dumps(
                {
                    "commands": figures,
                    "qrels_seconds": t_qrels,
                    "runs_seconds": t_runs,
                    "runs": len(paths),
                    "passages": sizes,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
