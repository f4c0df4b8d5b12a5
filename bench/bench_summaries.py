"""Benchmark: summary construction against lxml's bare parse speed, and peak memory.

Generates (once, cached in bench/_data/) an INEX-Wikipedia-like collection of
SIZE MB and one of SIZE/4 MB (bench/inexlike.py), then measures, each in a
fresh process so peak memory is that run's own, the best of --repeat rounds
(each round runs every mode once, so drift in machine speed hits all alike):

* bare        lxml ``etree.parse`` of every file, nothing else (the baseline)
* read        graphsr document trees (parse + C walk into arrays)
* p*, p*|c, c, tag   one summary, one process
* p* x2, p*|c x2     one summary, two worker processes
* bare x2     bare parse split over two processes (the parallel baseline)

and reports the median MB/s (and the best), the share of the bare parse
speed, and peak RSS (MB) for both collection sizes: a streaming pass keeps it
flat as the collection grows.  Times exclude interpreter start-up and imports.

    python bench/bench_summaries.py [--size-mb 200] [--repeat 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODES = ["bare", "read", "p*", "p*|c", "c", "tag", "bare x2", "p* x2", "p*|c x2"]


def worker(mode: str, path: str) -> dict:
    from lxml import etree

    from graphsr.io import iter_documents, list_collection
    from graphsr.io.collection import accelerated
    from graphsr.summaries import summarize_collection

    sources = list_collection(path)
    files = [s.path for s in sources]
    t = time.perf_counter()
    if mode == "bare":
        p = etree.XMLParser(huge_tree=True)
        for f in files:
            etree.parse(f, p)
    elif mode == "bare x2":
        import multiprocessing as mp

        with mp.get_context("fork").Pool(2) as pool:
            list(pool.imap(_bare_chunk, [files[i : i + 256] for i in range(0, len(files), 256)]))
    elif mode == "read":
        for _ in iter_documents(sources):
            pass
    else:
        kind, _, par = mode.partition(" x")
        summarize_collection(sources, [kind], workers=int(par or 1))
    seconds = time.perf_counter() - t
    rss = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    )
    return {"seconds": seconds, "peak_rss_mb": rss / 1024, "c_walker": accelerated()}


def _bare_chunk(files):
    from lxml import etree

    p = etree.XMLParser(huge_tree=True)
    for f in files:
        etree.parse(f, p)
    return len(files)


def collection(size_mb: float, data: Path) -> tuple[Path, int]:
    sys.path.insert(0, str(HERE))
    from inexlike import generate

    out = data / f"inexlike-{size_mb:g}MB"
    manifest = out / "MANIFEST"
    if not manifest.exists():
        print(f"generating {out} ...", file=sys.stderr, flush=True)
        generate(out, size_mb)
    nbytes = int(dict(line.split() for line in manifest.read_text().splitlines())["bytes"])
    return out, nbytes


def measure(mode: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--worker", mode, str(path)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return json.loads(proc.stdout)


def rounds(modes: list[str], path: Path, repeat: int) -> dict[str, dict]:
    """Rounds of every mode in turn (so drift in machine speed hits all alike).

    Per mode: the median and the best time, and the largest peak memory.
    """
    runs: dict[str, list[dict]] = {m: [] for m in modes}
    for _ in range(repeat):
        for mode in modes:
            runs[mode].append(measure(mode, path))
    out = {}
    for mode, rs in runs.items():
        secs = sorted(r["seconds"] for r in rs)
        out[mode] = {
            "seconds": statistics.median(secs),
            "best_seconds": secs[0],
            "peak_rss_mb": max(r["peak_rss_mb"] for r in rs),
            "c_walker": rs[0]["c_walker"],
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data", type=Path, default=HERE / "_data")
    ap.add_argument("--modes", nargs="*", default=MODES)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--worker", nargs=2, metavar=("MODE", "PATH"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        print(json.dumps(worker(*a.worker)))
        return
    big, big_bytes = collection(a.size_mb, a.data)
    small, small_bytes = collection(a.size_mb / 4, a.data)
    rows = []
    big_best = rounds(a.modes, big, a.repeat)
    small_best = rounds(a.modes, small, 1)
    for mode in a.modes:
        rb, rs = big_best[mode], small_best[mode]
        rows.append(
            {
                "mode": mode,
                "mb_per_s": big_bytes / 1e6 / rb["seconds"],
                "seconds": rb["seconds"],
                "best_mb_per_s": big_bytes / 1e6 / rb["best_seconds"],
                "peak_rss_mb": rb["peak_rss_mb"],
                "peak_rss_mb_quarter": rs["peak_rss_mb"],
                "c_walker": rb["c_walker"],
            }
        )
    bare = next((r["mb_per_s"] for r in rows if r["mode"] == "bare"), None)
    print(
        f"collection: {big_bytes / 1e6:.0f} MB ({big.name}), quarter: {small_bytes / 1e6:.0f} MB; "
        f"median (and best) of {a.repeat} rounds; C walker: {rows[0]['c_walker']}; {os.cpu_count()} cores"
    )
    print(f"{'mode':<10}{'MB/s':>8}{'% bare':>8}{'best MB/s':>11}{'peak MB':>9}{'peak MB (1/4)':>15}")
    for r in rows:
        share = f"{100 * r['mb_per_s'] / bare:7.0f}%" if bare else ""
        print(
            f"{r['mode']:<10}{r['mb_per_s']:8.1f}{share:>8}{r['best_mb_per_s']:11.1f}{r['peak_rss_mb']:9.0f}"
            f"{r['peak_rss_mb_quarter']:15.0f}"
        )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"size_mb": big_bytes / 1e6, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
