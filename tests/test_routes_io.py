"""Navigation logs (CSV and JSON lines): structure, policies and bad input."""

from __future__ import annotations

import json

import pytest

from graphsr.io import RouteLogError, read_routes

from .conftest import write

HEADER = "route_id,step,docid,from,to,user,topic,duration_ms,timestamp\n"


def test_csv_and_jsonl_read_the_same(tmp_path):
    rows = [
        ("r1", 1, "d", "/a", "/a/b[2]", "u1", "7", 120, "2020-01-01T10:00:00"),
        ("r1", 2, "d", "/a/b[2]", "/a", "u1", "7", 80, ""),
        ("r2", 1, "e", "/x[1]", "/x[1]/y[1]", "", "", "", ""),
    ]
    csv_file = write(tmp_path / "log.csv", HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))
    keys = HEADER.strip().split(",")
    jl = write(
        tmp_path / "log.jsonl", "".join(json.dumps({k: v for k, v in zip(keys, r) if v != ""}) + "\n" for r in rows)
    )
    a, b = read_routes(csv_file), read_routes(jl)
    for routes in (a, b):
        assert list(routes.routes) == ["r1", "r2"] and len(routes) == 3
        s = routes.routes["r1"][0]
        assert (s.src, s.dst, s.user, s.topic, s.duration_ms) == ("/a[1]", "/a[1]/b[2]", "u1", "7", 120.0)
        assert routes.routes["r2"][0].duration_ms is None
        assert routes.docids() == {"d", "e"}
        assert routes.report.reordered_routes == 0 and routes.report.gaps == 0
    assert [x.as_dict() for x in a] == [x.as_dict() for x in b]


def test_policies_are_counted(tmp_path):
    text = HEADER + (
        "r,3,d,/a/b,/a,,,,\n"  # listed first: out of order
        "r,1,d,/a,/a/b,,,,\n"
        "r,5,d,/a/c,/a,,,,\n"  # gap (4 missing) and starts elsewhere than /a
        "s,1,d,/a,/a/b,,,,\n"
        "s,2,e,/a,/a/c,,,,\n"
    )  # moves to another document
    rep = read_routes(write(tmp_path / "p.csv", text)).report
    assert rep.steps == 5 and rep.routes == 2
    assert rep.reordered_routes == 1
    assert rep.gaps == 2  # steps 2 and 4 of route r
    # r: step 1 ends at /a/b where step 3 starts (fine); step 3 ends at /a, step 5 starts at /a/c
    assert rep.discontinuities == 1
    assert rep.document_changes == 1
    assert any("out of order" in line for line in rep.lines())


@pytest.mark.parametrize(
    "text, line, pattern",
    [
        ("route_id,step,docid,from\nr,1,d,/a\n", 1, "lacks column"),
        (HEADER + "r,0,d,/a,/a/b,,,,\n", 2, "positive integer step"),
        (HEADER + "r,x,d,/a,/a/b,,,,\n", 2, "positive integer step"),
        (HEADER + "r,1,d,/a,/a/b,,,-5,\n", 2, "non-negative duration"),
        (HEADER + "r,1,d,/a,/a/b,,,inf,\n", 2, "finite, non-negative duration_ms, got 'inf'"),
        (HEADER + "r,1,d,/a,/a/b,,,nan,\n", 2, "finite, non-negative duration_ms, got 'nan'"),
        (
            HEADER + 'r,1,d,/a,/a/b,"u\nv",,,\n\nr,0,d,/a,/a/b,,,,\n',
            5,
            "positive integer step",
        ),  # (a record of two lines, a blank one)
        (HEADER + "r,1,d,/a,/a/b,,,soon,\n", 2, "milliseconds"),
        (HEADER + "r,1,d,/a,/a/b,,,,\nr,1,d,/a,/a/c,,,,\n", 3, "step 1 twice"),
        (HEADER + "r,1,d,a/b,/a,,,,\n", 2, "absolute XPath"),
        (HEADER + "r,1,,/a,/a/b,,,,\n", 2, "missing docid"),
    ],
)
def test_csv_errors(tmp_path, text, line, pattern):
    f = write(tmp_path / "bad.csv", text)
    with pytest.raises(RouteLogError, match=pattern) as exc:
        read_routes(f)
    assert exc.value.line == line and exc.value.path == str(f)


def test_jsonl_errors(tmp_path):
    with pytest.raises(RouteLogError, match="JSON object") as exc:
        read_routes(
            write(
                tmp_path / "b.jsonl", '{"route_id": "r", "step": 1, "docid": "d", "from": "/a", "to": "/a"}\n[1, 2]\n'
            )
        )
    assert exc.value.line == 2
    with pytest.raises(RouteLogError, match="missing to"):
        read_routes(write(tmp_path / "c.jsonl", '{"route_id": "r", "step": 1, "docid": "d", "from": "/a"}\n'))


def test_empty_log(tmp_path):
    with pytest.raises(RouteLogError, match="no steps"):
        read_routes(write(tmp_path / "e.csv", HEADER))
