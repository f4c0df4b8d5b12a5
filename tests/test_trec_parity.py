"""The flat measures equal trec_eval's (through pytrec_eval) per topic and in aggregate, and ir_measures' through
the API, on random data that reaches the edges: runs shorter and longer than the relevant set with relevant
documents retrieved, ties in score, grades 0-4 and negative, unjudged documents, topics on one side only, empty
rankings; the same through the command line (``--format csv``).

trec_eval (and so pytrec_eval) crashes or loops on a topic whose every grade is below 0 (its table of grade
levels gets a negative size); such topics are left out of the comparison and tested on their own.
"""

from __future__ import annotations

import csv
import io
import math

import ir_measures
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphsr
from graphsr.cli.main import main
from graphsr.evaluation import evaluate
from graphsr.measures import parse_measure

#: graphsr measure -> (trec_eval name, relevance level, judged_only)
TREC = {
    "P@1": ("P_1", 1, False),
    "P@3": ("P_3", 1, False),
    "P@10": ("P_10", 1, False),
    "R@3": ("recall_3", 1, False),
    "R@10": ("recall_10", 1, False),
    "AP": ("map", 1, False),
    "AP@3": ("map_cut_3", 1, False),
    "nDCG": ("ndcg", 1, False),
    "nDCG@3": ("ndcg_cut_3", 1, False),
    "nDCG@10": ("ndcg_cut_10", 1, False),
    "RR": ("recip_rank", 1, False),
    "Rprec": ("Rprec", 1, False),
    "Bpref": ("bpref", 1, False),
    "Success@1": ("success_1", 1, False),
    "Success@5": ("success_5", 1, False),
    "NumRet": ("num_ret", 1, False),
    "NumRel": ("num_rel", 1, False),
    "NumRet(rel=1)": ("num_rel_ret", 1, False),
    "NumRelRet": ("num_rel_ret", 1, False),
    "NumQ": ("num_q", 1, False),
    "IPrec@0.0": ("iprec_at_recall_0.00", 1, False),
    "IPrec@0.1": ("iprec_at_recall_0.10", 1, False),
    "IPrec@0.25": ("iprec_at_recall_0.25", 1, False),
    "IPrec@0.5": ("iprec_at_recall_0.50", 1, False),
    "IPrec@1.0": ("iprec_at_recall_1.00", 1, False),
    "P(rel=2)@3": ("P_3", 2, False),
    "R(rel=2)@10": ("recall_10", 2, False),
    "AP(rel=2)": ("map", 2, False),
    "RR(rel=2)": ("recip_rank", 2, False),
    "Rprec(rel=2)": ("Rprec", 2, False),
    "Bpref(rel=2)": ("bpref", 2, False),
    "Success(rel=2)@5": ("success_5", 2, False),
    "NumRel(rel=2)": ("num_rel", 2, False),
    "NumRet(rel=2)": ("num_rel_ret", 2, False),
    "IPrec(rel=2)@0.5": ("iprec_at_recall_0.50", 2, False),
    "P(judged_only=true)@3": ("P_3", 1, True),
    "AP(judged_only=true)": ("map", 1, True),
    "nDCG(judged_only=true)@3": ("ndcg_cut_3", 1, True),
    "RR(judged_only=true)": ("recip_rank", 1, True),
    "Rprec(judged_only=true)": ("Rprec", 1, True),
    "Success(judged_only=true)@1": ("success_1", 1, True),
    "IPrec(judged_only=true)@0.5": ("iprec_at_recall_0.50", 1, True),
}
MEASURES = [parse_measure(m) for m in TREC]
#: measures ir_measures computes without pytrec_eval's help (or with it, on remapped grades)
IR_ONLY = ["Judged@1", "Judged@5", "Judged", "RR@3", "nDCG(gains={0:1,1:3,2:7,4:10})@5", "nDCG(gains={1:0,3:1})"]

DOCS = ["d1", "d10", "d2", "D3", "doc_4", "a-5", "d6", "d7", "z8", "d9", "e11", "e12"]


@st.composite
def inputs(draw):
    """qrels and a run as pytrec_eval takes them (dicts), with topics on one side only and empty rankings."""
    qrels, run = {}, {}
    for t in map(str, range(1, 7)):
        side = draw(st.sampled_from(["both", "both", "both", "qrels", "run", "empty"]))
        judged = {}
        if side in ("both", "qrels", "empty"):
            docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=9, unique=True))
            judged = {d: draw(st.sampled_from([-2, -1, 0, 0, 1, 1, 2, 3, 4])) for d in docs}
            if max(judged.values()) < 0:  # trec_eval cannot score such a topic (module docstring)
                judged[docs[0]] = draw(st.sampled_from([0, 1]))
            qrels[t] = judged
        if side in ("both", "run"):
            pool = list(judged) * 2 + DOCS  # relevant documents retrieved, and others
            docs = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=11, unique=True))
            run[t] = {d: float(draw(st.integers(0, 3))) for d in docs}  # ties in score
        elif side == "empty":
            run[t] = {}
    if not qrels:
        qrels["1"] = {"d1": 1}
    return qrels, run


def trec_values(qrels, run, level: int, judged_only: bool, names) -> dict:
    te = pytrec_eval.RelevanceEvaluator(
        qrels, set(names), relevance_level=level, judged_docs_only_flag=int(judged_only)
    )
    return te.evaluate(run)


def expected(qrels, run) -> dict:
    """Per measure, pytrec_eval's per-topic values (NaN on an empty ranking, where trec_eval divides 0 by 0,
    is 0 in graphsr)."""
    by_call: dict = {}
    for gm, (name, level, jo) in TREC.items():
        by_call.setdefault((level, jo), set()).add(name)
    got = {key: trec_values(qrels, run, *key, names) for key, names in by_call.items()}
    out = {}
    for gm, (name, level, jo) in TREC.items():
        per = got[(level, jo)]
        out[gm] = {t: (0.0 if math.isnan(v[name]) else v[name]) for t, v in per.items()}
    return out


def common_topics(qrels, run):
    return sorted(set(qrels) & set(run))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(inputs())
def test_per_topic_and_aggregate_equal_trec_eval(case):
    qrels, run = case
    if not common_topics(qrels, run):
        return
    want = expected(qrels, run)
    res = evaluate(qrels, run, list(TREC), all_topics=False).runs[0]
    assert res.topics == sorted(common_topics(qrels, run), key=int)
    for gm in TREC:
        m = parse_measure(gm)
        got = dict(zip(res.topics, res.values[m].tolist()))
        assert got == pytest.approx(want[gm], abs=1e-9), gm
        agg = sum(want[gm].values())
        if m.AGGREGATE != "sum":
            agg /= len(want[gm])
        assert res.mean(m) == pytest.approx(agg, abs=1e-9), gm
    # -c: every assessed topic; a missing topic contributes 0, counts once in num_q, and its relevant documents
    # in num_rel (trec_eval -c; pytrec_eval scores topics one by one and has no -c to compare with)
    full = evaluate(qrels, run, list(TREC), all_topics=True).runs[0]
    assert full.topics == sorted(qrels, key=int)
    missing = [t for t in qrels if t not in want["NumQ"]]
    for gm in TREC:
        m = parse_measure(gm)
        total = sum(want[gm].values()) + (len(qrels) - len(want[gm]) if m.NAME == "NumQ" else 0)
        if m.NAME == "NumRel":
            total += sum(1 for t in missing for g in qrels[t].values() if g >= (m["rel"] or 1))
        agg = total if m.AGGREGATE == "sum" else total / len(qrels)
        assert full.mean(m) == pytest.approx(agg, abs=1e-9), gm


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(inputs())
def test_the_api_equals_ir_measures(case):
    """Per topic (ir_measures' iter_calc) and in aggregate (calc_aggregate), every assessed topic counted and a
    topic the run lacks taking the measure's default, as ir_measures does."""
    qrels, run = case
    # ir_measures has NumRel at rel=1 only, and calls NumRelRet NumRet(rel=1)
    names = [n for n in TREC if n not in ("NumRel(rel=2)", "NumRelRet")] + IR_ONLY
    ir = [ir_measures.parse_measure(n.replace("true", "True")) for n in names]
    runs = (("all", run), ("nonempty", {t: d for t, d in run.items() if d}))

    # ir_measures computes NumRet, NumQ and nDCG without gains in whichever pytrec_eval call it set up first --
    # with judged_only, or with another nDCG's gains applied to the grades: those are asked for on their own
    def group(m):
        return "judged_only" if m.params.get("judged_only") else "gains" if "gains" in m.params else "plain"

    for use, given_run, kind in [(u, r, g) for u, r in runs for g in ("plain", "judged_only", "gains")]:
        # ir_measures divides 0 by 0 for Judged on an empty ranking: compare it where rankings are not empty
        pairs = [(n, m) for n, m in zip(names, ir) if (use == "nonempty" or m.NAME != "Judged") and group(m) == kind]
        ours = {(q, str(m)): v for q, m, v in graphsr.iter_calc([n for n, _ in pairs], qrels, given_run)}
        theirs = {
            (x.query_id, str(x.measure)): x.value
            for x in ir_measures.iter_calc([m for _, m in pairs], qrels, given_run)
        }
        for n, m in pairs:
            g = parse_measure(n)
            for t in qrels:
                want = theirs[(t, str(m))]
                assert ours[(t, str(g))] == pytest.approx(0.0 if math.isnan(want) else want, abs=1e-9), (n, t)
        agg = graphsr.calc_aggregate([m for _, m in pairs], qrels, given_run)
        want = ir_measures.calc_aggregate([m for _, m in pairs], qrels, given_run)
        for n, m in pairs:
            per = [theirs[(t, str(m))] for t in qrels]
            if any(math.isnan(v) for v in per):  # trec_eval's 0 / 0 (graphsr: 0) makes ir_measures' mean NaN
                per = [0.0 if math.isnan(v) else v for v in per]
                want[m] = sum(per) if parse_measure(n).AGGREGATE == "sum" else sum(per) / len(per)
            assert agg[m] == pytest.approx(want[m], abs=1e-9), n
            assert agg[n] == agg[m]  # looked up by the string or the ir_measures object alike


def test_ir_measures_objects_and_records_as_inputs(tmp_path):
    qrels_file = tmp_path / "q.txt"
    qrels_file.write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    run_file = tmp_path / "r.txt"
    run_file.write_text("1 Q0 a 1 2.0 x\n1 Q0 x 2 1.0 x\n2 Q0 c 1 1.0 x\n")
    measures = [ir_measures.P @ 1, ir_measures.AP, "nDCG@2", parse_measure("RR")]
    want = ir_measures.calc_aggregate(
        measures[:2] + [ir_measures.nDCG @ 2, ir_measures.RR],
        ir_measures.read_trec_qrels(str(qrels_file)),
        ir_measures.read_trec_run(str(run_file)),
    )
    for q, r in [
        (ir_measures.read_trec_qrels(str(qrels_file)), ir_measures.read_trec_run(str(run_file))),
        (list(ir_measures.read_trec_qrels(str(qrels_file))), list(ir_measures.read_trec_run(str(run_file)))),
        (str(qrels_file), str(run_file)),
    ]:
        got = graphsr.calc_aggregate(measures, q, r)
        assert got[ir_measures.P @ 1] == want[ir_measures.P @ 1] == got["P@1"] == got["P_1"]
        assert got[ir_measures.AP] == pytest.approx(want[ir_measures.AP]) and got["map"] == got["AP"]
        assert got["nDCG@2"] == pytest.approx(want[ir_measures.nDCG @ 2]) == got["ndcg_cut_2"]
        assert got[parse_measure("RR")] == pytest.approx(want[ir_measures.RR])
    metrics = list(graphsr.iter_calc([ir_measures.P @ 1], str(qrels_file), str(run_file)))
    assert [(m.query_id, str(m.measure), m.value) for m in metrics] == [("1", "P@1", 1.0), ("2", "P@1", 1.0)]
    frame = graphsr.calc_frame(["map", ir_measures.P @ 1], str(qrels_file), str(run_file))
    assert sorted(set(frame["measure"])) == ["P@1", "map"]


@pytest.mark.parametrize(
    "bad, message",
    [
        (42, "expected a path"),
        ([("1", "a")], "record 1"),
        ({"1": [1, 2]}, "expected a dict"),
        ({"1": {"a": "high"}}, "expected a number"),
    ],
)
def test_bad_shapes_are_one_line(bad, message):
    with pytest.raises(graphsr.GraphsrInputError, match=message):
        graphsr.calc_aggregate(["P@1"], bad, {"1": {"a": 1.0}})


def test_bad_measure_objects_are_one_line():
    with pytest.raises(graphsr.GraphsrInputError, match="has no graphsr counterpart"):
        graphsr.calc_aggregate([ir_measures.INSQ(T=1)], {"1": {"a": 1}}, {"1": {"a": 1.0}})
    with pytest.raises(graphsr.GraphsrInputError, match="expected a measure"):
        graphsr.calc_aggregate([3.5], {"1": {"a": 1}}, {"1": {"a": 1.0}})


def _files(tmp_path, qrels, run):
    q = tmp_path / "qrels.txt"
    q.write_text("".join(f"{t} 0 {d} {v}\n" for t, docs in qrels.items() for d, v in docs.items()))
    r = tmp_path / "run.txt"
    r.write_text(
        "# a comment, as trec_eval allows\n"
        + "".join(f"{t} Q0 {d} {k} {s} sys extra\n" for t, docs in run.items() for k, (d, s) in enumerate(docs.items()))
    )
    return q, r


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inputs())
def test_the_command_line_equals_trec_eval(tmp_path_factory, capsys, case):
    qrels, run = case
    run = {t: d for t, d in run.items() if d}  # a TREC file cannot hold an empty ranking
    q, r = _files(tmp_path_factory.mktemp("cli"), qrels, run)
    argv = ["eval", str(q), str(r), "--format", "csv", "-q", *[a for m in TREC for a in ("-m", m)]]
    code = main(argv)
    out, err = capsys.readouterr()
    if not run:  # an empty file: refused as such
        assert code == 2 and "the run is empty" in err
        return
    if not common_topics(qrels, run):
        assert code == 2 and "no topic in common" in err
        return
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    got = {(row["measure"], row["topic"]): float(row["value"]) for row in rows}
    want = expected(qrels, run)
    for gm in TREC:
        label = str(parse_measure(gm))  # reported under its canonical name (true -> True)
        for t, v in want[gm].items():
            assert got[(label, t)] == pytest.approx(v, abs=1e-9), (gm, t)


def test_trec_eval_names_on_the_command_line(tmp_path, capsys):
    q, r = _files(tmp_path, {"1": {"a": 1, "b": 2, "c": 0}}, {"1": {"a": 2.0, "x": 1.5, "b": 1.0}})
    assert (
        main(
            [
                "eval",
                str(q),
                str(r),
                "-m",
                "map",
                "-m",
                "P.1,2",
                "-m",
                "ndcg_cut_10",
                "-m",
                "AP",
                "-m",
                "MAP",
                "-m",
                "iprec_at_recall_0.50",
                "-m",
                "recip_rank",
                "-m",
                "num_rel_ret",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    names = [line.split("\t")[0] for line in out]
    assert names == [
        "runid",
        "num_q",
        "map",
        "P_1",
        "P_2",
        "ndcg_cut_10",
        "AP",
        "MAP",
        "iprec_at_recall_0.50",
        "recip_rank",
        "num_rel_ret",
    ]
    values = {line.split("\t")[0]: line.split("\t")[2] for line in out}
    assert values["map"] == values["AP"] == values["MAP"]
    te = trec_values(
        {"1": {"a": 1, "b": 2, "c": 0}}, {"1": {"a": 2.0, "x": 1.5, "b": 1.0}}, 1, False, {"map", "P_2", "num_rel_ret"}
    )["1"]
    assert float(values["map"]) == pytest.approx(te["map"], abs=1e-6) and values["num_rel_ret"] == "2"
    assert main(["eval", str(q), str(r), "-m", "all_trec"]) == 0
    names = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert names[:6] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    assert "iprec_at_recall_0.00" in names and "P_1000" in names and "ndcg_cut_5" in names and "success_10" in names


def test_topics_with_only_negative_grades(tmp_path):
    """trec_eval crashes on them; graphsr scores them: nothing relevant, nothing judged."""
    res = evaluate(
        {"1": {"a": -2, "b": -1}}, {"1": {"a": 1.0, "b": 0.5}}, ["NumRel", "P@2", "Bpref", "nDCG", "Judged@2"]
    ).runs[0]
    assert [float(v[0]) for v in res.values.values()] == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_negative_grades_read_as_trec_eval_reads_them():
    """The issue's case: qrels {a: -1, b: 1, c: 2}, run a > b > x: bpref 0.5, as when a is absent; a: 0 gives
    0."""
    run = {"1": {"a": 3.0, "b": 2.0, "x": 1.0}}
    assert graphsr.calc_aggregate(["Bpref"], {"1": {"a": -1, "b": 1, "c": 2}}, run)["Bpref"] == 0.5
    assert graphsr.calc_aggregate(["Bpref"], {"1": {"b": 1, "c": 2}}, run)["Bpref"] == 0.5
    assert graphsr.calc_aggregate(["Bpref"], {"1": {"a": 0, "b": 1, "c": 2}}, run)["Bpref"] == 0.0


def test_ndcg_uses_every_judged_relevant_document():
    """The issue's case: a, b, c relevant, only a retrieved: 0.4693, not 1."""
    got = graphsr.calc_aggregate(["nDCG"], {"1": {"a": 1, "b": 1, "c": 1}}, {"1": {"a": 1.0}})["nDCG"]
    assert got == pytest.approx(1 / (1 + 1 / math.log2(3) + 0.5))


def test_exp_log2_gains():
    qrels, run = {"1": {"a": 1, "b": 0, "c": 2}}, {"1": {"x": 3.0, "a": 2.0, "c": 2.0, "b": 1.0}}
    got = graphsr.calc_aggregate(["nDCG(dcg=exp-log2)@3"], qrels, run)["nDCG(dcg=exp-log2)@3"]
    # ranked x, c, a, b (ties by document id, descending): gains 0, 3, 1
    assert got == pytest.approx((3 / math.log2(3) + 1 / 2) / (3 + 1 / math.log2(3)))


@pytest.mark.parametrize("text", ["P(rel=0)@3", "R(rel=0)@3", "AP(rel=-1)", "NumRet(rel=0)"])
def test_thresholds_that_make_everything_relevant_are_refused(text):
    with pytest.raises(graphsr.GraphsrInputError, match="counts every retrieved item as relevant"):
        parse_measure(text)


def test_evaluate_speaks_python():
    """graphsr.evaluate names its arguments, not command-line options."""
    qrels = {"1": {"a": 1}}
    with pytest.raises(graphsr.GraphsrInputError) as err:
        evaluate(graphsr.as_qrels(qrels), graphsr.as_run({"1": {"a": 1.0}}), ["SRP@5"], graphsr.ScoringContext())
    assert "context=graphsr.load_collection" in str(err.value) and "--" not in str(err.value)


def test_graphsr_trec_measures_inside_ir_measures():
    qrels, run = {"1": {"a": -1, "b": 1, "c": 2}}, {"1": {"a": 3.0, "b": 2.0, "x": 1.0}}
    ours = [parse_measure(n) for n in ("Bpref", "IPrec@0.5", "nDCG@2", "Judged@2")]
    got = ir_measures.calc_aggregate(ours, qrels, run)
    theirs = [ir_measures.Bpref, ir_measures.IPrec @ 0.5, ir_measures.nDCG @ 2, ir_measures.Judged @ 2]
    want = ir_measures.calc_aggregate(theirs, qrels, run)
    assert [got[m] for m in ours] == pytest.approx([want[m] for m in theirs])


def test_names_people_type():
    assert parse_measure("srp@5") == parse_measure("SRP@5") and parse_measure("ndcg@10") == parse_measure("nDCG@10")
    assert parse_measure("Map") == parse_measure("AP") and parse_measure("bpref") == parse_measure("Bpref")
    for name in ("strict", "generalised", "generalized", "gen", "sog", "Generalised"):
        m = parse_measure(f"nxCG(quant={name})@5")
        assert str(m) == f"nxCG(quant={dict(generalised='gen', generalized='gen').get(name.lower(), name.lower())})@5"
    assert str(parse_measure("PRUM(quant=Generalised)")) == "PRUM(quant=gen)"
    with pytest.raises(graphsr.GraphsrInputError, match="did you mean SRP@5"):
        parse_measure("SPR@5")


def test_the_command_line_refuses_what_trec_eval_refuses(tmp_path, capsys):
    q, r = _files(tmp_path, {"1": {"a": 1}}, {"2": {"a": 1.0}})
    assert main(["eval", str(q), str(r), "-m", "P@1"]) == 2
    assert "no topic in common with the assessments" in capsys.readouterr().err
    q, r = _files(tmp_path, {"1": {"a": 1, "c": 0}}, {"1": {"x": 3.0, "c": 2.0, "a": 1.0}})
    assert main(["eval", str(q), str(r), "-m", "R(rel=0)@3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "counts every retrieved item as relevant" in err
    r.write_text("1 Q0 a 1.0 2.5 sys\n1 Q0 x - 1 sys\n")  # ranks trec_eval does not read
    assert main(["eval", str(q), str(r), "-m", "P@1", "-m", "AP"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == ["P@1\tall\t1.000000", "AP\tall\t1.000000"]


def test_a_run_without_assessed_topics_is_reported_and_the_others_scored(tmp_path, capsys):
    q, good = _files(tmp_path, {"1": {"a": 1}}, {"1": {"a": 1.0}})
    bad = tmp_path / "bad.txt"
    bad.write_text("9 Q0 a 1 1.0 other\n")
    assert main(["eval", str(q), str(bad), str(good), "-m", "P@1"]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == ["runid\tall\tsys", "num_q\tall\t1", "P@1\tall\t1.000000"]
    assert err.splitlines() == [
        f"graphsr: error: {bad}: no topic in common with the assessments {q}: the run has topics 9, the assessments 1"
    ]
