"""The diversity family against ndeval (through pyndeval, the package ir_measures' pyndeval provider calls), on
random diversity qrels and runs that reach the edges: subtopics no document is relevant to, documents judged for
some subtopics only, negative grades, ties in score, unjudged documents, rel=2, judged_only, alpha and beta, k = 1
(where ndeval leaves alpha-DCG and ERR-IA unnormalised) and k = 20 (its depth).  Then how diversity qrels are
read, and refused where a measure cannot use them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsr
from graphsr.errors import GraphsrInputError, QrelsFormatError

pyndeval = pytest.importorskip("pyndeval")

#: graphsr's name -> (ndeval's name, rel, alpha, beta, judged_only)
MEASURES = {
    "alpha_nDCG@5": ("alpha-nDCG@5", 1, 0.5, 0.5, False),
    "alpha_nDCG@20": ("alpha-nDCG@20", 1, 0.5, 0.5, False),
    "alpha_nDCG(alpha=0.3)@10": ("alpha-nDCG@10", 1, 0.3, 0.5, False),
    "alpha_DCG@1": ("alpha-DCG@1", 1, 0.5, 0.5, False),
    "alpha_DCG@10": ("alpha-DCG@10", 1, 0.5, 0.5, False),
    "ERR_IA@1": ("ERR-IA@1", 1, 0.5, 0.5, False),
    "ERR_IA@10": ("ERR-IA@10", 1, 0.5, 0.5, False),
    "nERR_IA@5": ("nERR-IA@5", 1, 0.5, 0.5, False),
    "nERR_IA@20": ("nERR-IA@20", 1, 0.5, 0.5, False),
    "P_IA@5": ("P-IA@5", 1, 0.5, 0.5, False),
    "P_IA@20": ("P-IA@20", 1, 0.5, 0.5, False),
    "StRecall@10": ("strec@10", 1, 0.5, 0.5, False),
    "NRBP": ("NRBP", 1, 0.5, 0.5, False),
    "NRBP(alpha=0.2,beta=0.8)": ("NRBP", 1, 0.2, 0.8, False),
    "nNRBP": ("nNRBP", 1, 0.5, 0.5, False),
    "nNRBP(alpha=0.7,beta=0.3)": ("nNRBP", 1, 0.7, 0.3, False),
    "AP_IA": ("MAP-IA", 1, 0.5, 0.5, False),
    "alpha_nDCG(rel=2)@10": ("alpha-nDCG@10", 2, 0.5, 0.5, False),
    "P_IA(judged_only=True)@10": ("P-IA@10", 1, 0.5, 0.5, True),
    "alpha_nDCG(judged_only=True)@5": ("alpha-nDCG@5", 1, 0.5, 0.5, True),
}

_docs = st.sampled_from([f"d{k}" for k in range(30)])
_topic = st.fixed_dictionaries(
    {
        "subtopics": st.lists(st.sampled_from("1234567"), min_size=1, max_size=5, unique=True),
        "judged": st.lists(
            st.tuples(_docs, st.lists(st.sampled_from([-1, 0, 0, 1, 1, 2]), min_size=1, max_size=5)),
            min_size=1,
            max_size=20,
            unique_by=lambda x: x[0],
        ),
        "run": st.lists(
            st.tuples(_docs, st.sampled_from([1.0, 2.0, 0.5, -1.25])), max_size=25, unique_by=lambda x: x[0]
        ),
    }
)


def _write(tmp_path, topics: dict):
    qrels, run = [], []
    for t, spec in topics.items():
        for d, grades in spec["judged"]:
            for s, g in zip(spec["subtopics"], grades):
                qrels.append((t, s, d, g))
        run += [(t, d, s) for d, s in spec["run"]]
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} {s} {d} {g}\n" for t, s, d, g in qrels))
    r.write_text("".join(f"{t} Q0 {d} {k} {s!r} run\n" for k, (t, d, s) in enumerate(run)) or "")
    return q, r, qrels, run


@settings(max_examples=60, deadline=None)
@given(topics=st.dictionaries(st.sampled_from(["1", "7", "42", "300"]), _topic, min_size=1, max_size=3))
def test_every_value_equals_ndeval(tmp_path_factory, topics):
    tmp = tmp_path_factory.mktemp("div")
    q, r, qrels, run = _write(tmp, topics)
    if not run:
        return
    res = graphsr.evaluate(str(q), str(r), list(MEASURES))
    got = res.runs[0]
    judged = {(t, d) for t, _, d, _ in qrels}
    for label, m in res.labels:
        name, rel, alpha, beta, judged_only = MEASURES[label]
        kept = [x for x in run if not judged_only or (x[0], x[1]) in judged]
        ref = pyndeval.RelevanceEvaluator(qrels, [name], relevance_level=rel, alpha=alpha, beta=beta).evaluate(kept)
        for t, v in zip(got.topics, got.values[m]):
            if t in ref:
                want = ref[t][name]
                want = 0.0 if math.isnan(want) else want  # (ndeval's 0/0 for nNRBP without a relevant subtopic)
                assert v == pytest.approx(want, abs=1e-12), (label, t)


def test_a_worked_example(tmp_path):
    """Two subtopics, each covered by one document; the run finds the second one only, at rank 2."""
    (tmp_path / "q").write_text("1 a d1 1\n1 b d2 1\n1 a d3 0\n")
    (tmp_path / "r").write_text("1 Q0 d3 1 2.0 r\n1 Q0 d2 2 1.0 r\n")
    res = graphsr.evaluate(
        str(tmp_path / "q"), str(tmp_path / "r"), ["alpha_nDCG@2", "P_IA@2", "StRecall@2", "ERR_IA@2", "AP_IA"]
    )
    v = {label: float(res.runs[0].values[m][0]) for label, m in res.labels}
    ideal = 1 + 1 / np.log2(3)  # d1 and d2 at ranks 1 and 2, each a new subtopic
    assert v["alpha_nDCG@2"] == pytest.approx((1 / np.log2(3)) / ideal)
    assert v["P_IA@2"] == pytest.approx(1 / (2 * 2)) and v["StRecall@2"] == 0.5
    assert v["ERR_IA@2"] == pytest.approx((1 / 2) / (2 + 2 * 0.5 / 2))  # over S=2 subtopics at every rank
    assert v["AP_IA"] == pytest.approx((0 + 1 / 2) / 2)


def test_diversity_qrels_are_read_and_refused_by_the_other_families(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 a d1 1\n1 b d1 0\n1 b d2 1\n")
    r.write_text("1 Q0 d1 1 2.0 r\n")
    res = graphsr.evaluate(str(q), str(r), ["StRecall@1"])
    assert res.runs[0].values[res.measures[0]][0] == 0.5
    with pytest.raises(GraphsrInputError, match="per subtopic .*only the diversity measures"):
        graphsr.evaluate(str(q), str(r), ["P@1"])


def test_one_subtopic_per_document_is_read_from_the_file(tmp_path):
    """A diversity file judging each document under one subtopic reads as plain qrels first; the diversity
    measures read its subtopics from it, and the flat measures score it as it is."""
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 a d1 1\n1 b d2 1\n")
    r.write_text("1 Q0 d2 1 2.0 r\n1 Q0 d1 2 1.0 r\n")
    res = graphsr.evaluate(str(q), str(r), ["StRecall@1", "P@1"])
    assert [float(res.runs[0].values[m][0]) for m in res.measures] == [0.5, 1.0]


def test_a_document_judged_twice_for_one_subtopic_is_refused(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 a d1 1\n1 b d1 0\n1 a d1 0\n")
    r.write_text("1 Q0 d1 1 2.0 r\n")
    with pytest.raises(QrelsFormatError, match="assessed twice"):
        graphsr.evaluate(str(q), str(r), ["alpha_nDCG@5"])


def test_a_grade_past_64_bits_is_refused_in_one_line(tmp_path):
    """Grades are kept as 64-bit integers: a larger one is refused where it is read, never an OverflowError (found
    by the C scanner's property test: ``1 0 2 9999999999999999999``)."""
    from graphsr.io.subtopics import read_subtopic_qrels

    q = tmp_path / "q"
    q.write_text("1 a d1 1\n1 b d2 9999999999999999999\n")
    with pytest.raises(QrelsFormatError, match=r"q:2: expected a whole grade in field 4 within \+-9,223,372,"):
        read_subtopic_qrels(q)
    q.write_text("1 a d1 1\n1 b d2 -9223372036854775807\n")
    assert read_subtopic_qrels(q) is not None  # (the bound itself is kept)
    (tmp_path / "r").write_text("1 Q0 d1 1 2.0 r\n")
    q.write_text("1 0 1 0\n1 Q0 1 0\n1 0 2 9999999999999999999")
    with pytest.raises(GraphsrInputError):
        graphsr.evaluate(str(q), str(tmp_path / "r"), ["alpha_nDCG@5"])


def test_without_subtopic_judgments_the_measures_say_what_they_need():
    with pytest.raises(GraphsrInputError, match="need judgments per subtopic"):
        graphsr.evaluate({"1": {"d1": 1}}, {"1": {"d1": 1.0}}, ["alpha_nDCG@5"])


def test_graphsr_and_ir_measures_name_the_same_measures():
    import ir_measures

    from graphsr.measures import parse_measure

    assert parse_measure("alpha_nDCG@10") == ir_measures.alpha_nDCG @ 10
    assert parse_measure(ir_measures.NRBP(beta=0.8)) == parse_measure("NRBP(beta=0.8)")
    assert parse_measure(ir_measures.StRecall @ 5) == parse_measure("StRecall@5")
