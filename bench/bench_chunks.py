"""Benchmark: chunk retrieval scored by characters, whole commands, beside Chroma's own scoring functions.

Generates (once, into bench/_data/chunks/, git-ignored, seeded) a Markdown corpus of ``--size-mb`` MB (200
documents of headed sections and paragraphs of Zipf words), a chunking of it (800 characters, graphsr's
``make_chunks``), ``--queries`` questions in Chroma's questions_df.csv format (1-3 references each, their
content included) and a TREC run of ``--depth`` chunk ids per question (the chunks holding the references,
then random ones, in random order).  Then, values checked equal first:

* ``graphsr eval questions_df.csv run.trec --collection corpus --chunks map -m ChromaIoU@K -m ChromaP@K -m
  ChromaR@K`` as a whole process (start-up, reading the corpus, checking every reference's content);
* Chroma's evaluation scoring the same run (bench/chroma_score.py: its ``_scores_from_dataset_and_retrievals``
  with K chunks a question), as a whole process, with ``--chroma-python`` (an interpreter where
  chunking_evaluation is installed; skipped without);
* ``graphsr eval`` with the passage measures too (``MAiP(task=thorough)``, ``budgetP@2000``).

    python bench/bench_chunks.py [--size-mb 100] [--queries 10000] [--depth 100] [--repeat 3]
        [--chroma-python PATH] [--json FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
GRAPHSR = Path(sys.executable).parent / "graphsr"


def generate(out: Path, size_mb: int, queries: int, depth: int, seed: int = 45) -> dict:
    """The corpus, chunk map, questions and run (see the module docstring); reused when present."""
    from graphsr.io.chunks import make_chunks, write_chunk_map

    tag = f"{size_mb}mb-{queries}q-{depth}d"
    base = out / tag
    paths = {
        "corpus": base / "corpus",
        "map": base / "map.jsonl",
        "questions": base / "questions_df.csv",
        "run": base / "run.trec",
    }
    if paths["run"].exists():
        return paths
    rng = np.random.default_rng(seed)
    words = [f"w{k}" for k in range(20000)]
    p = 1 / np.arange(1, len(words) + 1)
    p /= p.sum()
    # rng.choice(words, n, p=p) draws rng.random(n) and looks them up in p's normalised cumulative sum; done
    # here once rather than per paragraph (the same draws, 40x faster to generate)
    cdf = p.cumsum()
    cdf /= cdf[-1]
    vocab = np.array(words)

    def draw(n: int) -> list[str]:
        return list(vocab[cdf.searchsorted(rng.random(n), side="right")])

    paths["corpus"].mkdir(parents=True, exist_ok=True)
    per_doc = size_mb * 1_000_000 // 200
    texts = {}
    for d in range(200):
        parts, n = [], 0
        while n < per_doc:
            if rng.random() < 0.08:
                part = f"{'#' * int(rng.integers(1, 4))} {' '.join(draw(5))}\n\n"
            else:
                part = " ".join(draw(int(rng.integers(20, 150)))) + ".\n\n"
            parts.append(part)
            n += len(part)
        text = "".join(parts)
        texts[f"doc{d:03d}"] = text
        (paths["corpus"] / f"doc{d:03d}.md").write_text(text)
    chunks = make_chunks(paths["corpus"], 800)
    write_chunk_map(chunks, paths["map"])
    ids = list(chunks)
    by_doc: dict[str, list] = {}
    for cid, (doc, s, e) in chunks.items():
        by_doc.setdefault(doc, []).append((s, e, cid))
    docs = sorted(texts)
    with open(paths["questions"], "w", newline="") as fh, open(paths["run"], "w") as run:
        w = csv.writer(fh)
        w.writerow(["question", "references", "corpus_id"])
        for q in range(queries):
            doc = docs[int(rng.integers(len(docs)))]
            text = texts[doc]
            refs, hit = [], []
            for _ in range(int(rng.integers(1, 4))):
                s = int(rng.integers(0, len(text) - 400))
                e = s + int(rng.integers(40, 400))
                refs.append({"content": text[s:e], "start_index": s, "end_index": e})
                hit += [c for a, b, c in by_doc[doc] if a < e and b > s]
            w.writerow([f"question {q}", json.dumps(refs), doc])
            chosen = list(dict.fromkeys(hit))[:depth]
            while len(chosen) < depth:
                c = ids[int(rng.integers(len(ids)))]
                if c not in chosen:
                    chosen.append(c)
            order = rng.permutation(len(chosen))
            run.write("".join(f"{q} Q0 {chosen[i]} {r} {depth - r + 1} bench\n" for r, i in enumerate(order, 1)))
    return paths


def timed(cmd: list[str], repeat: int) -> tuple[float, float, str]:
    """Median and best wall seconds of ``cmd`` as a whole process (one untimed run first), and its stdout."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), out


def in_process(paths: dict, measures: list[str], repeat: int) -> float:
    """Median seconds of graphsr.evaluate on inputs already read (the scoring alone, as Chroma's function is
    timed)."""
    import graphsr
    from graphsr.evaluation import evaluate
    from graphsr.io.spans import document_texts
    from graphsr.measures.provider import ScoringContext

    chunks = graphsr.read_chunk_map(paths["map"])
    qrels = graphsr.read_spans(paths["questions"], document_texts(paths["corpus"]))
    run = graphsr.read_chunk_run(paths["run"], chunks=chunks, vocab=qrels.vocab)
    times = []
    for _ in range(repeat + 1):
        t = time.perf_counter()
        evaluate(qrels, [run], measures, context=ScoringContext(chunks=chunks))
        times.append(time.perf_counter() - t)
    return statistics.median(times[1:])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=100)
    ap.add_argument("--queries", type=int, default=10000)
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chroma-python")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    paths = generate(HERE / "_data" / "chunks", args.size_mb, args.queries, args.depth)
    k = args.depth
    chroma_ms = [f"ChromaIoU@{k}", f"ChromaP@{k}", f"ChromaR@{k}"]
    base = [
        str(GRAPHSR),
        "eval",
        str(paths["questions"]),
        str(paths["run"]),
        "--collection",
        str(paths["corpus"]),
        "--chunks",
        str(paths["map"]),
    ]
    rows, figures = [], {}
    med, best, out = timed(base + sum((["-m", m] for m in chroma_ms), []), args.repeat)
    ours = {
        line.split("\t")[0]: float(line.split("\t")[2])
        for line in out.splitlines()
        if line.split("\t")[0].startswith("Chroma")
    }
    rows.append(("graphsr eval: ChromaIoU/P/R", med, best))
    if args.chroma_python:
        cmd = [
            args.chroma_python,
            str(HERE / "chroma_score.py"),
            str(paths["questions"]),
            str(paths["map"]),
            str(paths["run"]),
            str(k),
        ]
        cmed, cbest, cout = timed(cmd, args.repeat)
        theirs = json.loads(cout)
        figures["chroma_function_seconds"] = theirs.pop("seconds")
        for name, value in theirs.items():  # (graphsr prints 6 decimals)
            assert abs(ours[f"{name}@{k}"] - value) < 5e-7, (name, ours, theirs)
        rows.append(("Chroma's _scores_from_dataset_and_retrievals", cmed, cbest))
        figures["chroma_over_graphsr"] = cmed / med
    figures["graphsr_scoring_seconds"] = in_process(paths, chroma_ms, args.repeat)
    med2, best2, _ = timed(
        base + ["-m", "MAiP(task=thorough)", "-m", "budgetP@2000", *sum((["-m", m] for m in chroma_ms), [])],
        args.repeat,
    )
    rows.append(("graphsr eval: + MAiP(thorough), budgetP@2000", med2, best2))
    print(
        f"{args.queries} questions x {args.depth} chunks over {args.size_mb} MB of Markdown "
        f"(median / best of {args.repeat}, whole processes)"
    )
    for name, m, b in rows:
        print(f"  {name:50s} {m:7.2f} s  {b:7.2f} s")
    if "chroma_over_graphsr" in figures:
        print(f"  Chroma / graphsr: {figures['chroma_over_graphsr']:.1f}x (values equal)")
    print(
        f"  in one process, inputs read: graphsr's scoring {figures['graphsr_scoring_seconds']:.2f} s"
        + (
            f", Chroma's function {figures['chroma_function_seconds']:.2f} s "
            f"({figures['chroma_function_seconds'] / figures['graphsr_scoring_seconds']:.0f}x)"
            if "chroma_function_seconds" in figures
            else ""
        )
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, **figures}, indent=1))


if __name__ == "__main__":
    main()
