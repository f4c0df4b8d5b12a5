"""Line endings as a person means them: LF, CR and CRLF are line breaks in every line reader (runs, qrels,
passage files, navigation logs, with and without the C scanners, plain and gzipped), and a file mixing them
reads as its LF copy does.  (trec_eval 9.0.8 splits on LF only: a CR-only run is one line there.)  A line
longer than the cap, or binary data, is one error naming the file and line."""

from __future__ import annotations

import gzip
import random

import pytest

from graphsr.cli.main import main
from graphsr.data import sample

ENDINGS = {"cr": "\r", "crlf": "\r\n"}


def _variants(tmp_path, name: str, text: str) -> dict[str, object]:
    """The LF file and its CR, CRLF, mixed and gzipped-CR copies."""
    lines = text.splitlines()
    rng = random.Random(7)
    out = {"lf": text}
    for k, e in ENDINGS.items():
        out[k] = e.join(lines) + e
    out["mixed"] = "".join(line + rng.choice(["\n", "\r", "\r\n"]) for line in lines)
    paths = {}
    for k, body in out.items():
        p = tmp_path / f"{k}-{name}"
        p.write_bytes(body.encode())
        paths[k] = p
    gz = tmp_path / f"crgz-{name}.gz"
    gz.write_bytes(gzip.compress(out["cr"].encode()))
    paths["cr.gz"] = gz
    return paths


def _eval(capsys, *argv):
    code = main(["eval", *map(str, argv)])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _trec(n_topics=3, n_docs=20, seed=1):
    rng = random.Random(seed)
    run, qrels = [], []
    for t in range(1, n_topics + 1):
        for rank, d in enumerate(rng.sample(range(100), n_docs), 1):
            run.append(f"{t} Q0 D{d} {rank} {n_docs - rank + 0.5} sys")
        for d in rng.sample(range(100), 30):
            qrels.append(f"{t} 0 D{d} {rng.randint(0, 2)}")
    return "\n".join(run) + "\n", "\n".join(qrels) + "\n"


@pytest.mark.parametrize("scanner", [True, False], ids=["c-scanner", "line-reader"])
def test_trec_runs_and_qrels_read_the_same_with_every_line_ending(tmp_path, capsys, monkeypatch, scanner):
    if not scanner:
        monkeypatch.setattr("graphsr.io._lines.c_scanner", lambda: None)
    run, qrels = _trec()
    runs, qs = _variants(tmp_path, "x.run", run), _variants(tmp_path, "q.txt", qrels)
    want = _eval(capsys, qs["lf"], runs["lf"], "-m", "num_ret", "-m", "AP", "-m", "nDCG@10", "-q")
    assert "num_ret\tall\t60\n" in want
    for k in runs:
        assert _eval(capsys, qs[k], runs[k], "-m", "num_ret", "-m", "AP", "-m", "nDCG@10", "-q") == want, k


def test_a_cr_only_run_of_60_lines_is_60_results(tmp_path, capsys):
    run, qrels = _trec()
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_bytes(run.replace("\n", "\r").encode())
    out = _eval(capsys, tmp_path / "q", tmp_path / "r", "-m", "num_ret")
    assert "num_ret\tall\t60\n" in out, out


def test_element_and_passage_files_read_the_same_with_every_line_ending(tmp_path, capsys):
    s = sample("shakespeare")
    runs = _variants(tmp_path, "speeches.run", s["runs"][3].read_text())
    qs = _variants(tmp_path, "qrels.txt", s["qrels"].read_text())
    args = ["--collection", s["collection"], "--model", "p*:extent", "-m", "SRP@10", "-m", "P@10", "-q"]
    want = _eval(capsys, qs["lf"], runs["lf"], *args)
    for k in runs:
        assert _eval(capsys, qs[k], runs[k], *args).replace(f"{k}-", "") == want.replace("lf-", ""), k
    inex = sample("inex2010")
    fol_runs = _variants(tmp_path, "foc.run", gzip.decompress(inex["runs"][1].read_bytes()).decode())
    fol_qrels = _variants(tmp_path, "fq.txt", inex["qrels"].read_text())
    want = _eval(capsys, fol_qrels["lf"], fol_runs["lf"], "-m", "MAiP", "-m", "char_prec")
    for k in fol_runs:
        assert _eval(capsys, fol_qrels[k], fol_runs[k], "-m", "MAiP", "-m", "char_prec") == want, k


@pytest.mark.parametrize(
    "suffix,text",
    [
        (
            "log.csv",
            "route_id,step,docid,from,to,duration_ms\nr1,1,mobydick,/book[1],/book[1]/body[1],30\n"
            "r1,2,mobydick,/book[1]/body[1],/book[1],10\nr2,1,mobydick,/book[1],/book[1]/fm[1],5\n",
        ),
        (
            "log.jsonl",
            '{"route_id": "r1", "step": 1, "docid": "mobydick", "from": "/book[1]", "to": "/book[1]/body[1]"}\n'
            '{"route_id": "r1", "step": 2, "docid": "mobydick", "from": "/book[1]/body[1]", "to": "/book[1]"}\n',
        ),
    ],
)
def test_navigation_logs_read_the_same_with_every_line_ending(tmp_path, suffix, text):
    from graphsr.io import read_routes

    paths = _variants(tmp_path, suffix, text)
    want = [s.as_dict() for s in read_routes(paths["lf"])]
    for k, p in paths.items():
        assert [s.as_dict() for s in read_routes(p)] == want, k


@pytest.mark.parametrize("what", ["run", "qrels", "routes"])
def test_an_endless_line_or_binary_data_is_one_error(tmp_path, capsys, monkeypatch, what):
    monkeypatch.setattr("graphsr.io._lines.MAX_LINE", 4096)
    s = sample("mobydick")
    long = tmp_path / "long"
    long.write_bytes(b"1 Q0 mobydick 1 1.0 sys " + b"x" * 10_000)  # no line end: read whole
    binary = tmp_path / "binary"
    binary.write_bytes(b"1 Q0 a 1 1.0 s\n1 Q0 b 2 0.5 s\n\x00\x01\x02")
    for bad, message in ((long, "line 1 is longer than 4,096 bytes"), (binary, ":3: expected a text file of lines")):
        if what == "run":
            argv = ["eval", str(s["qrels"]), str(bad)]
        elif what == "qrels":
            argv = ["eval", str(bad), str(s["runs"][0])]
        else:
            argv = [
                "eval",
                str(s["qrels"]),
                str(s["runs"][0]),
                "--collection",
                str(s["collection"]),
                "--routes",
                str(bad),
                "-m",
                "ESRP@5",
            ]
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and message in err and str(bad) in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "{qrels}", "/dev/zero"],
        ["eval", "/dev/urandom", "{run}"],
        ["eval", "{qrels}", "{run}", "--collection", "{collection}", "--routes", "/dev/zero", "-m", "ESRP@5"],
    ],
    ids=["run-dev-zero", "qrels-dev-urandom", "routes-dev-zero"],
)
def test_endless_inputs_are_one_line_not_exhausted_memory(argv):
    """The trial's MemoryErrors, as it ran them: real processes reading endless devices."""
    import subprocess
    import sys

    m = sample("mobydick")
    args = [a.format(qrels=m["qrels"], run=m["runs"][2], collection=m["collection"]) for a in argv]
    proc = subprocess.run([sys.executable, "-m", "graphsr", *args], capture_output=True, text=True, timeout=120)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "expected a text file of lines, got a NUL byte" in lines[0]


@pytest.mark.parametrize("size", [1, 7, 8192, 1 << 21])
def test_the_line_stream_gives_the_blocks_bytes_whatever_the_reads_size(tmp_path, size):
    """LineStream, which the csv module reads through, hands over exactly iter_blocks' bytes, read ``size`` bytes
    at a time, with lines longer than a block (it reads a block from an offset rather than slicing off what was
    read, which made a 64 MB line take minutes at 8 KB a read)."""
    from graphsr.errors import GraphsrInputError
    from graphsr.io._lines import LineStream, iter_blocks

    rng = random.Random(size)
    longest = 3_000_000 if size > 100 else 3_000  # (lines longer than a block, read 8 KB or 2 MB at a time)
    text = "".join("x" * rng.choice([0, 3, 700, longest]) + rng.choice(["\n", "\r", "\r\n"]) for _ in range(12))
    path = tmp_path / "lines.txt"
    path.write_bytes(("\ufeff" + text).encode())
    stream = LineStream(path, GraphsrInputError)
    buf = bytearray(size)
    got = bytearray()
    while n := stream.readinto(buf):
        got += buf[:n]
    assert bytes(got) == b"".join(iter_blocks(path, GraphsrInputError))
    assert bytes(got) == text.replace("\r\n", "\n").replace("\r", "\n").encode()
