"""Chunk runs (graphsr/io/chunks.py): a run of chunk ids with its chunk map, the same results as span JSON
lines, and as an INEX FOL run score the same under every passage measure, for chunkings with and without
overlap; MS MARCO v2.1 segment files read as chunk maps; a chunk the map lacks is one line."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphsr
from graphsr.errors import RunFormatError
from graphsr.io.chunks import read_chunk_map, read_chunk_run
from graphsr.io.fol import read_fol_run
from graphsr.io.spans import read_spans

TEXTS = {
    "a": "alpha beta gamma delta epsilon zeta eta theta iota kappa " * 3,
    "b": "one two three four five six seven eight nine ten " * 4,
}


def _chunks(size: int, stride: int) -> dict[str, tuple[str, int, int]]:
    out = {}
    for doc, text in TEXTS.items():
        for k, start in enumerate(range(0, len(text), stride)):
            out[f"{doc}#{k}"] = (doc, start, min(len(text), start + size))
    return out


SPAN = ["ChromaIoU@3", "ChromaP@3", "ChromaR@3", "budgetP@30", "budgetR@30", "unjudged_chars", "unjudged_chars@2"]
ALL = [
    "MAiP(task=thorough)",
    "iP[0.01](task=thorough)",
    "iP[0.1](task=thorough)",
    "char_prec",
    "MAgP(task=ric)",
    "gP(task=ric)@5",
    "MAiP",
    "iP[0.05]",
] + SPAN
THOROUGH = ALL[:3] + SPAN  # (overlapping chunks: the focused and in-context tasks refuse them)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    size=st.integers(8, 60),
    overlap=st.booleans(),
    picks=st.lists(
        st.tuples(st.sampled_from(["1", "2"]), st.integers(0, 10**6), st.floats(0, 10)), min_size=1, max_size=12
    ),
    judged=st.lists(
        st.tuples(st.sampled_from(["1", "2"]), st.sampled_from(["a", "b"]), st.integers(0, 10**6), st.integers(1, 40)),
        min_size=1,
        max_size=6,
    ),
)
def test_chunk_ids_spans_and_fol_score_the_same(tmp_path, size, overlap, picks, judged):
    chunks = _chunks(size, max(1, size // 2) if overlap else size)
    ids = list(chunks)
    # judgments as spans
    spans = []
    for q, d, at, n in judged:
        start = at % (len(TEXTS[d]) - 1)
        spans.append({"query_id": q, "doc_id": d, "start": start, "end": min(len(TEXTS[d]), start + n), "relevance": 1})
    (tmp_path / "q.jsonl").write_text("".join(json.dumps(s) + "\n" for s in spans))
    qrels = read_spans(tmp_path / "q.jsonl", TEXTS)
    # one run in three forms: each query's chunks once, grouped by query, distinct scores
    chosen: dict = {}
    for q, k, score in picks:
        chosen.setdefault(q, {}).setdefault(ids[k % len(ids)], score)
    # (an article's chunks together, as Relevant in Context asks: ordered by document within a query)
    rows = [
        (q, c, 100 - j)
        for q in sorted(chosen)
        for j, c in enumerate(sorted(chosen[q], key=lambda c: (chunks[c][0], chunks[c][1])))
    ]
    with open(tmp_path / "map.tsv", "w") as fh:
        fh.write("chunk_id\tdoc_id\tstart\tend\n" + "".join(f"{c}\t{d}\t{s}\t{e}\n" for c, (d, s, e) in chunks.items()))
    (tmp_path / "r.trec").write_text("".join(f"{q} Q0 {c} {j + 1} {s} sys\n" for j, (q, c, s) in enumerate(rows)))
    (tmp_path / "r.jsonl").write_text(
        "".join(
            json.dumps({"query_id": q, "doc_id": chunks[c][0], "start": chunks[c][1], "end": chunks[c][2], "score": s})
            + "\n"
            for q, c, s in rows
        )
    )
    (tmp_path / "r.fol").write_text(
        "".join(
            f"{q} Q0 {chunks[c][0]} {j + 1} {s} sys {chunks[c][1]} {chunks[c][2] - chunks[c][1]}\n"
            for j, (q, c, s) in enumerate(rows)
        )
    )
    runs = [
        read_chunk_run(tmp_path / "r.trec", tmp_path / "map.tsv", "r", vocab=qrels.vocab),
        read_chunk_run(tmp_path / "r.jsonl", name="r", vocab=qrels.vocab),
        read_fol_run(tmp_path / "r.fol", "r", vocab=qrels.vocab),
    ]
    measures = THOROUGH if overlap else ALL
    outcomes = []
    for run in runs:
        try:
            outcomes.append(graphsr.calc_aggregate(measures, qrels, run))
        except graphsr.errors.GraphsrInputError as exc:  # (a rule of a task: the same for all three)
            outcomes.append(type(exc).__name__)
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert not isinstance(outcomes[0], str)  # (the runs keep INEX's rules: every measure scores them)


def test_ms_marco_segments_are_a_chunk_map(tmp_path):
    seg = tmp_path / "msmarco_v2.1_doc_segmented_00.json"
    seg.write_text(
        json.dumps(
            {
                "docid": "msmarco_v2.1_doc_00_0#0_0",
                "url": "u",
                "title": "t",
                "headings": "h",
                "segment": "text",
                "start_char": 0,
                "end_char": 120,
            }
        )
        + "\n"
        + json.dumps(
            {
                "docid": "msmarco_v2.1_doc_00_0#1_55",
                "url": "u",
                "title": "t",
                "headings": "h",
                "segment": "text",
                "start_char": 60,
                "end_char": 200,
            }
        )
        + "\n"
    )
    assert read_chunk_map(seg) == {
        "msmarco_v2.1_doc_00_0#0_0": ("msmarco_v2.1_doc_00_0", 0, 120),
        "msmarco_v2.1_doc_00_0#1_55": ("msmarco_v2.1_doc_00_0", 60, 200),
    }


def test_a_chunk_the_map_lacks_is_one_line_or_counted(tmp_path, capsys):
    (tmp_path / "map.jsonl").write_text(json.dumps({"chunk_id": "c1", "doc_id": "a", "start": 0, "end": 5}) + "\n")
    (tmp_path / "r.trec").write_text("1 Q0 c1 1 2.0 s\n1 Q0 c9 2 1.0 s\n")
    with pytest.raises(RunFormatError, match=r"r.trec:2: chunk 'c9' is not in the chunk map"):
        read_chunk_run(tmp_path / "r.trec", tmp_path / "map.jsonl")
    run = read_chunk_run(tmp_path / "r.trec", tmp_path / "map.jsonl", unknown="warn")
    assert len(run) == 1 and "1 result(s) name a chunk the map does not hold" in capsys.readouterr().err
    with pytest.raises(RunFormatError, match="needs a chunk map"):
        read_chunk_run(tmp_path / "r.trec")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    size=st.integers(8, 60),
    grades=st.lists(
        st.tuples(st.sampled_from(["1", "2"]), st.integers(0, 10**6), st.sampled_from([0, 1, 2])),
        min_size=1,
        max_size=10,
    ),
)
def test_chunk_judgments_projected_are_the_spans_they_cover(tmp_path, size, grades):
    """Judged chunks of one chunking (no overlap) projected onto characters are the span judgments of the same
    ranges: the same assessments, and a run of that chunking scores the same by either."""
    from graphsr.io.spans import read_chunk_qrels

    chunks = _chunks(size, size)
    ids = list(chunks)
    judged: dict = {}
    for q, k, g in grades:
        judged.setdefault((q, ids[k % len(ids)]), g)
    (tmp_path / "c.qrels").write_text("".join(f"{q} 0 {c} {g}\n" for (q, c), g in judged.items()))
    (tmp_path / "s.jsonl").write_text(
        "".join(
            json.dumps(
                {"query_id": q, "doc_id": chunks[c][0], "start": chunks[c][1], "end": chunks[c][2], "relevance": g}
            )
            + "\n"
            for (q, c), g in judged.items()
        )
    )
    projected = read_chunk_qrels(tmp_path / "c.qrels", chunks, TEXTS)
    direct = read_spans(tmp_path / "s.jsonl", TEXTS)
    for a in ("doc_len", "rel_chars", "bep", "pass_row", "pass_start", "pass_end"):
        assert getattr(projected, a).tolist() == getattr(direct, a).tolist(), a
    (tmp_path / "r.trec").write_text(
        "".join(f"{q} Q0 {c} {j + 1} {50 - j} s\n" for j, ((q, c), _) in enumerate(sorted(judged.items())))
    )
    scores = [
        graphsr.calc_aggregate(THOROUGH, qrels, read_chunk_run(tmp_path / "r.trec", chunks, "r", vocab=qrels.vocab))
        for qrels in (projected, direct)
    ]
    assert scores[0] == scores[1]


def test_overlapping_judged_chunks_take_the_highest_grade(tmp_path):
    """Stride chunks: where a relevant chunk and a non-relevant one overlap, the characters are relevant (the
    highest grade covering them); what no judged chunk covers was never judged."""
    from graphsr.io.spans import read_chunk_qrels

    chunks = {"a#0": ("a", 0, 10), "a#1": ("a", 5, 15), "a#2": ("a", 10, 20), "a#3": ("a", 30, 40)}
    (tmp_path / "c.qrels").write_text("1 0 a#0 1\n1 0 a#1 0\n1 0 a#3 2\n")
    q = read_chunk_qrels(tmp_path / "c.qrels", chunks, TEXTS)
    assert list(zip(q.pass_start.tolist(), q.pass_end.tolist())) == [(0, 10), (30, 40)]
    assert q.rel_chars.tolist() == [20] and q.bep.tolist() == [0]
    assert q.judged_spans == {("1", "a"): [(0, 15), (30, 40)]}  # [15, 30) and past 40: never judged
    (tmp_path / "bad.qrels").write_text("1 0 a#0 1\n1 0 zz 1\n")
    with pytest.raises(graphsr.errors.QrelsFormatError, match=r"bad.qrels:2: chunk 'zz' is not in the chunk map"):
        read_chunk_qrels(tmp_path / "bad.qrels", chunks, TEXTS)


# -- chunkings, chunk maps written, DataFrames of spans -----------------------------------------------------------


def test_a_chunk_map_written_reads_back_the_same_and_gzip_is_reproducible(tmp_path):
    from graphsr.io.chunks import make_chunks, read_chunk_map, write_chunk_map

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# T\n\nOne para.\n\n- item\n- item two\n\nLast para here.\n")
    for kw in ({"size": 10}, {"size": 10, "step": 4}, {"size": 30, "by": "blocks"}):
        chunks = make_chunks(tmp_path / "docs", **kw)
        ends = sorted(e for _, _, e in chunks.values())
        assert ends[-1] == len((tmp_path / "docs" / "a.md").read_text())  # the last chunk ends with the text
        assert write_chunk_map(chunks, tmp_path / "m.jsonl.gz") == len(chunks)
        assert read_chunk_map(tmp_path / "m.jsonl.gz") == chunks
        first = (tmp_path / "m.jsonl.gz").read_bytes()
        write_chunk_map(chunks, tmp_path / "m.jsonl.gz")
        assert (tmp_path / "m.jsonl.gz").read_bytes() == first
    with pytest.raises(ValueError, match="size"):
        make_chunks(tmp_path / "docs", 0)
    with pytest.raises(ValueError, match="by must be"):
        make_chunks(tmp_path / "docs", 10, by="sentences")


def test_span_frames_read_as_span_files(tmp_path):
    import pandas as pd

    from graphsr.errors import GraphsrInputError
    from graphsr.evaluation import evaluate
    from graphsr.io.frames import as_qrels, as_run

    texts = {"a": "x" * 100, "b": "y" * 60}
    spans = [("1", "a", 10, 30, 1), ("1", "b", 0, 20, 2), ("2", "a", 50, 60, 1), ("2", "b", 5, 9, 0)]
    results = [("1", "a", 0, 25, 3.0), ("1", "b", 10, 30, 2.0), ("2", "a", 40, 70, 1.0), ("2", "a", 0, 10, 0.5)]
    q_path = tmp_path / "q.jsonl"
    q_path.write_text(
        "".join(json.dumps(dict(zip(("query_id", "doc_id", "start", "end", "relevance"), r))) + "\n" for r in spans)
    )
    r_path = tmp_path / "r.jsonl"
    r_path.write_text(
        "".join(json.dumps(dict(zip(("query_id", "doc_id", "start", "end", "score"), r))) + "\n" for r in results)
    )
    measures = ["MAiP(task=thorough)", "ChromaIoU@2", "budgetR@20", "char_prec(task=thorough)"]
    by_files = evaluate(graphsr.read_spans(q_path, texts), [graphsr.read_chunk_run(r_path)], measures)
    q_frame = pd.DataFrame(spans, columns=["qid", "docno", "start", "end", "label"])
    r_frame = pd.DataFrame(results, columns=["qid", "docno", "start", "end", "score"])
    by_frames = evaluate(as_qrels(q_frame, {"a": 100, "b": 60}), [as_run(r_frame)], measures)
    for m in by_files.measures:
        assert by_frames.runs[0].values[m].tolist() == by_files.runs[0].values[m].tolist(), m
    for bad, match in (
        (q_frame.assign(start=[1.5, 0, 50, 5]), "integer start"),
        (q_frame.assign(start=[float("nan"), 0, 50, 5]), "integer start"),
        (q_frame.drop(columns=["label"]), "missing relevance"),
    ):
        with pytest.raises(GraphsrInputError, match=match) as e:
            as_qrels(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(GraphsrInputError, match="expected 0 <= start < end <= 100"):
        as_qrels(q_frame.assign(end=[300, 20, 60, 9]), {"a": 100, "b": 60})
    for bad, match in (
        (r_frame.assign(score=[float("inf"), 2, 1, 0.5]), "finite score"),
        (r_frame.drop(columns=["end"]), "missing end"),
        (r_frame.assign(end=[0, 30, 70, 10]), "start < end"),
    ):
        with pytest.raises(GraphsrInputError, match=match) as e:
            as_run(bad)
        assert "\n" not in str(e.value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0.5, 1.0, 2.0]), st.integers(0, 6)), max_size=40))
def test_ranked_rows_are_the_sort_by_topic_score_and_id_whether_or_not_the_file_is_in_that_order(lines):
    """The one-pass check that a run is in trec_eval's order already equals the full sort, sorted or not."""
    import numpy as np

    from graphsr.io.chunks import _ranked_rows

    for given_ in (lines, sorted(lines, key=lambda r: (r[0], -r[1], -r[2]))):
        topic = np.array([t for t, _, _ in given_], dtype=np.int64)
        score = np.array([s for _, s, _ in given_], dtype=float)
        rank = np.array([n for _, _, n in given_], dtype=np.int64)
        rows = np.arange(len(given_))
        expected = sorted(rows.tolist(), key=lambda k: (topic[k], -score[k], -rank[k], k))
        assert _ranked_rows(rows, topic, score, lambda: rank).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=6), unique=True, max_size=30))
def test_chunk_ids_rank_in_the_order_of_their_utf8_bytes(names):
    """trec_eval orders tied ids by their bytes: NumPy's sort of the encoded ids (NULs included) is that order."""
    from graphsr.io.chunks import _byte_ranks

    expected = sorted(range(len(names)), key=lambda k: names[k].encode("utf-8"))
    ranks = _byte_ranks(names).tolist()
    assert sorted(range(len(names)), key=ranks.__getitem__) == expected
