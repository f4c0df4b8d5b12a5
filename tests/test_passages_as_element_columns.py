"""Passages as elements with array operations (graphsr.measures.fol.convert): element_qrels and element_run equal,
on random trees, passages and runs, the definitions written out one result and one element at a time -- the
smallest element holding each range (the walk up from the last node starting at or before it, one range at a
time), a later result on an element its topic
has already left out, and each element relevant by its share of highlighted characters, counted character by
character."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.core.document import DocumentTree, containing_nodes
from graphsr.core.fol import FOLQrels, FOLRun, Vocabulary
from graphsr.errors import UnknownNodeError
from graphsr.measures import elements
from graphsr.measures.elements import line_nodes, nodes_of_lines
from graphsr.measures.fol.convert import element_qrels, element_run


@st.composite
def trees(draw, docid: str):
    def node(depth: int):
        tag = draw(st.sampled_from(["a", "b", "sec", "p"]))
        text = "x" * draw(st.integers(0, 6))
        kids = [node(depth + 1) for _ in range(draw(st.integers(0, 3 if depth < 4 else 0)))]
        return (tag, text, kids)

    return DocumentTree.from_nested(docid, node(0))


@st.composite
def inputs(draw):
    docs = {d: draw(trees(d)) for d in ("d1", "d2", "d3")}
    vocab = Vocabulary()
    q_rows, passages = [], []
    for t in ("t1", "t2"):
        for d in draw(st.lists(st.sampled_from(sorted(docs)), unique=True, max_size=3)):
            size = int(docs[d].end[0])
            row = len(q_rows)
            q_rows.append((t, d, size))
            for _ in range(draw(st.integers(0, 3)) if size else 0):
                a = draw(st.integers(0, size - 1))
                passages.append((row, a, draw(st.integers(a + 1, size))))
    merged = []  # (each row's passages disjoint and sorted, as the readers give them)
    for row in range(len(q_rows)):
        covered = sorted({c for r, a, b in passages if r == row for c in range(a, b)})
        runs = []
        for c in covered:
            if runs and runs[-1][1] == c:
                runs[-1][1] = c + 1
            else:
                runs.append([c, c + 1])
        merged += [(row, a, b) for a, b in runs]
    qrels = FOLQrels.from_columns(
        [r[0] for r in q_rows],
        [r[1] for r in q_rows],
        [r[2] for r in q_rows],
        [sum(b - a for r, a, b in merged if r == k) for k in range(len(q_rows))],
        [next((a for r, a, b in merged if r == k), -1) for k in range(len(q_rows))],
        [m[0] for m in merged],
        [m[1] for m in merged],
        [m[2] for m in merged],
        vocab=vocab,
    )
    lines = []
    for k in range(draw(st.integers(0, 25))):
        t, d = draw(st.sampled_from(["t1", "t2"])), draw(st.sampled_from(sorted(docs)))
        size = int(docs[d].end[0])
        a = draw(st.integers(0, size + 2))
        lines.append((t, d, draw(st.integers(1, 8)), a, draw(st.integers(0, 6)), k + 1))
    ranked = draw(st.booleans())
    run = FOLRun.from_columns(
        "r",
        [x[0] for x in lines],
        [x[1] for x in lines],
        [x[2] for x in lines],
        [-float(x[2]) for x in lines],
        [x[3] for x in lines],
        [x[4] for x in lines],
        [x[5] for x in lines],
        run_id="r",
        vocab=vocab,
        ranked=ranked,
    )
    return docs, qrels, run, draw(st.sampled_from(["file", "rank"]))


def containing_node(doc, start: int, end: int) -> int:
    """The smallest node holding ``[start, end)``, one range at a time: the last node (pre-order) starting at or
    before ``start``, then up its ancestors until one holds the range (the root past the text)."""
    i = int(np.searchsorted(doc.start, start, side="right")) - 1
    while i > 0 and not (doc.end[i] >= end and doc.start[i] <= start):
        i = int(doc.parent[i])
    return max(i, 0)


def reference_qrels(qrels, docs):
    """Per topic {(doc, xpath): share}, character by character."""
    out: dict = {}
    for k in range(len(qrels.topic)):
        t, d = str(qrels.topic[k]), str(qrels.docid[k])
        tree = docs[d]
        relevant = {
            c
            for p in np.flatnonzero(qrels.pass_row == k).tolist()
            for c in range(int(qrels.pass_start[p]), int(qrels.pass_end[p]))
        }
        judged = out.setdefault(t, {})
        for i in range(len(tree)):
            s, e = int(tree.start[i]), int(tree.end[i])
            hit = sum(1 for c in range(s, e) if c in relevant)
            if hit or i == 0:
                judged[(d, tree.xpath(i))] = hit / (e - s) if e > s else 0.0
    return out


def reference_run(run, docs, order):
    """Per topic [(rank, doc, xpath, line)], one result at a time; and how many were left out."""
    names, dnames = run.vocab.topic_names(), run.vocab.doc_names()
    if run.ranked or order == "rank":
        rows = sorted(range(len(run)), key=lambda r: (run.topic_code[r], run.rank[r], r))
    else:
        rows = sorted(range(len(run)), key=lambda r: (run.topic_code[r], run.line[r]))
    seen, out, left = set(), {}, 0
    for r in rows:
        t, d = str(names[run.topic_code[r]]), str(dnames[run.doc_code[r]])
        s = int(run.offset[r])
        node = containing_node(docs[d], s, s + int(run.length[r]))
        if (t, d, node) in seen:
            left += 1
            continue
        seen.add((t, d, node))
        got = out.setdefault(t, [])
        got.append((len(got) + 1, d, docs[d].xpath(node), int(run.line[r])))
    return out, left


@settings(max_examples=150, deadline=None)
@given(inputs())
def test_element_qrels_and_runs_equal_their_definitions(case):
    docs, qrels, run, order = case
    got = element_qrels(qrels, docs)
    want = reference_qrels(qrels, docs)
    assert list(got.judgments) == list(want)  # (topics in order of first appearance)
    for t in want:
        assert got.judgments[t] == pytest.approx(want[t], abs=1e-15)
    converted, left_out = element_run(run, docs, order)
    want_run, want_left = reference_run(run, docs, order)
    assert left_out == want_left
    assert {
        t: [(r.rank, r.docid, r.xpaths[0], r.lines[0] if r.lines else None) for r in rs]
        for t, rs in converted.results.items()
    } == want_run
    for columns in (got.columns, converted.columns):  # the nodes the converter keeps are the XPaths' nodes
        kept = nodes_of_lines(columns, docs)
        assert kept is elements._RESOLVED[columns][1]  # (read, not looked up)
        looked_up = line_nodes(columns.doc_names, columns.path_names, columns.doc, columns.path, docs)
        assert kept.tolist() == looked_up.tolist() and (kept >= 0).all()
        assert nodes_of_lines(columns, dict(docs)).tolist() == looked_up.tolist()  # (other documents: looked up)
    for d, tree in docs.items():
        size = int(tree.end[0])
        starts = np.arange(size + 2).repeat(3)
        ends = starts + np.tile([0, 1, 3], size + 2)
        assert containing_nodes(tree, starts, ends).tolist() == [
            containing_node(tree, int(s), int(e)) for s, e in zip(starts, ends)
        ]


def test_a_result_in_a_document_not_held_names_its_line():
    tree = DocumentTree.from_nested("d1", ("a", "xx", []))
    run = FOLRun.from_columns(
        "r", ["t", "t"], ["d1", "zz"], [1, 2], [2.0, 1.0], [0, 0], [1, 1], [4, 7], run_id="r", source="run.tsv"
    )
    with pytest.raises(UnknownNodeError) as err:
        element_run(run, {"d1": tree})
    assert "zz" in str(err.value) and "7" in str(err.value)
