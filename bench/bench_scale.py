"""Cost that follows the run, not the corpus: `graphsr eval` of TREC RAG-shaped runs of segment ids over
MS MARCO v2.1-shaped shards of two sizes ten times apart (bench/msmarco_shards.py).

For each size, in a fresh index cache:

* the **first evaluation** reads the segment shards and the document shards once, building their indexes: its
  time, its peak memory (the process and its workers), and the uncompressed megabytes of shards it read a second;
* the **second evaluation** (``--repeat`` times, the median) reads only what the runs and qrels touch.

Then the second evaluation's time and memory at the large size over the small size (goal: at most 1.5), and what
the real corpus (113,520,750 segments in 60 shards of each kind) would take, scaled from the large size.  Values
are checked equal between the first and every later evaluation.

    python bench/bench_scale.py [--small 284000] [--factor 10] [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

REAL_SEGMENTS = 113_520_750
MEASURES = ["-m", "iP[0.01]", "-m", "MAiP", "-m", "ChromaIoU", "-m", "ChromaR@10", "-m", "unjudged_chars"]


def _data(segments: int, shards: int, root: Path) -> Path:
    import msmarco_shards

    out = root / f"msmarco-{segments}-{shards}"
    if not (out / "qrels.txt").exists():
        t = time.perf_counter()
        made = msmarco_shards.generate(out, segments, shards=shards, topics=50, depth=100, seed=1)
        print(f"generated {out.name}: {made} in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return out


def _uncompressed(directory: Path) -> int:
    total = 0
    for f in sorted(directory.iterdir()):
        with gzip.open(f, "rb") as fh:
            while chunk := fh.read(1 << 24):
                total += len(chunk)
    return total


def _command(data: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "graphsr",
        "eval",
        str(data / "qrels.txt"),
        str(data / "run_a.trec"),
        str(data / "run_b.trec"),
        "--chunks",
        str(data / "msmarco_v2.1_doc_segmented"),
        "--collection",
        str(data / "msmarco_v2.1_doc"),
        "--task",
        "thorough",
        *MEASURES,
    ]


def _run_size(data: Path, repeat: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="graphsr-cache-") as cache:
        env = dict(os.environ, GRAPHSR_CACHE=cache)
        first_s, first_mb, first_out = _peak_run(_command(data), env)
        seconds, peaks = [], []
        for _ in range(repeat):
            s, mb, out = _peak_run(_command(data), env)
            if out != first_out:
                raise SystemExit("values differ between the first and a later evaluation")
            seconds.append(s)
            peaks.append(mb)
        index_bytes = sum(f.stat().st_size for f in Path(cache).rglob("*") if f.is_file())
    shard_bytes = _uncompressed(data / "msmarco_v2.1_doc_segmented") + _uncompressed(data / "msmarco_v2.1_doc")
    segments = sum(1 for f in (data / "msmarco_v2.1_doc_segmented").iterdir() for _ in gzip.open(f))
    return {
        "segments": segments,
        "uncompressed_mb": shard_bytes / 1e6,
        "first_s": first_s,
        "first_peak_mb": first_mb,
        "first_mb_per_s": shard_bytes / 1e6 / first_s,
        "second_s": statistics.median(seconds),
        "second_peak_mb": max(peaks),
        "index_mb": index_bytes / 1e6,
        "values": first_out.count("\n"),
    }


def _peak_run(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """One whole command in a child whose own resource usage (its workers included) is read when it ends."""
    t = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # (a child that runs the command and exits with its status: its usage is the command's)
        with tempfile.TemporaryFile() as out:
            code = subprocess.call(cmd, env=env, stdout=out, stderr=subprocess.DEVNULL)
            out.seek(0)
            Path(env["GRAPHSR_CACHE"], "last.out").write_bytes(out.read())
        os._exit(code)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed")
    out = Path(env["GRAPHSR_CACHE"], "last.out").read_text()
    return seconds, usage.ru_maxrss / 1024, out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--small", type=int, default=284_000, help="segments of the small size")
    p.add_argument("--factor", type=int, default=10)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data", default=str(HERE / "_data"))
    p.add_argument("--json")
    a = p.parse_args(argv)
    root = Path(a.data)
    root.mkdir(parents=True, exist_ok=True)
    rows = {}
    for name, segments in (("small", a.small), ("large", a.small * a.factor)):
        rows[name] = _run_size(_data(segments, a.shards, root), a.repeat)
        print(name, json.dumps(rows[name]), file=sys.stderr)
    small, large = rows["small"], rows["large"]
    scale = REAL_SEGMENTS / large["segments"]
    summary = {
        "second_time_ratio": large["second_s"] / small["second_s"],
        "second_memory_ratio": large["second_peak_mb"] / small["second_peak_mb"],
        "real_corpus_factor": scale,
        "real_first_hours": large["first_s"] * scale / 3600,
        "real_uncompressed_gb": large["uncompressed_mb"] * scale / 1e3,
        "real_index_gb": large["index_mb"] * scale / 1e3,
    }
    print(
        "| size | segments | shards (uncompressed) | first: s | first: MB/s | first: peak MB | second: s | "
        "second: peak MB | index MB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(
            f"| {name} | {r['segments']:,} | {r['uncompressed_mb']:,.0f} MB | {r['first_s']:.1f} | "
            f"{r['first_mb_per_s']:.0f} | {r['first_peak_mb']:.0f} | {r['second_s']:.2f} | {r['second_peak_mb']:.0f} | "
            f"{r['index_mb']:.0f} |"
        )
    print(
        f"\nsecond evaluation, large over small: time {summary['second_time_ratio']:.2f}x, memory "
        f"{summary['second_memory_ratio']:.2f}x; the real corpus is {scale:.0f} times the large size: "
        f"{summary['real_uncompressed_gb']:,.0f} GB of shards, a first evaluation of about "
        f"{summary['real_first_hours']:.1f} h on this machine, indexes of {summary['real_index_gb']:.1f} GB"
    )
    if a.json:
        Path(a.json).write_text(json.dumps({"sizes": rows, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()
