"""Element runs as columns: the arrays every element family scores from are the ones the per-result path
builds, whatever the run holds (tree results, ties, unknown nodes, topics without assessments)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from graphsr.errors import GraphsrInputError
from graphsr.measures.elements import Diagnostics, JudgedNodes, ranked_nodes
from graphsr.core.document import DocumentTree
from graphsr.core.run import Run, RunRow

DOCS = {
    "a": DocumentTree.from_nested("a", ("article", "", [("sec", "xx", [("p", "y", [])]), ("sec", "zzz", [])])),
    "b": DocumentTree.from_nested("b", ("article", "", [("p", "q", []), ("p", "rr", [("b", "s", [])])])),
}
PATHS = {d: doc.xpaths() for d, doc in DOCS.items()}


@st.composite
def runs(draw):
    rows, line = [], 0
    for topic in draw(st.lists(st.sampled_from(["1", "2", "3", "10"]), min_size=1, max_size=3, unique=True)):
        used = set()
        for rank in range(1, draw(st.integers(1, 6)) + 1):
            docid = draw(st.sampled_from(["a", "b", "a", "b", "zz"]))
            choices = PATHS.get(docid, ["/x[1]"]) + ["/article[1]/nope[1]"]
            nodes = draw(st.lists(st.sampled_from(choices), min_size=1, max_size=3, unique=True))
            key = (docid, frozenset(nodes))
            if key in used:
                continue
            used.add(key)
            score = draw(st.sampled_from([1.0, 2.0, 0.5]))
            for xp in nodes:
                line += 1
                rows.append(RunRow(topic, docid, rank, score, xp, line))
    draw(st.randoms()).shuffle(rows)
    return rows


def _judged(draw_rng):
    out = {}
    for topic in ["1", "2", "7"]:
        out[topic] = {
            (d, i): float(draw_rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0]))
            for d, doc in DOCS.items()
            for i in range(len(doc))
            if draw_rng.random() < 0.5
        }
    return out


def _same(a, b):
    assert a.topics == b.topics
    for name in ("result_topic", "result_doc", "item_result", "item_node", "rel", "seen", "grade", "result_score"):
        x, y = getattr(a, name), getattr(b, name)
        assert np.array_equal(np.asarray(x), np.asarray(y), equal_nan=True), name


@settings(max_examples=300, deadline=None)
@given(runs(), st.integers(0, 2**32 - 1), st.sampled_from(["error", "warn"]), st.booleans())
def test_columns_and_results_give_the_same_arrays(rows, seed, unknown, shared_codes):
    rng = np.random.default_rng(seed)
    judged = _judged(rng)
    topics = ["1", "10", "2", "3", "7"]
    seen = {d: rng.random(len(doc)) for d, doc in DOCS.items()}
    columnar = Run.from_rows(rows, "r", "r.run")
    assert columnar.columns is not None
    legacy = Run("r", columnar.results, "r.run")  # the results view made columns again
    assert legacy.columns is not columnar.columns and legacy.results == columnar.results

    def build(run):
        diag, codes = Diagnostics(), ({"b": 0} if shared_codes else {})
        try:
            got = ranked_nodes(run, JudgedNodes(judged), topics, DOCS, seen.__getitem__, unknown, diag, codes)
        except GraphsrInputError as exc:
            return str(exc)
        return got, codes, (diag.unknown_run_lines, diag.dropped_results, diag.examples)

    a, b = build(columnar), build(legacy)
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    _same(a[0], b[0])
    assert a[1:] == b[1:]


def test_the_columnar_path_is_taken_and_fails_like_the_other(tmp_path):
    path = tmp_path / "r.run"
    path.write_text("1 Q0 a 1 2 sys /article[1]/sec[1]\n1 Q0 a 2 1 sys /article[1]/sec[9]\n")
    from graphsr.io import read_run

    run = read_run(path)
    assert run.columns is not None and run._results is None
    with pytest.raises(GraphsrInputError, match=r"r\.run:2: .*sec\[9\]"):
        ranked_nodes(run, {}, ["1"], DOCS, None)
    assert run._results is None  # scoring built no per-result objects


@settings(max_examples=200, deadline=None)
@given(runs())
def test_element_runs_become_the_same_passages_either_way(rows):
    from graphsr.measures.fol.convert import passage_run

    rows = [r for r in rows if r.docid in DOCS and r.xpath in PATHS[r.docid]] or [
        RunRow("1", "a", 1, 1.0, "/article[1]", 1)
    ]
    try:
        columnar = Run.from_rows(rows, "r", "r.run")
    except GraphsrInputError:  # leaving out unknown nodes made two results the same
        assume(False)
    legacy = Run("r", columnar.results, "r.run")
    a, b = passage_run(columnar, DOCS), passage_run(legacy, DOCS)
    for name in ("topic", "docid", "rank", "score", "offset", "length", "line"):
        assert getattr(a, name).tolist() == getattr(b, name).tolist(), name


def test_an_unknown_node_in_a_passage_conversion_names_its_line():
    from graphsr.measures.fol.convert import passage_run

    run = Run.from_rows(
        [RunRow("1", "a", 1, 1.0, "/article[1]", 1), RunRow("1", "a", 2, 1.0, "/article[1]/x[1]", 2)], "r", "r.run"
    )
    with pytest.raises(GraphsrInputError, match=r"r\.run:2: "):
        passage_run(run, DOCS)


@pytest.mark.parametrize("layout", ["in order", "blocks shuffled", "a topic split", "one topic"])
def test_large_runs_are_ranked_a_few_topics_at_a_time_as_in_one_sort(layout):
    """Runs longer than a chunk are ranked by groups of whole topics; the order is the one-sort order (trec_eval's:
    topic, score descending, document name descending), whatever the order of the topic blocks."""
    from graphsr.core.columns import CHUNK, DocumentColumns, _rank_lines, rank_documents

    rng = np.random.default_rng(len(layout))
    n_topics = 1 if layout == "one topic" else 37
    per = (CHUNK + 5000) // n_topics + 1
    many = 2 * per
    topics = np.repeat(np.arange(n_topics), per)
    docs = np.concatenate([rng.choice(many, per, replace=False) for _ in range(n_topics)])  # once per topic
    scores = rng.integers(0, 50, len(topics)).astype(float)  # many ties: names decide
    lines = np.arange(len(topics))
    if layout == "blocks shuffled":
        lines = np.concatenate([lines[topics == t] for t in rng.permutation(n_topics)])
    elif layout == "a topic split":
        lines = np.concatenate([lines[len(lines) // 2 :], lines[: len(lines) // 2]])
        lines = np.concatenate([lines[:10], lines[-10:], lines[10:-10]])
    t, d, s = topics[lines], docs[lines], scores[lines]
    names = [f"d{k}" for k in range(many)]
    c = DocumentColumns.from_lists([str(x) for x in t], [names[x] for x in d], s.tolist())
    assert len(t) > CHUNK
    got = rank_documents(c.topic, c.value, c.doc, c)
    assert got.tolist() == _rank_lines(c.topic, c.value, c.doc, c).tolist()
    expected = sorted(range(len(t)), key=lambda k: c.doc_names[c.doc[k]], reverse=True)  # names descending, then
    expected.sort(key=lambda k: (c.topic[k], -c.value[k]))  # (stable) topic, score descending
    assert got.tolist() == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(1, 6)), min_size=1, max_size=8),
    st.sampled_from(["descending", "a tie", "a rise", "a NaN"]),
    st.randoms(use_true_random=False),
)
def test_runs_written_ranked_take_the_order_the_sort_gives(blocks, defect, rng):
    """A run written ranked (each topic's lines together, scores strictly descending) is ranked without a sort;
    the order is the sort's whatever the blocks' order, and a run that is not so written (a tie, a score rising,
    a NaN, a topic in two places) is left to the sort."""
    from graphsr.core.columns import DocumentColumns, _rank_lines, _ranked_already, rank_documents

    topics, docs, scores = [], [], []
    for topic, length in blocks:
        values = sorted(rng.sample(range(1000), length), reverse=True)
        for k, v in enumerate(values):
            topics.append(str(topic))
            docs.append(f"d{rng.randrange(10**6)}-{len(docs)}")
            scores.append(v / 7)
    if defect != "descending" and len(scores) > 1:
        k = rng.randrange(1, len(scores))
        scores[k] = {"a tie": scores[k - 1], "a rise": scores[k - 1] + 1, "a NaN": float("nan")}[defect]
    c = DocumentColumns.from_lists(topics, docs, scores)
    if defect != "a NaN":
        assert rank_documents(c.topic, c.value, c.doc, c).tolist() == _rank_lines(c.topic, c.value, c.doc, c).tolist()
    fast = _ranked_already(c.topic, c.value)
    in_blocks = [t for k, t in enumerate(c.topic.tolist()) if k == 0 or t != c.topic[k - 1]]
    written_ranked = len(set(in_blocks)) == len(in_blocks) and all(
        c.topic[k] != c.topic[k - 1] or c.value[k] < c.value[k - 1] for k in range(1, len(c.topic))
    )
    assert (fast is not None) == written_ranked
    if fast is not None:
        assert fast.tolist() == _rank_lines(c.topic, c.value, c.doc, c).tolist()


def _as_file(lines, path):
    """The element run file of frame lines (topic, doc, score, xpath) without a rank column: every line a result
    of its own (never merged), ranked by score, then document, both descending, then in the given order."""
    order = {t: k for k, t in enumerate(dict.fromkeys(t for t, _, _, _ in lines))}
    ranked = sorted(
        range(len(lines)), key=lambda k: (order[lines[k][0]], -lines[k][2], [-ord(c) for c in lines[k][1]] + [0], k)
    )
    rank: dict = {}
    with open(path, "w") as out:
        for k in ranked:
            t, d, s, x = lines[k]
            rank[t] = rank.get(t, 0) + 1
            out.write(f"{t} Q0 {d} {rank[t]} {s!r} sys {x}\n")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["2", "10", "1"]),
            st.sampled_from(["a", "ab", "b", "B", "ba"]),
            st.sampled_from([1.0, 2.5, 0.5, 2.5]),
            st.sampled_from(["/a[1]", "/a", "/a[1]/b[1]", "/a[1]/b[2]", "/a/b[2]", "/a[1]/c[1]"]),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_element_frames_become_the_runs_their_files_read_as(tmp_path_factory, lines):
    """An element run given as columns without ranks (a DataFrame with no rank column) is ranked into columns,
    every line a result of its own: the same tree results as the equivalent element run file (one rank per line),
    or the same refusal (one result at two ranks)."""
    import pandas as pd

    from graphsr.errors import DuplicateResultError
    from graphsr.io import read_run
    from graphsr.io.runs import run_from_columns

    path = tmp_path_factory.mktemp("frames") / "r.run"
    frame = pd.DataFrame(lines, columns=["query_id", "doc_id", "score", "xpath"])
    try:
        got = run_from_columns(*(frame[c].tolist() for c in ("query_id", "doc_id", "score", "xpath")), "r")
    except DuplicateResultError as exc:
        got = exc
    _as_file(lines, path)
    try:
        want = read_run(path, "r")
    except GraphsrInputError as exc:
        want = exc
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert type(got) is type(want) or isinstance(got, DuplicateResultError), (got, want)
        assert isinstance(got, Exception) and isinstance(want, Exception)
        return
    assert got.columns is not None and got.by_score
    view = lambda run: {t: [(r.rank, r.docid, r.score, tuple(r.xpaths)) for r in rs] for t, rs in run.results.items()}
    assert view(got) == view(want)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["2", "10"]),
            st.sampled_from(["a", "b"]),
            st.sampled_from(["/a[1]", "/a", "/a[1]/b[1]", "/a/b[2]", "a["]),
            st.sampled_from([1.0, 0.5, 0.0, 2.0, float("nan")]),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_element_qrels_frames_are_coded_as_their_rows_are(rows):
    """Element assessments given as a DataFrame are coded and checked with array operations: the judgments the
    row-by-row builder makes, or its refusal."""
    import pandas as pd

    from graphsr.io.frames import as_qrels
    from graphsr.core.qrels import ElementQrels, QrelsRow

    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "xpath", "relevance"])

    def outcome(build):
        try:
            q = build()
        except GraphsrInputError as exc:
            return f"{type(exc).__name__}: {exc}"
        return q.topics, q.judgments, q.lines, q.grades

    got = outcome(lambda: as_qrels(frame))
    want = outcome(lambda: ElementQrels.from_rows([QrelsRow(*r) for r in rows], "qrels"))
    assert got == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=40), st.sampled_from([51, 1 << 40]))
def test_a_repeated_pair_is_found_by_flags_and_by_sorting_alike(values, scale):
    """Repeated (topic, document) keys are found by a flag per key where the keys are few, by a sort where they
    are many (keys spread over 2**40 values); either way exactly when some key repeats."""
    from graphsr.core.columns import DENSE_PAIRS, _repeats

    key = np.array(values, dtype=np.int64) * (scale // 51)
    size = 51 * (scale // 51)
    assert (size <= DENSE_PAIRS) == (scale == 51)  # both branches are taken
    assert _repeats(key.copy(), size) == (len(set(values)) < len(values))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.tuples(st.sampled_from("abc"), st.sampled_from(["d1", "d2", "d3", "d4"])), st.integers(-1, 3)),
    st.lists(st.tuples(st.integers(-1, 3), st.integers(-1, 5)), max_size=30),
)
def test_grades_are_looked_up_alike_in_one_table_and_by_search(assessed, asked):
    """A run's (topic, document) keys get the same grades (NaN where not assessed, -1 keys included) from the
    table of every key as from the search of the sorted assessments."""
    from graphsr.core.columns import DocumentColumns
    from graphsr.measures.flat.columnar import JudgedDocuments

    pairs = list(assessed)
    columns = DocumentColumns.from_lists(
        [t for t, _ in pairs], [d for _, d in pairs], [float(assessed[p]) for p in pairs]
    )
    table, search = JudgedDocuments(columns), JudgedDocuments(columns)
    search.__dict__["_dense"] = None  # (the cached table replaced: the search is taken)
    assert table._dense is not None or not pairs
    topics = np.array([t if t < len(columns.topic_names) else -1 for t, _ in asked], dtype=np.int64)
    docs = np.array([d if d < len(columns.doc_names) else -1 for _, d in asked], dtype=np.int64)
    keys = table.keys_of(topics, docs)
    got = table.grades_of_keys(keys)
    assert np.array_equal(got, search.grades_of_keys(keys), equal_nan=True)
    expected = [
        assessed.get((columns.topic_names[t], columns.doc_names[d]), np.nan) if t >= 0 and d >= 0 else np.nan
        for t, d in zip(topics.tolist(), docs.tolist())
    ]
    assert np.array_equal(got, np.array(expected, dtype=float), equal_nan=True)
