"""``graphsr compare`` over many runs: the whole command on a score table of RUNS runs x 50 topics (one measure,
every pair t-tested with Holm's correction), start-up included.

    python bench/bench_compare.py [--runs 200] [--repeat 3] [--json FILE]

Prints the median wall and CPU seconds of the command and the number of pairs tested.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scores.csv"
        rows = [
            (f"r{r:03d}", "AP", str(t), float(rng.random()))
            for r in range(args.runs)
            for t in range(1, args.topics + 1)
        ]
        pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]).to_csv(path, index=False)
        walls, cpus = [], []
        for _ in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "graphsr", "compare", str(path), "--format", "csv"],
                capture_output=True,
                text=True,
                env=os.environ,
            )
            walls.append(time.monotonic() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode:
                sys.exit(done.stderr)
        pairs = len(done.stdout.splitlines()) - 1
    figures = {
        "runs": args.runs,
        "topics": args.topics,
        "pairs": pairs,
        "wall_s": statistics.median(walls),
        "cpu_s": statistics.median(cpus),
    }
    print(
        f"graphsr compare, {args.runs} runs x {args.topics} topics ({pairs:,} pairs, t-test, Holm): "
        f"{figures['wall_s']:.2f} s wall, {figures['cpu_s']:.2f} s CPU (median of {args.repeat})"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
