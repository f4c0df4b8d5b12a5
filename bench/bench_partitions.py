"""Summary partitions on the 50 MB INEX-like collection, as whole commands (start-up included), from the
collection read in memory and from the local store: ``graphsr partitions``, ``graphsr partition`` (one page)
and ``graphsr coverage`` of two runs (50 topics x 200 element results each, random nodes of 500 documents),
with the outputs of both paths checked equal.

    python bench/bench_partitions.py [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent


def write_inputs(folder: Path, collection: Path, seed: int = 5) -> tuple[Path, list[Path]]:
    sys.path.insert(0, str(HERE.parent))
    from graphsr.io import iter_documents, list_collection

    rng = random.Random(seed)
    sources = list_collection(collection)
    docs = list(iter_documents(rng.sample(sources, 500)))
    qrels = []
    for t in range(50):
        for d in rng.sample(docs, 20):
            for i in rng.sample(range(len(d)), min(5, len(d))):
                qrels.append(f"{t} Q0 {d.docid} {d.xpath(i)} {rng.choice([0, 0.5, 1])}")
    qp = folder / "qrels.txt"
    qp.write_text("\n".join(sorted(set(qrels), key=lambda line: line.split()[:4])) + "\n")
    runs = []
    for name in ("a", "b"):
        lines = []
        for t in range(50):
            picked = set()
            while len(picked) < 200:
                d = rng.choice(docs)
                picked.add((d.docid, d.xpath(rng.randrange(len(d)))))
            lines += [f"{t} Q0 {d} {k} {200 - k} {name} {x}" for k, (d, x) in enumerate(picked, start=1)]
        path = folder / f"{name}.run"
        path.write_text("\n".join(lines) + "\n")
        runs.append(path)
    return qp, runs


def timed(cmd: list[str], env) -> tuple[float, str]:
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr}")
    return time.perf_counter() - t, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", default=str(HERE / "_data" / "inexlike-50MB"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    graphsr = str(Path(sys.executable).parent / "graphsr")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        qp, runs = write_inputs(tmp, Path(args.collection))
        env = {**os.environ, "GRAPHSR_STORE": f"local:{tmp / 'store'}"}
        load_s, _ = timed(
            [
                graphsr,
                "store",
                "load",
                args.collection,
                "--name",
                "inex",
                "--kind",
                "p*",
                "--elements",
                "all",
                "--qrels",
                str(qp),
                *(a for r in runs for a in ("--run", str(r))),
            ],
            env,
        )
        commands = {
            "partitions": (
                [graphsr, "partitions", args.collection, "--kind", "p*", "--format", "csv"],
                [graphsr, "partitions", "inex", "--store", "--kind", "p*", "--format", "csv"],
            ),
            "partition S5 (50 from 1000)": (
                [graphsr, "partition", args.collection, "S5", "--kind", "p*", "--offset", "1000", "--format", "csv"],
                [graphsr, "partition", "inex", "S5", "--store", "--kind", "p*", "--offset", "1000", "--format", "csv"],
            ),
            "coverage (2 runs)": (
                [
                    graphsr,
                    "coverage",
                    str(qp),
                    *map(str, runs),
                    "--collection",
                    args.collection,
                    "--kind",
                    "p*",
                    "--format",
                    "csv",
                ],
                [
                    graphsr,
                    "coverage",
                    str(qp),
                    *map(str, runs),
                    "--collection",
                    "inex",
                    "--store",
                    "--kind",
                    "p*",
                    "--format",
                    "csv",
                ],
            ),
        }
        results = {"store load (every element)": {"seconds": round(load_s, 2)}}
        for name, (memory, stored) in commands.items():
            times = {"memory": [], "store (cold)": [], "store (running)": []}
            for _ in range(args.repeat):
                a, out_m = timed(memory, env)
                b, out_s = timed(stored, env)  # the server starts, loads its saved data and stops with the command
                timed([graphsr, "store", "start"], env)
                c, _ = timed(stored, env)  # 'graphsr store start' keeps it running between commands
                timed([graphsr, "store", "stop"], env)
                times["memory"].append(a)
                times["store (cold)"].append(b)
                times["store (running)"].append(c)
                body = [
                    o.split("\n", 1)[1] if o.startswith("#") else o for o in (out_m, out_s)
                ]  # headers name the source
                if body[0] != body[1]:
                    Path("/tmp/bench_partitions_memory.csv").write_text(body[0])
                    Path("/tmp/bench_partitions_store.csv").write_text(body[1])
                    raise SystemExit(f"{name}: memory and store outputs differ (see /tmp/bench_partitions_*.csv)")
            results[name] = {
                k: {"median_s": round(statistics.median(v), 2), "runs_s": [round(x, 2) for x in v]}
                for k, v in times.items()
            }
        subprocess.run([graphsr, "store", "stop"], env=env, capture_output=True)
    for name, r in results.items():
        print(
            f"{name:<40} " + "  ".join(f"{k} {v['median_s'] if isinstance(v, dict) else v:.2f} s" for k, v in r.items())
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
