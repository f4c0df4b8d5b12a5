"""Natural Questions at the dev set's size: generate NQ-format shards shaped like v1.0's dev set (7,830 examples,
five annotators each, lines of about 140 KB as NQ's, nested tables and lists, five gzipped
shards) and a prediction file, then time ``graphsr eval`` on them: NQ's official figures alone, and with the
element and character measures (every page parsed into its tree).

    python bench/nq_dev_like.py [--examples 7830] [--out bench/_data/nq] [--json FILE]

Pages are written from the Shakespeare sample's plays (public domain) by tests/nq_html.py, the builder of the
test sample; sizes are NQ's published averages, not its pages.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.nq_html import Node, annotation, el, example, write  # noqa: E402


def _lines() -> list[str]:
    from lxml import etree

    out = []
    for f in sorted((ROOT / "graphsr" / "data" / "samples" / "shakespeare" / "collection").glob("*.xml")):
        out += [" ".join(t.text.split()) for t in etree.parse(str(f)).iter("text") if t.text and t.text.strip()]
    return out


def page(rng: random.Random, lines: list[str]):
    """A page of sections: headings, paragraphs, tables of rows, lists of items (some nested): about 500 elements
    and 70 candidates, 140 KB a line (NQ's training set: 41 GB for 307,373 examples)."""
    body, cands = [], []
    for s in range(3):
        body.append(el("h2", f"Section {s + 1}"))
        for _ in range(rng.randint(3, 6)):
            p = el(
                "p", rng.choice(lines), " ", el("a", rng.choice(lines)[:40], attrs='href="#"'), " ", rng.choice(lines)
            )
            body.append(p)
            cands.append(p)
        rows = [el("tr", *(el("td", rng.choice(lines)[:60]) for _ in range(3))) for _ in range(rng.randint(3, 8))]
        table = el("table", *rows)
        body.append(table)
        cands += [table, *rows]
        items = [
            el("li", rng.choice(lines), el("ul", el("li", rng.choice(lines)[:50]))) for _ in range(rng.randint(2, 6))
        ]
        lst = el("ul", *items)
        body.append(lst)
        cands += [lst, *items]
    return write(Node("body", body), "<title>t</title><script>var x = 1;</script>"), cands


def generate(out: Path, examples: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    lines = _lines()
    out.mkdir(parents=True, exist_ok=True)
    shards = [gzip.open(out / f"nq-dev-{k:02d}.jsonl.gz", "wt", compresslevel=1) for k in range(5)]
    predictions = []
    for k in range(examples):
        written, cands = page(rng, lines)
        gold = rng.choice(cands)
        around = [
            c
            for c in written.candidates()
            if c is not gold and c.start_byte <= gold.start_byte and gold.end_byte <= c.end_byte
        ]
        marks = []
        for a in range(5):
            r = rng.random()
            long = None if r < 0.3 else (around[-1] if around and r < 0.45 else gold)
            shorts = [(gold, " ".join(gold_words(written, gold)[:1]))] if long is gold and rng.random() < 0.5 else []
            marks.append(annotation(written, long, [s for s in shorts if s[1]], aid=a))
        eid = 5_000_000_000 + k
        shards[k % 5].write(json.dumps(example(eid, f"question {k}", f"page {k}", written, marks)) + "\n")
        guess = gold if rng.random() < 0.5 else rng.choice(cands)
        la = {key: getattr(guess, key) for key in ("start_byte", "end_byte", "start_token", "end_token")}
        score = round(rng.random(), 3)
        predictions.append(
            {"example_id": eid, "long_answer": la, "long_answer_score": score, "short_answers_score": score}
        )
    for s in shards:
        s.close()
    (out / "predictions.json").write_text(json.dumps({"predictions": predictions}))


def gold_words(written, node) -> list[str]:
    toks = written.tokens[node.start_token : node.end_token]
    return [t["token"] for t in toks if not t["html_token"] and t["token"].isalpha()]


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak MB (GNU time) and the output of a command."""
    t = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode:
        raise SystemExit(proc.stderr[-2000:])
    return wall, int(proc.stderr.strip().splitlines()[-1]) / 1024, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=7830)
    parser.add_argument("--out", default=str(ROOT / "bench" / "_data" / "nq"))
    parser.add_argument("--json")
    args = parser.parse_args()
    out = Path(args.out)
    t = time.perf_counter()
    generate(out, args.examples)
    size = sum(f.stat().st_size for f in out.glob("nq-dev-*.jsonl.gz"))
    print(f"{args.examples} examples, {size / 1e6:.0f} MB gzipped, generated in {time.perf_counter() - t:.0f} s")
    figures = {}
    for name, measures, extra in (
        ("NQ figures", ["NQlongF1", "NQlongP", "NQlongR", "NQshortF1"], []),
        ("with elements and characters", ["NQlongF1", "P@1", "SRP@5", "gP[5]", "budgetR@500"], ["--lenient"]),
    ):
        cmd = ["graphsr", "eval", str(out), str(out / "predictions.json"), *extra]
        wall, peak, text = timed(cmd + [x for m in measures for x in ("-m", m)])
        figures[name] = {"seconds": round(wall, 1), "peak_mb": round(peak), "output": text}
        print(f"{name:30} {wall:7.1f} s {peak:8.0f} MB")
    if args.json:
        Path(args.json).write_text(json.dumps({"examples": args.examples, "gz_bytes": size, **figures}, indent=1))


if __name__ == "__main__":
    main()
