"""The flat baselines equal trec_eval's (through pytrec_eval) on random plain document runs; SRP@k without
navigation equals P@k."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

from graphsr.evaluation import evaluate
from graphsr.measures import ScoringContext
from graphsr.core.document import DocumentTree
from graphsr.core.qrels import ElementQrels
from graphsr.core.run import Run, TreeResult


def test_flat_measures_equal_trec_eval_on_random_document_runs():
    rng = np.random.default_rng(12)
    docs = {f"d{i:03d}": DocumentTree.from_nested(f"d{i:03d}", ("doc", "text", [])) for i in range(300)}
    names = sorted(docs)
    qrels_te, run_te, judgments, results = {}, {}, {}, {}
    for q in range(25):
        topic = str(q + 1)
        judged = rng.choice(names, size=int(rng.integers(5, 40)), replace=False)
        rels = {d: int(rng.random() < 0.4) for d in judged}
        if not any(rels.values()):
            rels[judged[0]] = 1
        qrels_te[topic] = rels
        judgments[topic] = {(d, "/doc[1]"): float(v) for d, v in rels.items()}
        ranked = rng.choice(names, size=int(rng.integers(1, 60)), replace=False)
        run_te[topic] = {d: float(len(ranked) - k) for k, d in enumerate(ranked)}  # scores follow the ranks
        results[topic] = [
            TreeResult(topic, k + 1, d, ("/doc[1]",), float(len(ranked) - k)) for k, d in enumerate(ranked)
        ]
    te = pytrec_eval.RelevanceEvaluator(qrels_te, {"P_5", "P_10", "recall_10", "map", "ndcg_cut_10", "ndcg"})
    expected = te.evaluate(run_te)
    res = evaluate(
        ElementQrels(judgments),
        [Run("r", results)],
        ["P@5", "P@10", "R@10", "AP", "nDCG@10", "nDCG", "SRP@5"],
        ScoringContext(docs, lambda d: np.zeros(1), "none"),
    )
    r = res.runs[0]
    names_te = {
        "P@5": "P_5",
        "P@10": "P_10",
        "R@10": "recall_10",
        "AP": "map",
        "nDCG@10": "ndcg_cut_10",
        "nDCG": "ndcg",
    }
    for m in res.measures[:-1]:
        got = dict(zip(r.topics, r.values[m].tolist()))
        assert got == pytest.approx({t: expected[t][names_te[str(m)]] for t in got}, abs=1e-9), str(m)
    p5 = res.measures[0]
    assert r.values[res.measures[-1]].tolist() == pytest.approx(r.values[p5].tolist())  # SRP@5, no navigation
