"""``graphsr trec_eval`` against trec_eval 9.0.8's own output, byte for byte.

Two sets of recorded outputs, both made by trec_eval built from its public source (tag v9.0.8; it reports
9.0.7): 12 random cases x 16 option sets (tests/data/trec_eval/reference, with their index), and 50 cases x 39
option sets reaching every measure, parameter syntax and option (tests/data/trec_eval/recorded.json.gz, written
by tools/record_trec_eval.py: topics on one side only, ids whose byte order is not their numeric order, grades
-2..4, ties in single precision, duplicate documents, -c -M -J -l -N -n -Z -D, long options, judgment groups,
preference files).  stdout and the
exit status must be equal, and every line trec_eval writes on stderr must be among graphsr's.  Where trec_eval
crashed (its -Z look-up reads past its table: exit -11) graphsr's answer is checked to be an answer; where it
aborts (contradicting preferences: exit -6) graphsr stops with status 4 and, as trec_eval, no output.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphsr.cli.trec_eval_cmd import main

DATA = Path(__file__).parent / "data" / "trec_eval"


def te(argv: list[str]) -> tuple[int, bytes, str]:
    """``graphsr trec_eval ARGV`` in this process: exit status, stdout bytes, stderr text."""
    out, err = io.BytesIO(), io.StringIO()
    stdout, stderr = sys.stdout, sys.stderr
    wrapper = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stdout, sys.stderr = wrapper, err
    try:
        code = main([str(a) for a in argv])
        wrapper.flush()
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        wrapper.detach()
    return code, out.getvalue(), err.getvalue()


def _reference():
    index = json.loads((DATA / "reference" / "index.json").read_text())
    return [pytest.param(e, id=f"{e['case']}-{e['output']}") for e in index]


@pytest.mark.parametrize("entry", _reference())
def test_the_reference_outputs_byte_for_byte(entry):
    case = DATA / "reference" / entry["case"]
    code, out, err = te([*entry["args"], case / "qrels.txt", case / "run.txt"])
    assert (code, out) == (entry["exit"], (case / entry["output"]).read_bytes()), err


def _recorded():
    with gzip.open(DATA / "recorded.json.gz", "rt") as fh:
        return json.load(fh)["cases"]


def test_the_recorded_cases_byte_for_byte(tmp_path):
    compared = crashed = 0
    stops = set()
    for k, case in enumerate(_recorded()):
        for name in ("qrels", "run", "zscores", "prefs", "qrels_prefs"):
            (tmp_path / name).write_text(case[name])
        for res in case["results"]:
            argv = [str(tmp_path / "zscores") if a == "ZSCORES" else a for a in res["args"]]
            code, out, err = te(argv + [tmp_path / res["judged"], tmp_path / "run"])
            if res["exit"] == -6:  # trec_eval aborts on contradicting preferences: graphsr stops, status 4
                assert code == 4 and out == b"", (k, res["args"], err)
                crashed += 1
                continue
            if res["exit"] < 0:  # trec_eval crashed: graphsr answers
                assert code == 0 and out, (k, res["args"], err)
                crashed += 1
                continue
            assert (code, out.decode()) == (res["exit"], res["stdout"]), (k, res["args"], err)
            for line in res["stderr"].splitlines():
                assert line in err.splitlines(), (k, res["args"], line, err)
            compared += 1
            stops.add(code)
    assert compared > 1000 and crashed and stops >= {0, 4, 7}  # the cases reach errors as well as values


def test_the_option_sets_reach_every_measure_and_option():
    """The recorded option sets name every measure of all_trec with parameters somewhere, and every option."""
    args = [a for case in _recorded()[:1] for res in case["results"] for a in res["args"] + [res["judged"]]]
    joined = " ".join(args)
    for measure in (
        "P.",
        "recall.",
        "map_cut.",
        "ndcg_cut.",
        "success.",
        "iprec_at_recall.",
        "Rprec_mult.",
        "11pt_avg.",
        "ndcg.",
        "ndcg_rel.",
        "Rndcg.",
        "G.",
        "utility.",
        "set_F.",
        "relstring.",
        "relative_P.",
        "gm_map",
        "gm_bpref",
        "infAP",
        "binG",
        "official",
        "all_trec",
        "set",
        "yaap",
        "qrels_jg",
        "map_avgjg",
        "P_avgjg.",
        "Rprec_mult_avgjg.",
        "all_prefs",
        "prefs",
        "qrels_prefs",
    ):
        assert measure in joined, measure
    for option in ("-q", "-c", "-M", "-J", "-l", "-N", "-n", "-Z", "-D", "--measure=", "--query_eval_wanted"):
        assert option in joined, option


def test_a_topic_whose_every_judgment_is_negative_is_scored_with_a_warning(tmp_path):
    """trec_eval 9.0.8 stops (exit 4) on such a topic, or reads the previous topic's counts; graphsr scores it
    as a topic with no judged document and says so."""
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a -1\n1 0 b -2\n2 0 c 1\n")
    r.write_text("1 Q0 a 1 2 s\n1 Q0 x 2 1 s\n2 Q0 c 1 1 s\n")
    code, out, err = te(["-q", "-m", "map", "-m", "relstring", q, r])
    assert code == 0 and "topic 1: every judgment is negative" in err
    assert out.decode().splitlines() == [
        "map                   \t1\t0.0000",
        "relstring             \t1\t'.-'",
        "map                   \t2\t1.0000",
        "relstring             \t2\t'1'",
        "map                   \tall\t0.5000",
    ]


@pytest.mark.parametrize(
    "qrels, run, wanted",
    [
        ("1 0 a x\n", "1 Q0 a 1 1 s\n", "expected an integer relevance"),
        ("1 0 a 1\n", "1 Q0 a 1 nan s\n", "expected a number as the score"),
        ("1 0 a 1\n", "1 Q0 a 1 x1 s\n", "expected a number as the score"),
        ("1 0 a 1\n", "1 Q0 a 1 -nan(1) s\n", "expected a number as the score"),
        ("1 0 a 1\n1 0 a 0\n", "1 Q0 a 1 1 s\n", "is judged twice"),
        ("1 0 a\n", "1 Q0 a 1 1 s\n", "trec_eval.get_qrels: Malformed line 1"),
        ("1 0 a 1\n", "1 Q0 a 1 1\n", "trec_eval.get_results: Malformed line 1"),
    ],
)
def test_garbage_is_refused_in_one_line_with_trec_evals_status(tmp_path, qrels, run, wanted):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(qrels)
    r.write_text(run)
    code, out, err = te([q, r])
    assert code in (2, 4) and out == b"" and wanted in err
    assert err.splitlines()[-1].startswith("graphsr trec_eval: ")


@pytest.mark.parametrize(
    "argv, code, trec_line",
    [
        (["-m", "nosuch"], 1, "trec_eval: illegal measure 'nosuch'"),
        (["-m", "P."], 1, "trec_eval: improper measure in parameter 'P'"),
        (["-m", "P.0,5"], 2, "trec_eval: Negative cutoff detected"),
        (["-m", "P.5,5"], 2, "trec_eval: duplicate cutoffs detected"),
        (["-m", "ndcg.1=2,x"], 2, "trec_eval: malformed pair parameters in '1=2,x'"),
        (["-m", "utility.1,2"], 4, "trec_eval: Can't calculate measure 'utility'"),
        (["-m", "prefs_simp"], 4, "trec_eval: Can't calculate measure 'prefs_simp'"),
        (["-R", "prefs"], 2, None),
        (["-x"], 1, None),
        (["-M", "-1"], 1, None),
        (["-l", "two"], 1, None),
    ],
)
def test_refusals_carry_trec_evals_status_and_lines(tmp_path, argv, code, trec_line):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n")
    r.write_text("1 Q0 a 1 1 s\n")
    got, out, err = te([*argv, q, r])
    assert got == code and out == b""
    if trec_line:
        assert trec_line in err.splitlines()


def test_help_and_version(tmp_path):
    code, out, err = te(["-v"])
    assert code == 0 and err == "trec_eval version 9.0.7\n"
    code, out, _ = te(["-h", "-m", "official"])
    assert code == 0 and b"iprec_at_recall" in out and b"ndcg_rel" not in out
    code, out, _ = te(["-h"])
    assert all(m.encode() in out for m in ("ndcg_rel", "set_F", "Rprec_mult", "11pt_avg"))


def test_the_command_line_entry(tmp_path):
    """Through ``python -m graphsr``, as a script calls it: options after the files too (trec_eval reads them
    GNU style)."""
    case = DATA / "reference" / "case01"
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "trec_eval", case / "qrels.txt", case / "run.txt", "-q"], capture_output=True
    )
    assert done.returncode == 0 and done.stdout == (case / "out01.txt").read_bytes()


@pytest.mark.parametrize("flag", ["-l", "-M", "-N", "-D"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "1e12", "x"])
def test_every_number_is_a_result_or_one_line(tmp_path, flag, value):
    case = DATA / "reference" / "case02"
    code, out, err = te([flag, value, "-m", "all_trec", case / "qrels.txt", case / "run.txt"])
    assert (code == 0 and out) or (code == 1 and out == b"" and len(err.splitlines()) == 1), (code, err)


@pytest.mark.parametrize("where", ["qrels", "run", "zscores"])
@pytest.mark.parametrize("bad", ["missing", "directory", "/dev/full", "/dev/zero", "empty"])
def test_every_path_is_refused_in_trec_evals_way(tmp_path, where, bad):
    case = DATA / "reference" / "case02"
    path = {"missing": tmp_path / "no", "directory": tmp_path, "empty": tmp_path / "empty"}.get(bad, bad)
    (tmp_path / "empty").write_text("")
    files = {"qrels": case / "qrels.txt", "run": case / "run.txt", where: path}
    argv = (["-Z", files["zscores"]] if where == "zscores" else []) + [files["qrels"], files["run"]]
    code, out, err = te(argv)
    assert code == (255 if where == "zscores" else 2), err  # (trec_eval's statuses: 255 for its z-score reader)
    assert out == b"" and err.splitlines()[-1].startswith("graphsr trec_eval: "), err
