"""A fuzz test generated from the command line's own parsers: every command's every numeric option gets nan, inf,
-1, 0 and 1e12, every path it reads or writes a missing file, a directory and /dev/full.  Each outcome is a result
(exit 0) or one line on stderr with exit 2 (what the user gave) or 3 (the system, the store), within a time
bound: never a traceback, an internal error, a hang.

The cases are made by walking the parsers (``graphsr.cli.main.build_parser``): a command added later is fuzzed
as soon as it has a valid invocation in :data:`BASES` (the test fails until it has one), and an option added
later is fuzzed with no change here.  Commands run in this process (the same code as ``graphsr``), against a
real local store started for the module.
"""

from __future__ import annotations

import argparse
import signal
from pathlib import Path

import pytest

from graphsr.cli.main import build_parser, main
from graphsr.data import sample

from .conftest import error_lines

M = sample("mobydick")
MC, MQ = str(M["collection"]), str(M["qrels"])
MRUNS = [str(r) for r in M["runs"]]

#: Bad numbers (nan, inf, negative, zero, huge) and bad paths (missing, a directory, a full device).
NUMBERS = ["nan", "inf", "-1", "0", "1e12"]
PATHS = ["{missing}", "{directory}", "/dev/full"]

#: Seconds one case may take.
BOUND = 60


def BASES(w: dict) -> dict[tuple, list[str]]:
    """A valid invocation of every command (``w``: the module's store URL and files)."""
    url = w["url"]
    return {
        ("eval",): ["eval", MQ, MRUNS[2], "--collection", MC, "-m", "SRP@5", "-m", "P@5"],
        ("summary",): ["summary", MC],
        ("partitions",): ["partitions", MC],
        ("partition",): ["partition", MC, "S1"],
        ("coverage",): ["coverage", MQ, MRUNS[2], "--collection", MC],
        ("store", "init"): ["store", "init", "--store", url],
        ("store", "start"): ["store", "start", "--store", url],
        ("store", "stop"): ["store", "stop", "--store", url, "--wait", "1"],
        ("store", "load"): [
            "store",
            "load",
            MC,
            "--store",
            url,
            "--name",
            "moby",
            "--elements",
            "all",
            "--no-progress",
        ],
        ("store", "routes"): ["store", "routes", w["log"], "--store", url, "--collection", "moby", "--study", "s"],
        ("store", "model"): ["store", "model", "--store", url, "--collection", "moby", "--model", "p*:extent"],
        ("store", "drop"): ["store", "drop", "--store", url, "--model", "no-such-model"],
        ("store", "models"): ["store", "models", "--store", url],
        ("store", "summaries"): ["store", "summaries", "--store", url],
        ("store", "show"): ["store", "show", "--store", url],
        ("store", "export"): ["store", "export", w["new"], "--store", url, "--collection", "moby", "--no-progress"],
        ("store", "query"): ["store", "query", "MATCH (d:Document) RETURN count(d) AS n", "--store", url],
        ("routes", "load"): ["routes", "load", w["log"], "--store", url, "--collection", "moby", "--study", "s"],
        ("model", "build"): ["model", "build", "--store", url, "--collection", "moby", "--model", "p*:extent"],
        ("model", "list"): ["model", "list", "--store", url],
        ("simulate-routes",): ["simulate-routes", MC, "-o", w["new"] + ".csv", "--routes", "5", "--no-progress"],
        ("measures",): ["measures"],
        ("compare",): ["compare", w["table"], "--samples", "100"],
        ("perturb",): ["perturb", MRUNS[2], "--qrels", MQ, "--collection", MC, "-o", w["new"]],
        ("fidelity",): ["fidelity", "--sample", "mobydick"],
        ("sensitivity",): ["sensitivity", MQ, *MRUNS[:3], "--collection", MC],
        ("report",): ["report", w["table"], "-o", w["new"] + ".html", "--no-progress"],
        ("view",): ["view", MC, "--qrels", MQ, "--run", MRUNS[2], "-o", w["new"] + ".html"],
        ("agree",): ["agree", w["table"], "-m", "P@5", "-m", "SRP@5"],
        ("judge", "export"): [
            "judge",
            "export",
            w["dq"],
            w["drun"],
            "--queries",
            w["queries"],
            "--collection",
            w["corpus"],
            "-o",
            w["new"] + ".jsonl",
        ],  # fmt: skip
        ("judge", "fill"): ["judge", "fill", w["holes"], "--cache", w["new"] + ".cache", "-o", w["new"] + ".jsonl"],
        ("judge", "import"): ["judge", "import", w["dq"], w["filled"], "-o", w["new"]],
        ("judge", "merge"): ["judge", "merge", w["dq"], w["dq"], "--other-judge", "model:x", "-o", w["new"]],
    }


#: Commands not fuzzed here, and why.
LEFT_OUT = {
    ("demo",): "the whole pipeline (a minute a run): its options are tested in test_demo and test_one_line_failures",
    ("trec_eval",): "trec_eval's own command line (getopt, not argparse, with trec_eval's exit statuses): "
    "fuzzed in test_trec_eval_cmd",
}

#: Option destinations that name files or directories the command reads or writes.
PATH_DESTS = {
    "qrels",
    "runs",
    "run",
    "collection",
    "log",
    "output",
    "out",
    "directory",
    "save",
    "plot",
    "scores",
    "figures",
    "routes",
    "queries",
    "holes",
    "filled",
    "cache",
    "model_scores",
    "model_qrels",
    "other",
}


def _leaves(parser: argparse.ArgumentParser, path=()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, sub in subs[0].choices.items():
        yield from _leaves(sub, (*path, name))


def _numeric(action) -> bool:
    kind = action.type
    return (
        kind in (int, float)
        or getattr(kind, "__name__", "") in ("positive_int",)
        or getattr(kind, "__name__", "").startswith(("an integer in", "a number in"))
    )


def _cases():
    parser = build_parser(None)
    bases = BASES(
        {k: k.upper() for k in ("url", "log", "new", "table", "dq", "drun", "queries", "corpus", "holes", "filled")}
    )
    leaves = dict(_leaves(parser))
    for path in leaves:
        assert path in bases or path in LEFT_OUT, f"no valid invocation of 'graphsr {' '.join(path)}' to fuzz"
    cases = []
    for path, leaf in leaves.items():
        if path in LEFT_OUT:
            continue
        for action in leaf._actions:
            if not action.option_strings and action.dest not in PATH_DESTS:
                continue
            opt = action.option_strings[-1] if action.option_strings else None
            if _numeric(action):
                cases += [(path, "number", opt, v) for v in NUMBERS]
            elif action.dest in PATH_DESTS:
                cases += [(path, "path", opt or action.dest, v) for v in PATHS]
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    url = f"local:{tmp / 'store'}"
    assert main(["store", "load", MC, "--store", url, "--name", "moby", "--elements", "all", "--no-progress"]) == 0
    assert main(["store", "start", "--store", url]) == 0
    log = tmp / "log.csv"
    assert main(["simulate-routes", MC, "-o", str(log), "--routes", "20", "--no-progress"]) == 0
    table = tmp / "scores.csv"
    assert main(["eval", MQ, *MRUNS, "--collection", MC, "-m", "P@5", "-m", "SRP@5", "--save", str(table)]) == 0
    (tmp / "adir").mkdir()
    docs = {}  # TREC document judgments, a run, the documents' texts and the queries: the judge command's inputs
    for k in range(12):
        docs[f"d{k}"] = " ".join(["whale", "ship", "sea", "captain"][j % 4] for j in range(k, k + 9))
    (tmp / "corpus.jsonl").write_text("".join(f'{{"doc_id": "{d}", "text": "{t}"}}\n' for d, t in docs.items()))
    (tmp / "dq").write_text("".join(f"{q} 0 d{k} {k % 3}\n" for q in (1, 2) for k in range(0, 12, 3)))
    (tmp / "drun").write_text("".join(f"{q} Q0 d{k} {k + 1} {20 - k} r\n" for q in (1, 2) for k in range(12)))
    (tmp / "queries.tsv").write_text("1\twhite whale\n2\tsea captain\n")
    files = {n: str(tmp / n) for n in ("dq", "drun", "queries.tsv", "corpus.jsonl")}
    holes, filled = str(tmp / "holes.jsonl"), str(tmp / "filled.jsonl")
    export = ["judge", "export", files["dq"], files["drun"], "--queries", files["queries.tsv"]]
    assert main(export + ["--collection", files["corpus.jsonl"], "-o", holes]) == 0
    assert main(["judge", "fill", holes, "-o", filled]) == 0
    yield {
        "url": url,
        "log": str(log),
        "table": str(table),
        "tmp": tmp,
        "dq": files["dq"],
        "drun": files["drun"],
        "queries": files["queries.tsv"],
        "corpus": files["corpus.jsonl"],
        "holes": holes,
        "filled": filled,
    }
    main(["store", "stop", "--store", url, "--wait", "30"])


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _argv(world, path, kind, opt, value, n):
    new = str(world["tmp"] / f"new{n}")
    argv = list(BASES({**world, "new": new})[path])
    bad = value.format(missing=world["tmp"] / f"missing{n}", directory=world["tmp"] / "adir")
    if kind == "number" or opt.startswith("-"):
        return argv + [opt, bad]
    # a positional path: the base's value for it replaced (the first argument that is a path)
    for i, a in enumerate(argv[len(path) :], start=len(path)):
        if a.startswith("/") or a == new or a.startswith(new):
            argv[i] = bad
            return argv
    return argv + [bad]


@pytest.mark.slow
@pytest.mark.parametrize("path,kind,opt,value", CASES, ids=[f"{' '.join(p)} {o} {v}" for p, _, o, v in CASES])
def test_a_bad_number_or_path_is_a_result_or_one_line(world, capsys, path, kind, opt, value):
    argv = _argv(world, path, kind, opt, value, CASES.index((path, kind, opt, value)))
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(BOUND)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's refusal
        code = exc.code
    except _Hang:
        pytest.fail(f"graphsr {' '.join(argv)}: still running after {BOUND} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    assert code in (0, 2, 3), (argv, code, err)
    if code != 0:  # one line, besides the status lines of a local store slow to start on a busy machine
        assert len(error_lines(err)) == 1, (argv, err)
    assert not Path("/dev/.full.partial").exists()


def test_every_command_is_fuzzed():
    """The generated cases reach every command with a numeric or path option, and each such option."""
    commands = {p for p, _, _, _ in CASES}
    assert ("eval",) in commands and ("store", "export") in commands and ("simulate-routes",) in commands
    options = {(p, o) for p, k, o, _ in CASES if k == "number"}
    for want in [
        (("eval",), "--beta"),
        (("compare",), "--alpha"),
        (("partition",), "--limit"),
        (("simulate-routes",), "--mean-steps"),
        (("store", "query"), "--timeout"),
        (("eval",), "--workers"),
    ]:
        assert want in options, want
