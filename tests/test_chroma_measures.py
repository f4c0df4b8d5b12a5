"""Chroma's chunking measures (ChromaIoU, ChromaP, ChromaR) and the other span measures (budgetP, budgetR,
unjudged_chars): equal, question by question, to what Chroma's own evaluation gives on its benchmark for three
chunkings (tests/data/chroma, recorded by tools/record_chroma.py); worked by hand; and against an oracle that
counts characters as sets (hypothesis)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphsr
import graphsr.errors
import graphsr.io
from graphsr.evaluation import evaluate
from graphsr.measures.provider import ScoringContext

DATA = Path(__file__).parent / "data" / "chroma"
SAMPLE = graphsr.sample("chroma")  # (Chroma's benchmark: its corpora and questions)
CORPORA = SAMPLE["collection"]


@pytest.fixture(scope="module")
def benchmark():
    texts = graphsr.io.document_texts(CORPORA)
    return texts, graphsr.read_spans(SAMPLE["qrels"], texts)


@pytest.mark.parametrize("chunking", ["fixed800", "overlap800", "blocks800"])
@pytest.mark.parametrize("cut", ["run5", "runall"])
def test_equal_to_chromas_evaluation_question_by_question(benchmark, chunking, cut):
    _, qrels = benchmark
    chunks = graphsr.read_chunk_map(DATA / chunking / "chunks.jsonl.gz")
    run = graphsr.read_chunk_run(DATA / chunking / f"{cut}.trec.gz", chunks=chunks)
    expected = json.loads(gzip.decompress((DATA / chunking / "expected.json.gz").read_bytes()))[cut]
    at = "@5" if cut == "run5" else ""
    names = {"iou": f"ChromaIoU{at}", "precision": f"ChromaP{at}", "recall": f"ChromaR{at}"}
    res = evaluate(qrels, [run], list(names.values()), context=ScoringContext(chunks=chunks), all_topics=True)
    r = res.runs[0]
    order = np.argsort([int(t) for t in r.topics])
    assert [int(r.topics[i]) for i in order] == list(range(472))
    for key, name in names.items():
        got = r.values[graphsr.parse_measure(name)][order]
        np.testing.assert_allclose(got, expected[key], rtol=1e-15, atol=0)


def test_the_first_n_needs_the_chunk_map(benchmark):
    _, qrels = benchmark
    run = graphsr.read_chunk_run(DATA / "fixed800" / "run5.trec.gz", chunks=DATA / "fixed800" / "chunks.jsonl.gz")
    with pytest.raises(graphsr.errors.GraphsrInputError, match="chunk map"):
        evaluate(qrels, [run], ["ChromaIoU"])


# -- by hand --------------------------------------------------------------------------------------------------

TEXTS = {"a": "x" * 100, "b": "y" * 50}
SPANS = [("1", "a", 10, 30, 1), ("1", "a", 25, 40, 1), ("2", "b", 0, 10, 1)]
RESULTS = [
    ("1", "a", 0, 20, 3),
    ("1", "b", 0, 20, 2),
    ("1", "a", 15, 35, 1),
    ("2", "b", 10, 20, 1),
    ("2", "b", 0, 5, 0.5),
]
CHUNKS = {
    **{f"a{i}": ("a", 10 * i, 10 * i + 10) for i in range(10)},
    **{f"b{i}": ("b", 10 * i, 10 * i + 10) for i in range(5)},
}


def _write(path: Path, rows, keys) -> Path:
    path.write_text("".join(json.dumps(dict(zip(keys, r))) + "\n" for r in rows))
    return path


def _score(tmp_path, measures, spans=SPANS, results=RESULTS, chunks=CHUNKS, texts=TEXTS):
    qrels = graphsr.read_spans(
        _write(tmp_path / "q.jsonl", spans, ("query_id", "doc_id", "start", "end", "relevance")), texts
    )
    run = graphsr.read_chunk_run(_write(tmp_path / "r.jsonl", results, ("query_id", "doc_id", "start", "end", "score")))
    res = evaluate(qrels, [run], measures, context=ScoringContext(chunks=chunks), all_topics=True)
    return {str(m): dict(zip(res.runs[0].topics, v.tolist())) for m, v in res.runs[0].values.items()}


def test_worked_example(tmp_path):
    got = _score(
        tmp_path,
        [
            "ChromaIoU@2",
            "ChromaP@2",
            "ChromaR@2",
            "ChromaIoU",
            "budgetP@30",
            "budgetR@30",
            "unjudged_chars",
            "unjudged_chars@1",
        ],
    )
    # topic 1: references [10,30) and [25,40) of a; the first two results a[0,20) and b[0,20): a[10,20) found
    # (10); 40 characters charged; references summed 20 + 15; missed [20,30) and [25,40): 25
    assert got["ChromaP@2"]["1"] == 10 / 40 and got["ChromaR@2"]["1"] == 10 / 35
    assert got["ChromaIoU@2"]["1"] == 10 / (40 + 25)
    # no @k: a0 (touching at 10), a1, a2, a3 and a4 (touching at 40) meet a reference, so N = 5 (3 retrieved):
    # a[0,35) found [10,35) = 25; charged 60; missed [35,40) = 5
    assert got["ChromaIoU"]["1"] == 25 / 65
    # topic 2: reference b[0,10); b[10,20) then b[0,5): found 5, charged 15, missed 5
    assert (got["ChromaP@2"]["2"], got["ChromaR@2"]["2"], got["ChromaIoU@2"]["2"]) == (5 / 15, 5 / 10, 5 / 20)
    # 30 characters read: a[0,20) (10 relevant) then b[0,10); 30 relevant characters in all
    assert got["budgetP@30"]["1"] == 10 / 30 and got["budgetR@30"]["1"] == 10 / 30
    # topic 2 reads b[10,20) then b[0,5): 5 relevant of 15 read, budget 30
    assert got["budgetP@30"]["2"] == 5 / 30 and got["budgetR@30"]["2"] == 5 / 10
    # read once: a[0,20), b[0,20), then a[20,35) (a[15,20) read before) = 55; judged: a[10,40) -> 10 + 15
    assert got["unjudged_chars"]["1"] == 30 / 55 and got["unjudged_chars@1"]["1"] == 10 / 20


def test_chroma_judges_whole_documents(tmp_path):
    """Chroma's references leave the rest of their document not relevant: all of it was judged."""
    path = tmp_path / "questions.csv"
    refs = json.dumps([{"content": "x" * 10, "start_index": 10, "end_index": 20}])
    path.write_text('question,references,corpus_id\n"why?","' + refs.replace('"', '""') + '",a\n')
    qrels = graphsr.read_spans(path, TEXTS)
    run = graphsr.read_chunk_run(
        _write(
            tmp_path / "r.jsonl",
            [("0", "a", 50, 90, 1), ("0", "b", 0, 10, 0.5)],
            ("query_id", "doc_id", "start", "end", "score"),
        )
    )
    res = evaluate(qrels, [run], ["unjudged_chars", "ChromaP@2"])
    assert res.runs[0].values[graphsr.parse_measure("unjudged_chars")].tolist() == [10 / 50]
    assert res.runs[0].values[graphsr.parse_measure("ChromaP@2")].tolist() == [0.0]


# -- against counting characters as sets ----------------------------------------------------------------------


def _chars(ranges) -> set:
    return {(d, i) for d, s, e in ranges for i in range(s, e)}


def _oracle(refs, results, chunks, k):
    """Chroma's rules, counted character by character (refs and results of one topic, results ranked)."""
    if k is None:
        touching = [c for c in chunks if any(d == c[0] and max(s, c[1]) <= min(e, c[2]) for d, s, e in refs)]
        k = min(len(touching), 20)
    first = results[:k]
    got, wanted = _chars(first), _chars(refs)
    found = len(got & wanted)
    charged = sum(e - s for _, s, e in first)
    missed = sum(len(_chars([r]) - got) for r in refs)
    total = sum(e - s for _, s, e in refs)
    div = lambda a, b: a / b if b else 0.0  # noqa: E731
    return {"iou": div(found, charged + missed), "precision": div(found, charged), "recall": div(found, total)}


def _budget_oracle(rel, results, B):
    read, seen = [], set()
    for d, s, e in results:
        for i in range(s, e):
            if (d, i) not in seen:
                seen.add((d, i))
                read.append((d, i))
    hit = len(set(read[:B]) & _chars(rel))
    return hit / B, (hit / len(_chars(rel)) if rel else 0.0)


_range = st.tuples(st.sampled_from("ab"), st.integers(0, 60), st.integers(1, 25)).map(
    lambda t: (t[0], t[1], min(t[1] + t[2], 80))
)


@settings(max_examples=150, deadline=None)
@given(
    refs=st.lists(_range, min_size=1, max_size=4),
    results=st.lists(_range, min_size=0, max_size=8),
    chunks=st.lists(_range, min_size=1, max_size=12),
    k=st.one_of(st.none(), st.integers(1, 6)),
    B=st.integers(1, 120),
)
def test_against_counting_characters(tmp_path_factory, refs, results, chunks, k, B):
    tmp = tmp_path_factory.mktemp("oracle")
    texts = {"a": "x" * 80, "b": "y" * 80, "c": "z" * 80}
    spans = [("q", d, s, e, 1) for d, s, e in refs] + [("q", "c", 0, 1, 0)]  # (a topic with no results still counts)
    ranked = [("q", d, s, e, len(results) - n) for n, (d, s, e) in enumerate(results)]
    chunk_map = {f"c{n}": c for n, c in enumerate(chunks)}
    at = f"@{k}" if k else ""
    got = _score(
        tmp,
        [f"ChromaIoU{at}", f"ChromaP{at}", f"ChromaR{at}", f"budgetP@{B}", f"budgetR@{B}"],
        spans,
        ranked or [("other", "a", 0, 1, 1)],
        chunk_map,
        texts,
    )
    want = _oracle(refs, results, chunks, k)
    for key, name in (("iou", "ChromaIoU"), ("precision", "ChromaP"), ("recall", "ChromaR")):
        assert got[f"{name}{at}"]["q"] == pytest.approx(want[key], rel=1e-12, abs=1e-15)
    p, r = _budget_oracle([(d, s, e) for d, s, e in refs], results, B)
    assert got[f"budgetP@{B}"]["q"] == pytest.approx(p, rel=1e-12, abs=1e-15)
    assert got[f"budgetR@{B}"]["q"] == pytest.approx(r, rel=1e-12, abs=1e-15)


# -- the command line -----------------------------------------------------------------------------------------


def test_graphsr_eval_reads_spans_chunk_runs_and_maps(tmp_path, capsys):
    from graphsr.cli.main import main

    run = tmp_path / "run5.trec"
    run.write_bytes(gzip.decompress((DATA / "fixed800" / "run5.trec.gz").read_bytes()))
    chunks = DATA / "fixed800" / "chunks.jsonl.gz"
    code = main(
        [
            "eval",
            str(SAMPLE["qrels"]),
            str(run),
            "--collection",
            str(CORPORA),
            "--chunks",
            str(chunks),
            "-m",
            "ChromaIoU@5",
            "-m",
            "ChromaIoU",
            "-q",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    values = {(m, t): float(v) for m, t, v in (line.split("\t") for line in out.splitlines()) if m.startswith("C")}
    expected = json.loads(gzip.decompress((DATA / "fixed800" / "expected.json.gz").read_bytes()))
    assert [values["ChromaIoU@5", str(q)] for q in range(472)] == pytest.approx(expected["run5"]["iou"], abs=5e-7)
    assert values["ChromaIoU@5", "all"] == pytest.approx(np.mean(expected["run5"]["iou"]), abs=5e-7)
    assert "were never judged" in err  # (results in other corpora than the question's)
    # without the collection the offsets are taken as they are: the same values, and the checks skipped said
    code = main(["eval", str(SAMPLE["qrels"]), str(run), "--chunks", str(chunks), "-m", "ChromaIoU@5", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    alone = {(m, t): float(v) for m, t, v in (line.split("\t") for line in out.splitlines()) if m.startswith("C")}
    assert alone == {k: v for k, v in values.items() if k[0] == "ChromaIoU@5"}
    assert "not checked against the documents' texts (no --collection DIR)" in err


def test_formats_declared_rather_than_detected(tmp_path, capsys):
    from graphsr.cli.main import main

    spans = _write(tmp_path / "q.jsonl", SPANS, ("query_id", "doc_id", "start", "end", "relevance"))
    run = _write(tmp_path / "r.jsonl", RESULTS, ("query_id", "doc_id", "start", "end", "score"))
    docs = tmp_path / "docs"
    docs.mkdir()
    for d, text in TEXTS.items():
        (docs / f"{d}.txt").write_text(text)
    argv = ["eval", str(spans), str(run), "--collection", str(docs), "-m", "ChromaIoU@2", "-m", "budgetP@30"]
    assert main(argv) == 0
    detected = capsys.readouterr().out
    assert main(argv + ["--qrels-format", "spans", "--run-format", "spans"]) == 0
    assert capsys.readouterr().out == detected
    assert main(argv + ["--run-format", "fol"]) == 2  # (a JSON lines run read as INEX passage lines: one line)
    err = capsys.readouterr().err
    assert err.count("graphsr: error") == 1 and "Traceback" not in err
    assert main(argv + ["--qrels-format", "fol"]) == 2
    err = capsys.readouterr().err
    assert err.count("graphsr: error") == 1 and "Traceback" not in err


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=40))
def test_positions_count_from_each_topics_first_item(topics):
    """A result's place in its topic (what cut-offs read) is its index less its topic's first index."""
    from graphsr.measures.span.kernels import positions

    t = sorted(topics)
    assert positions(np.array(t, dtype=np.int64)).tolist() == [k - t.index(v) for k, v in enumerate(t)]
