"""The Python API in ir_measures' shapes: DataFrames and dicts in, ir_measures' return types out, the same
values as ir_measures on plain document runs."""

from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd
import pytest

import graphsr


def random_frames(seed: int, grades: int = 1):
    rng = np.random.default_rng(seed)
    docs = [f"d{i:03d}" for i in range(200)]
    q, r = [], []
    for t in range(20):
        topic = f"q{t}"
        judged = rng.choice(docs, size=int(rng.integers(5, 30)), replace=False)
        rels = (rng.random(len(judged)) < 0.4).astype(int) * rng.integers(1, grades + 1, size=len(judged))
        rels[0] = grades
        q += [(topic, d, int(v)) for d, v in zip(judged, rels)]
        ranked = rng.choice(docs, size=int(rng.integers(1, 50)), replace=False)
        scores = rng.integers(0, 8, size=len(ranked)).astype(float)  # ties: trec_eval's doc_id order decides
        r += [(topic, d, s) for d, s in zip(ranked, scores)]
    return (
        pd.DataFrame(q, columns=["query_id", "doc_id", "relevance"]),
        pd.DataFrame(r, columns=["query_id", "doc_id", "score"]),
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_calc_aggregate_equals_ir_measures_on_document_runs(seed):
    qrels, run = random_frames(seed)
    names = ["P@5", "P@10", "R@10", "AP", "nDCG@10", "nDCG"]
    ours = graphsr.calc_aggregate(names + ["SRP@5"], qrels, run)
    theirs = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qrels, run)
    for n in names:
        assert ours[graphsr.parse_measure(n)] == pytest.approx(theirs[ir_measures.parse_measure(n)], abs=1e-9), n
    assert ours[graphsr.parse_measure("SRP@5")] == pytest.approx(ours[graphsr.parse_measure("P@5")])
    per_topic = {(m.query_id, str(m.measure)): m.value for m in graphsr.iter_calc(["AP"], qrels, run)}
    expected = {(m.query_id, "AP"): m.value for m in ir_measures.iter_calc([ir_measures.AP], qrels, run)}
    assert per_topic == pytest.approx(expected)


def test_dict_and_frame_inputs_agree_and_run_ids_name_runs():
    qrels, run = random_frames(4)
    q_dict = {t: dict(zip(g.doc_id, g.relevance)) for t, g in qrels.groupby("query_id")}
    r_dict = {t: dict(zip(g.doc_id, g.score)) for t, g in run.groupby("query_id")}
    assert graphsr.calc_aggregate(["AP", "P@5"], q_dict, r_dict) == graphsr.calc_aggregate(["AP", "P@5"], qrels, run)
    named = run.assign(run_id="bm25")
    frame = graphsr.calc_frame(["P@5"], qrels, named)
    assert set(frame["run"]) == {"bm25"} and list(frame.columns) == ["run", "measure", "topic", "value"]
    with pytest.raises(graphsr.GraphsrInputError, match="missing score"):
        graphsr.as_run(run.drop(columns="score"))


def test_graded_qrels_as_ir_measures_and_sr_measures_refuse_them():
    qrels, run = random_frames(5, grades=3)
    assert qrels.relevance.max() == 3
    names = ["P@5", "R@10", "AP", "nDCG@10", "nDCG", "P(rel=2)@10"]
    ours = graphsr.calc_aggregate(names, qrels, run)
    irm = {"P(rel=2)@10": ir_measures.P(rel=2) @ 10}
    theirs = ir_measures.calc_aggregate([irm.get(n) or ir_measures.parse_measure(n) for n in names], qrels, run)
    for n in names:
        assert ours[graphsr.parse_measure(n)] == pytest.approx(
            theirs[irm.get(n) or ir_measures.parse_measure(n)], abs=1e-9
        ), n
    with pytest.raises(
        graphsr.GraphsrInputError,
        match=r"SRP@5: need relevance in \[0, 1\]; qrels \(topic q\d+\) "
        r"grades above 1 \(up to 3\): divide the grades by 3",
    ):
        graphsr.calc_aggregate(["SRP@5", "P@5"], qrels, run)


def test_topics_the_run_lacks_count_as_in_ir_measures():
    qrels, run = random_frames(6)
    run = run[~run.query_id.isin(["q3", "q7"])]
    names = ["P@5", "AP", "nDCG@10", "SRP@5"]
    ours = graphsr.calc_aggregate(names, qrels, run)
    theirs = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names[:3]], qrels, run)
    for n in names[:3]:
        assert ours[graphsr.parse_measure(n)] == pytest.approx(theirs[ir_measures.parse_measure(n)], abs=1e-9), n
    assert {m.query_id for m in graphsr.iter_calc(["AP"], qrels, run)} == set(qrels.query_id)
    assert {m.query_id for m in graphsr.iter_calc(["AP"], qrels, run, all_topics=False)} == set(qrels.query_id) - {
        "q3",
        "q7",
    }


@pytest.mark.parametrize("seed", [7, 8])
def test_graphsr_measures_run_inside_ir_measures(seed):
    qrels, run = random_frames(seed, grades=1)
    ours = [graphsr.parse_measure(n) for n in ("SRP@5", "SR@10", "P@10")]
    got = ir_measures.calc_aggregate([*ours, ir_measures.P @ 5, ir_measures.AP], qrels, run)
    direct = graphsr.calc_aggregate(["SRP@5", "SR@10", "P@10", "AP"], qrels, run)
    assert got[ours[0]] == pytest.approx(got[ir_measures.P @ 5], abs=1e-12)  # SRP@k without navigation is P@k
    assert got[ours[1]] == pytest.approx(direct[graphsr.parse_measure("SR@10")])
    assert got[ours[2]] == pytest.approx(direct[graphsr.parse_measure("P@10")])
    assert got[ir_measures.AP] == pytest.approx(direct[graphsr.parse_measure("AP")])
    per_topic = {(m.query_id, m.measure): m.value for m in ir_measures.iter_calc(ours[:1], qrels, run)}
    assert per_topic == pytest.approx({(m.query_id, ours[0]): m.value for m in graphsr.iter_calc(ours[:1], qrels, run)})


def test_trec_document_files_score_on_the_command_line_as_ir_measures(tmp_path, capsys):
    from graphsr.cli.main import main

    qrels, run = random_frames(9, grades=3)
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("".join(f"{q} 0 {d} {v}\n" for q, d, v in qrels.itertuples(index=False)))
    ranks = run.groupby("query_id").cumcount() + 1  # the rank column is ignored: trec_eval ranks by score
    rp.write_text("".join(f"{q} Q0 {d} {k} {s:g} bm25\n" for (q, d, s), k in zip(run.itertuples(index=False), ranks)))
    names = ["P@5", "R@10", "AP", "nDCG@10"]
    assert main(["eval", str(qp), str(rp), *(a for n in names for a in ("-m", n)), "-q", "--format", "csv"]) == 0
    out = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out), dtype={"topic": str})
    assert set(out.run) == {"bm25"}
    theirs = {
        (m.query_id, str(m.measure)): m.value
        for m in ir_measures.iter_calc(
            [ir_measures.parse_measure(n) for n in names],
            ir_measures.read_trec_qrels(str(qp)),
            ir_measures.read_trec_run(str(rp)),
        )
    }
    ours = {(t, m): v for m, t, v in zip(out.measure, out.topic, out.value) if t != "all" and m in names}
    assert ours.keys() == {k for k in theirs if k[0] in set(run.query_id)}
    for k, v in ours.items():
        assert v == pytest.approx(theirs[k], abs=1e-6), k
    assert main(["eval", str(qp), str(rp), "--collection", str(tmp_path)]) == 2
    assert "--collection: TREC document qrels and runs are plain documents" in capsys.readouterr().err
    element = tmp_path / "element.run"
    element.write_text("q1 Q0 d001 1 1 sys /doc[1]/p[1]\n")
    assert main(["eval", str(qp), str(element)]) == 2
    assert "TREC document qrels (4 fields) are scored with TREC document runs" in capsys.readouterr().err
    mixed = tmp_path / "mixed.run"
    mixed.write_text("q1 Q0 d001 1 1 sys\nq1 Q0 d002 2 1 sys /doc[1]\n")
    assert main(["eval", str(qp), str(mixed)]) == 2
    assert (
        f"{mixed}:2: a file mixes TREC document lines ('topic Q0 docno rank score run_id') and element lines"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "qrels_ids, run_ids",
    [
        ("str", "str"),
        ("object", "str"),
        ("str", "object"),
        ("int", "str"),
        ("str", "int"),
        ("int", "int"),
        ("mixed", "str"),
        ("str", "mixed"),
    ],
)
def test_frame_runs_coded_with_their_assessments_whatever_the_id_types(qrels_ids, run_ids):
    """A DataFrame run is coded after its assessments' names when both hold text (one factorisation); ids of
    other types (numbers, or a mix where 7 and "7" are one name) are coded apart and mapped: the values are the
    same as from dicts keyed by the ids as text, topics and documents the assessments lack included."""
    rng = np.random.default_rng(11)
    q, r = [], []
    for t in range(12):
        judged = rng.choice(60, size=15, replace=False)
        q += [(t, int(d), int(rng.integers(0, 3))) for d in judged]
        ranked = rng.choice(90, size=int(rng.integers(1, 40)), replace=False)  # documents 60..89: never judged
        r += [(t, int(d), float(rng.integers(0, 6))) for d in ranked]
    r += [(99, 5, 1.0), (99, 7, 2.0)]  # a topic the assessments lack

    def frame(rows, ids, value):
        df = pd.DataFrame(rows, columns=["query_id", "doc_id", value])
        if ids == "int":
            return df
        as_text = df.assign(query_id=df.query_id.astype(str), doc_id=df.doc_id.astype(str))
        if ids == "object":
            return as_text.astype({"query_id": object, "doc_id": object})
        if ids == "mixed":  # some ids as numbers, some as text, in one object column
            mixed = as_text.astype({"query_id": object, "doc_id": object})
            mixed.loc[::2, "doc_id"] = df.doc_id[::2].to_numpy()
            mixed.loc[::3, "query_id"] = df.query_id[::3].to_numpy()
            return mixed
        return as_text

    names = ["P@5", "AP", "nDCG@10", "R@20", "P(rel=2)@10"]
    q_dict, r_dict = {}, {}
    for t, d, v in q:
        q_dict.setdefault(str(t), {})[str(d)] = v
    for t, d, v in r:
        r_dict.setdefault(str(t), {})[str(d)] = v
    expected = graphsr.calc_aggregate(names, q_dict, r_dict)
    got = graphsr.calc_aggregate(names, frame(q, qrels_ids, "relevance"), frame(r, run_ids, "score"))
    for n in names:
        assert got[graphsr.parse_measure(n)] == pytest.approx(expected[graphsr.parse_measure(n)], abs=1e-12), n
    qrels = graphsr.as_qrels(frame(q, qrels_ids, "relevance"))
    run = graphsr.as_run(frame(r, run_ids, "score"), vocabulary=qrels)
    # a run whose ids are all text: one factorisation after the assessments' names (whatever theirs were)
    assert (run.columns.coded_as is qrels.columns) == (run_ids in ("str", "object"))
