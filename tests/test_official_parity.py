"""Every line the official INEX tool (inex_eval 3.1) printed for the runs of tests/data/inex2010-official/,
reproduced by ``graphsr eval --report official`` -- as text, not only to 6 decimals -- and its three refusals."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from graphsr.cli.main import main

from graphsr.data import sample

OFFICIAL = Path(__file__).parent / "data" / "inex2010-official"
QRELS = sample("inex2010")["qrels"]

# the tool's options of each expected file (tests/data/README.md)
MODES = {
    "f": ["--task", "focused", "-q"],
    "f_c": ["--task", "focused", "-c"],
    "t": ["--task", "thorough"],
    "r": ["--task", "ric", "-q"],
    "r_c": ["--task", "ric", "-c"],
    "r_beta1": ["--task", "ric", "--beta", "1"],
    "i": ["--task", "t2i", "-q"],
    "i_irr100": ["--task", "t2i", "--irr", "100"],
    "b": ["--task", "bic", "-q"],
    "b_n100": ["--task", "bic", "--bep-distance", "100"],
}
EXPECTED = sorted(OFFICIAL.glob("expected/*.txt.gz"))


def _case(path: Path):
    run, mode = path.name[: -len(".txt.gz")].rsplit(".", 1)
    options = list(MODES[mode])
    if mode == "t" and run.startswith("thr"):
        options.append("-q")  # the thr* runs were printed with -t -q
    return OFFICIAL / "runs" / f"{run}.run.gz", options


def test_the_development_set_is_there():
    assert len(EXPECTED) == 49 and QRELS.exists()


@pytest.mark.parametrize("expected", [p for p in EXPECTED if not p.name.startswith("err-")], ids=lambda p: p.name)
def test_every_line_of_the_official_tool(expected, capsys):
    run, options = _case(expected)
    assert main(["eval", str(QRELS), str(run), "--report", "official", *options]) == 0
    out, err = capsys.readouterr()
    got = [line.split("\t") for line in out.splitlines()]
    text = gzip.open(expected, "rt").read().splitlines()
    header, body = text[0], [line.split() for line in text[1:-1]]
    assert text[-1] == "</eval>" and got[0][:2] == ["runid", "all"]
    assert header.startswith(f'<eval run-id="{got[0][2]}" ')  # the run id of the last line read
    assert len(got) - 1 == len(body)
    for g, e in zip(got[1:], body):
        assert g == e  # name, topic and value, the value as the tool prints it
    assert err == ""


@pytest.mark.parametrize("expected", [p for p in EXPECTED if p.name.startswith("err-")], ids=lambda p: p.name)
def test_runs_the_official_tool_refuses(expected, capsys):
    run, options = _case(expected)
    message = gzip.open(expected, "rt").read().strip()  # e.g. ERROR *** (run) ... in topic T article id: A in line: N
    topic = message.split(" in topic ")[1].split()[0]
    article = message.split("article id: ")[1].split()[0]
    line = message.split("in line: ")[1].strip()
    assert main(["eval", str(QRELS), str(run), *options]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"graphsr: error: {run}:{line}: topic {topic}, article {article}: ")
    assert len(err.strip().splitlines()) == 1
    # --lenient scores it, saying the numbers are not the official tool's
    assert main(["eval", str(QRELS), str(run), *options, "--lenient"]) == 0
    assert "not the official tool's" in capsys.readouterr().err


def test_shuffled_ranks_score_in_file_order_unless_asked(capsys):
    run = OFFICIAL / "runs" / "ord-foc.run.gz"
    main(["eval", str(QRELS), str(run), "-m", "MAiP"])
    by_file = capsys.readouterr().out
    main(["eval", str(QRELS), str(run), "-m", "MAiP", "--order", "rank"])
    by_rank, err = capsys.readouterr()
    assert by_file != by_rank and "not the official tool's" in err
