"""Benchmark: the whole pipeline on a real XML collection of about 270 MB, as a user runs it.

The collection is built once from Debian documentation packages (GNOME's
Mallard help pages in every language they ship, and the Unicode CLDR locale
data): ``apt-get download`` fetches the packages into a cache outside the
repository (``~/.cache/graphsr-bench/real`` by default), and their ``*.page``
and ``*.xml`` files that are well-formed XML (a few dozen example fragments
are not) are written, as they come, into one plain tar archive
(each member named by its path in the package, ``/`` as ``.``, so every
document id is unique).  Where ``apt-get`` is missing or the packages cannot
be fetched the bench says so and stops (exit 0).

Then, each step a whole command (start-up included), timed with the peak
resident memory of the command and of the local store's server: every
summary kind, ``store load --elements all`` into an empty store, ``store
show``, ``partitions`` / ``partition`` / ``coverage`` from the collection in
memory and from the store (server running, and cold: the command starts the
server, which loads its snapshot), 100,000 simulated routes, ``store
routes``, route and SR models in the store, and ``eval`` of three generated
runs (50 topics x 1,000 element results over real element paths of 600
documents, assessments on 20 of them per topic) with the SR, ESR, PRUM, XCG,
official INEX and flat families.

    python bench/bench_real.py [--cache DIR] [--routes 100000] [--json FILE]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGES = ["gnome-user-docs", "gnome-devel-docs", "evolution-common", "gnome-system-monitor", "gnome-calculator",
            "unicode-cldr-core"]
SUFFIXES = (".page", ".xml")


def deb_data(path: Path):
    """The data archive of a Debian package (an ``ar`` archive holding ``data.tar.*``), as a file object."""
    with open(path, "rb") as fh:
        if fh.read(8) != b"!<arch>\n":
            raise SystemExit(f"{path}: not a Debian package")
        while True:
            header = fh.read(60)
            if len(header) < 60:
                raise SystemExit(f"{path}: no data.tar member")
            name, size = header[:16].decode().strip().rstrip("/"), int(header[48:58])
            if name.startswith("data.tar"):
                return io.BytesIO(fh.read(size))
            fh.seek(size + (size & 1), os.SEEK_CUR)


def member_name(path: str) -> str:
    """``./usr/share/help/de/gnome-help/net.page`` -> ``help.de.gnome-help.net.page.xml``."""
    path = re.sub(r"^(\./)?usr/share/", "", path)
    name = re.sub(r"\s+", "_", path.replace("/", "."))
    return name if name.endswith(".xml") else name + ".xml"


def real_collection(cache: Path) -> Path | None:
    """The cached collection archive, built from the packages the first time (None when they cannot be had)."""
    target = cache / "real.tar"
    if target.exists():
        return target
    if shutil.which("apt-get") is None:
        print("bench_real: skipped -- apt-get is not available to fetch the packages "
              f"({', '.join(PACKAGES)})")
        return None
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    got = subprocess.run(["apt-get", "download", *PACKAGES], cwd=debs, capture_output=True, text=True)
    files = sorted(debs.glob("*.deb"))
    if got.returncode != 0 or len(files) < len(PACKAGES):
        print("bench_real: skipped -- cannot fetch the packages (offline?): "
              + " ".join((got.stderr or got.stdout).split())[:300])
        return None
    part = target.with_suffix(".part")
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    count = size = skipped = 0
    with tarfile.open(part, "w", format=tarfile.GNU_FORMAT) as out:
        for deb in files:
            with tarfile.open(fileobj=deb_data(deb), mode="r:*") as data:
                for m in data:
                    if not (m.isfile() and m.name.endswith(SUFFIXES)):
                        continue
                    body = data.extractfile(m).read()
                    try:
                        etree.fromstring(body, parser)
                    except etree.XMLSyntaxError:  # e.g. example fragments with an unbound prefix
                        skipped += 1
                        continue
                    info = tarfile.TarInfo(member_name(m.name))
                    info.size, info.mtime = m.size, m.mtime
                    out.addfile(info, io.BytesIO(body))
                    count, size = count + 1, size + m.size
    part.rename(target)
    print(f"bench_real: built {target}: {count:,} documents, {size / 1e6:.1f} MB of XML "
          f"({skipped} file(s) that are not well-formed XML left out)")
    return target


def write_inputs(folder: Path, collection: Path, seed: int = 11) -> tuple[Path, list[Path]]:
    """Element assessments and three runs over real element paths of 600 documents."""
    sys.path.insert(0, str(HERE.parent))
    from graphsr.io import iter_documents, list_collection

    rng = random.Random(seed)
    docs = list(iter_documents(rng.sample(list_collection(collection), 600)))
    qrels, pools = [], []
    for t in range(1, 51):
        judged = rng.sample(docs, 20)
        pools.append(judged)
        for d in judged:
            for i in sorted(rng.sample(range(len(d)), min(8, len(d)))):
                qrels.append(f"{t} Q0 {d.docid} {d.xpath(i)} {rng.choice([0, 0, 0.25, 0.5, 1])}")
    qp = folder / "qrels.txt"
    qp.write_text("\n".join(qrels) + "\n")
    runs = []
    for name, share in (("good", 0.6), ("fair", 0.3), ("poor", 0.05)):
        lines = []
        for t, judged in enumerate(pools, start=1):
            picked: dict = {}
            while len(picked) < 1000:
                d = rng.choice(judged) if rng.random() < share else rng.choice(docs)
                picked.setdefault((d.docid, d.xpath(rng.randrange(len(d)))), None)
            lines += [f"{t} Q0 {d} {k} {1000 - k} {name} {x}" for k, (d, x) in enumerate(picked, start=1)]
        path = folder / f"{name}.run"
        path.write_text("\n".join(lines) + "\n")
        runs.append(path)
    return qp, runs


class Server:
    """The local store's server, found by its pid file: resident memory now and at its peak."""

    def __init__(self, store: Path):
        self.pidfile = store / "graphsr.pid"

    def memory_mb(self) -> tuple[float, float] | None:
        try:
            pid = int(self.pidfile.read_text())
            status = Path(f"/proc/{pid}/status").read_text()
        except (OSError, ValueError):
            return None
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(cmd: list[str], env: dict, out: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and stdout of a whole command (its stdout written to ``out``)."""
    with open(out, "w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            stderr.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {stderr.read().strip()[-2000:]}")
        stdout.seek(0)
        return seconds, usage.ru_maxrss / 1024, stdout.read(1 << 20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                    / "graphsr-bench" / "real")
    ap.add_argument("--routes", type=int, default=100_000)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    collection = real_collection(a.cache)
    if collection is None:
        return
    graphsr = str(Path(sys.executable).parent / "graphsr")
    megabytes = collection.stat().st_size / 1e6
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        store = tmp / "store"
        env = {**os.environ, "GRAPHSR_STORE": f"local:{store}"}
        server = Server(store)
        qrels, runs = write_inputs(tmp, collection)
        coll = str(collection)

        def step(name: str, cmd: list[str], rate=None) -> str:
            seconds, peak, stdout = run([graphsr, *cmd], env, tmp / "stdout.txt")
            memory = server.memory_mb()
            row = {"step": name, "seconds": round(seconds, 2), "peak_mb": round(peak),
                   "server_mb": round(memory[0]) if memory else None,
                   "server_peak_mb": round(memory[1]) if memory else None,
                   "rate": rate(seconds, stdout) if rate else ""}
            rows.append(row)
            print(f"{name:<44} {seconds:8.2f} s {peak:7.0f} MB  server "
                  + (f"{memory[0]:6.0f} MB (peak {memory[1]:.0f})" if memory else "     -") + f"  {row['rate']}",
                  flush=True)
            return stdout

        def per_mb(seconds, _):
            return f"{megabytes / seconds:.1f} MB/s"

        for kind in ("p*", "p*|c", "c", "tag"):
            step(f"summary --kind {kind}", ["summary", coll, "--kind", kind], per_mb)
        step("store start (empty store)", ["store", "start"])

        def load_rate(seconds, stdout):
            m = re.search(r"(\d[\d,]*) nodes and (\d[\d,]*) relationships created", stdout)
            items = sum(int(g.replace(",", "")) for g in m.groups()) if m else 0
            return f"{items:,} nodes+edges, {items / seconds / 1e3:.0f}k/s"

        step("store load --elements all (p*, p*|c)", ["store", "load", coll, "--name", "real", "--elements", "all"],
             load_rate)
        step("store show", ["store", "show"])
        queries = {
            "partitions --kind p*": (["partitions", coll, "--kind", "p*", "--format", "csv"],
                                     ["partitions", "real", "--store", "--kind", "p*", "--format", "csv"]),
            "partition S5 (50 from 1000)": (["partition", coll, "S5", "--kind", "p*", "--offset", "1000",
                                             "--format", "csv"],
                                            ["partition", "real", "S5", "--store", "--kind", "p*", "--offset", "1000",
                                             "--format", "csv"]),
            "coverage (3 runs)": (["coverage", str(qrels), *map(str, runs), "--collection", coll, "--kind", "p*",
                                   "--format", "csv"],
                                  ["coverage", str(qrels), *map(str, runs), "--collection", "real", "--store",
                                   "--kind", "p*", "--format", "csv"]),
        }
        for name, (memory, stored) in queries.items():
            step(f"{name}, memory", memory, per_mb)
            step(f"{name}, store (running)", stored)
        step("store stop", ["store", "stop"])
        for name, (_, stored) in queries.items():
            step(f"{name}, store (cold)", stored)
        log = tmp / "routes.csv"

        def route_rate(seconds, _):
            return f"{a.routes / seconds:,.0f} routes/s"

        step(f"simulate-routes --routes {a.routes:,}", ["simulate-routes", coll, "--routes", str(a.routes),
                                                        "-o", str(log)], route_rate)
        step("store start", ["store", "start"])
        step(f"store routes ({a.routes:,} routes)", ["store", "routes", str(log), "--collection", "real",
                                                     "--study", "sim"], route_rate)
        step("store model --from-routes (p*)", ["store", "model", "--collection", "real", "--from-routes", "sim"])
        step("store model --model p*:extent", ["store", "model", "--collection", "real", "--model", "p*:extent"])

        def exported(seconds, stdout):
            m = re.search(r"(\d+) nodes in \d+ files, (\d+) relationships", stdout)
            items = int(m[1]) + int(m[2]) if m else 0
            return f"{items:,} nodes+edges, {items / seconds / 1e3:.0f}k/s"

        step("store export (neo4j-admin CSV)", ["store", "export", str(tmp / "export"), "--collection", "real"],
             exported)
        shutil.rmtree(tmp / "export", ignore_errors=True)
        evals = {
            "SR (SRP@10, SR@100), memory model": ["--collection", coll, "-m", "SRP@10", "-m", "SR@100"],
            "SR, stored model": ["--store", "--model", "real/p*:extent", "-m", "SRP@10", "-m", "SR@100"],
            "ESR (ESRP@10, ESRR@100, SRiP@10, MAESRP), routes": [
                "--collection", coll, "--routes", str(log), "-m", "ESRP@10", "-m", "ESRR@100", "-m", "SRiP@10",
                "-m", "MAESRP"],
            "PRUM (PRUM[0.5], MAPRUM)": ["--collection", coll, "-m", "PRUM[0.5]", "-m", "MAPRUM"],
            "XCG (nxCG@10, MAep)": ["--collection", coll, "-m", "nxCG@10", "-m", "MAep"],
            "INEX thorough (iP[0.01], MAiP)": ["--collection", coll, "--task", "thorough", "-m", "iP[0.01]",
                                               "-m", "MAiP"],
            "flat (P@10, AP, nDCG@10)": ["--collection", coll, "-m", "P@10", "-m", "AP", "-m", "nDCG@10"],
        }
        for name, args in evals.items():
            step(f"eval {name}", ["eval", str(qrels), *map(str, runs), *args])
        step("store stop", ["store", "stop"])
    print(f"\ncollection: {collection} ({megabytes:.1f} MB archive; MB/s below are of the archive)\n")
    print("| step | wall | peak RSS of the command (cold: with the server it starts) | server RSS (peak) | rate |")
    print("|---|---|---|---|---|")
    for r in rows:
        server_cell = f"{r['server_mb']:,} MB ({r['server_peak_mb']:,} MB)" if r["server_mb"] is not None else ""
        step = r["step"].replace("|", "\\|")
        print(f"| {step} | {r['seconds']:.2f} s | {r['peak_mb']:,} MB | {server_cell} | {r['rate']} |")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({"collection": str(collection), "megabytes": megabytes, "rows": rows},
                                     indent=1))


if __name__ == "__main__":
    main()
