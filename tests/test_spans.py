"""Span judgments (graphsr/io/spans.py): the same spans given as span JSON lines, as CSV and in INEX's FOL
qrels format are the same assessments, and every passage measure scores them the same; Chroma's
questions_df.csv reads as it ships; every span is checked against the collection's texts."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphsr
from graphsr.errors import QrelsFormatError
from graphsr.io.collection import list_collection, read_document_text
from graphsr.io.fol import read_fol_qrels, read_fol_run
from graphsr.io.spans import document_texts, read_spans


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A collection of a Markdown, a text, an HTML and an XML document, and their texts."""
    c = tmp_path_factory.mktemp("spans") / "c"
    c.mkdir()
    (c / "guide.md").write_text(
        "# Guide\n\nIntro words here.\n\n## Install\n\nRun the installer, then restart.\n\n"
        "- one item\n- two items\n" * 3
    )
    (c / "notes.txt").write_text("first paragraph of notes\nstill first\n\nsecond paragraph\n" * 4)
    (c / "page.html").write_text("<h1>Page</h1><p>text of the page<script>x()</script> and more</p>" * 3)
    (c / "art.xml").write_text(
        "<article><title>An article</title><sec><p>its first section</p></sec><sec><p>and a second</p></sec></article>"
    )
    return c, document_texts(c)


def test_texts_are_what_offsets_count_in(corpus):
    from graphsr.io.collection import read_document

    c, texts = corpus
    for s in list_collection(c):
        assert len(read_document_text(s)) == int(read_document(s).end[0]) == len(texts[s.docid])
    assert texts["guide"].startswith("# Guide") and texts["art"] == "An articleits first sectionand a second"
    assert "x()" not in texts["page"]


SPAN = st.tuples(
    st.sampled_from(["q1", "q2", "10"]),
    st.sampled_from(["guide", "notes", "page", "art"]),
    st.floats(0, 1),
    st.floats(0, 1),
    st.sampled_from([0, 1, 1, 2]),
)


def _spans(texts, raw):
    out = []
    for q, d, a, b, rel in raw:
        n = len(texts[d])
        s = int(a * (n - 1))
        e = min(n, s + 1 + int(b * (n - s - 1)))
        out.append({"query_id": q, "doc_id": d, "start": s, "end": e, "relevance": rel})
    return out


def _fol_text(spans, texts) -> str:
    """The same judgments as INEX FOL qrels lines (relevant spans merged, the first relevant start as BEP)."""
    rows: dict = {}
    for sp in spans:
        row = rows.setdefault((sp["query_id"], sp["doc_id"]), [])
        if sp["relevance"] > 0:
            row.append((sp["start"], sp["end"]))
    lines = []
    for (q, d), parts in rows.items():
        merged: list = []
        for s, e in sorted(parts):
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        tail = (f" {merged[0][0]} " + " ".join(f"{s}:{e - s}" for s, e in merged)) if merged else ""
        lines.append(f"{q} Q0 {d} {sum(e - s for s, e in merged)} {len(texts[d])}{tail}")
    return "\n".join(lines) + "\n"


MEASURES = [
    "MAiP(task=thorough)",
    "iP[0.01](task=thorough)",
    "iP[0.1](task=thorough)",
    "char_prec",
    "MAgP(task=ric)",
    "gP(task=ric)@5",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(SPAN, min_size=1, max_size=20), st.lists(SPAN, min_size=1, max_size=15))
def test_spans_jsonl_csv_and_fol_are_the_same_assessments(corpus, tmp_path, raw, retrieved):
    c, texts = corpus
    spans = _spans(texts, raw)
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(s) + "\n" for s in spans))
    (tmp_path / "s.tsv").write_text(
        "query_id\tdoc_id\tstart\tend\trelevance\n"
        + "".join(f"{s['query_id']}\t{s['doc_id']}\t{s['start']}\t{s['end']}\t{s['relevance']}\n" for s in spans)
    )
    (tmp_path / "s.fol").write_text(_fol_text(spans, texts))
    fol = read_fol_qrels(tmp_path / "s.fol")
    for path in ("s.jsonl", "s.tsv"):
        got = read_spans(tmp_path / path, texts)
        for a in ("doc_len", "rel_chars", "bep", "pass_row", "pass_start", "pass_end"):
            assert getattr(got, a).tolist() == getattr(fol, a).tolist(), (path, a)
        assert got.vocab.topic_names()[got.topic_code].tolist() == fol.vocab.topic_names()[fol.topic_code].tolist()
    # a passage run over the same documents scores the same against both
    # (as INEX's rules have it: a topic's lines together, an article's passages together and disjoint)
    taken: dict = {}
    for q, d, a, b, _ in sorted(retrieved, key=lambda r: (r[0], r[1])):
        sp = _spans(texts, [(q, d, a, b, 1)])[0]
        if all(sp["end"] <= s or e <= sp["start"] for s, e in taken.get((q, d), [])):
            taken.setdefault((q, d), []).append((sp["start"], sp["end"]))
    run_lines = [
        f"{q} Q0 {d} {k + 1} {100 - k} r {s} {e - s}"
        for k, ((q, d), s, e) in enumerate((key, s, e) for key, parts in taken.items() for s, e in parts)
    ]
    (tmp_path / "r.fol").write_text("\n".join(run_lines) + "\n")
    values = [
        graphsr.calc_aggregate(MEASURES, q, read_fol_run(tmp_path / "r.fol", "r", vocab=q.vocab))
        for q in (read_spans(tmp_path / "s.jsonl", texts), read_fol_qrels(tmp_path / "s.fol"))
    ]
    assert values[0] == values[1]


def test_chromas_questions_read_as_they_ship(corpus, tmp_path):
    c, texts = corpus
    refs = [
        {"content": texts["guide"][9:26], "start_index": 9, "end_index": 26},
        {"content": texts["guide"][30:50], "start_index": 30, "end_index": 50},
    ]
    import csv

    with open(tmp_path / "questions_df.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["question", "references", "corpus_id"])
        w.writerow(["how to install?", json.dumps(refs), "guide"])
        w.writerow(
            ["what notes?", json.dumps([{"content": texts["notes"][0:5], "start_index": 0, "end_index": 5}]), "notes"]
        )
    q = read_spans(tmp_path / "questions_df.csv", c)
    assert q.vocab.topic_names()[q.topic_code].tolist() == ["0", "1"]
    assert q.rel_chars.tolist() == [17 + 20, 5] and q.bep.tolist() == [9, 0]


@pytest.mark.parametrize(
    "line, words",
    [
        ('{"query_id": "1", "doc_id": "nope", "start": 0, "end": 3, "relevance": 1}', "document 'nope' is not in"),
        ('{"query_id": "1", "doc_id": "art", "start": 5, "end": 500, "relevance": 1}', "expected 0 <= start < end <="),
        ('{"query_id": "1", "doc_id": "art", "start": 5, "end": 5, "relevance": 1}', "expected 0 <= start < end"),
        ('{"query_id": "1", "doc_id": "art", "start": -1, "end": 5, "relevance": 1}', "expected 0 <= start"),
        ('{"query_id": "1", "doc_id": "art", "start": 0, "end": 2, "relevance": 1, "content": "Xn"}', "holds 'An'"),
        ('{"query_id": "1", "doc_id": "art", "start": "x", "end": 2, "relevance": 1}', "expected an integer start"),
        ('{"query_id": "1", "doc_id": "art", "start": 0, "end": 2, "relevance": NaN}', "expected a finite relevance"),
        ('{"query_id": "1", "doc_id": "art", "start": 0, "end": 2}', "missing relevance"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_a_span_the_collection_does_not_hold_is_one_line(corpus, tmp_path, line, words):
    _, texts = corpus
    path = tmp_path / "bad.jsonl"
    path.write_text('{"query_id": "1", "doc_id": "art", "start": 0, "end": 2, "relevance": 1}\n' + line + "\n")
    if line.startswith("["):
        path.write_text("{}\n" + line + "\n")
    with pytest.raises(QrelsFormatError) as info:
        read_spans(path, texts)
    message = str(info.value)
    assert words in message and "\n" not in message and ("bad.jsonl:2" in message or "bad.jsonl" in message)
