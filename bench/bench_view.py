"""``graphsr view`` on a real collection: writing the page (the whole command, from the collection's files) and its
first render in headless Chromium, for the p* and p*|c summaries, with assessments and three runs as
``bench_real.py`` makes them.

    python bench/bench_view.py [--collection help|music-svg|prose|generated] [--cache DIR] [--json FILE]

``generated``: 2,000 documents over a tag tree of 4,000 paths, so that its p* summary has 4,000 partitions (every
path in some document).  Goals (issue 48): a page of at most 10 MB, drawn in at most 2 s (the page loaded, its data
parsed, the tree drawn: the page's ``data-ready`` mark), at 4,000 partitions with three runs of 50 topics x 1,000
results.  Needs selenium, chromium and chromedriver (Debian: chromium chromium-driver).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_real import COLLECTIONS, run, write_inputs  # noqa: E402


def first_render(page: Path, repeat: int = 3) -> tuple[float, int]:
    """The best of ``repeat`` loads of the page to its ready mark, in seconds, and the partitions it shows."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    best, shown = float("inf"), 0
    try:
        for _ in range(repeat):
            driver.get("about:blank")
            started = time.perf_counter()
            driver.get(page.as_uri())
            WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
            best = min(best, time.perf_counter() - started)
            shown = driver.execute_script("return graphsrView.shown().length")
    finally:
        driver.quit()
    return best, shown


def generated_collection(cache: Path, paths: int = 4000, documents: int = 2000, seed: int = 5) -> Path:
    """A folder of ``documents`` XML files over a random tag tree of ``paths`` distinct paths, each path in at
    least one document (written once into ``cache``)."""
    import random

    folder = cache / f"generated-{paths}-{documents}-{seed}"
    if (folder / "done").exists():
        return folder
    rng = random.Random(seed)
    tags = [f"t{k}" for k in range(40)]
    parent, tag = [-1], ["doc"]
    children: list[set] = [set()]
    while len(tag) < paths:
        at = rng.randrange(len(tag)) if rng.random() < 0.7 else max(0, len(tag) - 1 - rng.randrange(50))
        t = rng.choice(tags)
        if t in children[at]:
            continue
        children[at].add(t)
        parent.append(at)
        tag.append(t)
        children.append(set())
    kids: list[list] = [[] for _ in tag]
    for k in range(1, len(tag)):
        kids[parent[k]].append(k)
    order = list(range(1, len(tag)))
    rng.shuffle(order)
    folder.mkdir(parents=True, exist_ok=True)
    for d in range(documents):
        chosen = set(order[d::documents]) | set(rng.sample(order, 60))
        keep = {0}
        for k in chosen:
            while k not in keep:
                keep.add(k)
                k = parent[k]

        def write(k: int, out: list) -> None:
            out.append(f"<{tag[k]}>")
            for c in kids[k]:
                if c in keep:  # (a leaf now and then twice over: more elements, no more paths)
                    for _ in range(1 if any(g in keep for g in kids[c]) else rng.choice((1, 1, 2))):
                        write(c, out)
            out.append(f"text {k}</{tag[k]}>")

        out: list = []
        write(0, out)
        (folder / f"d{d:05d}.xml").write_text("".join(out))
    (folder / "done").write_text("")
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collection", choices=sorted([*COLLECTIONS, "generated"]), default="help")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "graphsr-bench" / "real",
    )
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    collection = generated_collection(a.cache) if a.collection == "generated" else COLLECTIONS[a.collection](a.cache)
    if collection is None:
        return
    graphsr = str(Path(sys.executable).parent / "graphsr")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        qrels, runs = write_inputs(tmp, collection)
        for kind in ("p*", "p*|c"):
            page = tmp / f"view-{kind.replace('|', '_')}.html"
            cmd = [
                graphsr,
                "view",
                str(collection),
                "--kind",
                kind,
                "--qrels",
                str(qrels),
                *[x for r in runs for x in ("--run", str(r))],
                "-o",
                str(page),
            ]
            seconds, peak, *_ = run(cmd, dict(os.environ), tmp / "stdout.txt")
            data = json.loads(
                page.read_text(encoding="utf-8").split('id="graphsr-data">', 1)[1].split("</script>", 1)[0]
            )
            render, shown = first_render(page)
            row = {
                "collection": a.collection,
                "kind": kind,
                "nodes": len(data["sids"]),
                "write_s": round(seconds, 2),
                "write_peak_mb": round(peak),
                "page_mb": round(page.stat().st_size / 1e6, 2),
                "first_render_s": round(render, 2),
                "shown": shown,
            }
            rows.append(row)
            print(
                f"{a.collection:<10} {kind:<5} {row['nodes']:6,d} nodes  write {seconds:7.2f} s {peak:6.0f} MB  "
                f"page {row['page_mb']:6.2f} MB  first render {render:5.2f} s ({shown} shown)",
                flush=True,
            )
    if a.json:
        a.json.write_text(json.dumps({"load": os.getloadavg(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
