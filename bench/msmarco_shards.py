"""MS MARCO v2.1-shaped shards of any size, as TREC RAG ships its corpus, for the scale bench and the tests.

Writes, under ``OUT``:

* ``msmarco_v2.1_doc/msmarco_v2.1_doc_NN.json.gz``: documents, one JSON object a line with the real files' fields
  ``docid``, ``url``, ``title``, ``headings``, ``body``; ``docid`` is ``msmarco_v2.1_doc_NN_OFFSET``, OFFSET the
  byte offset of the document's line in the uncompressed shard;
* ``msmarco_v2.1_doc_segmented/msmarco_v2.1_doc_segmented_NN.json.gz``: segments of 10 sentences with a stride
  of 5 (neighbours overlap by half), fields ``docid``, ``url``, ``title``, ``headings``, ``segment``,
  ``start_char``, ``end_char``; ``docid`` is ``DOCID#K_OFFSET`` (segment K of the document, OFFSET the byte offset
  of its line in the uncompressed segment shard); ``start_char``/``end_char`` count code points of ``body``;
* ``topics.tsv``, ``run_a.trec`` to ``run_d.trec``: ``--topics`` topics, each run retrieving ``--depth`` segment
  ids (``run_c`` and ``run_d`` find the same relevant passages first: ``run_c`` returns every relevant segment of
  each, overlapping its neighbours by half, ``run_d`` one segment of each);
* ``qrels.txt``: TREC qrels of segment ids, grades 0-3, judging neighbouring segments that overlap.

Bodies are sentences of words drawn from a Zipf-like vocabulary that mixes scripts (Latin, accented Latin,
Greek, CJK: a character is not a byte), joined by spaces and, now and then, newlines.  The same ``--seed`` and
sizes give the same files, byte for byte.

    python bench/msmarco_shards.py OUT --segments 280000 [--shards 4] [--topics 50] [--depth 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path

SYLLABLES = (
    "ta re mi so la ko nu vi de ra po li ne ma se ki do ru ba fe lo ti gu ha é ü ñ ça θα λα 東 京 研 究 数 据"
).split()


def _vocabulary(size: int = 6000, seed: int = 7) -> tuple[list[str], list[float]]:
    """Words of one to four syllables (some of them not Latin) and Zipf-like cumulative weights."""
    rng = random.Random(seed)
    words = sorted({"".join(rng.choices(SYLLABLES, k=rng.randint(1, 4))) for _ in range(size * 2)})[:size]
    rng.shuffle(words)
    total, cum = 0.0, []
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank
        cum.append(total)
    return words, cum


WORDS, CUM_WEIGHTS = _vocabulary()


def _sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, cum_weights=CUM_WEIGHTS, k=rng.randint(5, 22))
    return " ".join(words).capitalize() + "."


def _body(rng: random.Random, sentences: int) -> tuple[str, list[tuple[int, int]]]:
    """A body and each sentence's [start, end) in it."""
    parts, spans, at = [], [], 0
    for k in range(sentences):
        if k:
            sep = "\n" if rng.random() < 0.15 else " "
            parts.append(sep)
            at += 1
        s = _sentence(rng)
        parts.append(s)
        spans.append((at, at + len(s)))
        at += len(s)
    return "".join(parts), spans


def segment_ranges(spans: list[tuple[int, int]], size: int = 10, stride: int = 5) -> list[tuple[int, int]]:
    """Windows of ``size`` sentences every ``stride`` as character ranges, the last one reaching the end."""
    out, first = [], 0
    while True:
        last = min(first + size, len(spans)) - 1
        out.append((spans[first][0], spans[last][1]))
        if first + size >= len(spans):
            return out
        first += stride


def generate(
    out: str | Path, segments: int, shards: int = 4, topics: int = 50, depth: int = 100, seed: int = 1
) -> dict:
    """Write the shards, topics, runs and qrels under ``out`` (see the module docstring); what was written."""
    out = Path(out)
    rng = random.Random(seed)
    docs_dir, segs_dir = out / "msmarco_v2.1_doc", out / "msmarco_v2.1_doc_segmented"
    docs_dir.mkdir(parents=True, exist_ok=True)
    segs_dir.mkdir(parents=True, exist_ok=True)
    per_shard = max(1, segments // shards)
    all_segments: list[list[str]] = []  # per document, its segment ids
    counts = {"documents": 0, "segments": 0, "document_bytes": 0, "segment_bytes": 0}
    for shard in range(shards):
        name = f"{shard:02d}"
        doc_off = seg_off = 0
        made = 0
        with (
            gzip.open(docs_dir / f"msmarco_v2.1_doc_{name}.json.gz", "wb", compresslevel=1) as dfh,
            gzip.open(segs_dir / f"msmarco_v2.1_doc_segmented_{name}.json.gz", "wb", compresslevel=1) as sfh,
        ):
            while made < per_shard:
                n_sent = max(3, int(rng.lognormvariate(3.4, 0.7)))
                body, spans = _body(rng, n_sent)
                docid = f"msmarco_v2.1_doc_{name}_{doc_off}"
                url = f"https://example.org/{shard}/{doc_off}/{rng.randrange(10**6)}.html"
                title = _sentence(rng)[:-1]
                headings = "\n".join(_sentence(rng)[:-1] for _ in range(rng.randint(1, 4))) + "\n"
                line = (
                    json.dumps(
                        {"docid": docid, "url": url, "title": title, "headings": headings, "body": body},
                        ensure_ascii=False,
                    )
                    + "\n"
                ).encode()
                dfh.write(line)
                doc_off += len(line)
                ids = []
                for k, (s, e) in enumerate(segment_ranges(spans)):
                    sid = f"{docid}#{k}_{seg_off}"
                    seg = {
                        "docid": sid,
                        "url": url,
                        "title": title,
                        "headings": headings,
                        "segment": body[s:e],
                        "start_char": s,
                        "end_char": e,
                    }
                    sline = (json.dumps(seg, ensure_ascii=False) + "\n").encode()
                    sfh.write(sline)
                    seg_off += len(sline)
                    ids.append(sid)
                made += len(ids)
                all_segments.append(ids)
                counts["documents"] += 1
        counts["segments"] += made
        counts["document_bytes"] += doc_off
        counts["segment_bytes"] += seg_off
    _topics_runs_qrels(out, rng, all_segments, topics, depth)
    counts["topics"], counts["depth"] = topics, depth
    return counts


def _topics_runs_qrels(out: Path, rng: random.Random, docs: list[list[str]], topics: int, depth: int) -> None:
    """Two runs of segment ids and qrels judging runs of neighbouring (overlapping) segments."""
    with (
        open(out / "topics.tsv", "w") as tf,
        open(out / "qrels.txt", "w") as qf,
        open(out / "run_a.trec", "w") as af,
        open(out / "run_b.trec", "w") as bf,
        open(out / "run_c.trec", "w") as cf,
        open(out / "run_d.trec", "w") as df,
    ):
        for t in range(1, topics + 1):
            qid = f"2024-{t:05d}"
            tf.write(f"{qid}\tquestion {t}\n")
            relevant_docs = rng.sample(range(len(docs)), min(len(docs), 12))
            judged: dict[str, int] = {}
            for d in relevant_docs:
                segs = docs[d]
                first = rng.randrange(len(segs))
                for k in range(first, min(len(segs), first + rng.randint(1, 4))):  # neighbours overlap by half
                    judged[segs[k]] = rng.choice((0, 1, 2, 2, 3))
            for sid, grade in judged.items():
                qf.write(f"{qid} 0 {sid} {grade}\n")
            # two retrievers that find the same passages: run_c returns every relevant segment of each (the
            # neighbours overlap by half), run_d one segment of each passage
            every: list[str] = []
            one: list[str] = []
            for d in relevant_docs:
                passage = [sid for sid in docs[d] if judged.get(sid, 0) > 0]
                every += passage
                one += passage[:1]
            _write_run(cf, qid, "run_c", _filled(rng, every[:depth], docs, depth), depth)
            _write_run(df, qid, "run_d", _filled(rng, one[:depth], docs, depth), depth)
            pool = list(judged)
            for fh, tag, share in ((af, "run_a", 0.5), (bf, "run_b", 0.2)):
                chosen: list[str] = []
                seen = set()
                while len(chosen) < depth:
                    if rng.random() < share and pool:
                        sid = rng.choice(pool)
                    else:
                        segs = docs[rng.randrange(len(docs))]
                        sid = segs[rng.randrange(len(segs))]
                    if sid not in seen:
                        seen.add(sid)
                        chosen.append(sid)
                _write_run(fh, qid, tag, chosen, depth)


def _filled(rng: random.Random, chosen: list[str], docs: list[list[str]], depth: int) -> list[str]:
    """``chosen``, then segments drawn at random up to ``depth``."""
    out, seen = list(chosen), set(chosen)
    while len(out) < depth:
        segs = docs[rng.randrange(len(docs))]
        sid = segs[rng.randrange(len(segs))]
        if sid not in seen:
            seen.add(sid)
            out.append(sid)
    return out


def _write_run(fh, qid: str, tag: str, chosen: list[str], depth: int) -> None:
    for rank, sid in enumerate(chosen, 1):
        fh.write(f"{qid} Q0 {sid} {rank} {depth + 1 - rank:.4f} {tag}\n")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--segments", type=int, default=28000)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--topics", type=int, default=50)
    p.add_argument("--depth", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    print(json.dumps(generate(a.out, a.segments, a.shards, a.topics, a.depth, a.seed)))


if __name__ == "__main__":
    main()
