"""Benchmark: loading collections into the local graph store (nodes + edges per second, peak memory).

Loads, into a fresh local store (FalkorDB on a unix socket, in a temporary
directory), a generated INEX-Wikipedia-like collection (bench/inexlike.py;
the 200 MB one of bench_summaries.py by default, about 1.26 million
elements), then the same under a second name into the store holding it, then
the ten Shakespeare plays, each with its elements and p* and p*|c summaries,
and reports per collection the nodes and
edges written per second (element nodes with their summary memberships as
properties, ROOT/CHILD edges, documents, summary nodes), the loader's peak
RSS, the server's peak RSS and the server's memory (its ``used_memory``) per
element stored; and how long the store then takes to have it on disk
(``persist``, what a write command does before it reports: with the append-only
log, a check, every statement having been synced as it was answered).
A second load of the big collection shows what a re-run costs (every
document is already complete).

    python bench/bench_store.py [--size-mb 200] [--json out.json]
    python bench/bench_store.py --tiny 60000 [--json out.json]

``--tiny N`` loads a generated collection of N documents of about ten
elements each (one tar archive, written once into the data directory)
instead: many tiny documents, where a load's cost per document shows.
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


def used_memory(store) -> int:
    """The server's own account of the memory it holds (Redis ``used_memory``), after its lazy frees."""
    time.sleep(0.5)
    return int(store._db.connection.info("memory")["used_memory"])


def tiny_collection(documents: int, data: Path, seed: int = 0) -> Path:
    """A tar archive of ``documents`` generated articles of 4 to 22 elements (about 10 on average), written
    once."""
    import io
    import random
    import tarfile

    path = data / f"tiny-{documents}-v2.tar"
    if path.exists():
        return path
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    work = path.with_suffix(".part")
    with tarfile.open(work, "w") as tar:
        for d in range(documents):
            # a short article as a real collection holds many: a title, one to three sections of a title and
            # one to four paragraphs, some with an emphasis (a bounded structure: few summary nodes)
            parts = [f"<article><title>Article {d}</title>"]
            for s in range(rng.randint(1, 3)):
                parts.append(f"<sec><title>Section {s}</title>")
                for _ in range(rng.randint(1, 4)):
                    word = f"w{rng.randint(0, 9999)}"
                    parts.append(f"<p>{word} <b>{word}</b> text</p>" if rng.random() < 0.3 else f"<p>{word} text</p>")
                parts.append("</sec>")
            parts.append("</article>")
            body = "".join(parts).encode()
            info = tarfile.TarInfo(f"d{d:06d}.xml")
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    work.rename(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=200)
    ap.add_argument("--data", type=Path, default=HERE / "_data")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--tiny", type=int, metavar="N", help="a generated collection of N documents of ~10 elements")
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_summaries import collection

    from graphsr.data import sample
    from graphsr.store import open_store, store_collection

    if a.tiny:
        big = tiny_collection(a.tiny, a.data)
        loads = [("tiny", big), ("tiny-2", big), ("tiny (again)", big)]
    else:
        big, _ = collection(a.size_mb, a.data)
        loads = [
            (big.name, big),
            (big.name + "-2", big),
            (big.name + " (again)", big),
            ("shakespeare", sample("shakespeare")["collection"]),
        ]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, open_store(f"local:{tmp}/store") as store:
        # the big collection into the empty store, then under a second name into the store holding it, then
        # again (every document complete: nothing to write), then the Shakespeare plays
        for label, path in loads:
            before = store.counts()
            memory_before = used_memory(store)
            t = time.perf_counter()
            report, _ = store_collection(store, path, label.split()[0], kinds=["p*", "p*|c"], elements="all")
            seconds = time.perf_counter() - t
            t = time.perf_counter()
            store.persist()  # (what a write command does before it reports: on disk)
            durable = time.perf_counter() - t
            after = store.counts()
            written = sum(after.values()) - sum(before.values())
            rows.append(
                {
                    "collection": label,
                    "seconds": seconds,
                    "elements": report.elements,
                    "nodes_edges": report.items,
                    "per_second": report.items / seconds,
                    "persist_seconds": durable,
                    "per_second_on_disk": report.items / (seconds + durable),
                    "graph_growth": written,
                    "loader_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    "server_peak_mb": server_peak_mb(store.server.pid()),
                    "server_bytes_per_element": (
                        (used_memory(store) - memory_before) / report.elements if report.elements else None
                    ),
                }
            )
            r = rows[-1]
            per = (
                f", server memory {r['server_bytes_per_element']:.0f} B per element stored"
                if r["server_bytes_per_element"]
                else ""
            )
            print(
                f"{label:<26} {r['elements']:>9} elements {r['nodes_edges']:>9} nodes+edges in {seconds:7.1f} s"
                f" = {r['per_second']:>8.0f}/s, on disk after {durable:.1f} s more ({r['per_second_on_disk']:.0f}/s); "
                f"loader peak {r['loader_peak_mb']:.0f} MB, "
                f"server peak {r['server_peak_mb']:.0f} MB{per}",
                flush=True,
            )
        final = store.counts()
    print(
        f"into a store holding the first: {rows[1]['per_second'] / rows[0]['per_second']:.2f}x the rate into the "
        "empty store"
    )
    print("graph:", {k: v for k, v in final.items() if v})
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"rows": rows, "counts": final}, indent=1))


if __name__ == "__main__":
    main()
