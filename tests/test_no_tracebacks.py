"""Input and environment never end in a traceback: each case is one line (file:line where there is one), exit 2,
and nothing half-written is left behind."""

from __future__ import annotations

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.io.routes import RouteLogError, read_routes

from .conftest import write
from .test_store_durability import _fill, small_fs  # noqa: F401 -- the fixture, used by name

HEADER = "route_id,step,docid,from,to,user\n"


def _one_line(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("graphsr: error: ") and "Traceback" not in err, err
    return err


def test_a_route_log_byte_that_is_not_utf8_names_its_line(tmp_path, capsys):
    log = tmp_path / "log.csv"
    log.write_bytes(
        (HEADER + "r1,1,mobydick,/book,/book/body,u\n").encode()
        + "r1,2,mobydick,/book/body,/book,\xe9\n".encode("latin-1")
        + b"r1,3,mobydick,/book,/book/body,u\n" * 3000
    )
    with pytest.raises(RouteLogError, match=r"log\.csv:3: expected UTF-8 text, got byte 0xe9"):
        read_routes(log)
    s = sample("mobydick")
    err = _one_line(
        capsys,
        [
            "eval",
            str(s["qrels"]),
            str(s["runs"][0]),
            "--collection",
            str(s["collection"]),
            "--routes",
            str(log),
            "-m",
            "ESRP@5",
        ],
    )
    assert "log.csv:3: expected UTF-8 text, got byte 0xe9" in err


def test_long_csv_fields_are_read_and_malformed_csv_is_one_line(tmp_path):
    log = write(tmp_path / "long.csv", HEADER + "r1,1,d,/a,/a/b," + "u" * 200_000 + "\n")
    assert read_routes(log).routes["r1"][0].user == "u" * 200_000
    bad = write(tmp_path / "quote.csv", HEADER + 'r1,1,d,/a,/a/b,u\nr1,2,d,"/a,/a,u\nr1,3,d,/a,/a/b,u\n')
    with pytest.raises(RouteLogError, match=r"quote\.csv:3: malformed CSV: unexpected end of data"):
        read_routes(bad)  # an unclosed quote would otherwise swallow the rest of the file into one field


@pytest.mark.parametrize("url", ["neo4j://[::1", "bolt://host:port", "bolt://"])
def test_a_malformed_server_url_is_one_line(url, capsys):
    err = _one_line(capsys, ["store", "show", "--store", url])
    assert f"store URL {url!r}" in err


def test_nsrcg_without_desired_gain_is_refused(capsys):
    s = sample("mobydick")
    err = _one_line(
        capsys,
        [
            "eval",
            str(s["qrels"]),
            str(s["runs"][0]),
            "--collection",
            str(s["collection"]),
            "--nav",
            "depth4",
            "-m",
            "NSRCG(l=0,m=0)@5",
        ],
    )
    assert "NSRCG: parameter l expects float in (0, inf), got 0.0" in err


def test_perturb_into_a_file_is_one_line(tmp_path, capsys):
    s = sample("mobydick")
    existing = write(tmp_path / "existing", "x\n")
    err = _one_line(
        capsys,
        [
            "perturb",
            str(s["runs"][1]),
            "--qrels",
            str(s["qrels"]),
            "--collection",
            str(s["collection"]),
            "-o",
            str(existing),
        ],
    )
    assert f"{existing}: expected a directory for the perturbed runs, got a file" in err


def test_simulated_routes_on_a_full_disk_leave_nothing_behind(small_fs, capsys):  # noqa: F811
    _fill(small_fs, leave_kb=8)
    out = small_fs / "log.csv"
    err = _one_line(
        capsys,
        [
            "simulate-routes",
            str(sample("shakespeare")["collection"]),
            "-o",
            str(out),
            "--routes",
            "20000",
            "--seed",
            "1",
        ],
    )
    assert f"{out}: cannot write the navigation log (No space left on device)" in err
    assert sorted(p.name for p in small_fs.iterdir()) == ["filler"]
