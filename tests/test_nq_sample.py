"""The project's Natural Questions sample (tools/make_nq_sample.py: pages from Shakespeare's plays) read as NQ ships:
as a collection, as assessments and with two systems' runs; its official figures against those ``nq_eval.py``
printed for it (recorded beside it), and what the structure-aware measures give the near misses."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import graphsr
from graphsr.evaluation.inputs import Inputs, evaluate
from graphsr.io.collection import iter_documents, list_collection
from graphsr.io.nq import read_nq_assessments
from graphsr.io.nq_pages import page_of, page_tree
from graphsr.measures.parse import parse_measure

SAMPLE = Path(__file__).parent / "data" / "nq" / "sample"
ORIGINAL = SAMPLE / "nq-dev-00.jsonl.gz"
SIMPLIFIED = SAMPLE / "simplified-nq-dev.jsonl.gz"
OFFICIAL = {
    "NQlongF1": "long-best-threshold-f1",
    "NQlongP": "long-best-threshold-precision",
    "NQlongR": "long-best-threshold-recall",
    "NQshortF1": "short-best-threshold-f1",
    "NQshortP": "short-best-threshold-precision",
    "NQshortR": "short-best-threshold-recall",
    **{
        f"NQ{a}{f}[{t}]": f"{a}-{w}-at-precision>={t}"
        for a in ("long", "short")
        for t in (0.5, 0.75, 0.9)
        for f, w in (("R", "recall"), ("P", "precision"))
    },
}


def _records(path):
    return [json.loads(line) for line in gzip.open(path)]


@pytest.mark.parametrize("path", [ORIGINAL, SIMPLIFIED], ids=["original", "simplified"])
def test_every_candidate_is_an_element_of_its_page(path):
    records = _records(path)
    assert len(records) == 24
    nested = 0
    for r in records:
        tree = page_tree(page_of(r))
        assert tree.disagree == 0
        tags = tree.tree.tag_names()
        for k, c in enumerate(r["long_answer_candidates"]):
            node = int(tree.candidate_node[k])
            assert node > 0
            if "start_byte" in c:
                assert (int(tree.tree.start[node]), int(tree.tree.end[node])) == tree.chars(
                    c["start_byte"], c["end_byte"]
                )
            token = (
                r["document_tokens"][c["start_token"]]["token"]
                if "document_tokens" in r
                else r["document_text"].split(" ")[c["start_token"]]
            )
            assert tags[node] == token.strip("<>").lower()
            nested += not c["top_level"]
    assert nested > 100  # rows, items, a table in a cell


def test_the_sample_is_a_collection():
    sources = list_collection(ORIGINAL)
    assert [s.docid for s in sources] == [str(r["example_id"]) for r in _records(ORIGINAL)]
    docs = list(iter_documents(sources))
    assert all(d.tag_names()[0] == "html" for d in docs)
    loaded = graphsr.load_collection(ORIGINAL, ["p*"])
    assert loaded.num_documents == 24 and "p*" in loaded.summaries


def _figures(runs, qrels=ORIGINAL, **kw):
    measures = {parse_measure(k): v for k, v in OFFICIAL.items()}
    done = evaluate(Inputs(qrels, runs, **kw), list(measures))
    assert not done.errors, done.errors
    return measures, done.results


@pytest.mark.parametrize("qrels", [ORIGINAL, SIMPLIFIED], ids=["original", "simplified"])
def test_official_figures_equal_nq_eval(qrels):
    """The simplified file gives token offsets only; the predictions give both, so they match by tokens."""
    measures, results = _figures([SAMPLE / "predictions.json", SAMPLE / "candidates.run"], qrels)
    for run, recorded in zip(results.runs, ("nq_eval.json", "candidates.nq_eval.json")):
        expected = json.loads((SAMPLE / recorded).read_text())
        for m, key in measures.items():
            assert run.overall[m] == expected[key], (recorded, str(m))


def test_annotations_read_as_graded_elements_and_spans():
    from graphsr.io.nq_convert import long_answer_qrels, read_pages, short_answer_qrels

    gold = read_nq_assessments(ORIGINAL)
    pages = read_pages(ORIGINAL, gold)
    elements = long_answer_qrels(gold, pages)
    first = "9000000000000000001"  # who speaks first: three annotators the row, one the table, one the intro
    grades = sorted(v for v in elements.judgments[first].values() if v > 0)
    assert grades == [1.0, 1.0, 3.0]
    assert sum(1 for _ in elements.judgments[first]) == len(gold.candidates[first])  # every candidate judged
    shares = long_answer_qrels(gold, pages, share=True)
    assert sorted(v for v in shares.judgments[first].values() if v > 0) == [0.2, 0.2, 0.6]
    spans = short_answer_qrels(gold, pages)
    page = pages.pages[first]
    ((start, end),) = [(s, e) for s, e in zip(spans.pass_start.tolist(), spans.pass_end.tolist())][:1]
    assert page.text[start:end] == "Bernardo"


def test_near_misses(capsys):
    """The table around the row every annotator chose, and a row inside the table every annotator chose: NQ's
    figures and P@1 give 0; the passage measures credit the characters of the short answer a table holds; PRUM's
    navigation a little; SR none (it credits judged elements and charges what was seen twice)."""
    from graphsr.cli.main import main

    measures = ["NQlongF1", "P@1", "SR@1", "gP[1]", "budgetR@500", "PRUM(nav=model)", "nxCG@1"]
    argv = ["eval", str(ORIGINAL), str(SAMPLE / "predictions.json"), "-q", "--lenient"]
    assert main(argv + [x for m in measures for x in ("-m", m)]) == 0
    out = capsys.readouterr().out
    got = {(m, t): float(v) for m, t, v in (line.split("\t") for line in out.splitlines()) if m != "runid"}
    around, inside = "9000000000000000011", "9000000000000000012"  # (macbeth: an odd page, the near misses)
    for example in (around, inside):
        assert got["NQlongF1", example] == got["P@1", example] == got["SR@1", example] == got["nxCG@1", example] == 0
        assert got["PRUM(nav=model)", example] > 0
    assert got["gP@1", around] > 0 and got["budgetR@500", around] == 1.0  # the short answer is in the table
    assert got["gP@1", inside] == 0  # the table's question has no short answer: nothing to find in a row
    exact = "9000000000000000005"
    assert got["NQlongF1", exact] == got["P@1", exact] == got["SR@1", exact] == 1.0
