"""Benchmark: SR and SRP over a chunk run on real HTML pages, beside the span measures on the same inputs.

Real pages, not generated ones: the HTML manuals of four Debian documentation packages (Python's library
reference, PostgreSQL's manual, libstdc++'s user guide and API pages, cppreference), fetched once with ``apt-get
download`` into a cache outside the repository (``~/.cache/graphsr-bench/html`` by default), one directory of
``.html`` files named by their path in the package (``/`` as ``.``).  Then, seeded:

* a chunking of every page's text (``--size`` characters every ``--step``: overlapping chunks, as TREC RAG's
  segments overlap), as a chunk map;
* ``--topics`` topics judged by spans: each 3 pages, in each one span of 200-2,000 characters (JSON lines);
* a TREC run of ``--depth`` chunk ids per topic (the chunks overlapping the topic's spans, then chunks of the
  judged pages and of any page, in random order).

Whole commands, start-up included, on the same inputs:

* ``graphsr eval spans.jsonl run.trec --collection pages --chunks map.jsonl`` with the span measures
  (``budgetP@2000``, ``budgetR@2000``, ``unjudged_chars@10``, ``ChromaIoU@10``);
* the same with ``SR@10`` and ``SRP@10`` (the chunks resolved to the smallest element holding each, on the
  pages' trees, with the collection's navigation model): from the files in a first evaluation, where the
  model's summary needs every page read; from the files again, the summary kept by the first
  (``$GRAPHSR_CACHE``), where only the pages the judgments and the run name are read; and from a model kept in
  a local store (``store load`` and ``store model`` once, not timed), where only those pages are read too.

Each SR command is run in turn with the span measures' (A B A B ...), and the ratio taken pair by pair.

    python bench/bench_sr_chunks.py [--cache DIR] [--pages 8249] [--topics 50] [--depth 100] [--repeat 5]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GRAPHSR = Path(sys.executable).parent / "graphsr"
PACKAGES = ["python3.11-doc", "postgresql-doc-15", "libstdc++-12-doc", "cppreference-doc-en-html"]
SPAN_MEASURES = ["budgetP@2000", "budgetR@2000", "unjudged_chars@10", "ChromaIoU@10"]
SR_MEASURES = ["SR@10", "SRP@10"]


def pages(cache: Path) -> Path | None:
    """The directory of real HTML pages (fetched and unpacked once), or None where the packages cannot be
    fetched."""
    out = cache / "pages"
    if out.is_dir() and any(out.iterdir()):
        return out
    work = Path(tempfile.mkdtemp(prefix="graphsr-html-"))
    try:
        done = subprocess.run(["apt-get", "download", *PACKAGES], cwd=work, capture_output=True, text=True)
        debs = sorted(work.glob("*.deb"))
        if done.returncode != 0 or len(debs) != len(PACKAGES):
            print(f"the packages could not be fetched ({done.stderr.strip()[-300:]}): nothing measured")
            return None
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "x")], check=True)
        tmp = cache / "pages.part"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        root = work / "x"
        for path in sorted(root.rglob("*.html")):
            if path.is_file() and not path.is_symlink():
                rel = path.relative_to(root / "usr" / "share").as_posix()
                shutil.copyfile(path, tmp / rel.replace("/", "."))
        tmp.rename(out)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def generate(cache: Path, collection: Path, n_pages: int, topics: int, depth: int, size: int, step: int) -> dict:
    """The chosen pages, chunk map, span judgments and run (see the module docstring); reused when present."""
    from graphsr.io.chunks import make_chunks, write_chunk_map

    base = cache / f"sr-{n_pages}p-{topics}t-{depth}d-{size}-{step}"
    paths = {
        "pages": base / "pages",
        "map": base / "map.jsonl",
        "spans": base / "spans.jsonl",
        "run": base / "run.trec",
    }
    if paths["run"].exists():
        return paths
    base.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(62)
    chosen = sorted(collection.iterdir())
    if n_pages < len(chosen):
        chosen = [chosen[i] for i in sorted(rng.choice(len(chosen), n_pages, replace=False).tolist())]
    shutil.rmtree(paths["pages"], ignore_errors=True)
    paths["pages"].mkdir()
    for p in chosen:
        os.link(p, paths["pages"] / p.name)
    chunks = make_chunks(paths["pages"], size, step=step)
    write_chunk_map(chunks, paths["map"])
    ids = list(chunks)
    by_doc: dict[str, list] = {}
    length: dict[str, int] = {}
    for cid, (doc, s, e) in chunks.items():
        by_doc.setdefault(doc, []).append((s, e, cid))
        length[doc] = max(length.get(doc, 0), e)
    docs = sorted(d for d in length if length[d] > 2500)
    with open(paths["spans"], "w") as spans, open(paths["run"], "w") as run:
        for q in range(topics):
            hit: list[str] = []
            judged = [docs[i] for i in rng.choice(len(docs), 3, replace=False).tolist()]
            for doc in judged:
                s = int(rng.integers(0, length[doc] - 2000))
                e = s + int(rng.integers(200, 2000))
                spans.write(json.dumps({"query_id": f"q{q}", "doc_id": doc, "start": s, "end": e, "relevance": 1}))
                spans.write("\n")
                hit += [c for a, b, c in by_doc[doc] if a < e and b > s]
            near = [c for doc in judged for _, _, c in by_doc[doc]]
            picked = list(dict.fromkeys(hit))[: depth // 2]
            while len(picked) < depth:
                pool = near if rng.random() < 0.5 else ids
                c = pool[int(rng.integers(len(pool)))]
                if c not in picked:
                    picked.append(c)
            order = rng.permutation(len(picked))
            run.write("".join(f"q{q} Q0 {picked[i]} {r} {depth - r + 1} bench\n" for r, i in enumerate(order, 1)))
    return paths


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "graphsr-bench" / "html")
    ap.add_argument("--pages", type=int, default=8249)
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--size", type=int, default=800)
    ap.add_argument("--step", type=int, default=600)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    collection = pages(args.cache)
    if collection is None:
        return
    paths = generate(args.cache, collection, args.pages, args.topics, args.depth, args.size, args.step)
    base = [str(GRAPHSR), "eval", str(paths["spans"]), str(paths["run"]), "--collection", str(paths["pages"])]
    base += ["--chunks", str(paths["map"]), "--no-progress"]
    store = f"local:{paths['pages'].parent / 'store'}"
    if not (paths["pages"].parent / "store").exists():
        graphsr = [str(GRAPHSR)]
        subprocess.run(
            [*graphsr, "store", "load", str(paths["pages"]), "--name", "pages", "--store", store], check=True
        )
        model = ["store", "model", "--collection", "pages", "--model", "p*:extent", "--name", "pages-extent"]
        subprocess.run([*graphsr, *model, "--store", store], check=True)
    span = base + sum((["-m", m] for m in SPAN_MEASURES), [])
    sr = base + sum((["-m", m] for m in SR_MEASURES), [])
    kept = Path(tempfile.mkdtemp(prefix="graphsr-bench-cache-"))  # (the summary kept by the first read)
    variants = [
        ("SR (files, first read)", sr, None),
        ("SR (files, summary kept)", sr, kept),
        ("SR (store)", sr + ["--model", "pages-extent", "--store", store], kept),
    ]
    values = {}
    rows = []
    for label, cmd, cache in variants:
        values[label] = subprocess.run(cmd, capture_output=True, text=True, check=True, env=_env(cache)).stdout
        subprocess.run(span, capture_output=True, check=True, env=_env(kept))
        pairs = []
        for _ in range(args.repeat):
            pairs.append((wall(cmd, _env(cache)), wall(span, _env(kept))))
        rows.append(
            (
                label,
                statistics.median(a for a, _ in pairs),
                statistics.median(b for _, b in pairs),
                statistics.median(a / b for a, b in pairs),
            )
        )
    shutil.rmtree(kept, ignore_errors=True)
    assert len({values[v[0]] for v in variants}) == 1, values  # (the same values every way)
    n = sum(1 for _ in paths["pages"].iterdir())
    print(f"{n} real HTML pages, {args.topics} topics x {args.depth} chunks (medians of {args.repeat} pairs)")
    print(values[variants[0][0]].strip())
    for name, a, b, ratio in rows:
        print(f"  {name:24s} {a:6.2f} s   span measures {b:6.2f} s   ratio {ratio:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"pages": n, "rows": rows}, indent=1))


def _env(cache: Path | None) -> dict:
    """The environment of a command: the summary cache ``cache``, or (None) a fresh one, so that the collection
    is summarised in the command (a first evaluation)."""
    env = dict(os.environ)
    env["GRAPHSR_CACHE"] = str(cache) if cache is not None else tempfile.mkdtemp(prefix="graphsr-bench-cold-")
    return env


def wall(cmd: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, env=env)
    seconds = time.perf_counter() - t
    if "graphsr-bench-cold-" in env["GRAPHSR_CACHE"]:
        shutil.rmtree(env["GRAPHSR_CACHE"], ignore_errors=True)
    return seconds


if __name__ == "__main__":
    main()
