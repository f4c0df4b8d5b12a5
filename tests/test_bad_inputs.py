"""Bad inputs get one line naming the file (and line), exit 2, and nothing half-written (issue 10, items 5-8)."""

from __future__ import annotations

import io
import tarfile

import pytest

from graphsr.cli.main import main
from graphsr.data import sample

from .conftest import write

MOBY = sample("mobydick")
QRELS_FOL = "1 Q0 a 10 100 0 0:10\n"


def one_error(capsys, *argv) -> str:
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graphsr: error: "), err
    return lines[0][len("graphsr: error: ") :]


def test_a_huge_fol_offset_in_an_xml_submission(tmp_path, capsys):
    q = write(tmp_path / "q", QRELS_FOL)
    sub = write(
        tmp_path / "s.xml",
        '<inex-submission run-id="x"><topic topic-id="1"><result><file>a</file>'
        f'<fol offset="{"9" * 40}" length="5"/></result></topic></inex-submission>',
    )
    msg = one_error(capsys, "eval", q, sub)
    assert msg.startswith(f"{sub}:1: expected <fol> offset <= 10^18")


def test_a_result_after_its_topic_is_refused(tmp_path, capsys):
    q = write(tmp_path / "q", QRELS_FOL)
    sub = write(
        tmp_path / "s.xml",
        '<inex-submission run-id="x">\n<topic topic-id="1"></topic>\n'
        '<result><file>a</file><fol offset="0" length="5"/></result>\n'
        "</inex-submission>",
    )
    assert one_error(capsys, "eval", q, sub) == f"{sub}:3: <result> outside a <topic>"


def test_a_plot_of_an_unknown_picture_format(tmp_path, capsys):
    q = write(tmp_path / "q", QRELS_FOL)
    run = write(tmp_path / "r.fol", "1 Q0 a 1 1 r 0 5\n")
    msg = one_error(capsys, "eval", q, run, "--plot", tmp_path / "x.bmp")
    assert "plots are written as .png, .pdf or .svg, got '.bmp'" in msg


@pytest.mark.parametrize(
    "line, expected",
    [
        ("1 Q0 a 1 1 r -5 10", "passage offset (field 7) >= 0, got -5"),
        ("1 Q0 a 1 1 r 5 -3", "passage length (field 8) >= 0, got -3"),
    ],
)
def test_a_negative_offset_or_length_on_the_first_line(tmp_path, capsys, line, expected):
    q = write(tmp_path / "q", QRELS_FOL)
    run = write(tmp_path / "r.fol", line + "\n")
    assert one_error(capsys, "eval", q, run) == f"{run}:1: expected {expected}"


def test_a_ten_megabyte_xpath_is_refused_before_any_work_and_quoted_short(tmp_path, capsys):
    # the length is checked before the path is split (model.document.MAX_XPATH), which bounds time and memory
    run = write(tmp_path / "r.run", "1 Q0 mobydick 1 1 s " + "/book" * 2_000_000 + "\n")
    msg = one_error(capsys, "eval", MOBY["qrels"], run, "--collection", MOBY["collection"])
    assert msg.startswith(f"{run}:1: an XPath of 10000000 characters (at most 10000): '/book/book")
    assert len(msg) < 400 and msg.endswith("... (10000000 characters)")


def test_an_unknown_element_in_a_route_log_names_file_and_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'st'}")
    assert main(["store", "load", str(MOBY["collection"]), "--name", "moby", "--elements", "all"]) == 0
    log = write(
        tmp_path / "log.csv",
        "route_id,step,docid,from,to\nr,1,mobydick,/book[1],/book[1]/fm[1]\n"
        "r,2,mobydick,/book[1]/fm[1],/book[1]/nowhere[2]\n",
    )
    capsys.readouterr()
    msg = one_error(capsys, "routes", "load", log, "--collection", "moby", "--study", "s")
    assert msg == f"{log}:3: document 'mobydick' has no node '/book[1]/nowhere[2]'"


def test_a_load_whose_qrels_name_an_unknown_node_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'st'}")
    q = write(tmp_path / "q.txt", "1 Q0 mobydick /book[1] 1\n1 Q0 mobydick /book[1]/nope[3] 1\n")
    msg = one_error(capsys, "store", "load", MOBY["collection"], "--qrels", q)
    assert (
        msg == f"{q}:2: document 'mobydick' has no node /book[1]/nope[3]: expected an XPath that exists in the "
        "collection"
    )
    assert main(["store", "show"]) == 0
    assert "Element" not in capsys.readouterr().out


def test_a_load_that_fails_midway_is_shown_incomplete_and_completed_by_the_next(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'st'}")
    coll = tmp_path / "c"
    write(coll / "a.xml", "<a><b>x</b></a>")
    bad = write(coll / "z.xml", "<z><y>unclosed</z>")
    one_error(capsys, "store", "load", coll, "--name", "c", "--elements", "all")
    main(["store", "show"])
    assert "INCOMPLETE" in capsys.readouterr().out
    write(bad, "<z><y>closed</y></z>")
    assert main(["store", "load", str(coll), "--name", "c", "--elements", "all"]) == 0
    main(["store", "show"])
    out = capsys.readouterr().out
    assert "INCOMPLETE" not in out and "complete" in out


def _tar(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.parametrize(
    "name, content, expected",
    [
        (
            "nul.xml",
            b"<a>x\x00y</a>",
            ":1: malformed XML: Invalid character: Char 0x0 out of allowed range; expected a well-formed document",
        ),
        (
            "latin.xml",
            b'<?xml version="1.0" encoding="UTF-8"?>\n<a>\n<b>caf\xe9</b></a>',
            ":3: expected UTF-8 text (the XML default or declared encoding), got byte 0xe9",
        ),
        (
            "plain.tar",
            b"not a tar archive at all",
            ": cannot read tar archive: not a tar archive (plain, gzip, bz2 or xz)",
        ),
        (
            "cut.tar",
            _tar({"a.xml": b"<a>1</a>", "b.xml": b"<b>2</b>"})[:1124],
            ": cannot read tar archive: data after its last complete member (offset 1024) is not a member: the archive "
            "is truncated or damaged",
        ),
    ],
)
def test_collections_that_cannot_be_read(tmp_path, capsys, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    assert one_error(capsys, "summary", path) == f"{path}{expected}"


def test_workers_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["summary", str(MOBY["collection"]), "--workers", "0"])
    assert e.value.code == 2
    assert "argument --workers: expected an integer >= 1, got 0" in capsys.readouterr().err


def test_element_runs_without_documents_are_told_what_to_give(capsys):
    """Flat measures on an element run need no navigation model, but the run's XPaths need the documents:
    the message names --collection rather than a stored model."""
    s = sample("shakespeare")
    assert main(["eval", str(s["qrels"]), str(s["runs"][0]), "-m", "P@10"]) == 2
    err = capsys.readouterr().err
    assert "--collection DIR" in err and "a stored model needs" not in err
    assert (
        main(
            [
                "eval",
                str(s["qrels"]),
                str(s["runs"][0]),
                "-m",
                "P@10",
                "--collection",
                str(s["collection"]),
                "--format",
                "csv",
            ]
        )
        == 0
    )


#: A graphsr command in a fresh interpreter where the report extra's packages cannot be imported, as on a machine
#: without them (blocked before anything is imported: in a process that has loaded pyarrow, pandas keeps using it).
_WITHOUT_EXTRAS = (
    "import sys; sys.modules.update(dict.fromkeys(('matplotlib', 'jinja2', 'pyarrow'))); "
    "from graphsr.cli.main import main; sys.exit(main(sys.argv[1:]))"
)


def _without_extras(*argv) -> tuple[int, str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_EXTRAS, *map(str, argv)], capture_output=True, text=True, timeout=300
    )
    return done.returncode, done.stderr


def test_a_missing_extra_is_named_in_one_line(tmp_path):
    """Scoring needs none of the report's packages; a command that does names the extra to install, before any
    work, exit 2."""
    from graphsr.data import sample

    s = sample("mobydick")
    common = ["eval", s["qrels"], s["runs"][0], "--collection", s["collection"], "-m", "SRP@5"]
    code, err = _without_extras(*common, "--save", tmp_path / "scores.csv")
    assert code == 0, err  # scoring and CSV score tables: fine
    code, err = _without_extras(*common, "--plot", tmp_path / "p.png")
    assert code == 2
    assert "needs matplotlib, installed with graphsr's report extra: pip install 'graphsr[report]'" in err
    assert err.count("\n") == 1 and not (tmp_path / "p.png").exists()
    code, err = _without_extras("report", tmp_path / "scores.csv", "-o", tmp_path / "r.html")
    assert code == 2 and "graphsr[report]" in err
    code, err = _without_extras(*common, "--save", tmp_path / "scores.parquet")
    assert code == 2 and "needs pyarrow" in err and not (tmp_path / "scores.parquet").exists()
