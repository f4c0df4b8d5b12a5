"""``graphsr trec_eval`` on the edges trec_eval 9.0.8 was seen to meet (recorded from the binary by
tools/record_trec_eval_edges.py into tests/data/trec_eval/edges.json): numbers read as C reads them, grades
whose cost trec_eval pays by value, a run of white space; closed pipes and signals as every graphsr command;
C's atol/atof against glibc's own."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.io.cnumbers import c_atof, c_atol
from graphsr.io.trec_eval_input import _memory_and_swap

DATA = Path(__file__).parent / "data" / "trec_eval"
EDGES = json.loads((DATA / "edges.json").read_text())
GRAPHSR = [sys.executable, "-m", "graphsr"]


def run_case(case: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    (tmp_path / "qrels").write_text(case["qrels"])
    (tmp_path / "run").write_text(case["run"])
    return subprocess.run(
        [*GRAPHSR, "trec_eval", *case["args"], str(tmp_path / "qrels"), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _sizable_on(memory: int, case: dict) -> bool | None:
    """Whether trec_eval could size its array of grades on a machine of ``memory`` bytes (None: no grade
    large enough to matter)."""
    grades = [c_atol(line.split()[3]) for line in case["qrels"].splitlines()]
    top = max(grades)
    if top < 1 << 20:
        return None
    return top < (1 << 63) - 1 and 8 * (top + 1) <= memory


@pytest.mark.parametrize("case", EDGES["cases"], ids=[c["name"] for c in EDGES["cases"]])
def test_the_binarys_edges(case, tmp_path):
    here, there = _sizable_on(_memory_and_swap(), case), _sizable_on(EDGES["memory_and_swap"], case)
    if here != there:
        pytest.skip(
            "trec_eval's outcome on this grade depends on the machine's memory, which differs from the "
            "recording machine's"
        )
    done = run_case(case, tmp_path)
    if case["exit"] < 0:  # the binary crashed (a grade past a long in a later topic): graphsr stops as for others
        assert done.returncode == 4, done.stderr
        assert "Can't calculate measure" in done.stderr and "Traceback" not in done.stderr
        return
    assert (done.returncode, done.stdout) == (case["exit"], case["stdout"]), done.stderr
    for line in case["stderr"].splitlines():
        assert line in done.stderr.splitlines(), (line, done.stderr)
    if done.returncode:
        assert done.stderr.splitlines()[-1].startswith("graphsr trec_eval: ")


def test_the_cost_does_not_depend_on_grade_values(tmp_path):
    """Grades are coded by rank among a topic's grades: a grade of 10**8 takes the memory a grade of 3 does
    (trec_eval: 8 bytes per grade value, 16 GB and 50 s for 2**31)."""
    from graphsr.evaluation.trec_eval import TrecEvalOptions, run_trec_eval

    case = next(c for c in EDGES["cases"] if c["name"] == "a grade of 100")
    (tmp_path / "run").write_text(case["run"])
    outputs, peaks = [], []
    for g in (3, 10**8):
        (tmp_path / "qrels").write_text(case["qrels"].replace(" 100\n", f" {g}\n"))
        import io

        out = io.BytesIO()
        tracemalloc.start()
        run_trec_eval(tmp_path / "qrels", tmp_path / "run", TrecEvalOptions(measures=["all_trec"], per_topic=True), out)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        outputs.append(out.getvalue())
    assert peaks[1] < peaks[0] + (1 << 20), peaks
    # the binary-relevance measures agree; the graded ones differ, as the gains do
    lines = [dict((tuple(line.split(b"\t")[:2]), line) for line in o.splitlines()) for o in outputs]
    assert lines[0][(b"map                   ", b"1")] == lines[1][(b"map                   ", b"1")]
    assert lines[0][(b"ndcg                  ", b"1")] != lines[1][(b"ndcg                  ", b"1")]


def _many_topics(tmp_path: Path) -> tuple[Path, Path]:
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} 0 d1 1\n" for t in range(1, 3001)))
    r.write_text("".join(f"{t} Q0 d{i} {i} {i} r\n" for t in range(1, 3001) for i in (1, 2, 3)))
    return q, r


def test_a_closed_pipe_ends_quietly(tmp_path):
    q, r = _many_topics(tmp_path)
    done = subprocess.run(
        f"{sys.executable} -m graphsr trec_eval -q -m all_trec {q} {r} | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.startswith("num_ret") and done.stderr == ""


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_signals_end_in_one_line(tmp_path, sig, code, word):
    """The run is a named pipe nobody writes to: the command is certainly at work (waiting to read it) when
    the signal comes, however fast the machine."""
    q, _ = _many_topics(tmp_path)
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*GRAPHSR, "trec_eval", "-q", "-m", "all_trec", str(q), str(fifo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # as a terminal starts it: a suite started in the background (`cmd &` in a script) hands its children
        # SIGINT ignored, and a process that starts with SIGINT ignored keeps ignoring it, as shells expect
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:  # until it waits on the pipe (its handlers set)
            try:
                waiting = Path(f"/proc/{proc.pid}/wchan").read_text()
            except OSError:
                waiting = ""
            if "partner" in waiting or "fifo" in waiting:
                break
            time.sleep(0.05)
        else:
            time.sleep(2.0)  # (a kernel that does not say where a process waits)
        assert proc.poll() is None
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code and err.strip() == f"graphsr: {word}", err


@pytest.fixture(scope="module")
def glibc(tmp_path_factory):
    """A C program printing glibc's atol and atof of each argument."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp("cnum")
    (d / "cnum.c").write_text(
        "#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n"
        '  for (int i = 1; i < argc; i++) printf("%ld %a\\n", atol(argv[i]), atof(argv[i]));\n'
        "  return 0;\n}\n"
    )
    subprocess.run([cc, "-O0", "-o", str(d / "cnum"), str(d / "cnum.c")], check=True)
    return d / "cnum"


_ALPHABET = "0123456789.eE+-xXpPaAbBfFiInNtTyY() \t_,"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.text(alphabet=_ALPHABET, min_size=1, max_size=12).filter(lambda s: "\0" not in s), min_size=50, max_size=50
    )
)
def test_atol_and_atof_are_glibcs(glibc, texts):
    out = subprocess.run([str(glibc), *texts], capture_output=True, text=True, check=True).stdout.splitlines()
    for text, line in zip(texts, out):
        lng, dbl = line.split(" ")
        assert (c_atol(text) or 0) == int(lng), text
        mine = c_atof(text)
        mine = 0.0 if mine is None else mine
        theirs = float.fromhex(dbl) if "nan" not in dbl and "inf" not in dbl else float(dbl)
        if math.isnan(theirs):
            assert math.isnan(mine), text
        else:
            assert mine == theirs and math.copysign(1, mine) == math.copysign(1, theirs), text


@pytest.mark.parametrize(
    "text",
    [
        "99999999999999999999",
        "-99999999999999999999",
        "1e999",
        "-1e999",
        "4.9e-325",
        "0x1p99999",
        "nan(123)",
        "  +.5e-3x",
        "0x",
        "1e+",
        "infinit",
        "\v\f12",
    ],
)
def test_atol_and_atof_at_the_limits(glibc, text):
    lng, dbl = subprocess.run([str(glibc), text], capture_output=True, text=True, check=True).stdout.split()
    assert (c_atol(text) or 0) == int(lng)
    mine = c_atof(text) or 0.0
    theirs = float(dbl) if ("nan" in dbl or "inf" in dbl) else float.fromhex(dbl)
    assert (math.isnan(mine) and math.isnan(theirs)) or mine == theirs
