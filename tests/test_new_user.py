"""Defects a new user met (issue 14, part 4), one test each."""

from __future__ import annotations

import argparse
import os

import numpy as np
import pytest

from graphsr.cli.main import build_parser, main
from graphsr.data import sample

from .conftest import write, run_cli


# -- a one-node summary ---------------------------------------------------------------------------------------------
def test_a_one_node_summary_has_pi_one(capsys, tmp_path):
    from graphsr.navigation import reversible_steady_state, stationary_distribution

    assert reversible_steady_state([[0]]).tolist() == [1.0]
    assert stationary_distribution([[0]]).tolist() == [1.0]
    # no edges at all: every state absorbing, the uniform start stays uniform (sums to 1, not 0)
    assert reversible_steady_state(np.zeros((3, 3))).tolist() == pytest.approx([1 / 3] * 3)
    coll = write(tmp_path / "one" / "d.xml", "<a>hello</a>").parent
    for kind in ("p*", "tag", "c"):
        code, out, err = run_cli(capsys, "summary", str(coll), "--kind", kind)
        assert code == 0, err
        (row,) = [line.split("\t") for line in out.splitlines() if line.startswith("S")]
        assert float(row[3]) == 1.0


# -- help texts -----------------------------------------------------------------------------------------------------
def _actions(parser, path=()):
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _actions(sub, (*path, name))
        elif not isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
            yield path, a


def test_every_option_says_what_it_does_and_its_default():
    lacking, no_default = [], []
    for path, a in _actions(build_parser()):
        name = " ".join((*path, "/".join(a.option_strings) or a.dest))
        if not a.help:
            lacking.append(name)
        flag = isinstance(a, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._AppendAction))
        if a.option_strings and not flag and a.default not in (None, False) and "default" not in (a.help or ""):
            no_default.append(name)
    assert lacking == [] and no_default == []


def test_help_descriptions_are_whole_paragraphs(capsys):
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "or passage runs against INEX FOL assessments (iP, MAiP, gP, gR, MAgP; the qrels format is detected "
        "from the file)." in text
    )
    for command in ("store", "measures", "summary", "simulate-routes", "model"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        head = capsys.readouterr().out.split("\n\n")[1]
        assert head.rstrip().endswith((".", ")")), (command, head)


# -- effort: each step weighs 1 / its effort ------------------------------------------------------------------------
TWO_STEPS = (
    "route_id,step,docid,from,to,duration_ms\n"
    "r1,1,a,/a/b,/a/c,100\n"  # from b to c: 100 ms
    "r2,1,a,/a/b,/a,300\n"
)  # from b to a: 300 ms, three times the effort


def _p(model, doc, offsets, frm, to):
    nav = model.nav
    s, t = nav.state_of[offsets + doc.node(frm)], nav.state_of[offsets + doc.node(to)]
    return float(nav.P[s, t])


def test_effort_duration_weighs_each_step_by_its_inverse(tmp_path, tiny_collection):
    from graphsr.io import iter_documents, read_routes
    from graphsr.navigation.from_routes import route_model

    docs = {d.docid: d for d in iter_documents(tiny_collection)}
    routes = read_routes(write(tmp_path / "log.csv", TWO_STEPS))
    a = docs["a"]
    by_count = route_model(routes, docs, "elements", "count")
    by_duration = route_model(routes, docs, "elements", "duration")
    off = by_count.offsets["a"]
    # counts: one step each way, 1/2 each; effort: weights 1/100 and 1/300, so the quicker step is likelier
    assert _p(by_count, a, off, "/a/b", "/a/c") == pytest.approx(0.5)
    assert _p(by_duration, a, off, "/a/b", "/a/c") == pytest.approx((1 / 100) / (1 / 100 + 1 / 300)) == 0.75
    assert _p(by_duration, a, off, "/a/b", "/a") == pytest.approx(0.25)
    # a step without a duration cannot be weighed by it: refused, naming the file and line
    untimed = write(tmp_path / "untimed.csv", "route_id,step,docid,from,to\nr1,1,a,/a/b,/a/c\n")
    from graphsr.errors import GraphsrInputError

    with pytest.raises(GraphsrInputError, match=r"untimed.csv:2: route 'r1' step 1: effort 'duration'"):
        route_model(read_routes(untimed), docs, "elements", "duration")
    assert _p(route_model(read_routes(untimed), docs, "elements", "count"), a, off, "/a/b", "/a/c") == 1.0


def test_effort_duration_in_the_store_is_the_same(tmp_path, tiny_collection):
    from graphsr.io import iter_documents, read_routes
    from graphsr.navigation.stored import build_stored_route_model, load_stored_route_model
    from graphsr.store import open_store, store_collection, store_steps

    docs = {d.docid: d for d in iter_documents(tiny_collection)}
    a = docs["a"]
    with open_store(f"local:{tmp_path / 's'}") as store:
        store_collection(store, tiny_collection, "tiny", kinds=["p*"], elements="all")
        store_steps(store, "tiny", "study", [s.as_dict() for s in read_routes(write(tmp_path / "l.csv", TWO_STEPS))])
        for kind in ("elements", "p*"):
            model = load_stored_route_model(
                store, build_stored_route_model(store, "tiny", "study", kind, effort="duration"), docs
            )
            assert _p(model, a, model.offsets["a"], "/a/b", "/a/c") == pytest.approx(0.75)
            assert _p(model, a, model.offsets["a"], "/a/b", "/a") == pytest.approx(0.25)
        store_steps(
            store,
            "tiny",
            "untimed",
            [{"route_id": "x", "step": 1, "docid": "a", "from": "/a/b", "to": "/a/c", "line": 2}],
        )
        from graphsr.errors import GraphsrInputError

        for kind in ("elements", "p*"):
            with pytest.raises(GraphsrInputError, match="study 'untimed': 1 steps have no positive duration_ms"):
                build_stored_route_model(store, "tiny", "untimed", kind, effort="duration")


# -- loading again --------------------------------------------------------------------------------------------------
def test_a_reload_says_nothing_new_was_written(capsys, tmp_path, tiny_collection):
    url = f"local:{tmp_path / 's'}"
    code, out, err = run_cli(capsys, "store", "load", str(tiny_collection), "--store", url, "--elements", "all")
    assert code == 0, err
    # nodes: the store's own, 1 collection, 2 documents, 6 elements, 2 summaries of 5 nodes each; relationships:
    # 2 HAS_DOCUMENT, 2 ROOT, 4 CHILD, 2 HAS_SUMMARY, 10 HAS_NODE, 3 + 3 SUMMARY_EDGE (memberships are properties)
    assert "2 documents, 6 elements" in out and "22 nodes and 26 relationships created in" in out
    code, out, err = run_cli(capsys, "store", "load", str(tiny_collection), "--store", url, "--elements", "all")
    assert code == 0, err
    assert "already stored, nothing new written" in out and "per s" not in out and "created" not in out


# -- .env -----------------------------------------------------------------------------------------------------------
def test_the_command_line_reads_dot_env(capsys, tmp_path, monkeypatch):
    from graphsr.cli.dotenv import apply_dotenv, read_dotenv
    from graphsr.errors import GraphsrInputError

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHSR_STORE", raising=False)
    write(
        tmp_path / ".env",
        f"# graphsr settings\nexport GRAPHSR_STORE='local:{tmp_path / 'from-env'}'\nOTHER=left alone\n",
    )
    code, out, err = run_cli(capsys, "store", "init")
    assert code == 0, err
    assert out.startswith(f"ready: local:{tmp_path / 'from-env'}") and "OTHER" not in os.environ
    # the environment wins over the file
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'from-os'}")  # (short: a socket's path is)
    code, out, err = run_cli(capsys, "store", "init")
    assert out.startswith(f"ready: local:{tmp_path / 'from-os'}"), err
    assert apply_dotenv(tmp_path, environ={}) == {"GRAPHSR_STORE": f"local:{tmp_path / 'from-env'}"}
    assert read_dotenv(
        write(tmp_path / "q.env", 'GRAPHSR_A="x \\" y" # c\nGRAPHSR_B=plain value # comment\nGRAPHSR_C=\nD=left\n')
    ) == {"GRAPHSR_A": 'x " y', "GRAPHSR_B": "plain value", "GRAPHSR_C": ""}
    write(tmp_path / ".env", "GRAPHSR_STORE local:x\n")
    with pytest.raises(GraphsrInputError, match=r"\.env:1: expected GRAPHSR_NAME=VALUE"):
        read_dotenv(tmp_path / ".env")
    code, out, err = run_cli(capsys, "store", "init")  # a malformed GRAPHSR_ line: a warning, the command runs
    assert code == 0 and err.startswith("graphsr: warning: .env:1: expected GRAPHSR_NAME=VALUE")


def test_dot_env_lines_of_other_tools_never_stop_a_command(capsys, tmp_path, monkeypatch):
    """A .env valid for docker compose or python-dotenv: only its GRAPHSR_ lines are read."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRAPHSR_STORE", raising=False)
    write(
        tmp_path / ".env",
        'FOO\nCERT="-----BEGIN-----\nGRAPHSR_STORE=inside a quoted value\n-----END-----"\n'
        "weird line without equals sign\n"
        f"GRAPHSR_STORE=local:{tmp_path / 'mine'}\nGRAPHSR_NEO4J_USER='unclosed\n",
    )
    code, out, err = run_cli(capsys, "measures")
    assert code == 0 and out
    assert err == ("graphsr: warning: .env:7: expected a closing ' in the value; the line is ignored\n")
    code, out, err = run_cli(capsys, "store", "init")
    assert out.startswith(f"ready: local:{tmp_path / 'mine'}")


def test_dot_env_example_is_valid_and_sets_only_graphsr_variables():
    from pathlib import Path

    from graphsr.cli.dotenv import read_dotenv

    example = Path(__file__).resolve().parents[1] / ".env.example"
    got = read_dotenv(example)
    assert set(got) == {"GRAPHSR_NEO4J_USER", "GRAPHSR_NEO4J_PASSWORD"}
    assert "reads the GRAPHSR_*" in example.read_text()


# -- a slow store start says what is happening ----------------------------------------------------------------------
def test_a_slow_store_start_says_what_is_happening(capfd, tmp_path, monkeypatch):
    from graphsr.store import open_store
    from graphsr.store.local import LocalServer

    monkeypatch.setattr(LocalServer, "SLOW_START", 0.0)  # every start counts as slow
    with open_store(f"local:{tmp_path / 's'}") as store:
        store.counts()
    err = capfd.readouterr().err
    assert f"graphsr: starting the local store at {tmp_path / 's'}: no saved data yet ..." in err
    assert "graphsr: local store ready after" in err
    monkeypatch.setattr(LocalServer, "SLOW_START", 60.0)  # a quick start says nothing
    with open_store(f"local:{tmp_path / 's'}") as store:
        store.counts()
    assert capfd.readouterr().err == ""


def test_an_unquoted_p_star_gets_a_hint(capsys, tmp_path, monkeypatch):
    # in a directory holding pyproject.toml, the shell turns --kind p* into --kind pyproject.toml
    coll = write(tmp_path / "one" / "d.xml", "<a>hello</a>").parent
    for argv in (
        ["summary", str(coll), "--kind", "pyproject.toml"],
        ["partitions", str(coll), "--kind", "pyproject.toml"],
        ["summary", str(coll), "--kind", "c", "--weight", "extent"],
    ):
        code, out, err = run_cli(capsys, *argv)
        if "pyproject.toml" in argv:
            assert code == 2 and "did the shell expand an unquoted p* into a file name? quote it: 'p*'" in err
        else:
            assert code == 0 and "did the shell" not in err


# -- a refused run refuses only itself ------------------------------------------------------------------------------
def test_a_refused_element_run_refuses_only_itself(capsys):
    s = sample("mobydick")
    runs = [str(p) for p in s["runs"]]
    code, out, err = run_cli(
        capsys,
        "eval",
        str(s["qrels"]),
        *runs,
        "--collection",
        str(s["collection"]),
        "-m",
        "MAgP(task=ric)",
        "-m",
        "SRP@10",
        "--nav",
        "depth4",
    )
    assert code == 2
    assert [line for line in out.splitlines() if line.startswith("runid")] == [
        "runid\tall\tdocument",
        "runid\tall\tfocused",
        "runid\tall\ttree",
    ]  # fig4 refused, the others scored
    assert err.count("\n") == 1 and "fig4.run:7: topic 1, article mobydick: passage 0:557 overlaps" in err
    assert "--lenient scores it anyway" in err


# -- read commands never make a store -------------------------------------------------------------------------------
def test_read_commands_on_a_path_without_a_store_create_nothing(capsys, tmp_path):
    missing = tmp_path / "no" / "deep" / "x"  # (short: a socket path past 100 bytes is refused first)
    for argv in (
        ["store", "show"],
        ["store", "models"],
        ["store", "query", "MATCH (n) RETURN count(n)"],
        ["store", "drop", "c"],
        ["partitions", "c", "--store", f"local:{missing}"],
    ):
        if argv[0] == "store":
            argv = [*argv, "--store", f"local:{missing}"]
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "", (argv, err)
        assert err.startswith(f"graphsr: error: no store at {missing}"), err
    assert not (tmp_path / "no").exists()
    code, out, err = run_cli(capsys, "store", "init", "--store", f"local:{missing}")
    assert code == 0, err
    code, out, err = run_cli(capsys, "store", "show", "--store", f"local:{missing}")
    assert code == 0 and out.startswith(f"store: local:{missing}")
