"""graphsr's measures are ir_measures measures where ir_measures is installed: instances of
``ir_measures.Measure``, answering parameter look-ups as ir_measures' own do, equal to ir_measures' equal
measures, and never crashing one of ir_measures' providers (a provider that supports one computes what graphsr
computes)."""

from __future__ import annotations

import numpy as np
import pytest

import graphsr
from graphsr.measures import registry

ir_measures = pytest.importorskip("ir_measures")


def test_graphsr_measures_are_ir_measures_measures():
    for name in ("P@10", "nDCG@10", "AP", "SRP@10", "ESRP@5", "MAgP", "PRUM"):
        assert isinstance(graphsr.parse_measure(name), ir_measures.Measure), name


@pytest.mark.parametrize(
    "name",
    [
        "P@10",
        "AP",
        "nDCG@10",
        "R@100",
        "RR",
        "Bpref",
        "Rprec",
        "NumRet",
        "Judged@10",
        "Success@5",
        "IPrec@0.5",
        "P(rel=2)@5",
        "nDCG(gains={0:0,1:1,2:3})@5",
    ],
)
def test_equal_and_hashed_as_ir_measures_equal_measures(name):
    ours, theirs = graphsr.parse_measure(name), ir_measures.parse_measure(name)
    assert ours == theirs and theirs == ours and hash(ours) == hash(theirs)
    assert len({ours, theirs}) == 1
    for key in theirs.SUPPORTED_PARAMS:  # answered as ir_measures' own answers
        if key == "gains" and isinstance(theirs[key], dict):  # (a grade a mapping leaves out keeps its value)
            assert all(ours[key].get(g, g) == theirs[key].get(g, g) for g in range(-2, 6)), key
        else:
            assert ours[key] == theirs[key], key
    ours, theirs = graphsr.parse_measure("nDCG(dcg=exp-log2)@10"), ir_measures.parse_measure("nDCG(dcg='exp-log2')@10")
    # graphsr writes the parameter unquoted and ir_measures' == compares its own strings: equal one way, hashed alike
    assert ours == theirs and hash(ours) == hash(theirs) and {ours: 1}[theirs] == 1


def test_graphsr_only_measures_answer_their_own_parameters():
    from ir_measures.providers.base import NOT_PROVIDED

    m = graphsr.parse_measure("SRP@10")
    assert m["cutoff"] == 10 and m["judged_only"] is NOT_PROVIDED
    assert graphsr.parse_measure("MAgP(task=ric,beta=0.5)")["beta"] == 0.5


def _data(seed=3):
    import pandas as pd

    rng = np.random.default_rng(seed)
    q = pd.DataFrame(
        [(str(t), f"d{d}", int(rng.integers(0, 3))) for t in range(1, 6) for d in range(0, 30, 2)],
        columns=["query_id", "doc_id", "relevance"],
    )
    r = pd.DataFrame(
        [(str(t), f"d{d}", float(s)) for t in range(1, 7) for d, s in enumerate(rng.permutation(25))],
        columns=["query_id", "doc_id", "score"],
    )  # no tied scores: providers break ties each its way
    return q, r


#: ir_measures' providers that fail on ir_measures' own measures here: its ranx provider hands ranx a DataFrame
#: ranx refuses ("Query IDs column dtype must be object") with the pandas the dev extra installs.
_BROKEN_PROVIDERS = ("ranx",)


def test_the_providers_left_out_fail_on_ir_measures_own_measures():
    q, r = _data()
    for name in _BROKEN_PROVIDERS:
        provider = ir_measures.providers.registry[name]
        if not provider.is_available():
            continue
        with pytest.raises(Exception):
            provider.calc_aggregate([ir_measures.P @ 5], q, r)


def test_no_provider_crashes_on_a_graphsr_measure_and_those_that_score_one_agree():
    """Every registered graphsr measure (default parameters, a cut-off where one is needed) through every
    ir_measures provider: supports() answers; a provider that supports it gives graphsr's value."""
    q, r = _data()
    providers = [ir_measures.providers.registry[n] for n in ir_measures.providers.registry]
    scored = 0
    for name, cls in sorted(registry().items()):
        m = (
            cls(cutoff=5 if cls.CUTOFF == "required" else None)
            if cls.AT_PARAM == "cutoff"
            else cls(**{cls.AT_PARAM: 0.5})
        )
        try:
            m.validate()
        except graphsr.errors.MeasureNameError:  # needs a parameter (GRP[x], iP[x]): its example
            m = graphsr.parse_measure(f"{name}[0.5]")
        if m.FAMILY == "diversity":  # ir_measures' own measures: its pyndeval provider scores them (values:
            for p in providers:  # tests/test_diversity.py, against pyndeval itself)
                assert p.supports(m) is (p.NAME in ("runtime", "pyndeval")), (name, p.NAME)
            continue
        if m.FAMILY != "flat":
            for p in providers:
                assert p.supports(m) is (p.NAME == "runtime"), (name, p.NAME)
            continue
        want = graphsr.calc_aggregate([m], q, r)[m]
        for p in providers:
            if p.NAME == "runtime" or not p.supports(m) or not p.is_available() or p.NAME in _BROKEN_PROVIDERS:
                continue
            got = p.calc_aggregate([m], q, r)
            tolerance = 5e-6 if p.NAME == "gdeval" else 1e-12  # (gdeval prints 5 decimals a topic)
            assert list(got.values())[0] == pytest.approx(want, abs=tolerance), (name, p.NAME)
            scored += 1
    assert scored > 10


def test_ir_measures_own_pipeline_scores_them():
    q, r = _data()
    ms = [graphsr.parse_measure(n) for n in ("P@10", "nDCG@10", "AP")] + [ir_measures.RR]
    got = ir_measures.calc_aggregate(ms, q, r)
    want = graphsr.calc_aggregate(ms, q, r)
    assert {str(k): v for k, v in got.items()} == pytest.approx({str(k): v for k, v in want.items()})


def test_a_bound_measure_scores_element_frames_inside_ir_measures():
    """ir_measures.calc_aggregate and iter_calc with a bound SRP@10 on element DataFrames give graphsr's values."""
    import pandas as pd

    from graphsr.data import sample

    s = sample("shakespeare")
    rows = [line.split() for line in open(s["qrels"]) if line.strip()]
    qrels = pd.DataFrame(
        [(t, d, x, float(v)) for t, _, d, x, v in rows], columns=["query_id", "doc_id", "xpath", "relevance"]
    )
    path = next(p for p in s["runs"] if p.name == "speeches.run")
    rows = [line.split() for line in open(path) if line.strip()]
    run = pd.DataFrame(rows, columns=["query_id", "Q0", "doc_id", "rank", "score", "run_id", "xpath"])
    run = run.astype({"rank": int, "score": float}).drop(columns=["Q0"])
    context = graphsr.load_collection(s["collection"], ["p*|c"]).context("p*|c:length")
    srp = graphsr.bind("SRP@10", context)
    got = ir_measures.calc_aggregate([srp], qrels, run)[srp]
    assert round(got, 4) == 0.5447
    per_topic = {m.query_id: m.value for m in ir_measures.iter_calc([srp], qrels, run)}
    want = graphsr.evaluate(s["qrels"], [graphsr.read_run(path)], ["SRP@10"], context, all_topics=True)
    assert per_topic == dict(zip(want.runs[0].topics, want.runs[0].values[graphsr.parse_measure("SRP@10")].tolist()))
