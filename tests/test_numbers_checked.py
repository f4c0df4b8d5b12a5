"""Numbers are checked where they enter: measure parameters and command-line options refuse nan, inf and values
outside their declared range in one line (exit 2), naming the option or parameter and the range; and the
silent answers the hostile trial found are now errors or right answers."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

import graphsr
from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.errors import MeasureNameError

S, M, INEX = sample("shakespeare"), sample("mobydick"), sample("inex2010")


def cli(*argv, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "graphsr", *map(str, argv)], capture_output=True, text=True, timeout=timeout
    )


def one_line(proc, code=2):
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


@pytest.mark.parametrize(
    "name,expected",
    [
        ("MAgP(task=ric,beta=nan)", "parameter beta expects float in (0, inf), got nan"),
        ("MAgP(task=ric,beta=0)", "parameter beta expects float in (0, inf), got 0.0"),
        ("MAgP(task=bic,n=inf)", "parameter n expects float in (0, inf), got inf"),
        ("MAgP(task=t2i,irr=-1)", "parameter irr expects int in [0, inf), got -1"),
        ("nDCG(gains={0:0,1:nan})@5", "parameter gains expects finite numbers as values, got 1: nan"),
        ("PRUM(r=0)", "parameter r expects int in [1, inf), got 0"),
        ("XCG(alpha=2)", "parameter alpha expects float in [0, 1], got 2.0"),
        ("IPrec@nan", "parameter recall expects float in [0, 1], got nan"),
        ("NSRCG(l=inf)@5", "parameter l expects float in (0, inf), got inf"),
        ("SRPRUM(r=-0.5)", "parameter r expects float in (0, 1], got -0.5"),
        ("iP[nan]", "parameter x expects float in [0, 1], got nan"),
        ("P(rel=inf)@5", "parameter rel expects float in (0, inf), got inf"),
    ],
)
def test_measure_parameters_refuse_what_lies_outside_their_range(name, expected):
    with pytest.raises(MeasureNameError) as e:
        graphsr.parse_measure(name)
    assert expected in str(e.value)


def test_a_bad_measure_parameter_on_the_command_line_is_one_line():
    err = one_line(cli("eval", INEX["qrels"], INEX["runs"][2], "-m", "MAgP(task=ric,beta=nan)"))
    assert err == "graphsr: error: MAgP: parameter beta expects float in (0, inf), got nan"


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["eval", "Q", "R", "--beta", "nan"], "argument --beta: expected a number in (0, inf), got 'nan'"),
        (
            ["eval", "Q", "R", "--bep-distance", "inf"],
            "argument --bep-distance: expected a number in (0, inf), got 'inf'",
        ),
        (["eval", "Q", "R", "--irr", "-1"], "argument --irr: expected an integer in [0, inf), got '-1'"),
        (["partition", "C", "S1", "--limit", "-5"], "argument --limit: expected an integer in [0, inf), got '-5'"),
        (["compare", "T", "--alpha", "5"], "argument --alpha: expected a number in (0, 1), got '5'"),
        (["simulate-routes", "C", "-o", "x", "--routes", "-5"], "argument --routes: expected an integer in [1, inf)"),
        (
            ["simulate-routes", "C", "-o", "x", "--mean-steps", "nan"],
            "argument --mean-steps: expected a number in [1, ",
        ),
        (
            ["simulate-routes", "C", "-o", "x", "--mean-steps", "1e9"],
            "argument --mean-steps: expected a number in [1, ",
        ),
        (["simulate-routes", "C", "-o", "x", "--users", "-1"], "argument --users: expected an integer in [1, inf)"),
        (["simulate-routes", "C", "-o", "x", "--topics", "-3"], "argument --topics: expected an integer in [0, inf)"),
        (
            ["simulate-routes", "C", "-o", "x", "--seed", "-1"],
            "argument --seed: expected an integer in [0, 4294967295]",
        ),
        (["store", "query", "RETURN 1", "--timeout", "inf"], "argument --timeout: expected a number in (0, 86400]"),
    ],
)
def test_options_refuse_what_lies_outside_their_range_in_one_line(argv, expected, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1 and expected in err, err


def test_sensitivity_refuses_fewer_than_three_runs():
    err = one_line(cli("sensitivity", S["qrels"], *S["runs"][:2], "--collection", S["collection"]))
    assert "give at least 3 runs, got 2" in err


def test_compare_refuses_repeated_rows(tmp_path):
    table = tmp_path / "s.csv"
    table.write_text("run,measure,topic,value\na,P@5,1,0.5\na,P@5,1,0.5\nb,P@5,1,0.2\n")
    err = one_line(cli("compare", table))
    assert "repeat a (run, measure, topic)" in err and "'a', 'P@5', topic '1'" in err


def test_a_qrels_frame_with_float_topic_ids_names_the_topics_a_file_would():
    import pandas as pd

    qrels = pd.DataFrame({"query_id": [1.0, 1.0, 2.0], "doc_id": ["a", "b", "a"], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "a"], "score": [2.0, 1.0, 1.0]})
    assert graphsr.calc_aggregate(["P@1"], qrels, run) == {graphsr.parse_measure("P@1"): 1.0}
    qrels.loc[2, "query_id"] = float("nan")
    with pytest.raises(graphsr.errors.GraphsrInputError, match="the column query_id holds nan"):
        graphsr.calc_aggregate(["P@1"], qrels, run)


def test_perturb_refuses_another_collections_assessments(tmp_path):
    err = one_line(
        cli("perturb", S["runs"][3], "--qrels", M["qrels"], "--collection", S["collection"], "-o", tmp_path / "out")
    )
    assert "not in the collection (e.g. 'mobydick')" in err
    assert not list((tmp_path / "out").glob("*.run")) if (tmp_path / "out").exists() else True


def test_a_walk_that_can_take_no_step_is_refused_and_writes_nothing(tmp_path):
    log = tmp_path / "log.csv"
    err = one_line(
        cli("simulate-routes", M["collection"], "-o", log, "--depth-weights", "1:0,2:0", "--deep-weight", "0")
    )
    assert "every depth weight is 0" in err
    err = one_line(cli("simulate-routes", M["collection"], "-o", log, "--depth-weights", "9:1", "--deep-weight", "0"))
    assert "the walk took no step in 1000 routes" in err
    assert list(tmp_path.iterdir()) == []


def test_sigterm_during_simulate_routes_leaves_nothing_half_written(tmp_path):
    log = tmp_path / "log.csv"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "graphsr",
            "simulate-routes",
            str(S["collection"]),
            "-o",
            str(log),
            "--routes",
            "50000000",
            "--no-progress",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not any(tmp_path.iterdir()) and time.monotonic() < deadline:  # the partial file is being written
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and err.strip() == "graphsr: terminated", err
    assert list(tmp_path.iterdir()) == []


def test_a_stop_of_a_mistyped_store_makes_nothing(tmp_path):
    typo = tmp_path / "TYPO"
    err = one_line(cli("store", "stop", "--store", f"local:{typo}"))
    assert f"no store at {typo}" in err and not typo.exists()


def test_workers_are_capped_at_the_cpus_and_the_work(capsys):
    from graphsr.summaries.parallel import usable_workers

    assert usable_workers(100_000, 1) == 1 and usable_workers(100_000, 10**6) <= (
        len(__import__("os").sched_getaffinity(0))
    )
    assert main(["summary", str(M["collection"]), "--workers", "100000"]) == 0
