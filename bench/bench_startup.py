"""What ``graphsr eval`` of a TREC run imports, and what its start-up costs: ``python -X importtime`` on a
generated 200-topic x 1,000-result run, each top-level package's import time, the heavy optional parts that must
not be among them (tests/test_imports.py holds the command to that), and the whole command's time beside
trec_eval's and ir_measures' commands (medians of paired runs, modules' bytecode cached as on a user's machine).

    python bench/bench_startup.py [--topics 200] [--depth 1000] [--repeat 9] [--trec-eval PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: P@10, AP and nDCG@10 as trec_eval names them (for trec_eval, and for graphsr given trec_eval's names).
TREC_NAMES = ["-m", "P.10", "-m", "map", "-m", "ndcg_cut.10"]
HEAVY = ("pandas", "scipy", "ir_measures", "lxml", "networkx", "matplotlib", "pyarrow", "neo4j", "falkordb", "redis")
#: As a user's machine runs: modules' compiled bytecode cached (this workplace sets PYTHONDONTWRITEBYTECODE).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def inputs(root: Path, topics: int, depth: int) -> tuple[Path, Path]:
    rng = random.Random(1)
    qrels, run = root / "qrels", root / "run"
    with open(qrels, "w") as fh:
        for t in range(topics):
            for d in rng.sample(range(5000), 100):
                fh.write(f"{t} 0 d{d} {rng.choice([0, 0, 1, 2])}\n")
    with open(run, "w") as fh:
        for t in range(topics):
            for k, d in enumerate(rng.sample(range(5000), depth)):
                fh.write(f"{t} Q0 d{d} {k + 1} {depth - k} sys\n")
    return qrels, run


def imports(qrels: Path, run: Path) -> dict[str, float]:
    """Each package's import time (ms: the sum of its modules' own times) in ``graphsr eval``."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "graphsr", "eval", str(qrels), str(run), "-m", "P@10"],
        capture_output=True,
        text=True,
        env=ENV,
    )
    out: dict[str, float] = {}
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            own, _, name = line.split("|")
            top = name.strip().split(".")[0]
            out[top] = out.get(top, 0.0) + int(own.split(":")[1]) / 1000
    return out


def paired(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Each command's median time, the commands run in turn in each round (one untimed round first), so that
    the machine's drift falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(repeat + 1):
        for name, cmd in commands.items():
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, check=True)
            if round_:
                times[name].append(time.perf_counter() - t)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=200)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--trec-eval", default=shutil.which("trec_eval"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        qrels, run = inputs(Path(tmp), args.topics, args.depth)
        loaded = imports(qrels, run)
        print(f"imports: {sum(loaded.values()):.1f} ms in all; by package (ms, its modules' own times):")
        for name, ms in sorted(loaded.items(), key=lambda x: -x[1])[:12]:
            print(f"  {name:24} {ms:8.1f}")
        heavy = sorted(set(loaded) & set(HEAVY))
        print("heavy parts imported:", ", ".join(heavy) or "none")
        commands = {
            "python": [sys.executable, "-c", "pass"],
            "python + numpy": [sys.executable, "-c", "import numpy"],  # (the floor of any command using numpy)
            "graphsr eval": ["graphsr", "eval", str(qrels), str(run), "-m", "P@10", "-m", "AP", "-m", "nDCG@10"],
            "graphsr, trec_eval's names": ["graphsr", "eval", str(qrels), str(run), *TREC_NAMES],
        }
        if args.trec_eval:
            commands["trec_eval"] = [args.trec_eval, *TREC_NAMES, str(qrels), str(run)]
        if shutil.which("ir_measures"):
            commands["ir_measures"] = ["ir_measures", str(qrels), str(run), "P@10 AP nDCG@10"]
        times = paired(commands, args.repeat)
        for name, t in times.items():
            print(f"{name:28} {t:.3f} s (median of {args.repeat}, paired)")
        for ours in ("graphsr eval", "graphsr, trec_eval's names"):
            for other in ("trec_eval", "ir_measures"):
                if other in times:
                    print(f"{ours} / {other}: {times[ours] / times[other]:.2f}x the time")


if __name__ == "__main__":
    main()
