"""ESR quantities and measures: the ESR paper's toy numbers (docs/errata.md) and reductions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .esr_reference import ESRTopic, esr_expectations, esr_measures, nsrcg, redundancy, srprum
from graphsr.navigation.transitions import StepNavigation

# Fig 4a article: e1 article; e2, e3, e6 sections; e4, e5 paragraphs. Table 5 navigation:
TABLE5 = {(3, 1): 0.16, (4, 1): 0.11, (4, 3): 0.0}


def nav5(to, fr):
    return np.array([[TABLE5.get((int(i), int(j)), 0.0) for j in fr] for i in to])


def toy(system, by_length=False):
    sizes = {1: 100, 3: 30, 4: 20}
    rel = np.array([30.0, 20.0]) if by_length else np.array([1.0, 1.0])
    return ESRTopic([np.array([e]) for e in system], [sizes[e] for e in system], [np.array([3]), np.array([4])], rel)


SYSTEM1 = (1, 3, 4)
SYSTEM3 = (3, 1, 4)


def test_system1_at_rank_1():
    t = toy(SYSTEM1)
    assert redundancy(np.array([3]), [np.array([1])], nav5) == pytest.approx(0.16)
    assert redundancy(np.array([4]), [np.array([1])], nav5) == pytest.approx(0.11)
    e = esr_expectations(t, nav5, 1)
    assert e["hits"] == 0 and e["near_misses"] == pytest.approx(0.27) and e["recall_base"] == pytest.approx(2)


def test_system3_at_rank_2_binary():
    m = esr_measures(toy(SYSTEM3), nav5, 2)
    assert m["hits"] == pytest.approx(1) and m["near_misses"] == pytest.approx(0.11)
    assert m["misses"] == pytest.approx(0.89) and m["recall_base"] == pytest.approx(2)
    assert m["ESRP"] == pytest.approx(0.5) and m["ESRR"] == pytest.approx(0.555)


def test_system3_at_rank_2_by_length():
    m = esr_measures(toy(SYSTEM3, by_length=True), nav5, 2)
    assert m["hits"] == pytest.approx(30) and m["recall_base"] == pytest.approx(50)
    assert m["SRiP"] == pytest.approx(30 / 130) and round(m["SRiP"], 3) == 0.231
    assert m["SRiR"] == pytest.approx(0.6)
    assert nsrcg(toy(SYSTEM3, by_length=True), nav5, 2, l=1, m=2) == pytest.approx(0.6)


def test_srprum_system3():
    assert srprum(toy(SYSTEM3), nav5, r=0.55) == pytest.approx(1.11 / 2)
    assert srprum(toy(SYSTEM3), nav5, r=0.5) == pytest.approx(1.0)  # reached at rank 1
    assert srprum(toy(SYSTEM3), nav5, r=1.0) == pytest.approx(1.89 / 3)  # all seen at rank 3


# Fig 5 routes as docs/errata.md reads them: from e3, e3->e1 twice and e3->e2 once; e2->e4 twice.
ROUTES = [[3, 1], [3, 1], [3, 2, 4], [2, 4]]


def steps(routes):
    src, dst = [], []
    for r in routes:
        src += r[:-1]
        dst += r[1:]
    return np.array(src), np.array(dst)


def test_elementary_navigation_from_routes():
    src, dst = steps(ROUTES)
    nav = StepNavigation(src, dst, np.ones(len(src)), n_states=7, state_of=np.arange(7), doc_of=np.zeros(7, int))
    assert nav.step(3, 1) == pytest.approx(2 / 3)
    assert nav.step(3, 2) == pytest.approx(1 / 3)
    assert nav(np.array([1]), np.array([3]))[0, 0] == pytest.approx(2 / 3)


def test_tag_summary_navigation_from_routes():
    # S1 article {e1}, S2 sections {e2, e3, e6}, S3 paragraphs {e4, e5}; node ids 1..6
    state = np.array([-1, 0, 1, 1, 2, 2, 1])
    src, dst = steps(ROUTES)
    nav = StepNavigation(state[src], state[dst], np.ones(len(src)), n_states=3, state_of=state, doc_of=np.zeros(7, int))
    assert nav.step(1, 0) == pytest.approx(0.4)  # S2 -> S1 = 2/5
    assert nav.step(1, 1) == pytest.approx(0.2)
    assert nav.step(1, 2) == pytest.approx(0.4)
    # across documents nothing is navigable
    nav2 = StepNavigation(
        state[src], state[dst], np.ones(len(src)), n_states=3, state_of=state, doc_of=np.array([0, 0, 0, 1, 0, 0, 0])
    )
    assert nav2(np.array([1]), np.array([3]))[0, 0] == 0


def no_nav(to, fr):
    return np.zeros((len(to), len(fr)))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 30), unique=True, max_size=20),
    st.sets(st.integers(0, 30), min_size=1, max_size=10),
    st.integers(1, 25),
)
def test_no_navigation_binary_reduces_to_precision_and_recall(run, relevant, k):
    t = ESRTopic(
        [np.array([e]) for e in run],
        [1.0] * len(run),
        [np.array([a]) for a in sorted(relevant)],
        np.ones(len(relevant)),
    )
    m = esr_measures(t, no_nav, k)
    found = len(set(run[:k]) & relevant)
    assert m["ESRP"] == pytest.approx(found / k)
    assert m["ESRR"] == pytest.approx(found / len(relevant))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 8))
def test_expectations_partition_the_recall_base(seed, k):
    rng = np.random.default_rng(seed)
    n = 12
    p = rng.random((n, n))
    p /= p.sum(axis=0, keepdims=True)  # column j: distribution of steps from node j
    doc = rng.integers(0, 2, n)

    def nav(to, fr):
        return np.where(doc[to][:, None] == doc[fr][None, :], p[np.ix_(to, fr)], 0.0)

    results = [rng.choice(n, size=rng.integers(1, 4), replace=False) for _ in range(6)]
    assessments = [np.array([a]) for a in rng.choice(n, size=4, replace=False)]
    rel = rng.random(4)
    t = ESRTopic(results, [float(len(r)) for r in results], assessments, rel)
    e = esr_measures(t, nav, k)
    assert e["hits"] + e["misses"] + e["near_misses"] == pytest.approx(e["recall_base"])
    assert e["recall_base"] <= rel.sum() + 1e-12
    for a in assessments:
        assert 0 <= redundancy(a, results[:k], nav) <= 1
    assert 0 <= e["ESRR"] <= 1 + 1e-12 and e["ESRP"] >= 0


def _toy_inputs(system, by_length):
    from graphsr.measures import ESRInputs, RankedNodes

    ranked = RankedNodes.from_lists({"q": [("article", [(e, 0.0, 0.0)]) for e in system]})
    ranked.item_node = np.array(system, dtype=np.int64)
    sizes = {1: 100.0, 3: 30.0, 4: 20.0}
    rel = np.array([30.0, 20.0]) if by_length else np.array([1.0, 1.0])

    def nav(to, fr):
        return np.array([TABLE5.get((int(i), int(j)), 0.0) for i, j in zip(to, fr)])

    return ESRInputs(
        ranked, np.array([sizes[e] for e in system]), np.zeros(2, int), np.array([3, 4]), np.zeros(2, int), rel, nav
    )


def test_registered_measures_reproduce_the_toy_numbers():
    from graphsr.measures import compute_esr_family, parse_measure

    inputs = {"binary": _toy_inputs(SYSTEM3, False), "length": _toy_inputs(SYSTEM3, True)}
    names = [
        "ESRP@2",
        "ESRR@2",
        "SRiP@2",
        "SRiR@2",
        "NSRCG(l=1,m=2)@2",
        "SRPRUM(r=0.55)",
        "ESR.Hits@2",
        "ESR.NearMisses@2",
        "ESR.Misses@2",
        "ESR.RecallBase@2",
        "ESR.Hits(rel=length)@2",
        "SRiP2@2",
        "SRiR2@2",
        "NSRCG2(l=1,m=2)@2",
    ]
    ms = [parse_measure(n) for n in names]
    v = {str(m): float(x[0]) for m, x in compute_esr_family(ms, inputs).items()}
    assert v["ESRP@2"] == pytest.approx(0.5) and v["ESRR@2"] == pytest.approx(0.555)
    assert v["SRiP@2"] == pytest.approx(30 / 130) and v["SRiR@2"] == pytest.approx(0.6)
    assert v["NSRCG(m=2)@2"] == pytest.approx(0.6)
    assert v["SRPRUM(r=0.55)"] == pytest.approx(0.555)
    assert v["ESR.Hits@2"] == pytest.approx(1) and v["ESR.NearMisses@2"] == pytest.approx(0.11)
    assert v["ESR.Misses@2"] == pytest.approx(0.89) and v["ESR.RecallBase@2"] == pytest.approx(2)
    assert v["ESR.Hits(rel=length)@2"] == pytest.approx(30)
    assert v["SRiP2@2"] == pytest.approx((30 + 20 * 0.11) / 130) and v["SRiR2@2"] == pytest.approx(32.2 / 50)
    assert v["NSRCG2(m=2)@2"] == pytest.approx(32.2 / 50)


def test_esr_measures_need_route_navigation():
    from graphsr.data import sample
    from graphsr.errors import GraphsrInputError
    from graphsr.evaluation import evaluate
    from graphsr.io import iter_documents, read_element_qrels, read_run
    from graphsr.measures import ScoringContext

    s = sample("mobydick")
    qrels, run = read_element_qrels(s["qrels"]), read_run(s["runs"][0])
    docs = {d.docid: d for d in iter_documents(s["collection"])}
    with pytest.raises(GraphsrInputError, match="navigation learned from route steps"):
        evaluate(qrels, [run], ["ESRP@5"], ScoringContext(docs))


def test_mean_averaged_forms_on_the_toy():
    from graphsr.measures import compute_esr_family, parse_measure
    from graphsr.measures.esr import mean_interpolated

    inputs = {"binary": _toy_inputs(SYSTEM3, False), "length": _toy_inputs(SYSTEM3, True)}
    ms = [parse_measure(n) for n in ("MAESRP", "MASRiP", "MASRiP2", "MASRiP@1")]
    v = {str(m): float(x[0]) for m, x in compute_esr_family(ms, inputs).items()}
    # by hand from the per-rank curves of System 3
    t = toy(SYSTEM3)
    tl = toy(SYSTEM3, by_length=True)
    prec, rec = [], []
    for k in (1, 2, 3):
        e = esr_measures(t, nav5, k)
        prec.append(e["ESRP"])
        rec.append(e["ESRR"])
    assert v["MAESRP"] == pytest.approx(mean_interpolated(np.array([prec]), np.array([rec]))[0])
    p1, p2, r2 = [], [], []
    for k in (1, 2, 3):
        e = esr_measures(tl, nav5, k)
        size = sum([30, 100, 20][:k])
        p1.append(e["hits"] / size)
        p2.append((e["hits"] + e["near_misses"]) / size)
        r2.append((e["hits"] + e["near_misses"]) / 50)
    assert v["MASRiP"] == pytest.approx(mean_interpolated(np.array([p1]), np.array([r2]))[0])
    assert v["MASRiP2"] == pytest.approx(mean_interpolated(np.array([p2]), np.array([r2]))[0])
    assert v["MASRiP@1"] == pytest.approx(mean_interpolated(np.array([p1[:1]]), np.array([r2[:1]]))[0])
    assert 0 < v["MASRiP@1"] <= v["MASRiP"]
