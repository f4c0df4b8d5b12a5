"""The official INEX passage measures: hand-computed toy cases, readers, the MAP reduction, the CLI."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.cli.main import main
from graphsr.errors import MeasureNameError, QrelsFormatError, RunFormatError
from graphsr.evaluation.fol_evaluate import evaluate_passages
from graphsr.io import read_fol_qrels, read_fol_run, read_inex_submission, read_passage_run

from .conftest import write

# topic 1: article a (100 chars) highlights [10,30) and [60,80); c (200) highlights [0,50); b judged, not relevant
# topic 2: only a non-relevant article; topic 3: an article highlighted to both of its ends
QRELS = ("1 Q0 a 40 100 10 60:20 10:20 \n"
         "1 Q0 b 0 50\n"
         "1 Q0 c 50 200 0 0:50\n"
         "2 Q0 b 0 50\n"
         "3 Q0 e 30 30 0 0:10 10:20\n")


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
    from pathlib import Path

    q = read_fol_qrels(Path(__file__).parents[2] / "shared" / "data" / "inex2010" / "inex2010.qrels")
    assert len(q.topics) == 52 and len(q) == 39031
    assert int((q.rel_chars > 0).sum()) == 5471
    assert int(q.rel_chars.sum()) == int((q.pass_end - q.pass_start).sum())


@pytest.mark.parametrize("line, expected", [
    ("1 Q0 a 20 100 10 10:20 25:5", "overlap"),
    ("1 Q0 a 20 100 10 90:20", "beyond the article"),
    ("1 Q0 a 21 100 10 10:20", "sum to 20"),
    ("1 Q0 a 20 100 101 10:20", "best entry point 101"),
    ("1 Q0 a 20 100 10 10-20", "offset:length"),
    ("1 Q0 a x 100", "integer rel_chars"),
    ("1 Q0 a 20 100 10", "got 6 fields"),
    ("1 Q0 a 20", "got 4 fields"),
    ("1 Q0 a 20 100 10 10:0", "passage length >= 1"),
])
def test_bad_qrels_lines_name_file_and_line(tmp_path, line, expected):
    path = write(tmp_path / "bad.qrels", "1 Q0 z 0 10\n" + line + "\n")
    with pytest.raises(QrelsFormatError) as e:
        read_fol_qrels(path)
    assert f"{path}:2:" in str(e.value) and expected in str(e.value)


def test_qrels_twice_judged(tmp_path):
    with pytest.raises(QrelsFormatError, match="judged twice"):
        read_fol_qrels(write(tmp_path / "q", "1 Q0 a 0 10\n1 Q0 a 0 10\n"))


@pytest.mark.parametrize("line, expected", [
    ("1 Q0 a 1 1.0 r 0", "expected 8 fields"),
    ("1 Q0 a one 1.0 r 0 10", "integer rank"),
    ("1 Q0 a 1 high r 0 10", "numeric score"),
    ("1 Q0 a 1 1.0 r -5 10", "passage offset (field 7) >= 0"),
    ("1 Q0 a 1 1.0 r 5 x", "integer passage length"),
])
def test_bad_run_lines(tmp_path, line, expected):
    path = write(tmp_path / "bad.run", "1 Q0 a 1 1.0 r 0 10\n" + line + "\n")
    with pytest.raises(RunFormatError) as e:
        read_fol_run(path)
    assert f"{path}:2:" in str(e.value) and expected in str(e.value)


def test_run_order_rank_then_file_order(tmp_path):
    run = run_of(tmp_path, ["2 Q0 x 1 1 r 0 1", "1 Q0 b 2 1 r 0 1", "1 Q0 a 1 1 r 0 1", "1 Q0 c 2 1 r 0 1",
                            "10 Q0 y 1 1 r 0 1"])
    assert run.topic.tolist() == ["1", "1", "1", "2", "10"]
    assert run.docid.tolist() == ["a", "b", "c", "x", "y"]  # rank 2 tie: b before c, as in the file


# -- focused -------------------------------------------------------------------------------------------------

FOCUSED = ["1 Q0 a 1 9 r 0 20",    # 10 relevant of 20: P .5, R 10/90 (bucket 11)
           "1 Q0 b 2 8 r 0 50",    # P 10/70
           "1 Q0 a 3 7 r 60 20",   # 30/90, R 30/90 (bucket 33)
           "1 Q0 a 4 6 r 15 10",   # overlaps rank 1: skipped
           "1 Q0 a 5 5 r 20 20"]   # 40/110, R 40/90 (bucket 44)


def test_focused_by_hand(tmp_path, qrels):
    names = ["iP[0.00]", "iP[0.11]", "iP[0.12]", "iP[0.44]", "iP[0.45]", "iP[1.00]", "MAiP", "iP[0.115]"]
    res = evaluate_passages(qrels, [run_of(tmp_path, FOCUSED)], names)
    v = {m: d["1"] for m, d in values(res).items()}
    assert res.runs[0].topics == ["1"]
    assert v["iP[0.00]"] == pytest.approx(0.5) and v["iP[0.11]"] == pytest.approx(0.5)
    assert v["iP[0.12]"] == pytest.approx(40 / 110) and v["iP[0.44]"] == pytest.approx(40 / 110)
    assert v["iP[0.45]"] == 0.0 and v["iP[1.00]"] == 0.0
    assert v["MAiP"] == pytest.approx((12 * 0.5 + 33 * 40 / 110) / 101)
    assert v["iP[0.115]"] == pytest.approx(40 / 110)  # off the grid: max P at R >= x
    assert any("1 passage(s) overlap" in w for w in res.runs[0].warnings)


def test_focused_bucket_is_floor_of_100_recall(tmp_path):
    # recall 0.29 exactly is 28.999999999999996 when multiplied by 100: the official tool's bucket is 28
    q = read_fol_qrels(write(tmp_path / "q", "1 Q0 a 100 100 0 0:100\n"))
    run = run_of(tmp_path, ["1 Q0 a 1 1 r 0 29"])
    v = values(evaluate_passages(q, [run], ["iP[0.28]", "iP[0.29]"]))
    assert 0.29 * 100 < 29
    assert v["iP[0.28]"]["1"] == 1.0 and v["iP[0.29]"]["1"] == 0.0


def test_focused_topic_without_relevance_empty_run_and_all_topics(tmp_path, qrels):
    empty = run_of(tmp_path, [], "empty.fol")
    res = evaluate_passages(qrels, [empty], ["MAiP"], all_topics=True)
    assert res.runs[0].topics == ["1", "2", "3"] and res.runs[0].values[res.measures[0]].tolist() == [0, 0, 0]
    assert evaluate_passages(qrels, [empty], ["MAiP"]).runs[0].topics == []
    only2 = run_of(tmp_path, ["2 Q0 b 1 1 r 0 50"])
    assert values(evaluate_passages(qrels, [only2], ["MAiP", "iP[0.00]"]))["MAiP"] == {"2": 0.0}


def test_focused_document_boundaries(tmp_path, qrels):
    # the whole of article e: both highlighted passages touch its ends
    v = values(evaluate_passages(qrels, [run_of(tmp_path, ["3 Q0 e 1 1 r 0 30"])], ["MAiP"]))
    assert v["MAiP"]["3"] == 1.0
    v = values(evaluate_passages(qrels, [run_of(tmp_path, ["3 Q0 e 1 1 r 25 5", "3 Q0 e 2 1 r 0 10"])],
                                 ["iP[0.10]", "iP[0.50]"]))
    assert v["iP[0.10]"]["3"] == 1.0 and v["iP[0.50]"]["3"] == 1.0


# -- relevant in context / best in context -----------------------------------------------------------------------

CONTEXT = ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 100 100"]


def test_relevant_in_context_by_hand(tmp_path, qrels):
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 0 100"])
    res = evaluate_passages(qrels, [run], ["gP@1", "gP@2", "gP@3", "gP@10", "gR@1", "gR@3", "MAgP", "MAgP(beta=1)",
                                           "MAgP@2"])
    v = {m: d["1"] for m, d in values(res).items()}
    f_a = 1.0625 * 0.5 * 0.75 / (0.0625 * 0.5 + 0.75)   # 30 of 60 retrieved, 30 of 40 highlighted
    f_c = 1.0625 * 0.5 * 1.0 / (0.0625 * 0.5 + 1.0)     # 50 of 100, all 50
    assert f_a == pytest.approx(0.51)
    assert v["gP@1"] == pytest.approx(f_a) and v["gP@2"] == pytest.approx(f_a / 2)
    assert v["gP@3"] == pytest.approx((f_a + f_c) / 3) and v["gP@10"] == pytest.approx((f_a + f_c) / 10)
    assert v["gR@1"] == 0.5 and v["gR@3"] == 1.0
    assert v["MAgP"] == pytest.approx((f_a + (f_a + f_c) / 3) / 2)
    assert v["MAgP(beta=1)"] == pytest.approx((0.6 + (0.6 + 2 / 3) / 3) / 2)
    assert v["MAgP@2"] == pytest.approx(f_a / 2)


def test_best_in_context_by_hand(tmp_path, qrels):
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 a 2 8 r 60 40", "1 Q0 b 3 7 r 0 50", "1 Q0 c 4 6 r 100 1"])
    res = evaluate_passages(qrels, [run], ["gP(task=bic)@3", "MAgP(task=bic)", "MAgP(task=bic,n=50)"])
    v = {m: d["1"] for m, d in values(res).items()}
    assert v["gP(task=bic)@3"] == pytest.approx((0.98 + 0.8) / 3)
    assert v["MAgP(task=bic)"] == pytest.approx((0.98 + (0.98 + 0.8) / 3) / 2)
    assert v["MAgP(task=bic,n=50)"] == pytest.approx((0.8 + 0.8 / 3) / 2)
    assert any("1 result(s) follow" in w for w in res.runs[0].warnings)


def test_interleaved_articles_are_rejected(tmp_path, qrels):
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 b 2 8 r 0 50", "1 Q0 a 3 7 r 60 20"])
    with pytest.raises(RunFormatError) as e:
        evaluate_passages(qrels, [run], ["MAgP"])
    assert str(e.value).startswith(f"{run.source}:3:") and "article a is ranked again" in str(e.value)
    evaluate_passages(qrels, [run], ["MAiP"])  # the focused task does not care
    # the first result, in rank order, that returns to an earlier article is named
    run = run_of(tmp_path, ["1 Q0 a 1 9 r 0 20", "1 Q0 b 2 8 r 0 50", "1 Q0 c 3 7 r 60 20", "1 Q0 b 4 7 r 6 2",
                            "1 Q0 a 5 7 r 6 2"], "r2.fol")
    with pytest.raises(RunFormatError, match=r"r2\.fol:4: topic 1: article b"):
        evaluate_passages(qrels, [run], ["MAgP(task=bic)"])


def test_rank_ties_keep_file_order(tmp_path, qrels):
    tied = run_of(tmp_path, ["1 Q0 c 1 1 r 0 50", "1 Q0 a 1 1 r 10 20"])
    v = values(evaluate_passages(qrels, [tied], ["gP@1"]))
    assert v["gP@1"]["1"] == pytest.approx(1.0625 * 1 * 1 / (0.0625 + 1))  # c (all of it, exactly) first


def test_measure_names_round_trip():
    from graphsr.measures import parse_measure

    for name in ("iP[0.01]", "iP[0.005]", "MAiP", "gP@10", "gR(task=bic)@5", "MAgP(task=bic)", "MAgP(beta=1)",
                 "MAgP(task=bic,n=100)@1500"):
        m = parse_measure(name)
        assert str(m) == name and parse_measure(str(m)) == m
    assert str(parse_measure("iP(x=0.1)")) == "iP[0.10]"
    assert parse_measure("MAgP(task=bic,n=500)") == parse_measure("MAgP(task=bic)")
    for bad in ("iP", "iP[2]", "MAgP(task=focused)", "gP", "MAgP(beta=0)", "SRP[3]@1"):
        with pytest.raises(MeasureNameError):
            parse_measure(bad)


def test_sr_measures_refused_on_passages(tmp_path, qrels):
    with pytest.raises(MeasureNameError, match="not a passage measure"):
        evaluate_passages(qrels, [run_of(tmp_path, FOCUSED)], ["SRP@10"])


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
    res = evaluate_passages(q, [run_of(tmp_path, run_lines)], ["MAgP", "MAgP(task=bic)"])
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
    a = evaluate_passages(qrels, [xml], ["MAiP", "iP[0.01]"])
    b = evaluate_passages(qrels, [run_of(tmp_path, FOCUSED)], ["MAiP", "iP[0.01]"])
    assert values(a) == values(b)


def test_xml_path_results_need_and_use_a_collection(tmp_path):
    from graphsr.io import iter_documents

    write(tmp_path / "coll" / "a.xml", "<article><p>0123456789</p><p>abcde</p></article>")
    doc = next(iter_documents(tmp_path / "coll"))
    sub = write(tmp_path / "p.xml", '<inex-submission run-id="p"><topic topic-id="1"><result><file>a</file>'
                                    '<path>/article[1]/p[2]</path></result></topic></inex-submission>')
    with pytest.raises(RunFormatError, match="need the collection"):
        read_passage_run(sub)
    run = read_passage_run(sub, {"a": doc})
    assert (run.offset.tolist(), run.length.tolist()) == ([10], [5])
    bad = write(tmp_path / "bad.xml", '<inex-submission><topic topic-id="1"><result><file>a</file>'
                                      '<path>/article[1]/p[3]</path></result></topic></inex-submission>')
    from graphsr.errors import UnknownNodeError

    with pytest.raises(UnknownNodeError):
        read_passage_run(bad, {"a": doc})
    with pytest.raises(RunFormatError, match=r"bad\.xml:1: malformed XML"):
        read_passage_run(write(tmp_path / "bad.xml", "<inex-submission><topic topic-id=\"1\">"))


def test_cli_detects_fol_and_prints_the_official_sets(tmp_path, capsys):
    q = write(tmp_path / "q.qrels", QRELS)
    run = write(tmp_path / "r.fol", "".join(f"{line}\n" for line in FOCUSED))
    assert main(["eval", str(q), str(run), "-q"]) == 0
    out, err = capsys.readouterr()
    lines = [line.split("\t") for line in out.splitlines()]
    assert [m for m, t, _ in lines if t == "all"] == ["runid", "num_q", "iP[0.00]", "iP[0.01]", "iP[0.05]",
                                                        "iP[0.10]", "MAiP"]
    assert ["MAiP", "1", "0.178218"] in lines and "impossible recall points" in err
    ctx = write(tmp_path / "c.fol", "".join(f"{line}\n" for line in CONTEXT))
    assert main(["eval", str(q), str(ctx), "--task", "bic", "-c"]) == 0
    out = capsys.readouterr().out
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert names[2:] == ["MAgP(task=bic)"] + [f"gP(task=bic)@{k}" for k in (1, 2, 3, 5, 10, 25, 50)] + [
        f"gR(task=bic)@{k}" for k in (1, 2, 3, 5, 10, 25, 50)]
    assert "num_q\tall\t3" in out
    assert main(["eval", str(q), str(run), "--curve", "-m", "MAiP"]) == 0
    out = capsys.readouterr().out
    assert "iP[0.37]\tall" in out and "iP[1.00]\tall" in out
    assert main(["eval", str(q), str(run), "--model", "p*:extent"]) == 2
    assert "does not apply to FOL" in capsys.readouterr().err


def test_overlap_rule_vectorised_equals_the_sequential_walk():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from graphsr.measures.fol import PassageInputs, _overlapping_earlier, _walk_overlaps

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40), st.integers(0, 15)), max_size=40))
    def check(results):
        n = len(results)
        group = np.array([g for g, _, _ in results], dtype=np.int64)
        start = np.array([a for _, a, _ in results], dtype=np.int64)
        end = start + np.array([k for _, _, k in results], dtype=np.int64)
        z = np.zeros(0, dtype=np.int64)
        x = PassageInputs([], np.zeros(n, dtype=np.int64), group, np.full(n, -1), start, end, z, z, z, z, z, z, z)
        walked = _walk_overlaps(x, np.arange(n), np.zeros(n, dtype=bool))
        assert _overlapping_earlier(x).tolist() == walked.tolist()

    check()


def test_elements_as_passages(tmp_path):
    from graphsr.evaluation.fol_convert import passage_qrels, passage_run
    from graphsr.io import iter_documents, read_element_qrels, read_run

    # a: "0123456789" + "abcde" + "XY"; b: "hello"
    write(tmp_path / "c" / "a.xml", "<a><p>0123456789</p><p>abcde</p><q>XY</q></a>")
    write(tmp_path / "c" / "b.xml", "<b><p>hello</p></b>")
    docs = {d.docid: d for d in iter_documents(tmp_path / "c")}
    q = read_element_qrels(write(tmp_path / "q", "1 Q0 a /a[1]/p[2] 1\n1 Q0 a /a[1]/q[1] 0.5\n"
                                                 "1 Q0 a /a[1] 0\n1 Q0 b /b[1] 0\n"))
    fq = passage_qrels(q, docs)
    assert fq.docid.tolist() == ["a", "b"] and fq.rel_chars.tolist() == [7, 0] and fq.bep.tolist() == [10, -1]
    assert (fq.pass_start.tolist(), fq.pass_end.tolist()) == ([10], [17])  # adjacent p[2] and q[1] merge
    run = read_run(write(tmp_path / "r", "1 Q0 a 1 1 s /a[1]/p[2]\n1 Q0 a 1 1 s /a[1]\n1 Q0 b 2 1 s /b[1]/p[1]\n"))
    fr = passage_run(run, docs)
    assert fr.docid.tolist() == ["a", "b"] and fr.offset.tolist() == [0, 0] and fr.length.tolist() == [17, 5]
    v = values(evaluate_passages(fq, [fr], ["iP[0.00]", "MAgP"]))
    assert v["iP[0.00]"]["1"] == pytest.approx(7 / 17)
    assert v["MAgP"]["1"] == pytest.approx(1.0625 * (7 / 17) / (0.0625 * 7 / 17 + 1))


def _reference(qrels_rows, run_rows, beta=0.25, n=500.0):
    """The definitions, character by character with Python sets (independent of the numpy code)."""
    import math

    hl = {(t, d): {c for o, k in spans for c in range(o, o + k)} for t, d, spans, _ in qrels_rows}
    bep = {(t, d): b for t, d, _, b in qrels_rows}
    out = {}
    for t in sorted({r[0] for r in run_rows}):
        rows = [r for r in run_rows if r[0] == t]
        trel = sum(len(v) for (tt, _), v in hl.items() if tt == t)
        nrel = sum(1 for (tt, _), v in hl.items() if tt == t and v)
        # focused
        kept, rel, size, best = {}, 0, 0, [0.0] * 101
        for _, d, o, k in rows:
            if any(max(o, a) < min(o + k, b) for a, b in kept.get(d, [])):
                continue
            kept.setdefault(d, []).append((o, o + k))
            rel += len(hl.get((t, d), set()) & set(range(o, o + k)))
            size += k
            if trel:
                p = rel / size if size else 0.0
                b = min(math.floor(rel / trel * 100.0), 100)
                best[b] = max(best[b], p)
        levels = [max(best[j:]) for j in range(101)]
        # RiC / BiC
        order = list(dict.fromkeys(d for _, d, _, _ in rows))
        ric, bic, isrel = [], [], []
        for d in order:
            chars = {c for _, dd, o, k in rows if dd == d for c in range(o, o + k)}
            h = hl.get((t, d), set())
            found = len(chars & h)
            p, r = (found / len(chars) if chars else 0.0), (found / len(h) if h else 0.0)
            ric.append((1 + beta ** 2) * p * r / (beta ** 2 * p + r) if found else 0.0)
            entry = next(o for _, dd, o, _ in rows if dd == d)
            dist = abs(bep.get((t, d), -1) - entry)
            bic.append((n - dist) / n if h and dist <= n else 0.0)
            isrel.append(bool(h))
        agp = {}
        for name, s in (("ric", ric), ("bic", bic)):
            agp[name] = sum(sum(s[:i + 1]) / (i + 1) for i in range(len(s)) if isrel[i]) / nrel if nrel else 0.0
        out[t] = {"levels": levels, "MAiP": sum(levels) / 101, "ric": agp["ric"], "bic": agp["bic"],
                  "gP@3": sum(ric[:3]) / 3, "gR@3": (sum(isrel[:3]) / nrel) if nrel else 0.0}
    return out


def test_measures_equal_the_definitions_on_random_runs(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

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

    counter = iter(range(10 ** 6))

    @settings(max_examples=120, deadline=None)
    @given(case())
    def check(c):
        qrels_rows, run_rows = c
        i = next(counter)
        lines = []
        for t, d, spans, b, length in qrels_rows:
            rc = sum(k for _, k in spans)
            lines.append(f"{t} Q0 {d} {rc} {length}" + (f" {b} " + " ".join(f"{o}:{k}" for o, k in spans)
                                                         if spans else ""))
        q = read_fol_qrels(write(tmp_path / f"q{i}", "\n".join(lines) + "\n"))
        run = run_of(tmp_path, [f"{t} Q0 {d} {r + 1} 0 x {o} {k}" for r, (t, d, o, k) in enumerate(run_rows)],
                     f"r{i}")
        names = ["MAiP", "MAgP", "MAgP(task=bic)", "gP@3", "gR@3"] + [f"iP[{j / 100:.2f}]" for j in range(101)]
        got = values(evaluate_passages(q, [run], names))
        ref = _reference([(t, d, s, b) for t, d, s, b, _ in qrels_rows], run_rows)
        for t, e in ref.items():
            assert got["MAiP"][t] == pytest.approx(e["MAiP"], abs=1e-12)
            assert got["MAgP"][t] == pytest.approx(e["ric"], abs=1e-12)
            assert got["MAgP(task=bic)"][t] == pytest.approx(e["bic"], abs=1e-12)
            assert got["gP@3"][t] == pytest.approx(e["gP@3"], abs=1e-12)
            assert got["gR@3"][t] == pytest.approx(e["gR@3"], abs=1e-12)
            for j in range(101):
                assert got[f"iP[{j / 100:.2f}]"][t] == pytest.approx(e["levels"][j], abs=1e-12)
            assert 0 <= got["MAiP"][t] <= got["iP[0.00]"][t] + 1e-12 <= 1 + 1e-12

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
    from graphsr.measures.fol_family import IP_CURVE

    res = evaluate_passages(qrels, [run_of(tmp_path, FOCUSED)], IP_CURVE)
    levels, curves = interpolated_precision_curves(res)
    curve = curves[res.runs[0].name]
    assert len(levels) == 101 and curve[11] == pytest.approx(0.5) and curve[12] == pytest.approx(40 / 110)
    assert curve.mean() == pytest.approx((12 * 0.5 + 33 * 40 / 110) / 101)
    q = write(tmp_path / "q.qrels", QRELS)
    run = write(tmp_path / "r.fol", "".join(f"{line}\n" for line in FOCUSED))
    out = tmp_path / "curve.png"
    assert main(["eval", str(q), str(run), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    capsys.readouterr()
    with pytest.raises(Exception, match="needs iP"):
        interpolated_precision_curves(evaluate_passages(qrels, [run_of(tmp_path, FOCUSED)], ["MAiP"]))
    from graphsr.data import sample

    s = sample("mobydick")
    assert main(["eval", str(s["qrels"]), str(s["runs"][0]), "--collection", str(s["collection"]),
                 "--plot", str(tmp_path / "x.png")]) == 2
    assert "passage runs" in capsys.readouterr().err
