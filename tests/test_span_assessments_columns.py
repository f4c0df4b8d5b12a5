"""Span judgments made assessments with array operations (graphsr.io.spans._assessments) equal, field for field and
error for error, the row-by-row reading they replaced (kept here as the reference: one dict a (query, document),
its spans merged in Python), on random spans that reach the edges: touching and nested spans, grades of 0 and
below, a document judged by several queries, ranges outside the text or in no document, contents that differ."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import QrelsFormatError
from graphsr.io.spans import _assessments
from graphsr.io.text_ranges import range_problem


def _merged(spans):
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def _reference(spans, texts, lengths, whole_documents):
    """What the row-by-row reader gave: (rows, judged, references) or the message it refused with."""
    rows: dict = {}
    for qid, doc, start, end, grade, content, line in spans:
        text = texts.get(doc) if texts else None
        size = len(text) if text is not None else (lengths or {}).get(doc)
        problem = range_problem("span", doc, start, end, size)
        if problem is not None:
            return f"{problem} @{line}"
        if content is not None and text is not None and text[start:end] != content:
            return f"content @{line}"
        row = rows.setdefault((qid, doc), {"line": line, "spans": [], "judged": [], "len": size, "raw": []})
        row["judged"].append((0, size) if whole_documents else (start, end))
        if grade > 0:
            row["spans"].append((start, end))
            row["raw"].append((start, end))
    table = []
    judged = {}
    refs = ([], [], [])
    for k, (key, row) in enumerate(rows.items()):
        merged = _merged(row["spans"])
        judged[key] = [tuple(x) for x in _merged(row["judged"])]
        table.append((key, row["len"], sum(e - s for s, e in merged), merged[0][0] if merged else -1, row["line"]))
        table.append([(k, s, e) for s, e in merged])
        for s, e in row["raw"]:
            refs[0].append(k)
            refs[1].append(s)
            refs[2].append(e)
    return table, judged, refs


def _ours(spans, texts, lengths, whole_documents):
    try:
        q = _assessments(spans, texts, "f", whole_documents=whole_documents, references=True, lengths=lengths)
    except QrelsFormatError as exc:
        if "not the content given" in exc.message:
            return f"content @{exc.line}"
        return f"{exc.message} @{exc.line}"
    topics, docs = q.vocab.topic_names(), q.vocab.doc_names()
    table = []
    for k in range(len(q)):
        key = (topics[q.topic_code[k]], docs[q.doc_code[k]])
        table.append((key, int(q.doc_len[k]), int(q.rel_chars[k]), int(q.bep[k]), int(q.line[k])))
        at = q.pass_row == k
        table.append([(k, int(s), int(e)) for s, e in zip(q.pass_start[at], q.pass_end[at])])
    refs = tuple(a.tolist() for a in q.references)
    return table, q.judged_spans, refs


_TEXTS = {"a": "x" * 30, "b": "abcdefghij" * 4, "c": "y"}


@st.composite
def _spans(draw):
    n = draw(st.integers(0, 25))
    out = []
    for line in range(1, n + 1):
        doc = draw(st.sampled_from(["a", "b", "c", "zz"] if draw(st.integers(0, 30)) == 0 else ["a", "b", "c"]))
        size = len(_TEXTS.get(doc, ""))
        start = draw(st.integers(-1 if draw(st.integers(0, 30)) == 0 else 0, max(size - 1, 0)))
        end = draw(st.integers(start, size + (1 if draw(st.integers(0, 30)) == 0 else 0)))
        if end == start and draw(st.integers(0, 20)) != 0:
            end = start + 1
        grade = draw(st.sampled_from([1.0, 2.0, 0.0, -1.0]))
        content = None
        if doc in _TEXTS and draw(st.booleans()):
            content = _TEXTS[doc][max(start, 0) : end]
            if draw(st.integers(0, 25)) == 0:
                content += "!"
        out.append((draw(st.sampled_from(["q1", "q2", "q3"])), doc, start, end, grade, content, line))
    return out


@settings(max_examples=200, deadline=None)
@given(spans=_spans(), whole=st.booleans(), with_texts=st.booleans())
def test_array_assessments_equal_the_row_by_row_reading(spans, whole, with_texts):
    texts = dict(_TEXTS) if with_texts else None
    lengths = None if with_texts else {d: len(t) for d, t in _TEXTS.items()}
    want, got = _reference(spans, texts, lengths, whole), _ours(spans, texts, lengths, whole)
    if isinstance(want, str):
        assert got == want  # (the same line refused, for the same reason)
        return
    assert got[0] == want[0]
    assert got[1] == want[1]
    assert list(got[2]) == [list(x) for x in want[2]]


def test_rows_far_apart_on_one_line_are_merged_each_on_its_own():
    """Ends so large that rows placed end to end would pass 2**62 are merged row by row, as others are."""
    big = 1 << 61
    spans = [("q", "d", big - 10, big - 5, 1.0, None, 1), ("r", "d", big - 7, big, 1.0, None, 2)]
    q = _assessments(spans, None, "f", references=True, lengths={"d": big})
    assert q.pass_start.tolist() == [big - 10, big - 7] and q.pass_end.tolist() == [big - 5, big]
    spans.append(("q", "d", big - 6, big - 2, 1.0, None, 3))
    q = _assessments(spans, None, "f", references=True, lengths={"d": big})
    assert q.pass_row.tolist() == [0, 1] and q.pass_end.tolist() == [big - 2, big]
    assert np.array_equal(q.rel_chars, [8, 7])


@pytest.mark.parametrize("whole", [False, True])
def test_no_span_gives_empty_assessments(whole):
    q = _assessments([], None, "f", whole_documents=whole, references=True, lengths={})
    assert len(q) == 0 and q.judged_spans == {} and all(len(a) == 0 for a in q.references)
