"""Holes judged by UMBRELA: graphsr judge export --umbrela writes UMBRELA's batch requests, and judge fill
--umbrela-judgments reads UMBRELA's own records of them (recorded in tests/data/umbrela, see its README) back onto
the holes, by position, checking each record's query and passage, leaving the holes of fallback judgments
(result_status 0) unfilled; merged, the judgments score runs as the same judgments without judges do."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graphsr.errors import GraphsrInputError
from graphsr.evaluation.umbrela import read_judgments, requests

DATA = Path(__file__).parent / "data" / "umbrela"
MODEL = "model:umbrela@gpt-4o-2024-08-06"


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "graphsr", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def lines(path):
    return [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]


@pytest.fixture
def data(tmp_path):
    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


CASES = {  # (qrels, run, export options, requests, UMBRELA's records, measures)
    "documents": ("qrels", "run", ["--depth", "5"], "requests.jsonl", "judgments.jsonl", ["-m", "nDCG@5", "-m", "Judged@5"]),
    "chunks": (
        "cqrels", "crun", ["--depth", "4", "--chunks", "chunks.jsonl"], "crequests.jsonl", "cjudgments.jsonl",
        ["--chunks", "chunks.jsonl", "--collection", "corpus.jsonl", "-m", "ChromaIoU@4", "-m", "unjudged_chars@4"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_umbrela_s_judgments_fill_the_holes_and_score_as_the_same_judgments(data, case):
    qrels, run, options, asked, judged, measures = CASES[case]
    got = cli("judge", "export", qrels, run, "--queries", "queries.tsv", "--collection", "corpus.jsonl", *options,
              "-o", "holes.jsonl", "--umbrela", "asked.jsonl", cwd=data)  # fmt: skip
    assert got.returncode == 0, got.stderr
    # the requests are those UMBRELA judged (recorded): the holes, grouped by query, in order
    assert lines(data / "asked.jsonl") == lines(data / asked)
    holes, records = lines(data / "holes.jsonl"), lines(data / judged)
    assert [(r["query"], r["passage"]) for r in records] == [
        (c_q["query"]["text"], c["doc"]["segment"]) for c_q in lines(data / asked) for c in c_q["candidates"]
    ]
    filled = cli("judge", "fill", "holes.jsonl", "--umbrela-judgments", judged, "-o", "filled.jsonl", cwd=data)
    assert filled.returncode == 0, filled.stderr
    assert "1 of UMBRELA's" in filled.stderr and "result_status 0" in filled.stderr
    out = lines(data / "filled.jsonl")
    fallback = [r for r in records if r["result_status"] == 0]
    assert len(fallback) == 1 and len(out) == len(holes) - 1
    assert {r["judge"] for r in out} == {MODEL}
    by_text = {(r["query"], r["passage"]): r["judgment"] for r in records if r["result_status"] == 1}
    assert all(r["relevance"] == by_text[r["query"], r["text"]] for r in out)
    assert not any((r["query"], r["text"]) == (fallback[0]["query"], fallback[0]["passage"]) for r in out)
    imp = ["--chunks", "chunks.jsonl"] if case == "chunks" else []
    merged = cli("judge", "import", qrels, "filled.jsonl", *imp, "-o", "merged", cwd=data)
    assert merged.returncode == 0, merged.stderr
    # the merged judgments score the run as the same judgments with no judge named
    plain = data / "plain"
    if case == "documents":
        plain.write_text("".join(" ".join(x.split()[:4]) + "\n" for x in (data / "merged").read_text().splitlines()))
    else:
        plain.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "judge"}) + "\n" for r in lines(data / "merged")))  # fmt: skip
    a = _scores(data, "merged", run, measures)
    b = _scores(data, "plain", run, measures)
    assert {k: v for k, v in a.items() if not k[0].startswith("judged_by_model")} == b
    # the fallback's hole stays a hole
    hole_measure = "Judged@5" if case == "documents" else "unjudged_chars@4"
    assert (b[hole_measure, "all"] < 1) if case == "documents" else (b[hole_measure, "all"] > 0)


def _scores(cwd, qrels, run, measures):
    out = cli("eval", qrels, run, *measures, "-q", "--format", "json", cwd=cwd)
    assert out.returncode == 0, out.stderr
    return {(r["measure"], r["topic"]): r["value"] for r in json.loads(out.stdout)}


def _holes(data):
    got = cli("judge", "export", "qrels", "run", "--queries", "queries.tsv", "--collection", "corpus.jsonl",
              "--depth", "5", "-o", "holes.jsonl", cwd=data)  # fmt: skip
    assert got.returncode == 0, got.stderr
    return lines(data / "holes.jsonl")


def test_records_out_of_order_missing_or_malformed_are_refused(data):
    holes = _holes(data)
    records = lines(data / "judgments.jsonl")
    assert requests(holes) == lines(data / "requests.jsonl")

    def refused(recs, match, name=None):
        path = data / "bad.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in recs))
        with pytest.raises(GraphsrInputError, match=match):
            read_judgments(path, holes, name)

    refused(records[:-1], "23 judgments for 24 holes")
    refused([records[1], records[0], *records[2:]], r"bad.jsonl:1: the (query|passage) judged is not hole 1's")
    refused([{**records[0], "judgment": 4}, *records[1:]], "one of 0, 1, 2, 3, got 4")
    refused([{**records[0], "judgment": True}, *records[1:]], "got True")
    refused([{**records[0], "result_status": 2}, *records[1:]], "result_status is 0 or 1")
    refused([{**records[0], "model": "other"}, *records[1:]], "name 2 models")
    refused([{**r, "model": "a model"} for r in records], "give the judge's name with --name")
    # a name given is the judge recorded, whatever the records say
    filled, fallbacks = read_judgments(data / "judgments.jsonl", holes, "checked:umbrela@gpt-4o")
    assert fallbacks == 1 and {r["judge"] for r in filled} == {"checked:umbrela@gpt-4o"}
    # older UMBRELA records (no result_status) are judgments as they stand
    (data / "old.jsonl").write_text("".join(json.dumps({k: v for k, v in r.items() if k != "result_status"}) + "\n" for r in records))  # fmt: skip
    assert len(read_judgments(data / "old.jsonl", holes)[0]) == len(holes)


def test_the_fill_command_refuses_what_does_not_apply(data):
    _holes(data)
    for extra, said in ((["--cache", "c.jsonl"], "--cache"), (["--name", "model:x"], None)):
        args = ["judge", "fill", "holes.jsonl", "-o", "f.jsonl", *extra]
        if said:
            args += ["--umbrela-judgments", "judgments.jsonl"]
        got = cli(*args, cwd=data)
        assert got.returncode == 2 and got.stderr.count("\n") == 1 and not (data / "f.jsonl").exists(), got.stderr
