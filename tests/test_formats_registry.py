"""The registry of input formats: every format is detected from a file of its own, in one place, and its reader
returns the type it declares."""

from __future__ import annotations

import json
import tarfile

import pytest

from graphsr.io import formats

from .conftest import write


@pytest.fixture
def files(tmp_path):
    out = {}
    out[formats.ASSESSMENTS, "spans"] = write(
        tmp_path / "q.jsonl", json.dumps({"query_id": "1", "doc_id": "a", "start": 0, "end": 3, "relevance": 1}) + "\n"
    )
    out[formats.ASSESSMENTS, "fol"] = write(tmp_path / "fol.qrels", "1 Q0 a 3 10 0 0:3\n")
    out[formats.ASSESSMENTS, "element"] = write(tmp_path / "e.qrels", "1 0 a 1\n")
    span = {"start_byte": 0, "end_byte": 9, "start_token": 0, "end_token": 2}
    example = {"example_id": 1, "document_html": "<P>a b</P>", "long_answer_candidates": [dict(span, top_level=True)]}
    example["annotations"] = [{"long_answer": span, "short_answers": [], "yes_no_answer": "NONE"}]
    out[formats.ASSESSMENTS, "natural questions"] = write(tmp_path / "nq-dev-00.jsonl", json.dumps(example) + "\n")
    prediction = {"example_id": 1, "long_answer": span, "long_answer_score": 1, "short_answers_score": 0}
    out[formats.RUN, "nq"] = write(tmp_path / "predictions.json", json.dumps({"predictions": [prediction]}))
    node = {"node_id": "n1", "doc_id": "a", "start": 0, "end": 3, "parent_id": None, "text": "one"}
    out[formats.RUN, "retrieved nodes"] = write(
        tmp_path / "nodes.run.jsonl", json.dumps(dict(node, query_id="1")) + "\n"
    )
    hierarchy = json.dumps(node) + "\n" + json.dumps({"doc_id": "a", "text": "one two"}) + "\n"
    out[formats.COLLECTION, "retriever nodes"] = write(tmp_path / "hierarchy.jsonl", hierarchy)
    out[formats.COLLECTION, "natural questions"] = out[formats.ASSESSMENTS, "natural questions"]
    out[formats.RUN, "empty"] = write(tmp_path / "empty.run", "")
    out[formats.RUN, "xml"] = write(tmp_path / "s.xml", "<inex-submission/>\n")
    out[formats.RUN, "spans"] = write(
        tmp_path / "r.jsonl", json.dumps({"query_id": "1", "doc_id": "a", "start": 0, "end": 3, "score": 1}) + "\n"
    )
    out[formats.RUN, "fol"] = write(tmp_path / "fol.run", "1 Q0 a 1 1.0 r 0 3\n")
    out[formats.RUN, "element"] = write(tmp_path / "e.run", "1 Q0 a 1 1.0 r\n")
    shards = tmp_path / "shards"
    write(shards / "m_00.jsonl", json.dumps({"chunk_id": "c", "doc_id": "a", "start": 0, "end": 3}) + "\n")
    out[formats.CHUNK_MAP, "shards"] = shards
    out[formats.CHUNK_MAP, "records"] = write(tmp_path / "map.csv", "chunk_id,doc_id,start,end\nc,a,0,3\n")
    corpus = tmp_path / "corpus"
    write(corpus / "c_00.json", json.dumps({"docid": "a", "body": "one two"}) + "\n")
    out[formats.COLLECTION, "json lines corpus"] = corpus
    docs = tmp_path / "docs"
    write(docs / "a.md", "# one\n\ntwo\n")
    out[formats.COLLECTION, "documents"] = docs
    with tarfile.open(tmp_path / "docs.tar.gz", "w:gz") as tar:
        tar.add(docs / "a.md", "a.md")
    out[formats.COLLECTION, "archive"] = tmp_path / "docs.tar.gz"
    out[formats.ROUTES, "jsonl"] = write(
        tmp_path / "log.jsonl",
        json.dumps({"route_id": "r", "step": 1, "docid": "a", "from": "/a[1]", "to": "/a[1]/b[1]"}) + "\n",
    )
    out[formats.ROUTES, "csv"] = write(tmp_path / "log.csv", "route_id,step,docid,from,to\nr,1,a,/a[1],/a[1]/b[1]\n")
    return out


def test_every_format_but_the_ones_decided_by_a_declaration_is_detected_from_a_file(files):
    import graphsr.navigation.stored  # noqa: F401  (declares the stored model format)

    declared_only = {(formats.ASSESSMENTS, "chunk ids"), (formats.RUN, "chunk ids"), (formats.MODEL, "name")}
    every = {(f.role, f.name) for f in formats.FORMATS}
    assert every - declared_only == set(files)
    for (role, name), path in files.items():
        assert formats.detect(path, role).name == name, (role, name)
    # with a chunk map given, TREC qrels and runs are of its chunk ids
    assert formats.detect(files[formats.ASSESSMENTS, "element"], formats.ASSESSMENTS, chunks=True).name == "chunk ids"
    assert formats.detect(files[formats.RUN, "element"], formats.RUN, chunks=True).name == "chunk ids"


def test_each_reader_returns_the_type_its_format_declares(files):
    chunks = {"c": ("a", 0, 3)}
    given = formats.Given(collection=None, chunks=chunks, documents={})
    for (role, name), path in files.items():
        if name in ("xml",):  # (an XML submission needs its documents: read in test_fol_official and the like)
            continue
        fmt = formats.detect(path, role)
        got = fmt.read(str(path), given)
        declared = fmt.returns
        if declared.startswith("list["):
            assert isinstance(got, list) and type(got[0]).__name__ == declared[5:-1], (role, name)
        else:
            assert type(got).__name__ == declared, (role, name, type(got).__name__)
    element = files[formats.ASSESSMENTS, "element"]  # (TREC qrels of chunk ids, with their map)
    fmt = formats.detect(element, formats.ASSESSMENTS, chunks=True)
    assert type(fmt.read(str(element), formats.Given(chunks={"a": ("a", 0, 3)}))).__name__ == fmt.returns


def test_a_declared_format_is_taken_as_declared_and_an_unknown_one_is_one_line(files):
    path = files[formats.ASSESSMENTS, "element"]
    assert formats.detect(path, formats.ASSESSMENTS, declared="fol").name == "fol"
    with pytest.raises(Exception, match="must be one of natural questions, spans, fol, chunk ids, element, got 'nope'"):
        formats.detect(path, formats.ASSESSMENTS, declared="nope")
    rows = formats.table()
    assert len(rows) == len(formats.FORMATS) and all(len(r) == 5 for r in rows)
