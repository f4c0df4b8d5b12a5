"""TREC document runs and qrels as columns: the C scanner reads exactly what the line readers read, and scoring
from columns gives what the element path gives."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.errors import GraphsrInputError
from graphsr.io import read_element_qrels, read_run
from graphsr.io._lines import c_scanner
from graphsr.io.qrels import _read_qrels_lines
from graphsr.io.runs import _read_run_lines

SCAN = c_scanner()

NAME = st.sampled_from(["1", "2", "10", "a", "d5", "D5", "é", "x\x7fy", "#c", "/a[1]", "a/b"])
NUMBER = st.sampled_from(
    [
        "0",
        "1",
        "2",
        "7",
        "-1",
        "-2",
        "0.5",
        "1e3",
        "-.5",
        "5.",
        "+4",
        "inf",
        "nan",
        "X",
        "1_0",
        "9" * 19,
        "007",
        "3.25e-2",
        "1e999",
        "0x10",
        ".",
        "-",
    ]
)
SEP = st.sampled_from([" ", "\t", "  ", " \r", "\x0b"])


@st.composite
def run_text(draw):
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["plain", "plain", "plain", "seven", "element", "short", "comment", "blank"]))
        fields = [draw(NAME), "Q0", draw(NAME), draw(NUMBER), draw(NUMBER), draw(st.sampled_from(["r", "s"]))]
        if kind == "seven":
            fields.append(draw(st.sampled_from(["note", "12", "x", "a/b", "[1]"])))
        elif kind == "element":
            fields.append("/doc[1]")
        elif kind == "short":
            fields = fields[: draw(st.integers(1, 5))]
        elif kind == "comment":
            fields = ["#", *fields]
        elif kind == "blank":
            fields = []
        lines.append(draw(SEP).join(fields) + draw(st.sampled_from(["", " ", "\r"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


@st.composite
def qrels_text(draw):
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        fields = [draw(NAME), draw(st.sampled_from(["0", "Q0"])), draw(NAME), draw(NUMBER)]
        kind = draw(st.sampled_from(["plain", "plain", "plain", "five", "short", "comment", "blank"]))
        if kind == "five":
            fields.append(draw(NUMBER))
        elif kind == "short":
            fields = fields[: draw(st.integers(1, 3))]
        elif kind == "comment":
            fields = ["#", *fields]
        elif kind == "blank":
            fields = []
        lines.append(draw(SEP).join(fields))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


def _outcome(read, path):
    try:
        return read(path)
    except GraphsrInputError as exc:
        return f"{type(exc).__name__}: {exc}"


def _run_view(run):
    if isinstance(run, str):
        return run
    return run.topics, {t: [(r.docid, repr(r.score)) for r in rs] for t, rs in run.results.items()}, run.run_ids


def _qrels_view(q):
    if isinstance(q, str):
        return q
    return q.topics, q.judgments, q.lines


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
def test_the_c_scanner_reads_runs_as_the_line_reader_does():
    _reads_as_the_line_reader(
        run_text(),
        lambda b: SCAN.scan_trec_run(b, {}, {}),
        ".run",
        lambda p: read_run(p, "r"),
        lambda p: _read_run_lines(p, "r"),
        _run_view,
    )


def _reads_as_the_line_reader(texts, scan, suffix, fast_read, slow_read, view, examples=500, same_refusal=False):
    """Over generated files: what ``fast_read`` reads equals what ``slow_read`` (the line reader) reads, or both
    refuse (with the same message when ``same_refusal``); the C fast path must accept some of them."""
    accepted = {"n": 0}

    @settings(max_examples=examples, deadline=None)
    @given(texts)
    def check(text):
        with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as fh:
            fh.write(text.encode("utf-8"))
        got = scan(text.encode("utf-8"))
        if not isinstance(got, int) and len(got[0]):
            accepted["n"] += 1
        try:
            fast, slow = _outcome(fast_read, fh.name), _outcome(slow_read, fh.name)
        finally:
            os.unlink(fh.name)  # a generated file is read twice, then removed: the suite leaves nothing in /tmp
        if isinstance(fast, str) and isinstance(slow, str):
            assert not same_refusal or fast == slow  # the line reader gives every message
            return
        assert view(fast) == view(slow), text

    check()
    assert accepted["n"] > 20  # the fast path was exercised, not only declined


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
def test_the_c_scanner_reads_qrels_as_the_line_reader_does():
    _reads_as_the_line_reader(
        qrels_text(),
        lambda b: SCAN.scan_trec_qrels(b, {}, {}),
        ".qrels",
        read_element_qrels,
        _read_qrels_lines,
        _qrels_view,
    )


def test_document_runs_are_columns_until_an_element_family_asks(tmp_path):
    run = tmp_path / "r.run"
    run.write_text("1 Q0 b 1 2.0 sys\n1 Q0 a 2 2.0 sys\n1 Q0 c 3 3.0 sys\n2 Q0 a 1 1.0 sys\n")
    r = read_run(run)
    assert r.columns is not None and r._results is None
    assert r.topics == ["1", "2"] and r.num_results == 4 and r.docids() == {"a", "b", "c"}
    assert r._results is None  # none of these built the per-result objects
    assert [x.docid for x in r.results["1"]] == ["c", "b", "a"]  # score, then name, both descending
    twice = tmp_path / "twice.run"
    twice.write_text("1 Q0 a 1 2.0 sys\n1 Q0 b 2 1.0 sys\n1 Q0 a 3 0.5 sys\n")
    with pytest.raises(GraphsrInputError, match=r"twice.run:3: topic 1: document a is returned twice"):
        read_run(twice)


@pytest.mark.parametrize("scanner", [True, False], ids=["c-scanner", "line-reader"])
def test_a_run_read_with_its_assessments_codes_scores_the_same(tmp_path, monkeypatch, scanner):
    """With or without the C scanner (where it is not built, the line readers read everything)."""
    import graphsr

    if not scanner:
        monkeypatch.setattr("graphsr.io._lines.c_scanner", lambda: None)
    elif SCAN is None:
        pytest.skip("the C scanner is not built")

    rng = np.random.default_rng(3)
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} 0 d{d} {rng.integers(-1, 3)}\n" for t in range(5) for d in range(0, 40, 3)))
    r.write_text("".join(f"{t} Q0 d{d} 0 {rng.integers(0, 4)} run\n" for t in range(1, 7) for d in range(30)))
    qrels = read_element_qrels(q)
    known = list(qrels.columns.doc_names)
    shared, alone = read_run(r, vocabulary=qrels), read_run(r)
    if scanner:  # the scanner codes a run after its assessments' names (the line reader codes it alone)
        assert shared.columns.coded_as is qrels.columns and alone.columns.coded_as is None
        assert shared.columns.doc_names[: len(known)] == known  # their codes for their names, then the run's own
        assert len(qrels.columns.index[1]) == len(known) == len(qrels.columns.doc_names)  # theirs not grown
        again = read_run(r, vocabulary=qrels)  # a second run read with them: coded as the first
        assert again.columns.doc_names == shared.columns.doc_names
        assert again.columns.doc.tolist() == shared.columns.doc.tolist()
    ms = ["AP", "P@5", "nDCG@10", "Bpref", "RR", "NumRelRet", "Judged@10"]
    a, b = graphsr.evaluate(qrels, [shared], ms), graphsr.evaluate(qrels, [alone], ms)
    for m in a.measures:
        assert a.runs[0].values[m].tolist() == b.runs[0].values[m].tolist(), m


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("notes", ["first", "between", "none"])
def test_document_runs_read_in_blocks_read_the_same(tmp_path, monkeypatch, block, gz, notes):
    """Streamed a block at a time (any block size, lines across blocks, gzip, a byte order mark, comments and
    blank lines first, in the middle or none, no final newline), a document run reads as the line reader reads
    it, line numbers included."""
    import gzip

    import graphsr.io.runs as runs

    body = [f"{t} Q0 d{(7 * k) % 23} {k} {k % 5}.25 sys{t % 2}" for t in (3, 1, 20) for k in range(12)]
    note = ["# made up", ""]
    lines = {"first": note + body, "between": body[:20] + note + body[20:], "none": body}[notes]
    lines += ["  2 Q0 x 1 1e3 sys0 trailing", "2 Q0 y 2 -0.5 sys0"]
    text = "\ufeff" + "\n".join(lines)  # no newline at the end
    path = tmp_path / ("r.run.gz" if gz else "r.run")
    path.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    monkeypatch.setattr(runs, "BLOCK", block)
    fast = read_run(path, "r")
    numbered = [k + 1 for k, x in enumerate(lines) if x and not x.startswith("#")]
    assert fast.columns is not None and np.asarray(fast.columns.line).tolist() == numbered
    assert [fast.columns.line[k] for k in range(len(numbered))] == numbered
    plain = tmp_path / "plain.run"
    plain.write_text(text.lstrip("\ufeff"))
    assert _run_view(fast) == _run_view(_read_run_lines(plain, "r"))
    assert fast.run_ids == ("sys1", "sys0")


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
def test_the_name_index_keeps_codes_given_out_of_order():
    """The C name index copies a vocabulary's codes: in insertion order it derives them, otherwise it keeps them
    (a dict coded by someone else), and a name added later is looked up again by its code."""
    topics, docs = {"7": 3, "1": 0}, {"x": 10, "y": 4}
    try:
        got = SCAN.scan_trec_run(b"1 Q0 x 1 2.0 r\n7 Q0 y 2 1.0 r\n7 Q0 x 3 0.5 r\n", topics, docs)
        assert got[0].tolist() == [0, 3, 3] and got[1].tolist() == [10, 4, 10]
        many = {f"d{k}": k for k in range(5000)}  # in order: codes are entry numbers, through table growth
        text = "".join(f"1 Q0 d{k} {k} 1.0 r\n" for k in range(4999, -1, -7)).encode()
        got = SCAN.scan_trec_run(text, {"1": 0}, many)
        assert got[1].tolist() == list(range(4999, -1, -7))
    finally:
        SCAN.forget()


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
def test_names_a_scan_meets_first_join_the_vocabulary_in_order():
    """A scan keeps the names it meets first in C and adds them to the vocabulary's dicts when it ends, with the
    codes its columns hold, in order of first use: after it, a block scanned next, a declined line, a dict coded
    out of order and the dict's own later entries all see one vocabulary."""
    try:
        topics, docs = {"1": 0}, {"a": 0}
        got = SCAN.scan_trec_run(b"1 Q0 b 1 2 r\n2 Q0 a 2 1 r\n2 Q0 c 3 1 r\n1 Q0 b 4 0 r\n", topics, docs)
        assert docs == {"a": 0, "b": 1, "c": 2} and topics == {"1": 0, "2": 1}
        assert got[0].tolist() == [0, 1, 1, 0] and got[1].tolist() == [1, 0, 2, 1]
        docs["z"] = 3  # written by Python between scans: the index reads it
        cols = (np.empty(8, np.int32), np.empty(8, np.int32), np.empty(8, np.float64))
        assert SCAN.scan_trec_run_into(b"1 Q0 z 1 2 r\n1 Q0 d 1 2 r\n", topics, docs, {}, *cols, None, 0, 0) == 2
        assert cols[1][:2].tolist() == [3, 4] and docs["d"] == 4
        assert SCAN.scan_trec_run(b"1 Q0 e 1 2 r\n1 Q0 f 1 x r\n", topics, docs) == 2  # declined at line 2
        assert docs == {"a": 0, "b": 1, "c": 2, "z": 3, "d": 4, "e": 5}
        assert SCAN.scan_trec_run(b"1 Q0 e 1 2 r\n1 Q0 g 1 2 r\n", topics, docs)[1].tolist() == [5, 6]
        odd = {"x": 10, "y": 4}  # codes not in insertion order: a new name takes the dict's size, as ever
        got = SCAN.scan_trec_qrels(b"1 0 w 1\n1 0 x 0\n1 0 v 2\n1 0 w 0\n", {}, odd)
        assert got[1].tolist() == [2, 10, 3, 2] and odd == {"x": 10, "y": 4, "w": 2, "v": 3}
        SCAN.forget()
        topics, docs = {"1": 0}, {"a": 0, "b": 1}  # extend=False: the run's own names kept out of the dicts
        cols = (np.empty(8, np.int32), np.empty(8, np.int32), np.empty(8, np.float64))
        args = (topics, docs, {}, *cols, None)
        assert SCAN.scan_trec_run_into(b"1 Q0 x 1 2 r\n2 Q0 b 1 2 r\n", *args, 0, 0, False) == 2
        assert SCAN.scan_trec_run_into(b"1 Q0 y 1 2 r\n2 Q0 x 1 2 r\n", *args, 2, 2, False) == 2  # next block
        assert SCAN.line_reached() == 4  # the block's last line, counted from first_line
        blanks = b"\n# a comment\n1 Q0 y 1 2 r\n\n1 Q0 b 1 2 r"  # (no final newline: a line still)
        assert SCAN.scan_trec_run_into(blanks, *args, 4, 4, False) == 2 and SCAN.line_reached() == 9
        assert cols[0][:4].tolist() == [0, 1, 0, 1] and cols[1][:4].tolist() == [2, 1, 3, 2]
        assert topics == {"1": 0} and docs == {"a": 0, "b": 1}
        assert SCAN.new_names(0) == ["2"] and SCAN.new_names(1) == ["x", "y"]
        docs["c"] = 2  # the dict changed under names kept out of it: their codes would clash
        with pytest.raises(RuntimeError, match="vocabulary changed"):
            SCAN.scan_trec_run_into(b"1 Q0 z 1 2 r\n", *args, 4, 4, False)
        SCAN.forget()
        assert SCAN.new_names(1) == []
        many: dict[str, int] = {}
        text = "".join(f"1 Q0 n{k % 3000} 1 1.0 r\n" for k in range(9000)).encode()  # through table growth
        got = SCAN.scan_trec_run(text, {}, many)
        assert many == {f"n{k}": k for k in range(3000)} and got[1].tolist() == [k % 3000 for k in range(9000)]
    finally:
        SCAN.forget()


@st.composite
def element_qrels_text(draw):
    """Element qrels, mostly well-formed: relevance values (grades, fractions, odd numbers), (e, s) pairs written
    'e s' or 'e,s' (valid and not), spellings of one node, repeated nodes, comments and blank lines."""
    graded = draw(st.booleans())
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(["", "# note", "  "])))
            continue
        topic, doc = draw(st.sampled_from(["1", "2", "10"])), draw(st.sampled_from(["d", "e", "d2"]))
        xpath = draw(st.sampled_from(["/a[1]", "/a", "/a[1]/b[1]", "/a/b[2]", "/a[1]/b[2]", "a[", "/a[0]"]))
        if graded or kind == 9:
            e, s = draw(st.sampled_from([(0, 0), (1, 1), (3, 2), (2, 3), (1, 0), (4, 1), (3, 3)]))
            grade = f"{e},{s}" if draw(st.booleans()) else f"{e} {s}"
            lines.append(f"{topic} Q0 {doc} {xpath} {grade}")
        else:
            rel = draw(st.sampled_from(["1", "0", "0.5", "2", "-1", "1e-3", "nan", "inf", "x", "1.0"]))
            lines.append(f"{topic} Q0 {doc} {xpath} {rel}" + draw(st.sampled_from(["", " ", " extra"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


def _element_view(q):
    if isinstance(q, str):
        return q
    return q.topics, q.judgments, q.lines, q.grades


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
def test_the_c_scanner_reads_element_qrels_as_the_line_reader_does():
    """Element qrels read through the C scanner and array checks give the line reader's judgments, lines and
    (e, s) grades; anything the fast path declines the line reader reads or refuses, with the same message."""
    _reads_as_the_line_reader(
        element_qrels_text(),
        lambda b: SCAN.scan_element_qrels(b, {}, {}, {}),
        ".qrels",
        read_element_qrels,
        _read_qrels_lines,
        _element_view,
        examples=400,
        same_refusal=True,
    )


DICT_NAME = st.sampled_from(["1", "2", "10", "d5", "D5", "é", "x\x7fy", "a b", "", "\ud800", "日本"])
DICT_VALUE = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, -0.25, 1e300, 2.0]))


def _lines_of(columns):
    return (
        [
            (columns.topic_names[t], columns.doc_names[d], v)
            for t, d, v in zip(columns.topic.tolist(), columns.doc.tolist(), columns.value.tolist())
        ],
        tuple(columns.empty_topics),
    )


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(DICT_NAME, st.dictionaries(DICT_NAME, DICT_VALUE, max_size=5), max_size=4),
    st.dictionaries(DICT_NAME, st.dictionaries(DICT_NAME, DICT_VALUE, max_size=5), max_size=4),
)
def test_dicts_are_read_in_c_as_in_python_and_share_the_assessments_codes(qrels, run):
    """{query_id: {doc_id: value}} dicts read by the C scanner (names looked up by their UTF-8 bytes in the
    vocabulary's index) give the lines the Python reader gives, non-ASCII names included (a name with no UTF-8
    form is handed to the Python reader); a run read with the assessments' vocabulary gives each of their names
    their code and its own names the codes after theirs, leaving their vocabulary as it was."""
    from unittest import mock

    from graphsr.io.frames import _dict_columns

    class Vocabulary:
        def __init__(self, columns):
            self.columns = columns

    fast_q = _dict_columns(qrels, "qrels", "relevance")
    fast_r = _dict_columns(run, "a run", "score", Vocabulary(fast_q))
    with mock.patch("graphsr.io._lines.c_scanner", return_value=None):
        slow_q = _dict_columns(qrels, "qrels", "relevance")
        slow_r = _dict_columns(run, "a run", "score", Vocabulary(slow_q))
    assert _lines_of(fast_q) == _lines_of(slow_q)
    assert _lines_of(fast_r) == _lines_of(slow_r)
    if fast_r.coded_as is fast_q:  # read in C after the assessments' names, their vocabulary left as it was
        assert fast_r.doc_names[: len(fast_q.doc_names)] == fast_q.doc_names
        assert fast_r.topic_names[: len(fast_q.topic_names)] == fast_q.topic_names
        assert tuple(map(len, fast_q.index)) == (len(fast_q.topic_names), len(fast_q.doc_names))
        assert len(set(fast_r.doc_names)) == len(fast_r.doc_names)
        known = dict(zip(fast_q.doc_names, range(len(fast_q.doc_names))))
        for d in fast_r.doc.tolist():
            name = fast_r.doc_names[d]
            assert (d < len(fast_q.doc_names)) == (name in known) and (name not in known or known[name] == d)
    else:  # a name the C scanner handed over: read in Python, with codes of its own
        names = {n for data in (qrels, run) for t, per in data.items() for n in (t, *per)}
        assert "\ud800" in names


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
@settings(max_examples=40, deadline=None)
@given(
    lengths=st.lists(st.sampled_from([1, 19, 20, 21, 22, 40]), min_size=1, max_size=6),
    names=st.integers(1, 3000),
    seed=st.integers(0, 2**32 - 1),
)
def test_names_of_any_length_find_their_own_code(tmp_path_factory, lengths, names, seed):
    """The scanner's name index compares a name's first bytes in its slot and the rest apart: names that share
    their first 20 bytes, or differ only in their last byte, or only in length, each keep their own code, through
    the index's growth (thousands of names), as the line reader reads them."""
    import random

    rng = random.Random(seed)
    base = "p" * 40
    pool = []
    for k in range(names):
        n = lengths[k % len(lengths)]
        stem = base[: max(n - 4, 0)] + f"{k:04d}"[-n:] if n >= 4 else f"{k % 10}"[:n]
        pool.append(stem)
        if n > 20:
            pool.append(stem[:20] + "z" * (n - 20))  # (the same first 20 bytes, another tail)
    pool = list(dict.fromkeys(pool))
    lines = [
        f"{t} Q0 {name} 1 {rng.randint(0, 9)}.5 r" for t in range(3) for name in rng.sample(pool, min(len(pool), 900))
    ]
    path = tmp_path_factory.mktemp("names") / "r.run"
    path.write_text("\n".join(lines) + "\n")
    fast = read_run(path, "r")
    assert fast.columns is not None  # (read by the scanner, not declined)
    assert _run_view(fast) == _run_view(_read_run_lines(path, "r"))


#: Names whose hashes share the 32-bit tag the scanner's index keeps (found by search with the index's hash): the
#: first pair share their first 20 bytes and differ after, the second differ within them.
TAG_TWINS = [
    ("pppppppppppppppppppp112532", "pppppppppppppppppppp133019"),
    ("pppppppppppppppppppp028687", "pppppppppppppppppppp177382"),
    ("q00017704", "q00030482"),
    ("q00013673", "q00084059"),
]


@pytest.mark.skipif(SCAN is None, reason="the C scanner is not built")
@pytest.mark.parametrize("a, b", TAG_TWINS)
def test_names_sharing_a_hash_tag_keep_their_own_codes(tmp_path, a, b):
    """Two names in one slot chain with equal tags are told apart by their bytes, in the slot's head and past it."""
    path = tmp_path / "r.run"
    path.write_text(f"1 Q0 {a} 1 2.0 r\n1 Q0 {b} 2 1.0 r\n2 Q0 {b} 1 3.0 r\n")
    fast = read_run(path, "r")
    assert fast.columns is not None
    assert _run_view(fast) == _run_view(_read_run_lines(path, "r"))
    assert sorted(fast.columns.doc_names) == sorted([a, b])
