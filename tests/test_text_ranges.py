"""A character range is checked against its document's text by one check with one message, in every reader that
meets one: span judgments, chunk judgments, runs of spans, runs of chunk ids (their chunk map's ranges), span and
run DataFrames, and the chunk map Chroma's measures count.  A range past its document's end, or on a document the
collection does not hold, is refused in one line naming the file and line -- never scored as text."""

from __future__ import annotations

import json
import re

import pytest

import graphsr

from .conftest import SPAN_TEXTS, run_cli, span_case
from graphsr.errors import GraphsrInputError

TEXTS = SPAN_TEXTS


def _lines(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def files(tmp_path):
    return span_case(tmp_path, [("a0", "a", 0, 60), ("a1", "a", 60, 115), ("b0", "b", 0, 96)])


def _eval(capsys, *argv):
    code, out, err = run_cli(capsys, "eval", *argv)
    return code, out, [line for line in err.splitlines() if line.startswith("graphsr: error")]


def _mean(results) -> float:
    [values] = results.runs[0].values.values()
    return float(values.mean())


def _message(error_line: str) -> str:
    """The message after 'graphsr: error: FILE:LINE: '."""
    return re.sub(r"^graphsr: error: \S+:\d+: ", "", error_line)


def test_a_run_span_past_its_document_end_is_refused_as_a_judged_one_is(files, capsys):
    run = _lines(files["dir"] / "r.jsonl", [{"query_id": "1", "doc_id": "a", "start": 100, "end": 130, "score": 1}])
    code, out, errors = _eval(capsys, files["qrels"], run, "--collection", files["collection"], "-m", "ChromaP@1")
    assert code == 2 and len(errors) == 1 and "r.jsonl:1: " in errors[0], errors
    bad_qrels = _lines(
        files["dir"] / "bad-q.jsonl", [{"query_id": "1", "doc_id": "a", "start": 100, "end": 130, "relevance": 1}]
    )
    code, _, judged = _eval(capsys, bad_qrels, run, "--collection", files["collection"], "-m", "ChromaP@1")
    assert code == 2 and len(judged) == 1 and "bad-q.jsonl:1: " in judged[0]
    # one check, one message: only the name of what the range belongs to differs
    assert _message(errors[0]).replace("result", "span") == _message(judged[0])
    assert "[100, 130) of document 'a': expected 0 <= start < end <= 115 (the document's text)" in errors[0]


def test_a_chunk_map_range_past_its_document_end_is_refused_where_a_run_retrieves_it(files, capsys):
    rows = [json.loads(line) for line in files["chunks"].read_text().splitlines()]
    rows[1]["end"] = 200  # a1 runs 85 characters past a's end
    bad_map = _lines(files["dir"] / "bad-map.jsonl", rows)
    run = files["dir"] / "r.run"
    run.write_text("1 Q0 a1 1 2.0 r\n1 Q0 b0 2 1.0 r\n")
    code, out, errors = _eval(
        capsys, files["qrels"], run, "--collection", files["collection"], "--chunks", bad_map, "-m", "ChromaP@1"
    )
    assert code == 2 and len(errors) == 1 and out == "", (out, errors)
    assert "r.run:1: result (its chunk's range in the chunk map) [60, 200) of document 'a'" in errors[0]
    # Chroma's measures without a cut-off count the map's chunks: the map itself is checked
    run.write_text("1 Q0 b0 1 1.0 r\n")
    code, out, errors = _eval(
        capsys, files["qrels"], run, "--collection", files["collection"], "--chunks", bad_map, "-m", "ChromaP"
    )
    assert code == 2 and len(errors) == 1 and "chunk 'a1' of the chunk map: [60, 200) of document 'a'" in errors[0]
    # the same map within the texts scores
    code, out, errors = _eval(
        capsys, files["qrels"], run, "--collection", files["collection"], "--chunks", files["chunks"], "-m", "ChromaP"
    )
    assert code == 0 and not errors


def test_a_run_span_on_a_document_the_collection_lacks_is_refused(files, capsys):
    run = _lines(files["dir"] / "r.jsonl", [{"query_id": "1", "doc_id": "zz", "start": 0, "end": 5, "score": 1}])
    code, _, errors = _eval(capsys, files["qrels"], run, "--collection", files["collection"], "-m", "ChromaP@1")
    assert code == 2 and len(errors) == 1 and "document 'zz' is not in the collection" in errors[0]


def test_a_run_at_its_documents_ends_scores_and_one_past_is_refused(files):
    qrels = graphsr.read_spans(files["qrels"], TEXTS)
    at_end = graphsr.read_chunk_run(
        _lines(files["dir"] / "end.jsonl", [{"query_id": "1", "doc_id": "a", "start": 0, "end": 115, "score": 1}])
    )
    assert _mean(graphsr.evaluate(qrels, [at_end], ["ChromaP@1"])) == pytest.approx(4 / 115)
    past = graphsr.read_chunk_run(
        _lines(files["dir"] / "past.jsonl", [{"query_id": "1", "doc_id": "a", "start": 0, "end": 116, "score": 1}])
    )
    with pytest.raises(GraphsrInputError, match=r"past\.jsonl:1: result \[0, 116\) of document 'a'") as e:
        graphsr.evaluate(qrels, [past], ["ChromaP@1"])
    assert "\n" not in str(e.value)


def test_frames_are_checked_against_the_lengths_bound_to_them():
    import pandas as pd

    from graphsr.io.frames import as_qrels, as_run

    q = as_qrels(pd.DataFrame([("1", "a", 6, 10, 1)], columns=["qid", "docno", "start", "end", "label"]), {"a": 115})
    run = as_run(pd.DataFrame([("1", "a", 110, 140, 1.0)], columns=["qid", "docno", "start", "end", "score"]))
    with pytest.raises(
        GraphsrInputError, match=r"result \[110, 140\) of document 'a': expected 0 <= start < end <= 115"
    ):
        graphsr.evaluate(q, [run], ["ChromaP@1"])
    # without the documents' lengths (none bound), a frame's own furthest end is all that is known: not checked
    unbound = as_qrels(pd.DataFrame([("1", "a", 6, 10, 1)], columns=["qid", "docno", "start", "end", "label"]))
    assert _mean(graphsr.evaluate(unbound, [run], ["ChromaP@1"])) == 0.0
