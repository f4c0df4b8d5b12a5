"""Run and element-qrels readers: structure and every bad-input case."""

from __future__ import annotations

import pytest

from graphsr.errors import DuplicateResultError, QrelsFormatError, RunFormatError
from graphsr.io import read_element_qrels, read_run

from .conftest import write


def test_tree_results_group_by_topic_and_rank(tmp_path):
    f = write(
        tmp_path / "r.run",
        "2 Q0 a 5 1.0 s /a/b[2]\n1 Q0 a 2 1.0 s /a[1]/c[1]\n1 Q0 a 1 9.0 s /a[1]\n1 Q0 a 1 9.0 s /a[1]/b[1]   \n\n",
    )
    run = read_run(f)
    assert run.topics == ["2", "1"]
    assert [(r.rank, r.xpaths) for r in run.results["1"]] == [(1, ("/a[1]", "/a[1]/b[1]")), (2, ("/a[1]/c[1]",))]
    assert run.results["2"][0].xpaths == ("/a[1]/b[2]",)
    assert run.results["1"][0].lines == (3, 4)
    assert run.name == str(f) and run.run_ids == ("s",)
    assert run.docids() == {"a"}


@pytest.mark.parametrize(
    "text, line, pattern",
    [
        ("1 Q0 a 1 1.0\n", 1, r"expected 7 fields .* \(or 6, a TREC document run .*\), got 5"),
        ("1 Q0 a 1 1.0 s /a\n1 Q0 a 2 1.0 s 0 10\n", 2, "passage run"),
        ("1 Q0 a one 1.0 s /a\n", 1, "integer rank"),
        ("1 Q0 a 1 high s /a\n", 1, "numeric score"),
        ("1 Q0 a 1 1.0 s a/b\n", 1, "absolute XPath"),
        ("1 Q0 a 1 1.0 s /a[0]\n", 1, "1-based"),
        ("1 Q0 a 1 1.0 s /a\n1 Q0 b 1 1.0 s /b\n", 2, "must name one document"),
    ],
)
def test_run_format_errors(tmp_path, text, line, pattern):
    f = write(tmp_path / "bad.run", text)
    with pytest.raises(RunFormatError, match=pattern) as exc:
        read_run(f)
    assert exc.value.line == line and exc.value.path == str(f)
    assert f"{f}:{line}:" in str(exc.value)


def test_duplicate_node_in_one_tree(tmp_path):
    f = write(tmp_path / "d.run", "1 Q0 a 1 1.0 s /a[1]/b\n1 Q0 a 1 1.0 s /a/b[1]\n")
    with pytest.raises(DuplicateResultError, match="appears twice in one tree result") as exc:
        read_run(f)
    assert exc.value.line == 2


def test_same_result_at_two_ranks(tmp_path):
    f = write(
        tmp_path / "d.run",
        "1 Q0 a 1 1.0 s /a/b\n1 Q0 a 1 1.0 s /a\n1 Q0 a 2 1.0 s /a/c\n"
        "1 Q0 a 3 1.0 s /a[1]\n1 Q0 a 3 1.0 s /a[1]/b[1]\n",
    )
    with pytest.raises(DuplicateResultError, match="rank 1 and rank 3") as exc:
        read_run(f)
    assert exc.value.line == 4


def test_same_element_at_two_ranks(tmp_path):
    f = write(tmp_path / "d.run", "1 Q0 a 1 1.0 s /a/b\n1 Q0 a 2 1.0 s /a/b[1]\n")
    with pytest.raises(DuplicateResultError, match="trec_eval"):
        read_run(f)


def test_same_node_in_different_topics_is_fine(tmp_path):
    f = write(tmp_path / "ok.run", "1 Q0 a 1 1.0 s /a/b\n2 Q0 a 1 1.0 s /a/b\n")
    assert read_run(f).num_results == 2


def test_empty_run(tmp_path):
    with pytest.raises(RunFormatError, match="empty"):
        read_run(write(tmp_path / "e.run", "\n\n"))


def test_missing_run_file(tmp_path):
    with pytest.raises(RunFormatError, match="cannot read"):
        read_run(tmp_path / "nope.run")


def test_non_utf8_run(tmp_path):
    f = tmp_path / "latin.run"
    f.write_bytes(b"1 Q0 a 1 1.0 s /a\n1 Q0 \xe9 2 1.0 s /a\n")
    with pytest.raises(RunFormatError, match="UTF-8") as exc:
        read_run(f)
    assert exc.value.line == 2


def test_qrels(tmp_path):
    f = write(tmp_path / "q", "1 Q0 a /a[1]/b[1] 1\n1 Q0 a /a/c 0.25 \n2 Q0 b /b 0\n")
    q = read_element_qrels(f)
    assert q.topics == ["1", "2"]
    assert q.rel("1", "a", "/a/b") == 1.0
    assert q.rel("1", "a", "/a[1]/c[1]") == 0.25
    assert q.rel("1", "a", "/a/d") == 0.0
    assert q.rel("3", "a", "/a") == 0.0
    assert q.docids() == {"a", "b"}


@pytest.mark.parametrize(
    "text, line, pattern",
    [
        ("1 Q0 a /a 1 2 extra\n", 1, "expected 5 fields"),
        ("1 Q0 a /a 1 extra\n", 1, "exhaustivity and specificity digits"),
        ("1 Q0 a /a 2 0\n", 1, r"INEX \(e, s\) pair"),
        ("1 Q0 a /a 4,4\n", 1, r"INEX \(e, s\) pair"),
        ("1 Q0 a /a 2 2\n1 Q0 a /a/b 0.5\n", 2, "mixes"),
        ("1 Q0 a /a inf\n", 1, r"in \[0, 1\]"),
        ("1 Q0 a /a nan\n", 1, r"in \[0, 1\]"),
        ("1 Q0 a /a high\n", 1, "relevance number"),
        ("1 Q0 a /a 1\n1 Q0 a /a[1] 0.5\n", 2, "assessed twice"),
        ("1 Q0 a a/b 1\n", 1, "absolute XPath"),
    ],
)
def test_qrels_errors(tmp_path, text, line, pattern):
    f = write(tmp_path / "bad.qrels", text)
    with pytest.raises(QrelsFormatError, match=pattern) as exc:
        read_element_qrels(f)
    assert exc.value.line == line and exc.value.path == str(f)


def test_empty_qrels(tmp_path):
    with pytest.raises(QrelsFormatError, match="empty"):
        read_element_qrels(write(tmp_path / "e.qrels", ""))


def test_inex_es_assessments(tmp_path):
    f = write(
        tmp_path / "es.qrels",
        "163 Q0 r7022 /article[1] 3 1\n163 Q0 r7022 /article/bdy/sec[6] 3,3\n163 Q0 r7022 /article/bdy/sec[4] 0 0\n",
    )
    q = read_element_qrels(f)
    assert q.grades == {
        "163": {
            ("r7022", "/article[1]"): (3, 1),
            ("r7022", "/article[1]/bdy[1]/sec[6]"): (3, 3),
            ("r7022", "/article[1]/bdy[1]/sec[4]"): (0, 0),
        }
    }
    # measures reading one value see the generalised quantisation
    assert q.judgments["163"] == {
        ("r7022", "/article[1]"): 0.75,
        ("r7022", "/article[1]/bdy[1]/sec[6]"): 1.0,
        ("r7022", "/article[1]/bdy[1]/sec[4]"): 0.0,
    }


def test_trec_style_grades_are_read_and_only_graded_measures_take_them(tmp_path, capsys):
    from graphsr.cli.main import main
    from graphsr.data import sample

    s = sample("shakespeare")
    lines = s["qrels"].read_text().splitlines()
    graded = write(
        tmp_path / "graded.qrels", "\n".join(lines[:3] + [lines[3].rsplit(" ", 1)[0] + " 3"] + lines[4:]) + "\n"
    )
    q = read_element_qrels(graded)
    assert q.max_rel == 3 and q.above_one() == (lines[3].split()[0], 4)
    argv = ["eval", str(graded), str(s["runs"][0]), "--collection", str(s["collection"])]
    assert main([*argv, "-m", "P@5", "-m", "nDCG@5", "-m", "AP"]) == 0
    capsys.readouterr()
    assert main([*argv, "-m", "SRP@5", "-m", "P@5"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"graphsr: error: SRP@5: need relevance in [0, 1]; {graded}:4 (topic {lines[3].split()[0]}) grades "
        "above 1 (up to 3): divide the grades by 3 (trec_eval's measures -- P, R, AP, nDCG, ... -- take "
        "grades as they are)\n"
    )
