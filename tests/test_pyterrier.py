"""graphsr's measures inside PyTerrier's ``pt.Experiment``, as a PyTerrier user runs them (DataFrame systems, no
Java): flat measures give ir_measures' values and baseline p-values; measures bound to a collection give what
``graphsr eval`` gives on the files; an unbound measure on element data fails in one clear line."""

from __future__ import annotations

import os

import numpy as np
import pytest

import graphsr
import graphsr.io.frames
from graphsr.data import sample

if os.environ.get("GRAPHSR_REQUIRE_PYTERRIER"):
    import pyterrier as pt  # CI: installed with the dev extra, never skipped
else:
    pt = pytest.importorskip("pyterrier")
import ir_measures  # noqa: E402

S = sample("shakespeare")


def _systems(topics=50, depth=100, seed=5):
    """Two DataFrame systems and qrels over many tied scores (PyTerrier's columns)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    qrels = pd.DataFrame(
        [(str(t), f"d{d}", int(rng.integers(0, 3))) for t in range(topics) for d in rng.choice(400, 40, replace=False)],
        columns=["qid", "docno", "label"],
    )
    systems = []
    for _ in range(2):
        rows = []
        for t in range(topics):
            docs = rng.choice(400, depth, replace=False)
            scores = np.sort(rng.integers(0, 20, depth))[::-1].astype(float)  # ties
            rows += [(str(t), f"d{d}", s, r) for r, (d, s) in enumerate(zip(docs, scores))]
        systems.append(pt.Transformer.from_df(pd.DataFrame(rows, columns=["qid", "docno", "score", "rank"])))
    topics_frame = pd.DataFrame({"qid": [str(t) for t in range(topics)], "query": "q"})
    return systems, topics_frame, qrels


def test_flat_measures_in_an_experiment_equal_ir_measures_own_with_baseline_p_values():
    systems, topics, qrels = _systems()
    names = ["nDCG@10", "P@10", "AP", "RR", "R@100"]
    ours = pt.Experiment(
        systems, topics, qrels, eval_metrics=[graphsr.parse_measure(n) for n in names], names=["a", "b"], baseline=0
    )
    theirs = pt.Experiment(
        systems, topics, qrels, eval_metrics=[ir_measures.parse_measure(n) for n in names], names=["a", "b"], baseline=0
    )
    assert sorted(ours.columns) == sorted(theirs.columns) and len(ours.columns) == 1 + 4 * len(names)
    for column in theirs.columns:
        if column == "name":
            continue
        np.testing.assert_allclose(
            ours[column].to_numpy(float), theirs[column].to_numpy(float), rtol=0, atol=1e-12, err_msg=column
        )


def _element_frame(path, columns=("qid", "docno", "rank", "score", "xpath")):
    import pandas as pd

    rows = [line.split() for line in open(path) if line.strip()]
    frame = pd.DataFrame(rows, columns=["qid", "Q0", "docno", "rank", "score", "run_id", "xpath"])
    frame["rank"] = frame["rank"].astype(int)
    frame["score"] = frame["score"].astype(float)
    return frame[list(columns)]


def _element_qrels():
    import pandas as pd

    rows = [line.split() for line in open(S["qrels"]) if line.strip()]
    return pd.DataFrame([(t, d, x, float(v)) for t, _, d, x, v in rows], columns=["qid", "docno", "xpath", "label"])


def test_bound_structural_measures_in_an_experiment_give_the_files_values():
    import pandas as pd

    qrels = _element_qrels()
    topics = pd.DataFrame({"qid": sorted(qrels.qid.unique()), "query": "q"})
    paths = [p for p in S["runs"] if p.name in ("speeches.run", "scenes.run", "scene-trees.run")]
    systems = [pt.Transformer.from_df(_element_frame(p)) for p in paths]
    context = graphsr.element_context(
        set(qrels.docno), measures=["SRP@10", "ESRP@10"], collection=S["collection"], model="p*|c:length", nav="depth4"
    )
    measures = [graphsr.bind(m, context) for m in ("SRP@10", "ESRP@10", "P@10", "SR")]
    assert repr(measures[0]) == "SRP@10[p*|c:length]"
    got = pt.Experiment(systems, topics, qrels, eval_metrics=measures, names=[p.name for p in paths])
    want = graphsr.evaluate(
        str(S["qrels"]),
        [graphsr.read_run(p, name=p.name) for p in paths],
        ["SRP@10", "ESRP@10", "P@10", "SR"],
        context,
        all_topics=True,
    )
    for row, run in zip(got.itertuples(index=False), want.runs):
        for m in ("SRP@10", "ESRP@10", "P@10", "SR"):
            value = got.loc[got["name"] == row.name, f"{m}[p*|c:length]"].item()
            assert value == pytest.approx(run.mean(graphsr.parse_measure(m)), abs=1e-12), (row.name, m)
    speeches = got.loc[got["name"] == "speeches.run"]
    assert round(speeches["SRP@10[p*|c:length]"].item(), 6) == 0.544737


def test_an_unbound_measure_on_element_data_fails_in_one_clear_line():
    import pandas as pd

    qrels = _element_qrels()
    qrels = qrels.assign(label=(qrels["label"] > 0).astype(int))  # (ir_measures' own P@10 takes integer labels)
    topics = pd.DataFrame({"qid": sorted(qrels.qid.unique()), "query": "q"})
    system = pt.Transformer.from_df(_element_frame(S["runs"][3]))
    with pytest.raises(graphsr.errors.GraphsrInputError) as e:
        pt.Experiment([system], topics, qrels, eval_metrics=[ir_measures.P @ 10, graphsr.parse_measure("SRP@10")])
    message = str(e.value)
    assert "\n" not in message and "bind it to a collection first" in message and "graphsr.bind('SRP@10'" in message


def test_a_bound_measure_keeps_its_context_through_cutoffs_and_parameters():
    context = graphsr.load_collection(S["collection"], ["p*|c"]).context("p*|c:length")
    srp = graphsr.bind("SRP@10", context)
    assert srp.context is context and (srp @ 5).context is context and repr(srp @ 5) == "SRP@5[p*|c:length]"
    esr = graphsr.bind("ESRP@10", context)(rel="length")
    assert esr.context is context and repr(esr) == "ESRP(rel=length)@10[p*|c:length]"
    assert srp != graphsr.parse_measure("SRP@10") and isinstance(srp, ir_measures.Measure)


def _chroma_frames():
    """Chroma's benchmark as PyTerrier frames: span qrels (qid, docno, start, end, label) and the fixed800 run's
    results with their offsets (qid, docno, start, end, score, rank)."""
    import csv
    import gzip
    import io
    import json
    from pathlib import Path

    import pandas as pd

    data = Path(__file__).parent / "data" / "chroma"
    rows = []
    text = gzip.decompress(graphsr.sample("chroma")["qrels"].read_bytes()).decode()
    for q, r in enumerate(csv.DictReader(io.StringIO(text))):
        rows += [
            (str(q), r["corpus_id"], ref["start_index"], ref["end_index"], 1) for ref in json.loads(r["references"])
        ]
    qrels = pd.DataFrame(rows, columns=["qid", "docno", "start", "end", "label"])
    chunks = graphsr.read_chunk_map(data / "fixed800" / "chunks.jsonl.gz")
    results = []
    for line in gzip.open(data / "fixed800" / "run5.trec.gz", "rt"):
        q, _, chunk, rank, score, _ = line.split()
        results.append((q, *chunks[chunk], float(score), int(rank) - 1))
    run = pd.DataFrame(results, columns=["qid", "docno", "start", "end", "score", "rank"])
    expected = json.loads(gzip.decompress((data / "fixed800" / "expected.json.gz").read_bytes()))["run5"]
    return qrels, run, expected


def test_span_measures_in_an_experiment_over_results_with_offsets():
    """A pipeline whose results carry docno, start and end: Chroma's measures give its evaluation's numbers, the
    passage measures what graphsr eval gives on the same spans."""
    import pandas as pd

    qrels, run, expected = _chroma_frames()
    topics = pd.DataFrame({"qid": [str(q) for q in range(472)], "query": "q"})
    names = ["ChromaIoU@5", "ChromaP@5", "ChromaR@5", "budgetP@1000", "MAiP(task=thorough)"]
    got = pt.Experiment(
        [pt.Transformer.from_df(run)],
        topics,
        qrels,
        eval_metrics=[graphsr.parse_measure(n) for n in names],
        names=["fixed800"],
        perquery=True,
    )
    values = {(r.qid, r.measure): r.value for r in got.itertuples()}
    for key, name in (("iou", "ChromaIoU@5"), ("precision", "ChromaP@5"), ("recall", "ChromaR@5")):
        assert [values[str(q), name] for q in range(472)] == pytest.approx(expected[key], rel=1e-15, abs=0)
    want = graphsr.evaluate(graphsr.io.frames.as_qrels(qrels), [graphsr.io.frames.as_run(run)], names[3:])
    for name in names[3:]:
        assert [values[str(q), name] for q in range(472)] == pytest.approx(
            want.runs[0].values[graphsr.parse_measure(name)].tolist(), abs=1e-12
        )
    with pytest.raises(graphsr.errors.GraphsrInputError, match="missing end") as e:
        pt.Experiment(
            [pt.Transformer.from_df(run)],
            topics,
            qrels.drop(columns=["end"]).assign(stop=1),
            eval_metrics=[graphsr.parse_measure("ChromaIoU@5")],
        )
    assert "\n" not in str(e.value)
