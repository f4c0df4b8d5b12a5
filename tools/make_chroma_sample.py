"""Build the ``chroma`` sample (graphsr/data/samples/chroma) from Chroma's chunking benchmark as it ships
(github brandonstarxel/chunking_evaluation, MIT): its five Markdown corpora and its questions, three chunkings
of them (tools/chroma_chunkings.py), a BM25 run per chunking (bm25s) and, per chunking, the TREC qrels of its
chunk ids (graphsr.io.spans.chunk_judgments).  The chunking tutorial (docs/tutorials/chunking.md) shows the same
steps and checks that they give these files.

Usage: python tools/make_chroma_sample.py BENCHMARK_DIR  (the repository's
chunking_evaluation/evaluation_framework/general_evaluation_data, holding questions_df.csv and corpora/)
"""

from __future__ import annotations

import gzip
import io
import shutil
import sys
import tarfile
from pathlib import Path

import bm25s

import graphsr
from graphsr.io.chunks import make_chunks, write_chunk_map
from graphsr.io.spans import chunk_judgments, document_texts, read_spans

sys.path.insert(0, str(Path(__file__).parent))
from chroma_chunkings import CHUNKINGS  # noqa: E402

OUT = Path(__file__).parents[1] / "graphsr" / "data" / "samples" / "chroma"
DEPTH = 20


def bm25_run(texts: dict[str, str], chunks: dict, questions: list[str], run_id: str) -> list[str]:
    """TREC lines: each question's DEPTH best chunks by BM25 (bm25s, English stop words)."""
    ids = list(chunks)
    corpus = [texts[d][s:e] for d, s, e in chunks.values()]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False)
    found, scores = retriever.retrieve(
        bm25s.tokenize(questions, stopwords="en", show_progress=False), k=DEPTH, show_progress=False
    )
    return [
        f"{q} Q0 {ids[int(c)]} {rank} {float(s):.6f} {run_id}\n"
        for q in range(len(questions))
        for rank, (c, s) in enumerate(zip(found[q], scores[q]), 1)
    ]


def _gz(path: Path, text: str) -> None:
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def main(bench: str) -> None:
    bench_path = Path(bench)
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "runs").mkdir(parents=True)
    (OUT / "chunks").mkdir()
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:  # (fixed names, times and owners: the same bytes each time)
        for path in sorted((bench_path / "corpora").glob("*.md")):
            info = tar.gettarinfo(str(path), arcname=f"collection/{path.name}")
            info.mtime, info.uid, info.gid, info.uname, info.gname, info.mode = 0, 0, 0, "", "", 0o644
            with open(path, "rb") as fh:
                tar.addfile(info, fh)
    (OUT / "collection.tar.gz").write_bytes(gzip.compress(data.getvalue(), mtime=0))
    (OUT / "qrels.csv.gz").write_bytes(gzip.compress((bench_path / "questions_df.csv").read_bytes(), mtime=0))
    collection = OUT / "collection.tar.gz"
    texts = document_texts(collection)
    qrels = read_spans(OUT / "qrels.csv.gz", texts)
    import csv

    questions = [r["question"] for r in csv.DictReader(io.StringIO((bench_path / "questions_df.csv").read_text()))]
    for name, kw in CHUNKINGS.items():
        chunks = make_chunks(collection, **kw)
        write_chunk_map(chunks, OUT / "chunks" / f"{name}.jsonl.gz")
        judged = chunk_judgments(qrels, chunks)
        _gz(
            OUT / "chunks" / f"{name}.qrels.gz",
            "".join(f"{q} 0 {c} {g}\n" for q in sorted(judged, key=int) for c, g in judged[q].items()),
        )
        _gz(OUT / "runs" / f"bm25-{name}.run.gz", "".join(bm25_run(texts, chunks, questions, f"bm25-{name}")))
        print(f"{name}: {len(chunks)} chunks, {sum(map(len, judged.values()))} relevant chunk judgments")
    shutil.copy(bench_path.parents[2] / "LICENSE", OUT / "LICENSE")  # (the repository's licence, MIT)
    shutil.copy(Path(__file__).parent / "chroma_sample_README.md", OUT / "README.md")
    print(graphsr.sample("chroma"))


if __name__ == "__main__":
    main(sys.argv[1])
