"""Record what Chroma's chunking evaluation (github brandonstarxel/chunking_evaluation, MIT) gives on its
benchmark for graphsr's three chunkings, as test data for tests/test_chroma_measures.py.

Run it outside the repository's environment, in one where chunking_evaluation (and chromadb) are installed;
it never runs in CI.  For each chunk map written by tools/chroma_chunkings.py it runs Chroma's own
``BaseEvaluation.run`` end to end -- its chunk placement, its Chroma collection, its retrieval, its
``retrieve=5`` and ``retrieve=-1`` rules -- with a deterministic local embedding (hashed words; no network),
and records, per question (row of questions_df.csv):

* the chunk map as Chroma placed the chunks (``chunks.jsonl``: ids ``doc:start:end``, ``#2``, ``#3`` added
  for further chunks Chroma placed at the same range);
* what it retrieved, as a TREC run of those ids (``run5.trec``, ``runall.trec``; score = results - rank);
* its IoU, precision and recall (``expected.json``).

Usage: python tools/record_chroma.py BENCHMARK_DIR CHUNKS_DIR OUT_DIR
(BENCHMARK_DIR holds questions_df.csv and corpora/; CHUNKS_DIR the ``*.chunks.jsonl`` maps.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import numpy as np  # noqa: E402
from chromadb import Documents, EmbeddingFunction, Embeddings  # noqa: E402
from chunking_evaluation.evaluation_framework.base_evaluation import BaseEvaluation  # noqa: E402

DIM = 256


class HashedWords(EmbeddingFunction):
    """Bag of lower-cased words hashed into DIM dimensions, L2-normalised (deterministic, local)."""

    def __init__(self) -> None:
        pass

    def __call__(self, input: Documents) -> Embeddings:
        out = []
        for text in input:
            v = np.zeros(DIM, dtype=np.float32)
            for w in re.findall(r"\w+", text.lower()):
                v[int(hashlib.md5(w.encode()).hexdigest()[:8], 16) % DIM] += 1.0
            n = np.linalg.norm(v)
            out.append(v / n if n else v)
        return out

    @staticmethod
    def name() -> str:
        return "hashed_words"

    def get_config(self):
        return {}

    @staticmethod
    def build_from_config(config):
        return HashedWords()


class MapChunker:
    """Chroma's chunker interface (``split_text``) returning one chunk map's chunks of a corpus, in order."""

    def __init__(self, ranges: dict[str, list[tuple[int, int]]], texts: dict[str, str]):
        self.ranges, self.texts = ranges, texts

    def split_text(self, corpus: str) -> list[str]:
        doc = next(d for d, t in self.texts.items() if t == corpus)
        return [corpus[s:e] for s, e in self.ranges[doc]]


class Recording(BaseEvaluation):
    """Chroma's evaluation, keeping what it retrieved and what it scored."""

    def _get_chunks_and_metadata(self, splitter):
        docs, metas = super()._get_chunks_and_metadata(splitter)
        self.placed = metas
        return docs, metas

    def _scores_from_dataset_and_retrievals(self, question_metadatas, highlighted_chunks_count):
        self.retrieved = question_metadatas
        got = super()._scores_from_dataset_and_retrievals(question_metadatas, highlighted_chunks_count)
        self.scores = got
        return got


def _id(m: dict) -> str:
    return f"{m['corpus_id']}:{m['start_index']}:{m['end_index']}"


def main(bench: str, chunks_dir: str, out_dir: str) -> None:
    bench_path, out = Path(bench), Path(out_dir)
    corpora = {p.stem: str(p) for p in (bench_path / "corpora").iterdir() if p.suffix == ".md"}
    texts = {d: open(p, encoding="utf-8").read() for d, p in corpora.items()}
    for map_path in sorted(Path(chunks_dir).glob("*.chunks.jsonl")):
        name = map_path.name.split(".")[0]
        ranges: dict[str, list] = {}
        for line in open(map_path):
            r = json.loads(line)
            ranges.setdefault(r["doc_id"], []).append((r["start"], r["end"]))
        target = out / name
        target.mkdir(parents=True, exist_ok=True)
        expected = {}
        for cut, label in ((5, "run5"), (-1, "runall")):
            ev = Recording(str(bench_path / "questions_df.csv"), corpora_id_paths=corpora)
            ev.run(MapChunker(ranges, texts), embedding_function=HashedWords(), retrieve=cut)
            iou, recall, precision = ev.scores
            expected[label] = {"iou": iou, "precision": precision, "recall": recall}
            with open(target / f"{label}.trec", "w") as f:
                for q, metas in enumerate(ev.retrieved):
                    seen: dict[str, int] = {}
                    for rank, m in enumerate(metas, 1):  # (the n-th chunk retrieved at one range: its n-th id)
                        seen[_id(m)] = seen.get(_id(m), 0) + 1
                        cid = _id(m) + (f"#{seen[_id(m)]}" if seen[_id(m)] > 1 else "")
                        f.write(f"{q} Q0 {cid} {rank} {len(metas) - rank + 1} chroma\n")
            placed = ev.placed
        with open(target / "chunks.jsonl", "w") as f:
            seen: dict[str, int] = {}
            for m in placed:  # (chunks Chroma placed at one range stay distinct: each counts for retrieve=-1)
                seen[_id(m)] = seen.get(_id(m), 0) + 1
                cid = _id(m) + (f"#{seen[_id(m)]}" if seen[_id(m)] > 1 else "")
                f.write(
                    json.dumps(
                        {"chunk_id": cid, "doc_id": m["corpus_id"], "start": m["start_index"], "end": m["end_index"]}
                    )
                    + "\n"
                )
        moved = sum(1 for m in placed if (m["start_index"], m["end_index"]) not in set(ranges[m["corpus_id"]]))
        with open(target / "expected.json", "w") as f:
            json.dump(expected, f)
        print(
            f"{name}: {len(placed)} chunks ({moved} placed by Chroma elsewhere than the map), "
            f"IoU@5 {np.mean(expected['run5']['iou']):.4f}, IoU@-1 {np.mean(expected['runall']['iou']):.4f}"
        )


if __name__ == "__main__":
    main(*sys.argv[1:4])
