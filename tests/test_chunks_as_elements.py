"""SR and ESR over Markdown trees scored from span judgments and chunk runs: a chunk that is not an element
resolves to the smallest element containing it, an element is relevant by its share of highlighted characters
(graphsr.measures.fol.convert); graphsr eval scores them as it scores the same element files."""

from __future__ import annotations

import json

import pytest

import graphsr
from graphsr.cli.main import main
from graphsr.core.document import containing_node
from graphsr.measures.fol.convert import element_qrels, element_run

GUIDE = "# Intro\n\nPara one text here.\n\nPara two text.\n\n# Next\n\nPara three is longer.\n"
# /document[1] [0,76); section[1] [0,46): h1 [0,8), p[1] [9,29), p[2] [30,45); section[2] [46,76): h1 [46,53),
# p[1] [54,76)


@pytest.fixture()
def collection(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "guide.md").write_text(GUIDE)
    return d


def _tree(collection):
    (tree,) = list(graphsr.iter_documents(collection))
    return tree


def test_a_chunk_resolves_to_the_smallest_element_containing_it(collection):
    tree = _tree(collection)
    assert [(tree.xpath(i), int(tree.start[i]), int(tree.end[i])) for i in (1, 3, 4, 7)] == [
        ("/document[1]/section[1]", 0, 46),
        ("/document[1]/section[1]/p[1]", 9, 29),
        ("/document[1]/section[1]/p[2]", 30, 45),
        ("/document[1]/section[2]/p[1]", 54, 76),
    ]
    where = {
        (s, e): tree.xpath(containing_node(tree, s, e))
        for s, e in ((9, 29), (12, 20), (9, 45), (20, 60), (0, 46), (54, 76), (45, 46), (70, 90))
    }
    assert where == {
        (9, 29): "/document[1]/section[1]/p[1]",  # an element's range: that element
        (12, 20): "/document[1]/section[1]/p[1]",  # inside a paragraph: the paragraph
        (9, 45): "/document[1]/section[1]",  # across two paragraphs: their section
        (20, 60): "/document[1]",  # across sections: the document
        (0, 46): "/document[1]/section[1]",
        (54, 76): "/document[1]/section[2]/p[1]",  # (the deepest of elements sharing the range)
        (45, 46): "/document[1]/section[1]",  # a blank line: the section holding it
        (70, 90): "/document[1]",
    }  # past the text: the root


def _spans(tmp_path, rows):
    path = tmp_path / "spans.jsonl"
    path.write_text(
        "".join(json.dumps(dict(zip(("query_id", "doc_id", "start", "end", "relevance"), r))) + "\n" for r in rows)
    )
    return path


def _run(tmp_path, rows):
    path = tmp_path / "run.jsonl"
    path.write_text(
        "".join(json.dumps(dict(zip(("query_id", "doc_id", "start", "end", "score"), r))) + "\n" for r in rows)
    )
    return path


def test_elements_relevant_by_their_share_of_highlighted_text(collection, tmp_path):
    tree = _tree(collection)
    qrels = graphsr.read_spans(
        _spans(tmp_path, [("1", "guide", 9, 29, 1), ("1", "guide", 60, 70, 1), ("2", "guide", 0, 10, 0)]), collection
    )
    got = element_qrels(qrels, {"guide": tree})
    assert got.judgments["1"] == pytest.approx(
        {
            ("guide", "/document[1]"): 30 / 76,
            ("guide", "/document[1]/section[1]"): 20 / 46,
            ("guide", "/document[1]/section[1]/p[1]"): 1.0,
            ("guide", "/document[1]/section[2]"): 10 / 30,
            ("guide", "/document[1]/section[2]/p[1]"): 10 / 22,
        }
    )
    assert got.judgments["2"] == {("guide", "/document[1]"): 0.0}  # judged, nothing relevant


def test_a_chunk_run_as_elements(collection, tmp_path):
    tree = _tree(collection)
    run = graphsr.read_chunk_run(
        _run(
            tmp_path,
            [
                ("1", "guide", 12, 20, 3),
                ("1", "guide", 9, 45, 2),
                ("1", "guide", 10, 28, 1),
                ("1", "guide", 54, 76, 0.5),
            ],
        )
    )
    got, left_out = element_run(run, {"guide": tree})
    assert left_out == 1  # [10, 28) is p[1] again
    assert [(r.rank, r.xpaths) for r in got.results["1"]] == [
        (1, ("/document[1]/section[1]/p[1]",)),
        (2, ("/document[1]/section[1]",)),
        (3, ("/document[1]/section[2]/p[1]",)),
    ]


def _values(out: str) -> dict:
    return {(m, t): float(v) for m, t, v in (line.split("\t") for line in out.splitlines()) if m != "runid"}


def test_graphsr_eval_scores_spans_and_chunks_as_the_same_element_files(collection, tmp_path, capsys):
    spans = _spans(tmp_path, [("1", "guide", 9, 29, 1), ("1", "guide", 60, 70, 1)])
    run = _run(tmp_path, [("1", "guide", 12, 20, 3), ("1", "guide", 9, 45, 2), ("1", "guide", 54, 76, 0.5)])
    measures = ["-m", "SRP@2", "-m", "SR@3", "-m", "SRP@3"]
    assert main(["eval", str(spans), str(run), "--collection", str(collection), "--model", "p*:extent", *measures]) == 0
    by_spans = _values(capsys.readouterr().out)
    qrels, elements = _element_files(tmp_path)
    assert (
        main(["eval", str(qrels), str(elements), "--collection", str(collection), "--model", "p*:extent", *measures])
        == 0
    )
    by_elements = _values(capsys.readouterr().out)
    assert by_spans and {k: v for k, v in by_spans.items() if k[0] != "runid"} == pytest.approx(by_elements)
    assert by_spans["SRP@2", "all"] > 0


def _element_files(tmp_path):
    """The element judgments and run the spans and chunks of the tests above resolve to."""
    qrels = tmp_path / "elements.qrels"
    qrels.write_text(
        f"1 Q0 guide /document[1] {30 / 76!r}\n1 Q0 guide /document[1]/section[1] {20 / 46!r}\n"
        "1 Q0 guide /document[1]/section[1]/p[1] 1.0\n"
        f"1 Q0 guide /document[1]/section[2] {10 / 30!r}\n"
        f"1 Q0 guide /document[1]/section[2]/p[1] {10 / 22!r}\n"
    )
    elements = tmp_path / "elements.run"
    elements.write_text(
        "1 Q0 guide 1 -1 r /document[1]/section[1]/p[1]\n1 Q0 guide 2 -2 r /document[1]/section[1]\n"
        "1 Q0 guide 3 -3 r /document[1]/section[2]/p[1]\n"
    )
    return qrels, elements


@pytest.mark.parametrize("stored", [False, True])
def test_sr_over_span_judgments_reads_each_document_once(collection, tmp_path, capsys, monkeypatch, stored):
    """The documents read for the judgments' lengths are the trees SR scores in: the summary pass (or the stored
    model) takes them as they are, so each document is parsed once, one no input names included (for the
    summary); the values are those of the same elements given as element files."""
    import graphsr.io.collection as coll

    (collection / "other.md").write_text("# Other\n\nNot named by any input.\n")
    spans = _spans(tmp_path, [("1", "guide", 9, 29, 1), ("1", "guide", 60, 70, 1)])
    run = _run(tmp_path, [("1", "guide", 12, 20, 3), ("1", "guide", 9, 45, 2), ("1", "guide", 54, 76, 0.5)])
    measures = ["--collection", str(collection), "-m", "SR@3", "-m", "SRP@2", "--model"]
    url = f"local:{tmp_path / 'store'}"
    if stored:
        assert main(["store", "load", str(collection), "--name", "docs", "--store", url, "--no-progress"]) == 0
        assert (
            main(["store", "model", "--collection", "docs", "--model", "p*:extent", "--name", "m", "--store", url]) == 0
        )
        measures += ["m", "--store", url]
    else:
        measures += ["p*:extent"]
    try:
        capsys.readouterr()
        reads: list[str] = []
        parse, text = coll.read_document, coll.read_document_text
        monkeypatch.setattr(coll, "read_document", lambda s, *a, **k: reads.append(s.docid) or parse(s, *a, **k))
        monkeypatch.setattr(coll, "read_document_text", lambda s, *a, **k: reads.append(s.docid) or text(s, *a, **k))
        assert main(["eval", str(spans), str(run), *measures]) == 0
        once = _values(capsys.readouterr().out)
        assert sorted(reads) == (["guide"] if stored else ["guide", "other"])
        monkeypatch.undo()
        qrels, elements = _element_files(tmp_path)
        assert main(["eval", str(qrels), str(elements), *measures]) == 0
        assert once == pytest.approx(_values(capsys.readouterr().out)) and once["SRP@2", "all"] > 0
    finally:
        if stored:
            main(["store", "stop", "--store", url])
