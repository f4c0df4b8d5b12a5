"""An option changes what it says or is refused: ``--ties average`` is refused in one line by every family without a
tie-aware form (it changed nothing and said nothing on the passage and Chroma measures); a run ranked by score says
where tied results straddle a cut-off whatever the family; a damaged Parquet map, a JSON lines corpus naming a
document twice, are one line naming the file (and the lines)."""

from __future__ import annotations


import pytest

import graphsr
from graphsr.cli.main import main

from .conftest import run_cli, span_case, write
from graphsr.errors import GraphsrInputError
from graphsr.measures import registry


@pytest.fixture
def chunk_inputs(tmp_path):
    case = span_case(tmp_path, [("a0", "a", 0, 60), ("a1", "a", 60, 115), ("b0", "b", 0, 48), ("b1", "b", 48, 96)])
    case["run"] = write(tmp_path / "r.run", "1 Q0 a0 1 2.0 r\n1 Q0 b1 2 1.0 r\n1 Q0 b0 3 1.0 r\n1 Q0 a1 4 0.5 r\n")
    return case  # (b1 and b0 tied)


def _eval(capsys, *argv):
    return run_cli(capsys, "eval", *argv)


FAMILIES_WITHOUT = sorted({cls.FAMILY for cls in registry().values()} - {"flat"})


@pytest.mark.parametrize("measure", ["ChromaP@2", "budgetP@50", "MAiP(task=thorough)", "unjudged_chars@2"])
def test_ties_average_is_refused_by_the_passage_and_chroma_measures(chunk_inputs, capsys, measure):
    i = chunk_inputs
    common = (i["qrels"], i["run"], "--collection", i["collection"], "--chunks", i["chunks"], "-m", measure)
    code, out, err = _eval(capsys, *common, "--ties", "average")
    errors = [line for line in err.splitlines() if line.startswith("graphsr: error")]
    assert code == 2 and out == "" and len(errors) == 1, err
    assert "no tie-aware value (--ties average scores P, R, AP" in errors[0]


def test_every_family_but_the_flat_one_refuses_ties_average():
    from graphsr.measures import ScoringContext, provider_of

    assert "span" in FAMILIES_WITHOUT and "diversity" in FAMILIES_WITHOUT and "fol" in FAMILIES_WITHOUT
    for name, cls in registry().items():
        if cls.FAMILY == "flat" or name != cls.NAME:
            continue
        provider = provider_of(cls(**({"cutoff": 5} if cls.CUTOFF == "required" else {})))
        assert not provider.TIE_AWARE, name
    # the check itself: one line, naming the measures and the option as a Python caller gives it
    with pytest.raises(GraphsrInputError, match=r"^ChromaP@2: no tie-aware value \(ties='average' scores") as e:
        graphsr.evaluate(
            {"1": {"d": 1}}, {"1": {"d": 1.0}}, ["ChromaP@2"], ScoringContext(ties="average")
        )  # (refused before any input is read as what the family scores)
    assert "\n" not in str(e.value)


def test_a_chunk_run_says_where_tied_results_straddle_a_cut_off(chunk_inputs, capsys):
    i = chunk_inputs
    common = (i["qrels"], i["run"], "--collection", i["collection"], "--chunks", i["chunks"])
    code, out, err = _eval(capsys, *common, "-m", "ChromaP@2", "-m", "ChromaP@3", "-m", "budgetP@70")
    assert code == 0
    [line] = [x for x in err.splitlines() if "straddle" in x]
    # b1 and b0 (tied) hold ranks 2 and 3: k=2 splits them, k=3 does not; a budget of 70 characters ends
    # inside b1 (60 + 10), whose tie with b0 decides which of them it reads
    assert "(k=2 in 1 topic(s), budget=70 in 1 topic(s))" in line and "trec_eval's order of tied results" in line
    assert "no tie-aware form" in line
    i["run"].write_text("1 Q0 a0 1 2.0 r\n1 Q0 b1 2 1.5 r\n1 Q0 b0 3 1.0 r\n1 Q0 a1 4 0.5 r\n")
    code, out, err = _eval(capsys, *common, "-m", "ChromaP@2", "-m", "budgetP@70")
    assert code == 0 and "straddle" not in err


def test_a_damaged_parquet_chunk_map_is_one_line(chunk_inputs, capsys, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    i = chunk_inputs
    good = tmp_path / "map.parquet"
    pd.read_json(i["chunks"], lines=True).to_parquet(good)
    data = good.read_bytes()
    for name, damaged in (
        ("cut.parquet", data[: len(data) // 2]),
        ("flipped.parquet", data[:8] + bytes(b ^ 0xFF for b in data[8:200]) + data[200:]),
        ("random.parquet", b"PAR1" + bytes(range(256)) * 3 + b"PAR1"),
    ):
        path = tmp_path / name
        path.write_bytes(damaged)
        code, out, err = _eval(
            capsys, i["qrels"], i["run"], "--collection", i["collection"], "--chunks", path, "-m", "ChromaP@2"
        )
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and f"{name}: not a readable Parquet file (" in lines[0], err
        assert "internal error" not in err and "Traceback" not in err
    code, _, _ = _eval(
        capsys, i["qrels"], i["run"], "--collection", i["collection"], "--chunks", good, "-m", "ChromaP@2"
    )
    assert code == 0


def test_a_json_lines_corpus_naming_a_document_twice_names_both_lines(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        '{"doc_id": "a", "text": "x"}\n{"doc_id": "b", "text": "y"}\n{"_id": "c", "text": "z"}\n{"doc_id": "b", "text": "w"}\n'
    )
    code = main(["summary", str(corpus)])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().endswith(
        "corpus.jsonl:4: duplicate document id 'b': also on line 2; expected one line per document id"
    )
