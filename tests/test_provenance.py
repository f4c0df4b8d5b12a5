"""Results that carry their provenance: ir_metadata headers of runs read, kept and written back the same; every
saved score table records graphsr's version, its inputs' digests and judges, the options; compare and report
refuse tables scored against different judgments unless told, and the report shows the records."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.analysis.scores import ScoreTable, sidecar
from graphsr.errors import GraphsrInputError
from graphsr.io.ir_metadata import annotate, header_lines, read_ir_metadata

HEADER = """# ir_metadata.start
# schema-version: 0.1
# run-version: 1.0
# tag: bm25-rm3
# platform:
#   hardware:
#     cpu: {model: Xeon, cores: 2}
# research goal:
#   evaluation:
#     baseline: [bm25]
# actor:
#   team: irgroup
#   role: experimenter
# ir_metadata.end
"""
RUN = "1 Q0 d1 1 3.0 bm25-rm3\n1 Q0 d2 2 2.0 bm25-rm3\n2 Q0 d3 1 1.0 bm25-rm3\n"
QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n2 0 d4 1\n"


def graphsr(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "graphsr", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_an_annotated_run_scores_as_the_run_without_its_header(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "plain").write_text(RUN)
    (tmp_path / "annotated").write_text(HEADER + RUN)
    outs = [
        graphsr("eval", tmp_path / "qrels", tmp_path / r, "-m", "P@2", "-m", "AP", "-q") for r in ("plain", "annotated")
    ]
    assert outs[0].returncode == outs[1].returncode == 0
    assert outs[0].stdout == outs[1].stdout


def test_the_header_is_read_as_yaml_and_written_back_the_same(tmp_path):
    path = tmp_path / "run"
    path.write_text(HEADER + RUN)
    meta = read_ir_metadata(path)
    assert meta.tag == "bm25-rm3"
    assert meta.fields["actor"] == {"team": "irgroup", "role": "experimenter"}
    assert meta.fields["platform"]["hardware"]["cpu"]["cores"] == 2
    out = tmp_path / "again"
    annotate(path, meta, out)  # (its own header replaced by the one read)
    assert out.read_text() == HEADER + RUN
    plain = tmp_path / "plain"
    plain.write_text(RUN)
    annotate(plain, meta.text, tmp_path / "annotated")
    assert read_ir_metadata(tmp_path / "annotated") == meta


def test_repro_eval_s_marking_is_read_too(tmp_path):
    path = tmp_path / "run"
    body = HEADER.replace("# ir_metadata.start", "# METADATA - START").replace("# ir_metadata.end", "# METADATA - END")
    path.write_text("\n" + body + RUN)
    assert read_ir_metadata(path).fields["tag"] == "bm25-rm3"


@pytest.mark.parametrize(
    "text, message",
    [
        ("# ir_metadata.start\n# tag: x\n1 Q0 d 1 1 x\n", "ends without"),
        ("# ir_metadata.start\n# tag: x\n", "ends without"),
        ("# ir_metadata.start\n# tag: [x\n# ir_metadata.end\n", "not YAML"),
        ("# ir_metadata.start\n# - a\n# - b\n# ir_metadata.end\n", "not a mapping"),
    ],
)
def test_a_broken_header_is_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "run"
    path.write_text(text + RUN)
    with pytest.raises(GraphsrInputError, match=message):
        read_ir_metadata(path)


def test_a_header_that_never_ends_is_read_no_further_than_its_bound(tmp_path, monkeypatch):
    import graphsr.io.ir_metadata as im

    monkeypatch.setattr(im, "MAX_HEADER_BYTES", 4096)
    path = tmp_path / "run"
    path.write_text("# ir_metadata.start\n" + "# x: 1\n" * 10_000)
    with pytest.raises(GraphsrInputError, match="does not end within 4,096 bytes"):
        read_ir_metadata(path)


def test_runs_without_a_header_have_none(tmp_path):
    path = tmp_path / "run"
    path.write_text("# a comment\n" + RUN)
    assert read_ir_metadata(path) is None
    (tmp_path / "empty").write_text("")
    assert read_ir_metadata(tmp_path / "empty") is None


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Zl", "Zp"]), min_size=1, max_size=12),
        st.one_of(st.integers(), st.text(max_size=20), st.lists(st.integers(), max_size=3), st.booleans()),
        max_size=6,
    )
)
def test_any_mapping_round_trips(tmp_path_factory, fields):
    path = tmp_path_factory.mktemp("rt") / "run"
    text = yaml.safe_dump(fields, sort_keys=False)  # (escaped: PyYAML's own raw NEL does not load back)
    path.write_text(header_lines(text) + RUN, encoding="utf-8")
    meta = read_ir_metadata(path)
    assert meta.fields == fields
    annotate(path, meta, path.with_name("again"))
    assert read_ir_metadata(path.with_name("again")) == meta


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_saved_score_table_records_what_it_rests_on(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "model").write_text(QRELS.replace("d4 1", "d4 0") + "3 0 d1 1\n4 0 d3 1\n")
    (tmp_path / "run").write_text(HEADER + RUN + "3 Q0 d1 1 1.0 bm25-rm3\n4 Q0 d3 1 1.0 bm25-rm3\n")
    save = tmp_path / f"scores{suffix}"
    out = graphsr(
        "eval", "qrels", "run", "-m", "P@2", "--model-qrels", "model", "--ci", "ppi", "--save", save.name, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    table = ScoreTable.read(save)
    [record] = table.provenance
    import graphsr as g

    assert record["graphsr"] == g.__version__
    assert record["command"] == ["eval", "qrels", "run", "-m", "P@2", "--model-qrels", "model", "--ci", "ppi",
                                 "--save", save.name]  # fmt: skip
    assert record["options"]["measures"] == ["P@2"] and record["options"]["ci"] == "ppi"
    by_role = {i["role"]: i for i in record["inputs"]}
    for role, name in (("qrels", "qrels"), ("model-qrels", "model"), ("run", "run")):
        data = (tmp_path / name).read_bytes()
        assert by_role[role]["sha256"] == hashlib.sha256(data).hexdigest()
        assert by_role[role]["bytes"] == len(data)
    assert (by_role["qrels"]["judge"], by_role["model-qrels"]["judge"]) == ("person", "model")
    assert by_role["run"]["ir_metadata"] == read_ir_metadata(tmp_path / "run").text
    if suffix == ".csv":
        assert json.loads(sidecar(save).read_text()) == table.provenance
    # the header kept in the table's record, written back into a run: read back the same
    annotate(tmp_path / "run", by_role["run"]["ir_metadata"], tmp_path / "re-annotated")
    assert read_ir_metadata(tmp_path / "re-annotated") == read_ir_metadata(tmp_path / "run")
    # written again (as another format), the record comes along
    other = tmp_path / ("again.parquet" if suffix == ".csv" else "again.csv")
    if other.suffix == ".parquet":
        pytest.importorskip("pyarrow")
    table.write(other)
    assert ScoreTable.read(other).provenance == table.provenance


def test_a_csv_table_written_without_records_leaves_no_older_record_beside_it(tmp_path):
    import pandas as pd

    path = tmp_path / "s.csv"
    frame = pd.DataFrame({"run": ["a"], "measure": ["P@5"], "topic": ["1"], "value": [0.5]})
    ScoreTable(frame, [{"graphsr": "x", "inputs": []}]).write(path)
    assert sidecar(path).exists()
    ScoreTable(frame).write(path)
    assert not sidecar(path).exists() and ScoreTable.read(path).provenance == []


def test_compare_and_report_refuse_tables_of_different_judgments_unless_told(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "other-qrels").write_text(QRELS.replace("d3 2", "d3 0"))
    for name in ("a", "b", "c"):
        (tmp_path / name).write_text(RUN.replace("bm25-rm3", name).replace("d2 2", "d2 3" if name == "b" else "d2 2"))
    assert graphsr("eval", "qrels", "a", "-m", "P@2", "-m", "AP", "--save", "a.csv", cwd=tmp_path).returncode == 0
    assert graphsr("eval", "qrels", "b", "-m", "P@2", "-m", "AP", "--save", "b.csv", cwd=tmp_path).returncode == 0
    assert graphsr("eval", "other-qrels", "c", "-m", "P@2", "-m", "AP", "--save", "c.csv", cwd=tmp_path).returncode == 0
    same = graphsr("compare", "a.csv", "b.csv", cwd=tmp_path)
    assert same.returncode == 0 and same.stderr == ""
    mixed = graphsr("compare", "a.csv", "c.csv", cwd=tmp_path)
    assert mixed.returncode == 2 and "scored against different judgments" in mixed.stderr
    assert mixed.stderr.count("\n") == 1
    assert graphsr("compare", "a.csv", "c.csv", "--mixed-qrels", cwd=tmp_path).returncode == 0
    pytest.importorskip("matplotlib")
    assert graphsr("report", "a.csv", "c.csv", "-o", "r.html", cwd=tmp_path).returncode == 2
    told = graphsr("report", "a.csv", "b.csv", "-o", "r.html", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    page = (tmp_path / "r.html").read_text()
    assert "Provenance" in page and hashlib.sha256(QRELS.encode()).hexdigest()[:16] in page
    sidecar(tmp_path / "b.csv").unlink()  # a table of unknown provenance: compared, with a line saying so
    unknown = graphsr("compare", "a.csv", "b.csv", cwd=tmp_path)
    assert unknown.returncode == 0 and "b.csv: no provenance record" in unknown.stderr
