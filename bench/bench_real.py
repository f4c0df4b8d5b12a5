"""Benchmark: the whole pipeline on a real XML collection, as a user runs it.

Two real collections of different shapes, each built once into a cache outside the repository
(``~/.cache/graphsr-bench/real`` by default) as one plain tar archive whose members are named by their path in
the package, ``/`` as ``.`` (every document id unique); files that are not well-formed XML are left out:

``--collection help`` (default, about 270 MB, 3.5 million elements)
    Debian documentation packages: GNOME's Mallard help pages in every language they ship, and the Unicode
    CLDR locale data (``apt-get download``): tens of thousands of mid-sized documents.
``--collection music-svg`` (about 6.2 million elements)
    music21's corpus of MusicXML scores (the ``music21`` wheel from the Python package index; ``.mxl`` scores
    unzipped) -- 654 big documents of ~8,000 elements -- and the SVG files of Debian's ``openclipart-svg`` and
    ``papirus-icon-theme`` -- 65,000 tiny ones of 6-80 elements, in the SVG namespace.

Where the packages cannot be fetched the bench says so and stops (exit 0).

Then, each step a whole command (start-up included), timed with the peak
resident memory of the command and of the local store's server: every
summary kind, ``store load --elements all`` into an empty store, ``store
show``, ``partitions`` / ``partition`` / ``coverage`` from the collection in
memory and from the store (server running, and cold: the command starts the
server, which loads its saved data), 100,000 simulated routes, ``store
routes``, route and SR models in the store, and ``eval`` of three generated
runs (50 topics x 1,000 element results over real element paths of 600
documents, assessments on 20 of them per topic) with the SR, ESR, PRUM, XCG,
official INEX and flat families; then SR over a run touching every document (one element of each), scored from
the XML files and from the store side by side (command CPU beside the server's).

    python bench/bench_real.py [--collection help|music-svg] [--cache DIR] [--routes 100000] [--json FILE]
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
PACKAGES = [
    "gnome-user-docs",
    "gnome-devel-docs",
    "evolution-common",
    "gnome-system-monitor",
    "gnome-calculator",
    "unicode-cldr-core",
]
SUFFIXES = (".page", ".xml")
SVG_PACKAGES = ["openclipart-svg", "papirus-icon-theme"]
#: The third shape: Debian's handbook as XHTML pages in 26 languages (each names the XHTML 1.0 DTD on the web,
#: which must never be fetched) and KDE's DocBook handbooks (``index.docbook`` and chapters) in as many, which
#: declare internal entities of their own (``<!ENTITY kpdf "<application>KPDF</application>">``) beside
#: references to entities of a DTD not loaded: deep prose.
PROSE_PACKAGES = [
    "debian-handbook",
    *"""akregator ark blinken bovo cantor dolphin dragonplayer filelight granatier gwenview kaddressbook
    kanagram kapman katomic kblocks kbounce kbreakout kbruch kcachegrind kcalc kcharselect kdenlive-data kdf
    kdiamond kfind kfourinline kget kgoldrunner kgpg khangman khelpcenter kig killbots kjumpingcube kleopatra
    klickety klines kmag kmahjongg kmail kmenuedit kmines kmousetool kmplot knavalbattle knetwalk knights kolf
    kollision kolourpaint kompare konqueror konquest konsole korganizer kpat kreversi krusader kshisen ksirk
    ksnakeduel kspaceduel ksquares ksudoku ksystemlog kturtle kubrick kwalletmanager kwordquiz kwrite lokalize
    marble-data okular partitionmanager picmi sweeper""".split(),
]


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


def debian_packages(cache: Path, packages: list[str]) -> list[Path] | None:
    """The packages' ``.deb`` files, fetched into ``cache/debs`` the first time (None when they cannot be had)."""
    debs = cache / "debs"
    files = sorted(debs.glob("*.deb"))
    if len(files) >= len(packages):
        return files
    if shutil.which("apt-get") is None:
        print(f"bench_real: skipped -- apt-get is not available to fetch the packages ({', '.join(packages)})")
        return None
    debs.mkdir(parents=True, exist_ok=True)
    got = subprocess.run(["apt-get", "download", *packages], cwd=debs, capture_output=True, text=True)
    files = sorted(debs.glob("*.deb"))
    if got.returncode != 0 or len(files) < len(packages):
        print(
            "bench_real: skipped -- cannot fetch the packages (offline?): "
            + " ".join((got.stderr or got.stdout).split())[:300]
        )
        return None
    return files


def deb_members(files: list[Path], suffixes: tuple[str, ...]):
    """(path, mtime, bytes) of the regular files of the packages whose names end in one of ``suffixes``."""
    for deb in files:
        with tarfile.open(fileobj=deb_data(deb), mode="r:*") as data:
            for m in data:
                if m.isfile() and m.name.endswith(suffixes):
                    yield m.name, m.mtime, data.extractfile(m).read()


def music21_scores(cache: Path):
    """(path, mtime, bytes) of the MusicXML scores of music21's corpus (the wheel fetched with pip the first time;
    an ``.mxl`` score is a zip archive: its root file, named by its ``META-INF/container.xml``)."""
    import zipfile

    wheels = cache / "wheels"
    found = sorted(wheels.glob("music21-*.whl"))
    if not found:
        got = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(wheels), "music21"],
            capture_output=True,
            text=True,
        )
        found = sorted(wheels.glob("music21-*.whl"))
        if got.returncode != 0 or not found:
            print("bench_real: skipped -- cannot fetch music21 (offline?): " + " ".join(got.stderr.split())[:300])
            return None

    def scores():
        from lxml import etree

        with zipfile.ZipFile(found[-1]) as wheel:
            for info in wheel.infolist():
                name = info.filename
                if "/corpus/" not in name:
                    continue
                mtime = int(time.mktime(info.date_time + (0, 0, -1)))
                if name.endswith((".xml", ".musicxml")):
                    yield name, mtime, wheel.read(info)
                elif name.endswith(".mxl"):
                    import io as _io

                    with zipfile.ZipFile(_io.BytesIO(wheel.read(info))) as mxl:
                        container = etree.fromstring(mxl.read("META-INF/container.xml"))
                        root = container.find(".//{*}rootfile").get("full-path")
                        yield name, mtime, mxl.read(root)  # named ...mxl.xml: a corpus may hold both

    return scores()


def write_archive(target: Path, members) -> Path:
    """The members as one plain tar archive (well-formed XML only), written whole or not at all."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, load_dtd=False)
    part = target.with_suffix(".part")
    count = size = skipped = 0
    names = set()
    with tarfile.open(part, "w", format=tarfile.GNU_FORMAT) as out:
        for path, mtime, body in members:
            try:
                etree.fromstring(body, parser)
            except etree.XMLSyntaxError:  # e.g. example fragments with an unbound prefix
                skipped += 1
                continue
            info = tarfile.TarInfo(member_name(path))
            if info.name in names:
                raise SystemExit(f"bench_real: two members named {info.name}")
            names.add(info.name)
            info.size, info.mtime = len(body), mtime
            out.addfile(info, io.BytesIO(body))
            count, size = count + 1, size + len(body)
    part.rename(target)
    print(
        f"bench_real: built {target}: {count:,} documents, {size / 1e6:.1f} MB of XML "
        f"({skipped} file(s) that are not well-formed XML left out)"
    )
    return target


def help_collection(cache: Path) -> Path | None:
    """GNOME help pages and CLDR data (the cached archive, built from the packages the first time)."""
    target = cache / "real.tar"
    if target.exists():
        return target
    files = debian_packages(cache, PACKAGES)
    return None if files is None else write_archive(target, deb_members(files, SUFFIXES))


def music_svg_collection(cache: Path) -> Path | None:
    """music21's MusicXML scores and the SVG files of two Debian packages (the cached archive, built the first
    time)."""
    target = cache / "music-svg.tar"
    if target.exists():
        return target
    scores = music21_scores(cache / "music-svg")
    files = debian_packages(cache / "music-svg", SVG_PACKAGES)
    if scores is None or files is None:
        return None
    import itertools

    return write_archive(target, itertools.chain(scores, deb_members(files, (".svg",))))


def prose_collection(cache: Path) -> Path | None:
    """Debian's handbook (XHTML) and KDE's handbooks (DocBook) in many languages (the cached archive, built from
    the packages the first time)."""
    target = cache / "prose.tar"
    if target.exists():
        return target
    files = debian_packages(cache / "prose", PROSE_PACKAGES)
    if files is None:
        return None
    pages = (
        m
        for m in deb_members(files, (".html", ".docbook"))
        if "/debian-handbook/html/" in m[0] or m[0].endswith(".docbook")
    )
    return write_archive(target, pages)


COLLECTIONS = {"help": help_collection, "music-svg": music_svg_collection, "prose": prose_collection}


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


def write_whole_run(folder: Path, collection: Path, seed: int = 12) -> tuple[Path, Path]:
    """Assessments and a run that touches every document of the collection: one random element of each, 1,000
    results a topic, 5 elements assessed in 20 of each topic's documents."""
    sys.path.insert(0, str(HERE.parent))
    from graphsr.io import iter_documents

    rng = random.Random(seed)
    docs = [
        (
            d.docid,
            d.xpath(rng.randrange(len(d))),
            [d.xpath(i) for i in sorted(rng.sample(range(len(d)), min(5, len(d))))],
        )
        for d in iter_documents(collection)
    ]
    rng.shuffle(docs)
    lines, qrels = [], []
    for t, at in enumerate(range(0, len(docs), 1000), start=1):
        chunk = docs[at : at + 1000]
        lines += [f"{t} Q0 {d} {k} {2000 - k} whole {x}" for k, (d, x, _) in enumerate(chunk, start=1)]
        qrels += [
            f"{t} Q0 {d} {x} {rng.choice([0, 0.5, 1])}"
            for d, _, judged in rng.sample(chunk, min(20, len(chunk)))
            for x in judged
        ]
    qp, rp = folder / "whole.qrels", folder / "whole.run"
    qp.write_text("\n".join(qrels) + "\n")
    rp.write_text("\n".join(lines) + "\n")
    return qp, rp


class Server:
    """The local store's server, found by its pid file: resident memory now and at its peak."""

    def __init__(self, store: Path):
        self.pidfile = store / "graphsr.pid"

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds the server has used so far."""
        try:
            pid = int(self.pidfile.read_text())
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mb(self) -> tuple[float, float] | None:
        try:
            pid = int(self.pidfile.read_text())
            status = Path(f"/proc/{pid}/status").read_text()
        except (OSError, ValueError):
            return None
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run(cmd: list[str], env: dict, out: Path) -> tuple[float, float, str, float]:
    """Wall seconds, peak RSS in MB, stdout and CPU seconds (user and system) of a whole command (its stdout
    written to ``out``)."""
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
        return seconds, usage.ru_maxrss / 1024, stdout.read(1 << 20), usage.ru_utime + usage.ru_stime


def split_archive(collection: Path, folder: Path, parts: int = 2, every: int = 1) -> list[Path]:
    """The archive's members, one in ``every``, dealt in turn into ``parts`` archives of their own."""
    outs = [tarfile.open(folder / f"part{i + 1}.tar", "w", format=tarfile.GNU_FORMAT) for i in range(parts)]
    with tarfile.open(collection) as whole:
        for k, m in enumerate(m for m in whole if m.isfile()):
            if k % every == 0:
                outs[(k // every) % parts].addfile(m, whole.extractfile(m))
    for out in outs:
        out.close()
    return [folder / f"part{i + 1}.tar" for i in range(parts)]


def bolt_load(every: int, collection: Path, tmp: Path, step, load_rate) -> None:
    """Every ``every``-th document loaded over Bolt into an ArcadeDB server started for it (127.0.0.1)."""
    try:
        import arcadedb_embedded  # noqa: F401
    except ImportError:
        print("bench_real: ArcadeDB step skipped -- arcadedb-embedded is not installed")
        return
    (sample,) = split_archive(collection, tmp, parts=1, every=every)
    password = "bench-password"
    proc = subprocess.Popen(
        [
            sys.executable,
            str(HERE.parent / "tests" / "bolt" / "arcadedb_server.py"),
            str(tmp / "arcadedb"),
            password,
            "7200",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        if not line.startswith("READY"):
            raise SystemExit(f"bench_real: ArcadeDB did not start: {line!r}")
        url = f"bolt://127.0.0.1:{line.split()[1]}"
        benv = {
            **os.environ,
            "GRAPHSR_NEO4J_USER": "root",
            "GRAPHSR_NEO4J_PASSWORD": password,
            "GRAPHSR_NEO4J_DATABASE": "graphsr",
        }
        step(
            f"ArcadeDB (Bolt): store load, every {every}th document",
            ["store", "load", str(sample), "--store", url, "--name", "sample", "--elements", "all"],
            load_rate,
            benv,
        )
    finally:
        proc.stdin.close()
        proc.wait(timeout=120)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", choices=sorted(COLLECTIONS), default="help")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "graphsr-bench" / "real",
    )
    ap.add_argument("--routes", type=int, default=100_000)
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--halves",
        action="store_true",
        help="also load the collection as two halves, one after the other, into a fresh store",
    )
    ap.add_argument(
        "--bolt-every",
        type=int,
        default=0,
        metavar="K",
        help="also load every K-th document into an ArcadeDB server over Bolt (needs arcadedb-embedded)",
    )
    a = ap.parse_args()
    collection = COLLECTIONS[a.collection](a.cache)
    if collection is None:
        return
    load_before = os.getloadavg()
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

        def step(name: str, cmd: list[str], rate=None, env=env, server=server) -> str:
            cpu = server.cpu_seconds()
            seconds, peak, stdout, command_cpu = run([graphsr, *cmd], env, tmp / "stdout.txt")
            memory = server.memory_mb()
            cpu_after = server.cpu_seconds()
            row = {
                "step": name,
                "seconds": round(seconds, 2),
                "peak_mb": round(peak),
                "server_mb": round(memory[0]) if memory else None,
                "server_peak_mb": round(memory[1]) if memory else None,
                "server_cpu": round(cpu_after - cpu, 2) if cpu is not None and cpu_after is not None else None,
                "cpu": round(command_cpu, 2),
                "rate": rate(seconds, stdout) if rate else "",
            }
            rows.append(row)
            print(
                f"{name:<44} {seconds:8.2f} s {peak:7.0f} MB  server "
                + (f"{memory[0]:6.0f} MB (peak {memory[1]:.0f})" if memory else "     -")
                + (f" {row['server_cpu']:7.2f} s CPU" if row["server_cpu"] is not None else "")
                + f"  command {command_cpu:.2f} s CPU"
                + f"  {row['rate']}",
                flush=True,
            )
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

        step(
            "store load --elements all (p*, p*|c)",
            ["store", "load", coll, "--name", "real", "--elements", "all"],
            load_rate,
        )
        step("store show", ["store", "show"])
        queries = {
            "partitions --kind p*": (
                ["partitions", coll, "--kind", "p*", "--format", "csv"],
                ["partitions", "real", "--store", "--kind", "p*", "--format", "csv"],
            ),
            "partition S5 (50 from 1000)": (
                ["partition", coll, "S5", "--kind", "p*", "--offset", "1000", "--format", "csv"],
                ["partition", "real", "S5", "--store", "--kind", "p*", "--offset", "1000", "--format", "csv"],
            ),
            "coverage (3 runs)": (
                ["coverage", str(qrels), *map(str, runs), "--collection", coll, "--kind", "p*", "--format", "csv"],
                [
                    "coverage",
                    str(qrels),
                    *map(str, runs),
                    "--collection",
                    "real",
                    "--store",
                    "--kind",
                    "p*",
                    "--format",
                    "csv",
                ],
            ),
        }
        for name, (memory, stored) in queries.items():
            step(f"{name}, memory", memory, per_mb)
            step(f"{name}, store (running)", stored)
        step("store stop", ["store", "stop"])

        def per_gb(seconds, _):
            from graphsr.store.journal import Journal

            size = Journal(store).size()  # (the log's base after a stop: the data as a snapshot)
            return f"{size / 1e6:.0f} MB saved, {seconds / (size / 1e9):.1f} s per GB"

        # the first answer after a stop: the server loads its saved data (the data alone: indexes of elements are
        # made when a statement first needs them, graphsr/store/deferred.py)
        step("store start (cold)", ["store", "start"], per_gb)
        step("store stop", ["store", "stop"])
        for name, (_, stored) in queries.items():
            step(f"{name}, store (cold)", stored)
        log = tmp / "routes.csv"

        def route_rate(seconds, _):
            return f"{a.routes / seconds:,.0f} routes/s"

        step(
            f"simulate-routes --routes {a.routes:,}",
            ["simulate-routes", coll, "--routes", str(a.routes), "-o", str(log)],
            route_rate,
        )
        step("store start (cold, again)", ["store", "start"], per_gb)
        step(
            f"store routes ({a.routes:,} routes)",
            ["store", "routes", str(log), "--collection", "real", "--study", "sim"],
            route_rate,
        )
        step("store model --from-routes (p*)", ["store", "model", "--collection", "real", "--from-routes", "sim"])
        step("store model --model p*:extent", ["store", "model", "--collection", "real", "--model", "p*:extent"])

        def exported(seconds, stdout):
            m = re.search(r"(\d+) nodes in \d+ files, (\d+) relationships", stdout)
            items = int(m[1]) + int(m[2]) if m else 0
            return f"{items:,} nodes+edges, {items / seconds / 1e3:.0f}k/s"

        step(
            "store export (neo4j-admin CSV)", ["store", "export", str(tmp / "export"), "--collection", "real"], exported
        )
        shutil.rmtree(tmp / "export", ignore_errors=True)
        evals = {
            "SR (SRP@10, SR@100), memory model": ["--collection", coll, "-m", "SRP@10", "-m", "SR@100"],
            "SR, stored model": ["--store", "--model", "real/p*:extent", "-m", "SRP@10", "-m", "SR@100"],
            "ESR (ESRP@10, ESRR@100, SRiP@10, MAESRP), routes": [
                "--collection",
                coll,
                "--routes",
                str(log),
                "-m",
                "ESRP@10",
                "-m",
                "ESRR@100",
                "-m",
                "SRiP@10",
                "-m",
                "MAESRP",
            ],
            "PRUM (PRUM[0.5], MAPRUM)": ["--collection", coll, "-m", "PRUM[0.5]", "-m", "MAPRUM"],
            "XCG (nxCG@10, MAep)": ["--collection", coll, "-m", "nxCG@10", "-m", "MAep"],
            "INEX thorough (iP[0.01], MAiP)": [
                "--collection",
                coll,
                "--task",
                "thorough",
                "-m",
                "iP[0.01]",
                "-m",
                "MAiP",
            ],
            "flat (P@10, AP, nDCG@10)": ["--collection", coll, "-m", "P@10", "-m", "AP", "-m", "nDCG@10"],
        }
        for name, args in evals.items():
            step(f"eval {name}", ["eval", str(qrels), *map(str, runs), *args])
        # a run touching every document, scored from the XML files and from the store, side by side: the store pays
        # for itself when the command and the server together take no more CPU than the command alone from files
        wq, wr = write_whole_run(tmp, collection)
        for name, args in (
            ("files", ["--collection", coll, "--model", "p*:extent"]),
            ("store", ["--store", "--model", "real/p*:extent"]),
        ):
            step(
                f"eval SR, a run touching every document, {name}",
                ["eval", str(wq), str(wr), "-m", "SRP@10", "-m", "SR@100", *args],
            )

        def dropped(seconds, stdout):
            m = re.search(r"\((\d+) nodes\)", stdout)
            return f"{int(m[1]):,} nodes, {int(m[1]) / seconds / 1e3:.0f}k/s" if m else ""

        step("store drop (the collection)", ["store", "drop", "real"], dropped)
        step("store stop", ["store", "stop"])
        if a.halves:
            # the same collection as two halves (every other document), loaded one after the other into a
            # fresh store: a load's cost adds up if the two cost what the whole did
            halves = split_archive(collection, tmp)
            hstore = tmp / "halves-store"
            henv = {**os.environ, "GRAPHSR_STORE": f"local:{hstore}"}
            hserver = Server(hstore)
            step("store start (halves: empty store)", ["store", "start"], env=henv, server=hserver)
            for i, half in enumerate(halves, start=1):
                step(
                    f"store load half {i} --elements all",
                    ["store", "load", str(half), "--name", f"half{i}", "--elements", "all"],
                    load_rate,
                    henv,
                    hserver,
                )
            step("store stop (halves)", ["store", "stop"], env=henv, server=hserver)
        if a.bolt_every:
            bolt_load(a.bolt_every, collection, tmp, step, load_rate)
    load = {
        "before": [round(x, 2) for x in load_before],
        "after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    print(
        f"\ncollection: {collection} ({megabytes:.1f} MB archive; MB/s below are of the archive); machine load "
        f"(1, 5, 15 min) before {load['before']}, after {load['after']}, {load['cpus']} CPUs\n"
    )
    print(
        "| step | wall | command CPU | peak RSS of the command (cold: with the server it starts) | server RSS (peak) "
        "| server CPU | rate |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        server_cell = f"{r['server_mb']:,} MB ({r['server_peak_mb']:,} MB)" if r["server_mb"] is not None else ""
        cpu_cell = f"{r['server_cpu']:.2f} s" if r.get("server_cpu") is not None else ""
        step = r["step"].replace("|", "\\|")
        print(
            f"| {step} | {r['seconds']:.2f} s | {r.get('cpu', 0):.2f} s | {r['peak_mb']:,} MB | {server_cell} "
            f"| {cpu_cell} | {r['rate']} |"
        )
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(
            json.dumps(
                {
                    "name": a.collection,
                    "collection": str(collection),
                    "megabytes": megabytes,
                    "load": load,
                    "rows": rows,
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
