"""Benchmark: loading collections into the local graph store (nodes + edges per second, peak memory).

Loads, into a fresh local store (FalkorDB on a unix socket, in a temporary
directory), first the ten Shakespeare plays and then a generated
INEX-Wikipedia-like collection (bench/inexlike.py; the 200 MB one of
bench_summaries.py by default, about 1.26 million elements), each with its
elements and p* and p*|c summaries, and reports per collection the nodes and
edges written per second (element nodes, ROOT/CHILD/MEMBER_OF edges,
documents, summary nodes), the loader's peak RSS and the server's peak RSS.
A second load of the big collection shows what a re-run costs (every
document is already complete).

    python bench/bench_store.py [--size-mb 200] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def server_peak_mb(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--data", type=Path, default=HERE / "_data")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_summaries import collection

    from graphsr.data import sample
    from graphsr.store import open_store, store_collection

    big, _ = collection(a.size_mb, a.data)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, open_store(f"local:{tmp}/store") as store:
        for label, path in [("shakespeare", sample("shakespeare")["collection"]), (big.name, big),
                            (big.name + " (again)", big)]:
            before = store.counts()
            t = time.perf_counter()
            report, _ = store_collection(store, path, label.split()[0], kinds=["p*", "p*|c"], elements="all")
            seconds = time.perf_counter() - t
            after = store.counts()
            written = sum(after.values()) - sum(before.values())
            rows.append({"collection": label, "seconds": seconds, "elements": report.elements,
                         "nodes_edges": report.items, "per_second": report.items / seconds,
                         "graph_growth": written,
                         "loader_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                         "server_peak_mb": server_peak_mb(store.server.pid())})
            r = rows[-1]
            print(f"{label:<26} {r['elements']:>9} elements {r['nodes_edges']:>9} nodes+edges in {seconds:7.1f} s"
                  f" = {r['per_second']:>8.0f}/s; loader peak {r['loader_peak_mb']:.0f} MB, "
                  f"server peak {r['server_peak_mb']:.0f} MB", flush=True)
        final = store.counts()
    print("graph:", {k: v for k, v in final.items() if v})
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"rows": rows, "counts": final}, indent=1))


if __name__ == "__main__":
    main()
