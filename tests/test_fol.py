"""The official INEX passage measures: hand-computed toy cases, readers, the MAP reduction, the CLI."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.errors import MeasureNameError, QrelsFormatError, RunFormatError
from graphsr.evaluation import evaluate
from graphsr.io import read_fol_qrels, read_fol_run, read_inex_submission, read_passage_run

from .conftest import write

# topic 1: article a (100 chars) highlights [10,30) and [60,80); c (200) highlights [0,50); b judged, not relevant
# topic 2: only a non-relevant article; topic 3: an article highlighted to both of its ends
QRELS = "1 Q0 a 40 100 10 60:20 10:20 \n1 Q0 b 0 50\n1 Q0 c 50 200 0 0:50\n2 Q0 b 0 50\n3 Q0 e 30 30 0 0:10 10:20\n"


@pytest.fixture
def qrels(tmp_path):
    return read_fol_qrels(write(tmp_path / "q.qrels", QRELS))


def run_of(tmp_path, lines, name="r.fol"):
    return read_fol_run(write(tmp_path / name, "".join(f"{line}\n" for line in lines)))


def values(results, run=0):
    r = results.runs[run]
    return {str(m): dict(zip(r.topics, v.tolist())) for m, v in r.values.items()}


# -- readers ---------------------------------------------------------------------------------------------------


def test_qrels_reader_sorts_passages_and_keeps_beps(qrels):
    assert qrels.topics == ["1", "2", "3"]
    assert qrels.pass_start.tolist() == [10, 60, 0, 0, 10]
    assert qrels.pass_end.tolist() == [30, 80, 50, 10, 30]
    assert qrels.bep.tolist() == [10, -1, 0, -1, 0]
    assert qrels.relevant_articles("1") == 2 and qrels.relevant_articles("2") == 0


def test_official_qrels_load():
    q = read_fol_qrels(sample("inex2010")["qrels"])
    assert len(q.topics) == 52 and len(q) == 39031
    assert int((q.rel_chars > 0).sum()) == 5471
    assert int(q.rel_chars.sum()) == int((q.pass_end - q.pass_start).sum())


@pytest.mark.parametrize(
    "line, expected",
    [
        ("1 Q0 a 20 100 10 10:20 25:5", "overlap"),
        ("1 Q0 a 20 100 10 90:20", "beyond the article"),
        ("1 Q0 a 21 100 10 10:20", "sum to 20"),
        ("1 Q0 a 20 100 101 10:20", "best entry point 101"),
        ("1 Q0 a 20 100 10 10-20", "offset:length"),
        ("1 Q0 a x 100", "integer rel_chars"),
        ("1 Q0 a 20 100 10", "got 6 fields"),
        ("1 Q0 a 20", "got 4 fields"),
        ("1 Q0 a 20 100 10 10:0", "passage length >= 1"),
    ],
)
def test_bad_qrels_lines_name_file_and_line(tmp_path, line, expected):
    path = write(tmp_path / "bad.qrels", "1 Q0 z 0 10\n" + line + "\n")
    with pytest.raises(QrelsFormatError) as e:
        read_fol_qrels(path)
    assert f"{path}:2:" in str(e.value) and expected in str(e.value)


def test_qrels_twice_judged(tmp_path):
    with pytest.raises(QrelsFormatError, match="judged twice"):
        read_fol_qrels(write(tmp_path / "q", "1 Q0 a 0 10\n1 Q0 a 0 10\n"))


@pytest.mark.parametrize(
    "line, expected",
    [
        ("1 Q0 a 1 1.0 r 0", "expected 8 fields"),
        ("1 Q0 a one 1.0 r 0 10", "integer rank"),
        ("1 Q0 a 1 high r 0 10", "numeric score"),
        ("1 Q0 a 1 1.0 r -5 10", "passage offset (field 7) >= 0"),
        ("1 Q0 a 1 1.0 r 5 x", "integer passage length"),
    ],
)
def test_bad_run_lines(tmp_path, line, expected):
    path = write(tmp_path / "bad.run", "1 Q0 a 1 1.0 r 0 10\n" + line + "\n")
    with pytest.raises(RunFormatError) as e:
        read_fol_run(path)
    assert f"{path}:2:" in str(e.value) and expected in str(e.value)


def test_run_lines_stay_in_file_order(tmp_path):
    run = run_of(
        tmp_path, ["2 Q0 x 1 1 r 0 1", "1 Q0 b 2 1 r 0 1", "1 Q0 a 1 1 r 0 1", "1 Q0 c 2 1 r 0 1", "10 Q0 y 1 1 r 0 1"]
    )
    assert run.topic.tolist() == ["2", "1", "1", "1", "10"]
    assert run.docid.tolist() == ["x", "b", "a", "c", "y"] and run.line.tolist() == [1, 2, 3, 4, 5]
    assert run.topics == ["2", "1", "10"]


def test_the_c_scanner_and_the_line_reader_agree(tmp_path):
    import os

    from graphsr.io import fol
    from graphsr.io._lines import c_scanner

    if os.environ.get("GRAPHSR_REQUIRE_C") == "1":
        assert c_scanner() is not None, "CI expects the C scanner of runs and qrels to be built"

    text = (
        "".join(
            f"{t} Q0 d{d} {r} {s} run{t} {o} {n}\n"
            for t, d, r, s, o, n in [
                (1, 5, 1, "9.5", 0, 10),
                (1, 5, 2, "-1e3", 20, 0),
                (2, 7, -3, "+.25", 3, 4),
                (2, 8, 4, "0.30000000000000004", 0, 1),
            ]
        )
        + "  \n"
    )
    path = write(tmp_path / "r.fol", text)
    fast = read_fol_run(path)
    slow = fol._read_fol_run_lines(path, str(path), fol.Vocabulary())
    for name in ("topic", "docid", "rank", "score", "offset", "length", "line"):
        assert getattr(fast, name).tolist() == getattr(slow, name).tolist(), name
    assert fast.run_ids == slow.run_ids == ("run1", "run2") and fast.last_run_id() == "run2"
    odd = read_fol_run(write(tmp_path / "odd.fol", "1 Q0 d5 1 9 r 0 10\n1 Q0 dé 2 inf r 3 4\n"))
    assert odd.docid.tolist() == ["d5", "dé"] and odd.score.tolist() == [9.0, float("inf")]
    q = write(tmp_path / "q", QRELS)
    a, b = read_fol_qrels(q), fol._read_fol_qrels_lines(q, fol.Vocabulary())
    for name in ("topic", "docid", "doc_len", "rel_chars", "bep", "pass_row", "pass_start", "pass_end", "line"):
        assert getattr(a, name).tolist() == getattr(b, name).tolist(), name


# -- focused -------------------------------------------------------------------------------------------------

FOCUSED = [
    "1 Q0 a 1 9 r 0 20",  # 10 relevant of 20: P .5, R 10/90 (bucket 11)
    "1 Q0 b 2 8 r 0 50",  # P 10/70
    "1 Q0 a 3 7 r 60 20",  # 30/90, R 30/90 (bucket 33)
    "1 Q0 a 4 6 r 15 10",  # overlaps line 1: the official tool refuses the run (focused)
    "1 Q0 a 5 5 r 20 20",
]  # 40/110, R 40/90 (bucket 44)
NO_OVERLAP = [line for line in FOCUSED if " 15 10" not in line]


def test_focused_by_hand(tmp_path, qrels):
    names = [
        "iP[0.00]",
        "iP[0.11]",
        "iP[0.12]",
        "iP[0.44]",
        "iP[0.45]",
        "iP[1.00]",
        "MAiP",
        "iP[0.115]",
        "ret_size",
        "rel_ret_size",
        "num_ret",
        "num_rel_ret",
        "num_rel",
        "rel_size",
        "char_prec",
        "art_prec",
    ]
    res = evaluate(qrels, [run_of(tmp_path, NO_OVERLAP)], names, all_topics=False)  # (the run's topics only)
    v = {m: d["1"] for m, d in values(res).items()}
    assert res.runs[0].topics == ["1"]
    assert v["iP[0.00]"] == pytest.approx(0.5) and v["iP[0.11]"] == pytest.approx(0.5)
    assert v["iP[0.12]"] == pytest.approx(40 / 110) and v["iP[0.44]"] == pytest.approx(40 / 110)
    assert v["iP[0.45]"] == 0.0 and v["iP[1.00]"] == 0.0
    assert v["MAiP"] == pytest.approx((12 * 0.5 + 33 * 40 / 110) / 101)
    assert v["iP[0.115]"] == pytest.approx(40 / 110)  # off the grid: max P at R >= x
    assert (v["ret_size"], v["rel_ret_size"], v["num_ret"], v["num_rel_ret"], v["num_rel"], v["rel_size"]) == (
        110,
        40,
        2,
        1,
        2,
        90,
    )
    assert v["char_prec"] == pytest.approx(40 / 110) and v["art_prec"] == 0.5


def test_overlapping_focused_run_is_refused_or_scored_leniently(tmp_path, qrels):
    from graphsr.errors import RunRuleError

    run = run_of(tmp_path, FOCUSED)
    with pytest.raises(RunRuleError) as e:
        evaluate(qrels, [run], ["MAiP"])
    assert str(e.value).startswith(f"{run.source}:4: topic 1, article a: passage 15:10 overlaps the passage 0:20")
    assert "(line 1)" in str(e.value) and "refuses such focused runs" in str(e.value)
    lenient = evaluate(qrels, [run], ["MAiP", "iP[0.12]"], lenient=True)
    v = {m: d["1"] for m, d in values(lenient).items()}
    assert v["MAiP"] == pytest.approx((12 * 0.5 + 33 * 40 / 110) / 101)  # line 4 skipped
    assert any(
        "official tool refuses this run" in w and "line 4" in w and "not the official" in w
        for w in lenient.runs[0].warnings
    )
    clean = evaluate(qrels, [run_of(tmp_path, NO_OVERLAP, "c.fol")], ["MAiP"], lenient=True)
    assert not any("refuses" in w for w in clean.runs[0].warnings)  # nothing to be lenient about


def test_thorough_by_hand(tmp_path, qrels):
    # inex-rules §1: each line adds its new characters; non-relevant articles are charged in full
    names = [
        "iP(task=thorough)[0.11]",
        "iP(task=thorough)[0.12]",
        "iP(task=thorough)[0.38]",
        "iP(task=thorough)[0.39]",
        "iP(task=thorough)[0.45]",
        "MAiP(task=thorough)",
        "ret_size(task=thorough)",
        "rel_ret_size(task=thorough)",
    ]
    run = run_of(tmp_path, FOCUSED + ["1 Q0 b 6 1 r 0 50"])  # b again: non-relevant text charged again
    v = {m: d["1"] for m, d in values(evaluate(qrels, [run], names)).items()}
    assert v["iP[0.11](task=thorough)"] == 0.5
    assert v["iP[0.12](task=thorough)"] == pytest.approx(35 / 95) == v["iP[0.38](task=thorough)"]
    assert v["iP[0.39](task=thorough)"] == pytest.approx(40 / 110) and v["iP[0.45](task=thorough)"] == 0
    assert v["MAiP(task=thorough)"] == pytest.approx((12 * 0.5 + 27 * 35 / 95 + 6 * 40 / 110) / 101)
    assert v["ret_size(task=thorough)"] == 160 and v["rel_ret_size(task=thorough)"] == 40
    same = values(evaluate(qrels, [run_of(tmp_path, NO_OVERLAP, "n.fol")], ["MAiP", "MAiP(task=thorough)"]))
    assert same["MAiP"] == same["MAiP(task=thorough)"]  # without overlap, thorough = focused


def test_focused_bucket_is_floor_of_100_recall(tmp_path):
    # recall 0.29 exactly is 28.999999999999996 when multiplied by 100: the official tool's bucket is 28
    q = read_fol_qrels(write(tmp_path / "q", "1 Q0 a 100 100 0 0:100\n"))
    run = run_of(tmp_path, ["1 Q0 a 1 1 r 0 29"])
    v = values(evaluate(q, [run], ["iP[0.28]", "iP[0.29]"]))
    assert 0.29 * 100 < 29
    assert v["iP[0.28]"]["1"] == 1.0 and v["iP[0.29]"]["1"] == 0.0


def test_focused_topic_without_relevance_empty_run_and_all_topics(tmp_path, qrels):
    empty = run_of(tmp_path, [], "empty.fol")
    res = evaluate(qrels, [empty], ["MAiP"], all_topics=True)
    assert res.runs[0].topics == ["1", "2", "3"] and res.runs[0].values[res.measures[0]].tolist() == [0, 0, 0]
    assert evaluate(qrels, [empty], ["MAiP"], all_topics=False).runs[0].topics == []
    only2 = run_of(tmp_path, ["2 Q0 b 1 1 r 0 50"])
    assert values(evaluate(qrels, [only2], ["MAiP", "iP[0.00]"], all_topics=False))["MAiP"] == {"2": 0.0}


def test_focused_document_boundaries(tmp_path, qrels):
    # the whole of article e: both highlighted passages touch its ends
    v = values(evaluate(qrels, [run_of(tmp_path, ["3 Q0 e 1 1 r 0 30"])], ["MAiP"]))
    assert v["MAiP"]["3"] == 1.0
    v = values(
        evaluate(qrels, [run_of(tmp_path, ["3 Q0 e 1 1 r 25 5", "3 Q0 e 2 1 r 0 10"])], ["iP[0.10]", "iP[0.50]"])
    )
    assert v["iP[0.10]"]["3"] == 1.0 and v["iP[0.50]"]["3"] == 1.0


# -- relevant in context / best in context -----------------------------------------------------------------------

CONTEXT = ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 100 100"]


def test_relevant_in_context_by_hand(tmp_path, qrels):
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 0 100"])
    res = evaluate(
        qrels,
        [run],
        [
            "gP@1",
            "gP@2",
            "gP@3",
            "gP@10",
            "gR@1",
            "gR@3",
            "MAgP",
            "MAgP(beta=1)",
            "MAgP@2",
            "gP(beyond=zero)@10",
            "gR@10",
            "ircl_prn(task=ric)[0.50]",
            "ircl_prn(task=ric)[1.00]",
            "num_ret(task=ric)",
            "ret_size(task=ric)",
        ],
    )
    v = {m: d["1"] for m, d in values(res).items()}
    f_a = 1.0625 * 0.5 * 0.75 / (0.0625 * 0.5 + 0.75)  # 30 of 60 retrieved, 30 of 40 highlighted
    f_c = 1.0625 * 0.5 * 1.0 / (0.0625 * 0.5 + 1.0)  # 50 of 100, all 50
    assert f_a == pytest.approx(0.51)
    assert v["gP@1"] == pytest.approx(f_a) and v["gP@2"] == pytest.approx(f_a / 2)
    assert v["gP@3"] == pytest.approx((f_a + f_c) / 3)
    assert v["gP@10"] == v["gP@3"] and v["gR@10"] == v["gR@3"]  # 3 articles: the values at rank 3 (inex-rules §3.3)
    assert v["gP(beyond=zero)@10"] == pytest.approx((f_a + f_c) / 10)
    assert v["ircl_prn[0.50](task=ric)"] == pytest.approx(f_a) and v["ircl_prn[1.00](task=ric)"] == v["gP@3"]
    assert v["num_ret(task=ric)"] == 3 and v["ret_size(task=ric)"] == 60 + 50 + 100
    assert v["gR@1"] == 0.5 and v["gR@3"] == 1.0
    assert v["MAgP"] == pytest.approx((f_a + (f_a + f_c) / 3) / 2)
    assert v["MAgP(beta=1)"] == pytest.approx((0.6 + (0.6 + 2 / 3) / 3) / 2)
    assert v["MAgP@2"] == pytest.approx(f_a / 2)


def test_best_in_context_by_hand(tmp_path, qrels):
    from graphsr.errors import RunRuleError

    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 100 1"])
    res = evaluate(
        qrels,
        [run],
        ["gP(task=bic)@3", "MAgP(task=bic)", "MAgP(task=bic,n=50)", "ret_size(task=bic)", "num_rel_ret(task=bic)"],
    )
    v = {m: d["1"] for m, d in values(res).items()}
    assert v["gP(task=bic)@3"] == pytest.approx((0.98 + 0.8) / 3)
    assert v["MAgP(task=bic)"] == pytest.approx((0.98 + (0.98 + 0.8) / 3) / 2)
    assert v["MAgP(task=bic,n=50)"] == pytest.approx((0.8 + 0.8 / 3) / 2)
    assert v["ret_size(task=bic)"] == 0 and v["num_rel_ret(task=bic)"] == 2
    two = run_of(
        tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 100 1"], "two.fol"
    )
    with pytest.raises(RunRuleError, match=r"two\.fol:2: topic 1, article a: a second result"):
        evaluate(qrels, [two], ["MAgP(task=bic)"])
    lenient = evaluate(qrels, [two], ["MAgP(task=bic)"], lenient=True)  # the first result scores
    assert values(lenient)["MAgP(task=bic)"]["1"] == pytest.approx((0.98 + (0.98 + 0.8) / 3) / 2)
    assert any("1 result(s) after an article's first ignored" in w for w in lenient.runs[0].warnings)


def test_t2i_by_hand(tmp_path):
    # article a (100 chars) highlights [10,30) and [60,80); b (50) none
    q = read_fol_qrels(write(tmp_path / "q", "1 Q0 a 40 100 10 10:20 60:20\n1 Q0 b 0 50\n"))

    def t2i(lines, irr=300):
        res = evaluate(q, [run_of(tmp_path, lines, f"t{len(lines)}{irr}.fol")], [f"gP(task=t2i,irr={irr})@1"])
        return next(iter(values(res).values()))["1"]

    # read [60,80) (20 rel), then [0,60): 10 irr, 20 rel, 30 irr -> the tolerance of 30 ends at 60
    assert t2i(["1 Q0 a 1 1 r 60 20"], irr=30) == pytest.approx(40 / 70)
    # tolerance 5: [55,80) gives 5 irrelevant before the highlight: stop at 60 with nothing relevant read
    assert t2i(["1 Q0 a 1 1 r 55 25"], irr=5) == 0.0
    # tolerance 6: one more irrelevant character allowed: the 20 highlighted ones, then offset 0 (irrelevant)
    assert t2i(["1 Q0 a 1 1 r 55 25"], irr=6) == pytest.approx(20 / 26)
    # everything read before the tolerance runs out: precision of the whole article
    assert t2i(["1 Q0 a 1 1 r 0 100"]) == pytest.approx(40 / 100)
    # passages are read in document order whatever the run's order
    assert (
        t2i(["1 Q0 a 1 1 r 60 20", "1 Q0 a 2 1 r 10 20"], irr=10)
        == t2i(["1 Q0 a 1 1 r 10 20", "1 Q0 a 2 1 r 60 20"], irr=10)
        == pytest.approx(40 / 50)
    )
    assert t2i(["1 Q0 b 1 1 r 0 50"]) == 0.0  # non-relevant article
    assert t2i(["1 Q0 a 1 1 r 15 5"], irr=0) == 1.0 and t2i(["1 Q0 a 1 1 r 10 5"], irr=0) == 0.0  # inex-rules §2


def test_interleaved_articles_are_rejected(tmp_path, qrels):
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 b 2 8 r 0 50", "1 Q0 a 3 7 r 60 20"])
    for lenient in (False, True):
        with pytest.raises(RunFormatError) as e:
            evaluate(qrels, [run], ["MAgP"], lenient=lenient)
        assert str(e.value).startswith(f"{run.source}:3: topic 1, article a: the article is retrieved again")
    evaluate(qrels, [run], ["MAiP"])  # the focused task does not care
    # the first line, in file order, that returns to an earlier article is named
    run = run_of(
        tmp_path,
        ["1 Q0 a 1 9 r 0 20", "1 Q0 b 2 8 r 0 50", "1 Q0 c 3 7 r 60 20", "1 Q0 b 4 7 r 6 2", "1 Q0 a 5 7 r 6 2"],
        "r2.fol",
    )
    with pytest.raises(RunFormatError, match=r"r2\.fol:4: topic 1, article b"):
        evaluate(qrels, [run], ["MAgP(task=bic)"])


def test_file_order_rank_order_and_split_topics(tmp_path, qrels):
    # the official tool reads the lines in file order; the rank column is not read (inex-rules §0)
    run = run_of(tmp_path, ["1 Q0 c 2 1 r 0 50", "1 Q0 a 1 1 r 10 20"])
    by_file = values(evaluate(qrels, [run], ["gP@1"]))["gP@1"]["1"]
    ranked = evaluate(qrels, [run], ["gP@1"], order="rank")
    assert by_file == pytest.approx(1.0)  # c first: all of it, exactly
    assert values(ranked)["gP@1"]["1"] == pytest.approx(1.0625 * 0.5 / (0.0625 + 0.5))  # a first
    assert any("rank order" in w and "not the official" in w for w in ranked.runs[0].warnings)
    tied = run_of(tmp_path, ["1 Q0 c 1 1 r 0 50", "1 Q0 a 1 1 r 10 20"], "tied.fol")
    assert values(evaluate(qrels, [tied], ["gP@1"], order="rank"))["gP@1"]["1"] == pytest.approx(1.0)
    split = run_of(tmp_path, ["1 Q0 a 1 1 r 0 5", "2 Q0 b 1 1 r 0 5", "1 Q0 c 2 1 r 0 5"], "split.fol")
    with pytest.raises(RunFormatError, match=r"split\.fol:3: topic 1 appears again after topic 2 \(line 2\)"):
        evaluate(qrels, [split], ["MAiP"])
    assert evaluate(qrels, [split], ["MAiP"], order="rank", all_topics=False).runs[0].topics == ["1", "2"]
    # lines of topics without assessments are ignored, even between a topic's lines
    other = run_of(tmp_path, ["1 Q0 a 1 1 r 0 5", "99 Q0 b 1 1 x 0 5", "1 Q0 c 2 1 r 0 5"], "other.fol")
    res = evaluate(qrels, [other], ["num_ret"], all_topics=False)
    assert values(res)["num_ret"] == {"1": 2} and res.runs[0].run_id == "r"
    assert any("no assessments and are ignored: 99" in w for w in res.runs[0].warnings)


def test_measure_names_round_trip():
    from graphsr.measures import parse_measure

    for name in (
        "iP[0.01]",
        "iP[0.005]",
        "MAiP",
        "gP@10",
        "gR(task=bic)@5",
        "MAgP(task=bic)",
        "MAgP(beta=1)",
        "MAgP(task=bic,n=100)@1500",
    ):
        m = parse_measure(name)
        assert str(m) == name and parse_measure(str(m)) == m
    assert str(parse_measure("iP(x=0.1)")) == "iP[0.10]"
    assert parse_measure("MAgP(task=bic,n=500)") == parse_measure("MAgP(task=bic)")
    for bad in ("iP", "iP[2]", "MAgP(task=focused)", "gP", "MAgP(beta=0)", "SRP[3]@1"):
        with pytest.raises(MeasureNameError):
            parse_measure(bad)


def test_sr_measures_on_passages_need_the_collection(tmp_path, qrels):
    """SR scores passages as the collection's elements (graphsr.measures.fol.convert): without the documents it
    says so in one line; PRUM takes element inputs only."""
    from graphsr.errors import GraphsrInputError

    with pytest.raises(GraphsrInputError, match="SRP@10: need the collection's documents") as e:
        evaluate(qrels, [run_of(tmp_path, FOCUSED)], ["SRP@10"])
    assert "\n" not in str(e.value)
    with pytest.raises(GraphsrInputError, match="score element assessments, not passage assessments"):
        evaluate(qrels, [run_of(tmp_path, FOCUSED)], ["PRUM"])


# -- the MAP reduction -----------------------------------------------------------------------------------------


def test_magp_of_whole_documents_is_map(tmp_path):
    import pytrec_eval  # a dev dependency: trec_eval's own code

    rng = np.random.default_rng(5)
    lengths = {f"d{i}": int(rng.integers(1, 5000)) for i in range(60)}
    qrels_lines, trec_qrels, trec_run, run_lines = [], {}, {}, []
    for t in range(1, 16):
        docs = rng.choice(list(lengths), size=30, replace=False)
        rel = {d: int(rng.random() < 0.3) for d in docs}
        rel[docs[0]] = 1
        trec_qrels[str(t)] = rel
        for d, r in rel.items():
            n = lengths[d]
            qrels_lines.append(f"{t} Q0 {d} {n} {n} 0 0:{n}" if r else f"{t} Q0 {d} 0 {n}")
        ranked = rng.choice(list(lengths), size=int(rng.integers(5, 40)), replace=False)
        trec_run[str(t)] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        run_lines += [f"{t} Q0 {d} {i + 1} {len(ranked) - i} r 0 {lengths[d]}" for i, d in enumerate(ranked)]
    q = read_fol_qrels(write(tmp_path / "q", "\n".join(qrels_lines) + "\n"))
    res = evaluate(q, [run_of(tmp_path, run_lines)], ["MAgP", "MAgP(task=bic)"])
    ours = values(res)
    expected = pytrec_eval.RelevanceEvaluator(trec_qrels, {"map"}).evaluate(trec_run)
    for t, e in expected.items():
        assert ours["MAgP"][t] == pytest.approx(e["map"], abs=1e-12)
        assert ours["MAgP(task=bic)"][t] == pytest.approx(e["map"], abs=1e-12)  # entry at the BEP (0)


# -- XML submissions and the CLI -------------------------------------------------------------------------------

SUBMISSION = """<?xml version="1.0"?>
<inex-submission participant-id="1" run-id="xmlrun" task="Focused">
  <topic topic-id="1">
    <result><file>a</file><fol offset="0" length="20"/><rank>1</rank><rsv>9</rsv></result>
    <result><file>b</file><fol offset="0" length="50"/><rank>2</rank></result>
    <result><file>a</file><fol offset="60" length="20"/></result>
    <result><file>a</file><fol offset="15" length="10"/></result>
    <result><file>a</file><fol offset="20" length="20"/></result>
  </topic>
</inex-submission>
"""


def test_xml_submission_equals_the_trec_like_run(tmp_path, qrels):
    xml = read_inex_submission(write(tmp_path / "run.xml", SUBMISSION))
    assert xml.name == "xmlrun" and xml.rank.tolist() == [1, 2, 3, 4, 5]
    a = evaluate(qrels, [xml], ["MAiP(task=thorough)", "iP[0.01]"], lenient=True)
    b = evaluate(qrels, [run_of(tmp_path, FOCUSED)], ["MAiP(task=thorough)", "iP[0.01]"], lenient=True)
    assert values(a) == values(b) and a.runs[0].run_id == "xmlrun"


def test_xml_path_results_need_and_use_a_collection(tmp_path):
    from graphsr.io import iter_documents

    write(tmp_path / "coll" / "a.xml", "<article><p>0123456789</p><p>abcde</p></article>")
    doc = next(iter_documents(tmp_path / "coll"))
    sub = write(
        tmp_path / "p.xml",
        '<inex-submission run-id="p"><topic topic-id="1"><result><file>a</file>'
        "<path>/article[1]/p[2]</path></result></topic></inex-submission>",
    )
    with pytest.raises(RunFormatError, match="need the collection"):
        read_passage_run(sub)
    run = read_passage_run(sub, {"a": doc})
    assert (run.offset.tolist(), run.length.tolist()) == ([10], [5])
    bad = write(
        tmp_path / "bad.xml",
        '<inex-submission><topic topic-id="1"><result><file>a</file>'
        "<path>/article[1]/p[3]</path></result></topic></inex-submission>",
    )
    from graphsr.errors import UnknownNodeError

    with pytest.raises(UnknownNodeError):
        read_passage_run(bad, {"a": doc})
    with pytest.raises(RunFormatError, match=r"bad\.xml:1: malformed XML"):
        read_passage_run(write(tmp_path / "bad.xml", '<inex-submission><topic topic-id="1">'))


def test_cli_detects_fol_and_prints_the_official_sets(tmp_path, capsys):
    q = write(tmp_path / "q.qrels", QRELS)
    run = write(tmp_path / "r.fol", "".join(f"{line}\n" for line in NO_OVERLAP))
    assert main(["eval", str(q), str(run), "-q"]) == 0
    out, err = capsys.readouterr()
    lines = [line.split("\t") for line in out.splitlines()]
    assert [m for m, t, _ in lines if t == "all"] == [
        "runid",
        "num_q",
        "iP[0.00]",
        "iP[0.01]",
        "iP[0.05]",
        "iP[0.10]",
        "MAiP",
    ]
    assert ["MAiP", "1", "0.178218"] in lines and err == ""
    ctx = write(tmp_path / "c.fol", "".join(f"{line}\n" for line in ["1 Q0 a 1 9 r 0 20", "1 Q0 b 3 7 r 0 50"]))
    assert main(["eval", str(q), str(ctx), "--task", "bic", "-c"]) == 0
    out = capsys.readouterr().out
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert names[2:] == ["MAgP(task=bic)"] + [f"gP(task=bic)@{k}" for k in (1, 2, 3, 5, 10, 25, 50)] + [
        f"gR(task=bic)@{k}" for k in (1, 2, 3, 5, 10, 25, 50)
    ]
    assert "num_q\tall\t3" in out
    assert main(["eval", str(q), str(run), "--curve", "-m", "MAiP"]) == 0
    out = capsys.readouterr().out
    assert "iP[0.37]\tall" in out and "iP[1.00]\tall" in out
    assert main(["eval", str(q), str(run), "--model", "p*:extent"]) == 2
    assert "--model applies to the element measures (SR, ESR, ...)" in capsys.readouterr().err


def test_cli_refuses_a_run_and_scores_the_others(tmp_path, capsys):
    q = write(tmp_path / "q.qrels", QRELS)
    bad = write(tmp_path / "bad.fol", "".join(f"{line}\n" for line in FOCUSED))
    good = write(tmp_path / "good.fol", "".join(f"{line}\n" for line in NO_OVERLAP))
    assert main(["eval", str(q), str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert str(bad) not in out and "runid\tall\tr\n" in out  # named by its run id
    assert err.strip().splitlines() == [
        f"graphsr: error: {bad}:4: topic 1, article a: passage 15:10 overlaps the "
        "passage 0:20 of the same article retrieved earlier (line 1); the official "
        "tool refuses such focused runs; --lenient scores it anyway, not as the "
        "official tool"
    ]
    x = write(tmp_path / "x.fol", "1 Q0 a 1 1 r X 18\n")
    assert main(["eval", str(q), str(tmp_path / "missing.fol"), str(x), str(good)]) == 2
    out, err = capsys.readouterr()
    assert out.count("runid") == 1 and "runid\tall\tr\n" in out
    assert "missing.fol: cannot read file" in err and f"{x}:1: offset X (field 7)" in err
    assert main(["eval", str(q), str(bad), "--lenient"]) == 0
    assert "not the official tool's" in capsys.readouterr().err
    assert main(["eval", str(q), str(bad), "--task", "thorough", "-m", "MAiP", "-m", "ret_size"]) == 0
    out = capsys.readouterr().out
    assert "MAiP(task=thorough)\tall" in out and "ret_size(task=thorough)\tall\t110" in out


def test_cli_task_options(tmp_path, capsys):
    q = write(tmp_path / "q.qrels", QRELS)
    run = write(tmp_path / "c.fol", "1 Q0 a 1 9 r 0 20\n1 Q0 b 3 7 r 0 50\n1 Q0 c 4 6 r 100 1\n")
    assert main(["eval", str(q), str(run), "--task", "ric", "--beta", "1", "-m", "MAgP", "-m", "gR@2"]) == 0
    out = capsys.readouterr().out
    assert "MAgP(beta=1)\tall" in out and "gR@2\tall" in out
    assert main(["eval", str(q), str(run), "--task", "bic", "--bep-distance", "50", "-m", "MAgP"]) == 0
    assert "MAgP(task=bic,n=50)\tall\t0.533333" in capsys.readouterr().out
    assert main(["eval", str(q), str(run), "--task", "t2i", "--irr", "100"]) == 0
    assert "MAgP(task=t2i,irr=100)\tall" in capsys.readouterr().out
    assert main(["eval", str(q), str(run), "--beta", "1"]) == 2  # focused measures have no beta
    assert "--beta applies to measures of task ric" in capsys.readouterr().err
    assert main(["eval", str(q), str(run), "--task", "bic", "--beta", "1", "--report", "official"]) == 2
    assert "--beta applies to --task ric, not bic" in capsys.readouterr().err
    assert main(["eval", str(q), str(run), "--report", "official", "-m", "MAiP"]) == 2
    capsys.readouterr()
    assert main(["eval", str(q), str(run), "-m", "gP[2]", "-m", "ircl_prn.0.50(task=bic)", "-m", "AgP"]) == 0
    out = capsys.readouterr().out
    assert "gP@2\tall" in out and "ircl_prn[0.50](task=bic)\tall" in out and "AgP\tall" in out  # as asked
    assert main(["eval", str(q), str(run), "--report", "official", "--task", "bic", "-q", "--format", "json"]) == 0
    import json

    rows = json.loads(capsys.readouterr().out)
    assert rows[0] == {"run": "r", "measure": "runid", "topic": "all", "value": "r"}
    assert {"run": "r", "measure": "gP[5]", "topic": "1", "value": (0.98 + 0.8) / 3} in rows
    element_qrels = write(tmp_path / "e.qrels", "1 Q0 a /a[1] 1\n")
    assert main(["eval", str(element_qrels), str(run), "--task", "ric"]) == 2
    assert "--task applies to passage runs" in capsys.readouterr().err


def _inputs(group, start, end, seq=None):
    n = len(group)
    z = np.zeros(0, dtype=np.int64)
    from graphsr.measures.fol.inputs import PassageInputs

    return PassageInputs(
        [],
        np.zeros(n, dtype=np.int64),
        group,
        np.full(n, -1),
        start,
        end,
        np.arange(n) if seq is None else seq,
        z,
        z,
        z,
        z,
        z,
        z,
        z,
        z,
    )


def test_overlap_rules_vectorised_equal_the_sequential_walks():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from graphsr.measures.fol import rules as fol_rules

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40), st.integers(0, 15)), max_size=40))
    def check(results):
        n = len(results)
        group = np.array([g for g, _, _ in results], dtype=np.int64)
        start = np.array([a for _, a, _ in results], dtype=np.int64)
        end = start + np.array([k for _, _, k in results], dtype=np.int64)
        x = _inputs(group, start, end)
        walked = fol_rules._walk_skips(x, np.arange(n), np.zeros(n, dtype=bool))
        assert fol_rules.skipped_overlaps(x).tolist() == walked.tolist()
        first = fol_rules.first_violation(x, {"overlap"})
        walk = fol_rules._walk_first_overlap(x, np.arange(n))
        assert (first is None) == (walk is None)
        if first is not None:
            assert (first.result, first.earlier) == (walk.result, walk.earlier)
        # thorough: the new characters of each result, against character sets
        seg_r, seg_s, seg_e = fol_rules.new_characters(x)
        seen: dict[int, set] = {}
        for i, (g, a, k) in enumerate(results):
            new = set(range(a, a + k)) - seen.setdefault(g, set())
            seen[g] |= set(range(a, a + k))
            got = set()
            for r, s0, e0 in zip(seg_r.tolist(), seg_s.tolist(), seg_e.tolist()):
                if r == i:
                    assert not got & set(range(s0, e0))
                    got |= set(range(s0, e0))
            assert got == new

    check()

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 15)), min_size=1, max_size=6), max_size=8))
    def contiguous(blocks):  # the usual run: each article's passages together, in document order
        group, start, end = [], [], []
        for g, passages in enumerate(blocks):
            for a, k in sorted(passages):
                group.append(g)
                start.append(a)
                end.append(a + k)
        x = _inputs(np.array(group, dtype=np.int64), np.array(start, dtype=np.int64), np.array(end, dtype=np.int64))
        brute = sorted(
            {
                g
                for i, g in enumerate(group)
                for j in range(i)
                if group[j] == g and max(start[i], start[j]) < min(end[i], end[j])
            }
        )
        assert fol_rules.suspect_groups(x).tolist() == brute
        n = len(group)
        walk = fol_rules._walk_first_overlap(x, np.arange(n))
        first = fol_rules.first_violation(x, {"overlap"})
        assert (first is None) == (walk is None)

    contiguous()


def test_elements_as_passages(tmp_path):
    from graphsr.measures.fol.convert import passage_qrels, passage_run
    from graphsr.io import iter_documents, read_element_qrels, read_run

    # a: "0123456789" + "abcde" + "XY"; b: "hello"
    write(tmp_path / "c" / "a.xml", "<a><p>0123456789</p><p>abcde</p><q>XY</q></a>")
    write(tmp_path / "c" / "b.xml", "<b><p>hello</p></b>")
    docs = {d.docid: d for d in iter_documents(tmp_path / "c")}
    q = read_element_qrels(
        write(tmp_path / "q", "1 Q0 a /a[1]/p[2] 1\n1 Q0 a /a[1]/q[1] 0.5\n1 Q0 a /a[1] 0\n1 Q0 b /b[1] 0\n")
    )
    fq = passage_qrels(q, docs)
    assert fq.docid.tolist() == ["a", "b"] and fq.rel_chars.tolist() == [7, 0] and fq.bep.tolist() == [10, -1]
    assert (fq.pass_start.tolist(), fq.pass_end.tolist()) == ([10], [17])  # adjacent p[2] and q[1] merge
    run = read_run(write(tmp_path / "r", "1 Q0 a 1 1 s /a[1]/p[2]\n1 Q0 a 1 1 s /a[1]\n1 Q0 b 2 1 s /b[1]/p[1]\n"))
    fr = passage_run(run, docs)
    assert fr.docid.tolist() == ["a", "b"] and fr.offset.tolist() == [0, 0] and fr.length.tolist() == [17, 5]
    v = values(evaluate(fq, [fr], ["iP[0.00]", "MAgP"]))
    assert v["iP[0.00]"]["1"] == pytest.approx(7 / 17)
    assert v["MAgP"]["1"] == pytest.approx(1.0625 * (7 / 17) / (0.0625 * 7 / 17 + 1))


def _reference(qrels_rows, run_rows, beta=0.25, n=500.0, tolerance=5):
    """docs/inex-rules.md transcribed character by character with Python sets, in file order (independent of the
    numpy code).  Focused: lenient (a passage overlapping one kept earlier is skipped); RiC/T2I: the union
    of an article's passages; BiC: an article's first result."""
    import math

    hl = {(t, d): {c for o, k in spans for c in range(o, o + k)} for t, d, spans, _, _ in qrels_rows}
    bep = {(t, d): b for t, d, _, b, _ in qrels_rows}
    size = {(t, d): L for t, d, _, _, L in qrels_rows}

    def curve(points, trel):
        best = [0.0] * 101
        for rel, ret in points:
            if ret and trel:
                b = math.floor(rel / trel * 100.0)
                best[b] = max(best[b], rel / ret)
        return [max(best[j:]) for j in range(101)]

    def gp_at(scores, k):
        k = min(k, len(scores))
        return sum(scores[:k]) / k if k else 0.0

    out = {}
    for t in sorted({r[0] for r in run_rows}):
        rows = [r for r in run_rows if r[0] == t]
        trel = sum(len(v) for (tt, _), v in hl.items() if tt == t)
        nrel = sum(1 for (tt, _), v in hl.items() if tt == t and v)
        # thorough (inex-rules §1): new characters only; non-relevant text charged in full every time
        seen, rr, rs, points = {}, 0, 0, []
        for _, d, o, k in rows:
            chars = set(range(o, o + k))
            new = chars - seen.setdefault(d, set())
            seen[d] |= chars
            h = hl.get((t, d), set())
            rr += len(new & h)
            rs += len(new) if h else k
            points.append((rr, rs))
        thorough = curve(points, trel)
        # focused, lenient
        kept, rr, rs, points, overlap = {}, 0, 0, [], False
        for _, d, o, k in rows:
            if any(set(range(o, o + k)) & set(range(a, b)) for a, b in kept.get(d, [])):
                overlap = True
                continue
            kept.setdefault(d, []).append((o, o + k))
            rr += len(hl.get((t, d), set()) & set(range(o, o + k)))
            rs += k
            points.append((rr, rs))
        focused = curve(points, trel)
        overlap = overlap or any(
            set(range(o, o + k)) & set(range(o2, o2 + k2))
            for i, (_, d, o, k) in enumerate(rows)
            for _, d2, o2, k2 in rows[:i]
            if d2 == d
        )
        # in context: article ranks in order of first appearance
        order = list(dict.fromkeys(d for _, d, _, _ in rows))
        ric, t2i, bic, isrel = [], [], [], []
        for d in order:
            chars = {c for _, dd, o, k in rows if dd == d for c in range(o, o + k)}
            h = hl.get((t, d), set())
            found = len(chars & h)
            p, r = (found / len(chars) if chars else 0.0), (found / len(h) if h else 0.0)
            ric.append((1 + beta**2) * p * r / (beta**2 * p + r) if found else 0.0)
            entry = next(o for _, dd, o, _ in rows if dd == d)
            dist = abs(bep.get((t, d), -1) - entry)
            bic.append((n - dist) / n if h and dist <= n else 0.0)
            rel = irr = 0
            if h:
                for c in sorted(chars) + sorted(set(range(size[t, d])) - chars):
                    if c in h:
                        rel += 1
                    else:
                        irr += 1
                        if irr == tolerance:
                            break
            t2i.append(rel / (rel + irr) if rel + irr else 0.0)
            isrel.append(bool(h))
        ctx = {}
        for name, sc in (("ric", ric), ("t2i", t2i), ("bic", bic)):
            agp = sum(sum(sc[: i + 1]) / (i + 1) for i in range(len(sc)) if isrel[i]) / nrel if nrel else 0.0
            ctx[name] = (agp, gp_at(sc, 3))
        repeat = len(order) < len(rows)
        out[t] = {
            "thorough": thorough,
            "focused": focused,
            "ctx": ctx,
            "overlap": overlap,
            "repeat": repeat,
            "gR@3": (sum(isrel[:3]) / nrel) if nrel else 0.0,
            "ret_size(task=thorough)": rs,
            "num_ret": len(order),
        }
        out[t]["ret_size(task=thorough)"] = sum(
            len(set(range(o, o + k)) - set().union(*(set(range(o2, o2 + k2)) for _, d2, o2, k2 in rows[:i] if d2 == d)))
            if hl.get((t, d))
            else k
            for i, (_, d, o, k) in enumerate(rows)
        )
    return out


def test_measures_equal_the_definitions_on_random_runs(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from graphsr.errors import RunRuleError

    @st.composite
    def case(draw):
        qrels_rows = []
        for t in ("1", "2"):
            for d in ("a", "b", "c"):
                length = draw(st.integers(1, 60))
                spans, pos = [], 0
                while pos < length and draw(st.booleans()):
                    o = draw(st.integers(pos, length - 1))
                    k = draw(st.integers(1, length - o))
                    spans.append((o, k))
                    pos = o + k + 1
                b = draw(st.integers(0, length)) if spans else -1
                qrels_rows.append((t, d, spans, b, length))
        run_rows = []
        for t in ("1", "2"):
            for d in draw(st.permutations(["a", "b", "c", "z"])):
                for _ in range(draw(st.integers(0, 3))):
                    run_rows.append((t, d, draw(st.integers(0, 70)), draw(st.integers(0, 30))))
        return qrels_rows, run_rows

    counter = iter(range(10**6))
    thorough = [f"iP(task=thorough)[{j / 100:.2f}]" for j in range(101)]
    lenient_names = [
        "MAiP",
        "MAgP",
        "MAgP(task=t2i,irr=5)",
        "MAgP(task=bic)",
        "gP@3",
        "gP(task=t2i,irr=5)@3",
        "gP(task=bic)@3",
        "gR@3",
        "num_ret(task=ric)",
    ]

    @settings(max_examples=120, deadline=None)
    @given(case())
    def check(c):
        qrels_rows, run_rows = c
        i = next(counter)
        lines = []
        for t, d, spans, b, length in qrels_rows:
            rc = sum(k for _, k in spans)
            lines.append(
                f"{t} Q0 {d} {rc} {length}" + (f" {b} " + " ".join(f"{o}:{k}" for o, k in spans) if spans else "")
            )
        q = read_fol_qrels(write(tmp_path / f"q{i}", "\n".join(lines) + "\n"))
        run = run_of(tmp_path, [f"{t} Q0 {d} {r + 1} 0 x {o} {k}" for r, (t, d, o, k) in enumerate(run_rows)], f"r{i}")
        ref = _reference(qrels_rows, run_rows)
        got = values(evaluate(q, [run], thorough + ["MAiP(task=thorough)", "ret_size(task=thorough)"]))
        lenient = values(evaluate(q, [run], lenient_names, lenient=True))
        for t, e in ref.items():
            for j in range(101):
                assert got[f"iP[{j / 100:.2f}](task=thorough)"][t] == pytest.approx(e["thorough"][j], abs=1e-12)
            assert got["MAiP(task=thorough)"][t] == pytest.approx(sum(e["thorough"]) / 101, abs=1e-12)
            assert got["ret_size(task=thorough)"][t] == e["ret_size(task=thorough)"]
            assert lenient["MAiP"][t] == pytest.approx(sum(e["focused"]) / 101, abs=1e-12)
            assert lenient["MAgP"][t] == pytest.approx(e["ctx"]["ric"][0], abs=1e-12)
            assert lenient["MAgP(task=t2i,irr=5)"][t] == pytest.approx(e["ctx"]["t2i"][0], abs=1e-12)
            assert lenient["MAgP(task=bic)"][t] == pytest.approx(e["ctx"]["bic"][0], abs=1e-12)
            assert lenient["gP@3"][t] == pytest.approx(e["ctx"]["ric"][1], abs=1e-12)
            assert lenient["gP(task=t2i,irr=5)@3"][t] == pytest.approx(e["ctx"]["t2i"][1], abs=1e-12)
            assert lenient["gP(task=bic)@3"][t] == pytest.approx(e["ctx"]["bic"][1], abs=1e-12)
            assert lenient["gR@3"][t] == pytest.approx(e["gR@3"], abs=1e-12)
            assert lenient["num_ret(task=ric)"][t] == e["num_ret"]
            assert 0 <= lenient["MAiP"][t] <= 1 + 1e-12
        # strict: refused exactly when the reference finds an overlap (focused, ric) or a repeat (bic)
        for measure, broken in (
            ("MAiP", any(e["overlap"] for e in ref.values())),
            ("MAgP(task=t2i)", any(e["overlap"] for e in ref.values())),
            ("MAgP(task=bic)", any(e["repeat"] for e in ref.values())),
        ):
            if broken:
                with pytest.raises(RunRuleError):
                    evaluate(q, [run], [measure])
            else:
                evaluate(q, [run], [measure])

    check()


@pytest.mark.parametrize("field, expected", [("-3", "rel_chars (field 4) >= 0"), ("²", "integer rel_chars")])
def test_qrels_numbers(tmp_path, field, expected):
    with pytest.raises(QrelsFormatError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        read_fol_qrels(write(tmp_path / "q", f"1 Q0 a {field} 10\n"))


def test_cli_scores_element_runs_against_fol_assessments(tmp_path, capsys):
    write(tmp_path / "c" / "a.xml", "<a><p>0123456789</p><p>abcde</p><q>XY</q></a>")
    write(tmp_path / "c" / "b.xml", "<b><p>hello</p></b>")
    q = write(tmp_path / "q.qrels", "1 Q0 a 7 17 10 10:7\n1 Q0 b 0 5\n")
    run = write(tmp_path / "e.run", "1 Q0 a 1 1 s /a[1]/p[2]\n1 Q0 a 2 1 s /a[1]/q[1]\n1 Q0 b 3 1 s /b[1]\n")
    fol = write(tmp_path / "p.fol", "1 Q0 a 1 1 s 10 5\n1 Q0 a 2 1 s 15 2\n1 Q0 b 3 1 s 0 5\n")
    assert main(["eval", str(q), str(run), "--collection", str(tmp_path / "c"), "-m", "MAiP", "-m", "gP@3"]) == 0
    from_elements = capsys.readouterr().out.splitlines()[2:]
    assert main(["eval", str(q), str(fol), "-m", "MAiP", "-m", "gP@3"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == from_elements
    assert main(["eval", str(q), str(run), "-m", "MAiP"]) == 2
    assert "needs --collection DIR" in capsys.readouterr().err
    bad = write(tmp_path / "bad.run", "1 Q0 a 1 1 s /a[1]/p[9]\n")
    assert main(["eval", str(q), str(bad), "--collection", str(tmp_path / "c"), "-m", "MAiP"]) == 2
    assert f"{bad}:1: document 'a' has no node /a[1]/p[9]" in capsys.readouterr().err


def test_plot_of_interpolated_precision(tmp_path, capsys, qrels):
    from graphsr.analysis import interpolated_precision_curves
    from graphsr.measures.fol import IP_CURVE

    res = evaluate(qrels, [run_of(tmp_path, NO_OVERLAP)], IP_CURVE, all_topics=False)  # (the run's topic only)
    levels, curves = interpolated_precision_curves(res)
    curve = curves[res.runs[0].name]
    assert len(levels) == 101 and curve[11] == pytest.approx(0.5) and curve[12] == pytest.approx(40 / 110)
    assert curve.mean() == pytest.approx((12 * 0.5 + 33 * 40 / 110) / 101)
    q = write(tmp_path / "q.qrels", QRELS)
    run = write(tmp_path / "r.fol", "".join(f"{line}\n" for line in NO_OVERLAP))
    out = tmp_path / "curve.png"
    assert main(["eval", str(q), str(run), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    capsys.readouterr()
    with pytest.raises(Exception, match="needs iP"):
        interpolated_precision_curves(evaluate(qrels, [run_of(tmp_path, NO_OVERLAP)], ["MAiP"]))
    from graphsr.data import sample

    s = sample("mobydick")  # element runs: the measure over its cut-offs
    assert (
        main(
            [
                "eval",
                str(s["qrels"]),
                str(s["runs"][0]),
                "--collection",
                str(s["collection"]),
                "-m",
                "SRP@5",
                "-m",
                "SRP@10",
                "--plot",
                str(tmp_path / "x.svg"),
            ]
        )
        == 0
    )
    assert b"SRP@k, mean over 1 topics" in (tmp_path / "x.svg").read_bytes()


def test_the_c_scanner_accepts_only_what_the_line_readers_read_the_same():
    """Whatever the scanner accepts, the line-by-line readers read identically; what it declines they
    explain (or read: names outside ASCII, scores such as 'inf')."""
    from hypothesis import example, given, settings
    from hypothesis import strategies as st

    from graphsr.errors import QrelsFormatError
    from graphsr.io import fol
    from graphsr.io._lines import c_scanner

    scan = c_scanner()
    if scan is None:
        pytest.skip("the C scanner is not built")
    token = st.sampled_from(
        [
            "1",
            "10",
            "-3",
            "+4",
            "0.5",
            "1e3",
            "-.5",
            "5.",
            "x",
            "X",
            "-1",
            "é",
            "1_0",
            "inf",
            "3:4",
            "0:1",
            "a\x00b",
            "9" * 19,
            "",
            "Q0",
            "2010003",
            "12:0",
            "1:2:3",
        ]
    )
    sep = st.sampled_from([" ", "\t", "  ", " \r", "\x0b", "\x1c"])

    @st.composite
    def text(draw):
        lines = []
        name = st.sampled_from(["1", "2", "a", "d5", "1", "2", "a", "d5", "é", "x\x7fy"])
        good = st.sampled_from(["0", "7", "42", "12"])
        number = st.one_of(
            *[good] * 12,
            st.sampled_from(
                ["-3", "+4", "0.5", "1e3", "-.5", "5.", "X", "-1", "inf", "1_0", "9" * 19, "007", "3.25e-2"]
            ),
        )
        mode = draw(st.sampled_from(["run", "qrels", "mixed"]))
        for _ in range(draw(st.integers(0, 6))):
            kind = mode if mode != "mixed" else draw(st.sampled_from(["run", "qrels", "noise"]))
            if kind == "run":
                fields = [
                    draw(name),
                    "Q0",
                    draw(name),
                    draw(number),
                    draw(number),
                    draw(name),
                    draw(number),
                    draw(number),
                ]
            elif kind == "qrels":  # consistent unless a token is replaced
                length = draw(st.integers(1, 30))
                cuts = sorted(set(draw(st.lists(st.integers(0, length), max_size=6))))
                spans = [(a, b - a) for a, b in zip(cuts[0::2], cuts[1::2]) if b > a]
                fields = [draw(name), "Q0", draw(name), str(sum(n for _, n in spans)), str(length)]
                if spans:
                    fields += [str(draw(st.integers(0, length))), *(f"{o}:{n}" for o, n in reversed(spans))]
                if draw(st.integers(0, 4)) == 0:
                    fields[draw(st.integers(0, len(fields) - 1))] = draw(token)
            else:
                fields = draw(st.lists(token, min_size=0, max_size=10))
            lines.append(draw(sep).join(fields) + draw(st.sampled_from(["", " ", "\r"])))
        return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))

    @settings(max_examples=400, deadline=None)
    @given(text())
    @example("1 Q0 a 1 7 r 0 12\n2 Q0 d5 2 42 r 7 0\n")  # one accepted run and one accepted qrels file always
    @example("1 Q0 a 12 42 7 0:7 7:5\n2 Q0 d5 0 12\n")
    def check(t):
        import tempfile

        from graphsr.io._lines import read_bytes

        with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as fh:
            fh.write(t.encode("utf-8"))
        try:
            data = read_bytes(fh.name, RunFormatError)  # as the readers give it to the scanner: CR, CRLF made LF
        except RunFormatError:  # binary data (a NUL byte): refused before any scanner or reader sees it
            os.unlink(fh.name)
            return
        try:
            vocab = fol.Vocabulary()
            got = scan.scan_run(data, vocab.topics, vocab.docs)
            if not isinstance(got, int):
                accepted["run"] += len(got[0]) > 0
                slow = fol._read_fol_run_lines(fh.name, "r", fol.Vocabulary())
                t_, d, rank, score, offset, length, line, _, ids = got
                names = list(vocab.topics), list(vocab.docs)
                assert [names[0][c] for c in t_] == slow.topic.tolist()
                assert [names[1][c] for c in d] == slow.docid.tolist()
                for a, b in (
                    (rank, slow.rank),
                    (score, slow.score),
                    (offset, slow.offset),
                    (length, slow.length),
                    (line, slow.line),
                ):
                    assert a.tolist() == b.tolist()
                assert tuple(ids) == slow.run_ids
            vocab = fol.Vocabulary()
            got = scan.scan_qrels(data, vocab.topics, vocab.docs)
            if not isinstance(got, int) and fol._unique_pairs(got[0], got[1], len(vocab.docs)) and len(got[0]):
                accepted["qrels"] += 1
                slow = fol._read_fol_qrels_lines(fh.name, fol.Vocabulary())
                assert [list(vocab.docs)[c] for c in got[1]] == slow.docid.tolist()
                for a, b in zip(
                    got[2:],
                    (slow.rel_chars, slow.doc_len, slow.bep, slow.line, slow.pass_row, slow.pass_start, slow.pass_end),
                ):
                    assert a.tolist() == b.tolist()
        except (RunFormatError, QrelsFormatError) as exc:
            raise AssertionError(f"the scanner accepted what the line reader refuses: {exc}") from None
        finally:
            os.unlink(fh.name)

    import os

    accepted = {"run": 0, "qrels": 0}
    check()
    assert accepted["run"] > 0 and accepted["qrels"] > 0, accepted  # the property was exercised


def test_passage_measures_of_element_runs_against_element_assessments(capsys):
    """Elements as the text they cover, as INEX 2008-2010 scored element runs (and as the demo prints)."""
    from graphsr.data import sample
    from graphsr.measures.fol.convert import passage_qrels, passage_run
    from graphsr.io import iter_documents, read_element_qrels, read_run

    s = sample("shakespeare")
    plays = [r for r in s["runs"] if r.name == "plays.run"][0]
    nested = [r for r in s["runs"] if r.name == "thorough.run"][0]
    assert (
        main(
            [
                "eval",
                str(s["qrels"]),
                str(plays),
                str(nested),
                "--collection",
                str(s["collection"]),
                "-m",
                "MAiP",
                "-m",
                "iP[0.01]",
                "-m",
                "SRP@5",
                "--task",
                "thorough",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    docs = {d.docid: d for d in iter_documents(s["collection"])}
    q = read_element_qrels(s["qrels"])
    direct = evaluate(
        passage_qrels(q, docs),
        [passage_run(read_run(p), docs) for p in (plays, nested)],
        ["MAiP(task=thorough)", "iP[0.01](task=thorough)"],
    )
    for r in direct.runs:
        for m in direct.measures:
            assert f"{m}\tall\t{r.mean(m):.6f}" in out
    assert "SRP@5\tall" in out
    # the focused task refuses runs of nested elements, as the official tool: one line, exit 2
    assert main(["eval", str(s["qrels"]), str(nested), "--collection", str(s["collection"]), "-m", "MAiP"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "overlaps the passage" in err[0] and "refuses such focused runs" in err[0]


def test_a_byte_order_mark_is_not_part_of_the_first_topic(tmp_path):
    q = read_fol_qrels(write(tmp_path / "q", "\ufeff1 Q0 a 10 100 0 0:10\n"))
    run = read_fol_run(write(tmp_path / "r.fol", "\ufeff1 Q0 a 1 1 r 0 10\n"))
    assert q.topics == ["1"] and run.topics == ["1"]
    assert values(evaluate(q, [run], ["num_rel_ret"]))["num_rel_ret"] == {"1": 1.0}


def test_one_entry_scores_every_kind_of_assessment(tmp_path, qrels):
    from graphsr.errors import GraphsrInputError
    from graphsr.evaluation import element_context
    from graphsr.io import read_element_qrels, read_run

    from graphsr.data import sample

    s = sample("mobydick")
    eq = read_element_qrels(s["qrels"])
    element_runs = [read_run(p) for p in s["runs"]]
    with pytest.raises(GraphsrInputError, match="SRP@5: need the collection's documents"):
        evaluate(eq, element_runs, ["SRP@5"])
    ctx = element_context(
        eq.docids().union(*(r.docids() for r in element_runs)), collection=s["collection"], model="p*:extent"
    )
    res = evaluate(eq, element_runs, ["SRP@5", "MAiP(task=thorough)"], ctx)
    assert [r.name for r in res] == [r.run_id for r in element_runs]
    assert [r.source for r in res] == [r.name for r in element_runs]
    assert res[element_runs[1].name] is res[element_runs[1].run_id]
    with pytest.raises(GraphsrInputError, match="MAiP: need the collection's documents"):
        evaluate(qrels, element_runs, ["MAiP"])
