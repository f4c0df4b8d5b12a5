"""Data on stdout is data: every command with ``--format csv|json``, run as a user runs it and piped, gives a CSV
that pandas reads and standard JSON that ``json.loads`` reads (no comment line, no ``\\/``, no NaN), with the
values the table format shows."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys

import pandas as pd
import pytest

from graphsr.data import sample

SH = sample("shakespeare")


def graphsr(*args: str, cwd=None) -> tuple[str, str]:
    proc = subprocess.run([sys.executable, "-m", "graphsr", *args], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr


def formats(*args: str) -> tuple[str, pd.DataFrame, list]:
    """The command's table text, its CSV read by pandas and its JSON read by json.loads."""
    table = graphsr(*args)[0]
    csv_text = graphsr(*args, "--format", "csv")[0]
    json_text = graphsr(*args, "--format", "json")[0]
    assert not csv_text.startswith("#") and "\\/" not in json_text
    records = json.loads(json_text, parse_constant=lambda c: pytest.fail(f"{c} is not standard JSON"))
    return table, pd.read_csv(io.StringIO(csv_text), keep_default_na=False, na_values=[""]), records


def same(frame: pd.DataFrame, records: list) -> None:
    """The CSV and the JSON hold the same values, floats to the last digit."""
    assert list(frame.columns) == list(records[0]) and len(frame) == len(records)
    for row, rec in zip(frame.to_dict(orient="records"), records):
        for k, v in rec.items():
            got = row[k]
            if v is None or v == "":  # (CSV cannot tell an empty text from none: pandas reads both as NaN)
                assert got is None or got == "" or (isinstance(got, float) and math.isnan(got)), (k, got)
            elif isinstance(v, float):
                assert float(got) == v, (k, got, v)
            else:
                assert str(got) == str(v), (k, got, v)


@pytest.mark.slow
def test_partitions_and_partition():
    table, frame, records = formats("partitions", str(SH["collection"]), "--kind", "p*|c")
    same(frame, records)
    assert table.startswith("# p*|c summary of")  # the note stays in the table format, on top
    lines = {line.split()[0]: line for line in table.splitlines()[2:]}
    for rec in records:
        shown = lines[rec["sid"]].split()
        assert shown[1] == rec["key"] and int(shown[2]) == rec["extent_size"]
        assert float(shown[4]) == pytest.approx(rec["pi"], abs=1e-6)  # the table rounds; the data do not
    assert any(len(repr(r["pi"])) > 10 for r in records)  # full precision
    table, frame, records = formats("partition", str(SH["collection"]), "S5", "--kind", "p*|c", "--limit", "7")
    same(frame, records)
    assert len(records) == 7 and table.startswith("# S5:")
    for rec in records:
        assert rec["xpath"] in table


@pytest.mark.slow
def test_coverage():
    table, frame, records = formats(
        "coverage", str(SH["qrels"]), str(SH["runs"][2]), "--collection", str(SH["collection"]), "--kind", "p*"
    )
    same(frame, records)
    for rec in records:
        if rec["retrieved"]:
            assert f"{rec['key']}" in table and str(rec["retrieved"]) in table


@pytest.mark.slow
def test_eval():
    args = (
        "eval",
        str(SH["qrels"]),
        *map(str, SH["runs"][:2]),
        "--collection",
        str(SH["collection"]),
        "-m",
        "SRP@10",
        "-m",
        "P@5",
        "-m",
        "MAiP(task=thorough)",
        "--model",
        "p*:extent",
    )
    trec = graphsr(*args)[0]
    csv_text = graphsr(*args, "--format", "csv")[0]
    frame = pd.read_csv(io.StringIO(csv_text), dtype={"topic": str})
    records = json.loads(graphsr(*args, "--format", "json")[0])
    assert len(frame) == len(records) and list(frame.columns) == ["run", "measure", "topic", "value"]
    for row, rec in zip(frame.itertuples(index=False), records):
        assert (row.run, row.measure, row.topic) == (rec["run"], rec["measure"], rec["topic"])
        assert row.value == rec["value"]
    shown, run = {}, None  # the trec format's lines: runid, then measure, all, value to 6 digits
    for line in trec.splitlines():
        name, topic, value = line.split("\t")
        if name == "runid":
            run = value
        elif name != "num_q":
            shown[(run, name, topic)] = value
    alls = [rec for rec in records if rec["topic"] == "all"]
    assert len(alls) == len(shown) == 6
    for rec in alls:
        assert shown[(rec["run"], rec["measure"], "all")] == f"{rec['value']:.6f}"


@pytest.mark.slow
def test_agree_and_compare(tmp_path):
    scores = tmp_path / "s.csv"
    graphsr(
        "eval",
        str(SH["qrels"]),
        *map(str, SH["runs"]),
        "--collection",
        str(SH["collection"]),
        "-m",
        "SRP@10",
        "-m",
        "MAiP(task=thorough)",
        "--model",
        "p*:extent",
        "--save",
        str(scores),
    )
    table, frame, records = formats(
        "agree", str(scores), "-m", "SRP@10", "-m", "MAiP(task=thorough)", "--samples", "200"
    )
    same(frame, records)
    assert any(r["value"] is not None for r in records)
    for rec in records:
        assert rec["statistic"] in table
    text = graphsr("compare", str(scores), "--samples", "200")[0]
    pairs = pd.read_csv(io.StringIO(graphsr("compare", str(scores), "--samples", "200", "--format", "csv")[0]))
    assert {"measure", "run_a", "run_b"} <= set(pairs.columns) and len(pairs) > 0
    for run in set(pairs.run_a):
        assert run[:8] in text


@pytest.mark.slow
def test_store_query(tmp_path):
    url = f"local:{tmp_path / 'store'}"
    graphsr("store", "load", str(sample("mobydick")["collection"]), "--store", url, "--elements", "all")
    try:
        query = "MATCH (d:Document) RETURN d.docid AS docid, d.elements AS n, 1.0 / 3 AS x"
        table, frame, records = formats("store", "query", query, "--store", url)
        same(frame, records)  # (FalkorDB itself sends doubles to 15 significant digits)
        assert records == [{"docid": "mobydick", "n": 17, "x": pytest.approx(1 / 3, abs=1e-14)}]
        assert "mobydick" in table and "17" in table
    finally:
        graphsr("store", "stop", "--store", url)
