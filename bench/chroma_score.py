"""Chroma's own scoring of a chunk run, for bench/bench_chunks.py: its evaluation's functions
(``BaseEvaluation._load_questions_df`` and ``_scores_from_dataset_and_retrievals``, github
brandonstarxel/chunking_evaluation) on a questions_df.csv, a chunk map and a TREC run of chunk ids, with the
first K chunks of each question.  Run with an interpreter where chunking_evaluation is installed; prints the
mean IoU, precision and recall, and the seconds its scoring function took (inputs already in memory).

    python bench/chroma_score.py QUESTIONS_CSV CHUNK_MAP_JSONL RUN_TREC K
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from chunking_evaluation.evaluation_framework.base_evaluation import BaseEvaluation  # noqa: E402


def main(questions: str, chunk_map: str, run: str, k: str) -> None:
    where = {}
    with open(chunk_map) as fh:
        for line in fh:
            r = json.loads(line)
            where[r["chunk_id"]] = {"start_index": r["start"], "end_index": r["end"], "corpus_id": r["doc_id"]}
    ev = BaseEvaluation.__new__(BaseEvaluation)  # (its constructor also opens a Chroma client, not needed here)
    ev.questions_csv_path = questions
    ev._load_questions_df()
    retrieved: dict[int, list] = {}
    with open(run) as fh:
        for line in fh:
            q, _, chunk, _, _, _ = line.split()
            retrieved.setdefault(int(q), []).append(where[chunk])
    metadatas = [retrieved.get(q, []) for q in range(len(ev.questions_df))]
    t = time.perf_counter()
    iou, recall, precision = ev._scores_from_dataset_and_retrievals(metadatas, [int(k)] * len(metadatas))
    seconds = time.perf_counter() - t
    n = len(iou)
    print(
        json.dumps(
            {"ChromaIoU": sum(iou) / n, "ChromaP": sum(precision) / n, "ChromaR": sum(recall) / n, "seconds": seconds}
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:5])
