"""One format sniffer (graphsr.io.sniff) for qrels, runs and navigation logs, used by every reader."""

from __future__ import annotations

import gzip
import pytest

from graphsr.errors import QrelsFormatError, RunFormatError
from graphsr.io.routes import RouteLogError, read_routes
from graphsr.io.sniff import qrels_format, routes_format, run_format
from graphsr.core.routes import RouteStep
from graphsr.simulation.routes import write_routes


def _write(path, text, gz=False):
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize(
    "text, expected",
    [
        ("2010001 Q0 12345 240 1200 0 240\n", "fol"),
        ("# INEX 2010 passages\n\n2010001 Q0 12345 240 1200\n", "fol"),
        ("\ufeff2010001 Q0 12345 240 1200 0 240\n", "fol"),
        ("2010001 0 12345 -1 1200\n", "fol"),  # a negative rel_chars is still the FOL shape; its reader refuses it
        ("1 0 moby 1 /book[1]/body[1]\n", "element"),
        ("1 0 doc7 2\n", "element"),  # TREC qrels
        ("1 0 doc7 2 0.5\n", "element"),  # a fifth field that is not an integer
        ("", "element"),
    ],
)
def test_qrels_format(tmp_path, text, expected, gz):
    path = _write(tmp_path / ("q.txt.gz" if gz else "q.txt"), text, gz)
    assert qrels_format(path) == expected


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 Q0 moby 1 2.0 sys /book[1]\n", "element"),
        ("1 Q0 doc7 1 2.0 sys\n", "element"),  # a TREC run: the element reader reads it as one
        ("1 Q0 doc7 1 2.0 sys note\n", "element"),  # a trailing field trec_eval ignores
        ("1 Q0 12345 1 2.0 sys 0 240\n", "fol"),
        ("# a comment\n1 Q0 12345 1 2.0 sys 0 240\n", "fol"),
        ("1 Q0 12345 1 2.0 sys /a[1] 240\n", "element"),  # an XPath in field 7 is never an offset
        ("<?xml version='1.0'?>\n<inex-submission/>\n", "xml"),
        ("\ufeff<inex-submission/>\n", "xml"),
        ("", "empty"),
        ("# only a comment\n\n", "empty"),
    ],
)
def test_run_format(tmp_path, text, expected, gz):
    path = _write(tmp_path / ("r.txt.gz" if gz else "r.txt"), text, gz)
    assert run_format(path) == expected


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("log.csv", "route_id,step,docid,from,to\n", "csv"),
        ("log.txt", '{"route_id": "r1"}\n', "jsonl"),
        ("log.txt", '\n  {"route_id": "r1"}\n', "jsonl"),
        ("log.jsonl", "", "jsonl"),
        ("LOG.NDJSON", "", "jsonl"),
        ("log.json.gz", "", "jsonl"),
    ],
)
def test_routes_format(tmp_path, name, text, expected):
    assert routes_format(_write(tmp_path / name, text, name.endswith(".gz"))) == expected


def test_unreadable_files_are_one_error_of_their_kind(tmp_path):
    missing = tmp_path / "nope"
    with pytest.raises(QrelsFormatError, match="cannot read file"):
        qrels_format(missing)
    with pytest.raises(RunFormatError, match="cannot read file"):
        run_format(missing)
    with pytest.raises(RouteLogError, match="cannot read file"):
        routes_format(missing)
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(RunFormatError, match="bad.gz: cannot read file"):
        run_format(bad)


@pytest.mark.parametrize("name", ["log.csv.gz", "log.jsonl.gz", "log.csv", "log.jsonl"])
def test_navigation_logs_round_trip_compressed_or_not(tmp_path, name):
    steps = [
        RouteStep("r1", 1, "moby", "/book[1]", "/book[1]/fm[1]", "u1", "t1", 20.0, "0.020"),
        RouteStep("r1", 2, "moby", "/book[1]/fm[1]", "/book[1]", "u1", "t1", 30.5, "0.051"),
    ]
    path = tmp_path / name
    assert write_routes(steps, path) == 2
    if name.endswith(".gz"):
        assert path.read_bytes()[:2] == b"\x1f\x8b"  # written as the reader reads it
    routes = read_routes(path)
    assert [(s.route_id, s.step, s.src, s.dst, s.duration_ms) for s in routes] == [
        (s.route_id, s.step, s.src, s.dst, s.duration_ms) for s in steps
    ]


def test_a_damaged_compressed_log_is_one_line(tmp_path):
    path = tmp_path / "log.csv.gz"
    path.write_bytes(
        gzip.compress(b"route_id,step,docid,from,to\n" + b"".join(b"r%d,1,d,/a,/a/b\n" % i for i in range(2000)))[:-40]
    )
    with pytest.raises(RouteLogError, match="log.csv.gz: cannot read file"):
        read_routes(path)
