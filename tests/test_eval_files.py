"""One way through: ``graphsr eval`` and a script give the same numbers through one library function,
:func:`graphsr.evaluation.files.evaluate_files`, for element, TREC document and passage inputs."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.errors import GraphsrInputError
from graphsr.evaluation.files import evaluate_files


def _cli_values(capsys, argv) -> dict:
    assert main([*argv, "--format", "json", "-q"]) in (0, 2)
    rows = json.loads(capsys.readouterr().out)
    return {(r["run"], r["measure"], r["topic"]): r["value"] for r in rows}


def _api_values(done) -> dict:
    return {(run, label, topic): value for run, label, topic, value in done.results.records()}


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_element_runs_the_same_both_ways(capsys):
    s = sample("mobydick")
    runs = [str(p) for p in s["runs"] if p.name != "fig4.run"]
    ms = ["SRP@5", "SR@10", "AP", "P@5"]
    cli = _cli_values(
        capsys,
        ["eval", str(s["qrels"]), *runs, "--collection", str(s["collection"]), *(a for m in ms for a in ("-m", m))],
    )
    api = evaluate_files(s["qrels"], runs, ms, collection=s["collection"])
    assert not api.errors and cli == pytest.approx(_api_values(api), abs=1e-12) and len(cli) > 10


def test_trec_documents_the_same_both_ways(capsys, tmp_path):
    q = _write(tmp_path / "q", "1 0 a 1\n1 0 b 0\n2 0 c 2\n2 0 d 1\n")
    r1 = _write(tmp_path / "r1", "1 Q0 a 1 2.5 one\n1 Q0 c 2 1.5 one\n2 Q0 c 1 1.0 one\n2 Q0 x 2 1.0 one\n")
    r2 = _write(tmp_path / "r2", "1 Q0 b 1 3 two\n2 Q0 d 1 2 two\n")
    ms = ["map", "P@2", "nDCG", "Bpref", "RR"]
    cli = _cli_values(capsys, ["eval", q, r1, r2, *(a for m in ms for a in ("-m", m))])
    api = evaluate_files(q, [r1, r2], ms)
    assert cli == pytest.approx(_api_values(api), abs=1e-12) and {k[0] for k in cli} == {"one", "two"}


def test_passages_the_same_both_ways_and_refusals_in_run_order(capsys, tmp_path):
    q = _write(tmp_path / "q", "1 Q0 a 30 100 10 10:30\n1 Q0 b 0 50\n2 Q0 a 20 100 0 0:20\n")
    good = _write(tmp_path / "good", "1 Q0 a 1 9 r 0 20\n1 Q0 b 2 8 r 0 50\n2 Q0 a 1 1 r 5 10\n")
    bad = _write(tmp_path / "bad", "1 Q0 a 1 9 s 0 20\n1 Q0 a 2 8 s 10 20\n")  # overlaps: refused (focused)
    missing = str(tmp_path / "missing")
    ms = ["MAiP", "iP[0.01]", "iP[0.10]"]
    cli = _cli_values(capsys, ["eval", q, bad, missing, good, *(a for m in ms for a in ("-m", m))])
    api = evaluate_files(q, [bad, missing, good], ms)
    assert cli == pytest.approx(_api_values(api), abs=1e-12) and len(cli) == 9
    assert [e.path for e in api.errors] == [bad, missing]
    assert [r.name for r in api.results.runs] == ["r"]


def test_options_are_named_where_the_user_is(tmp_path):
    q = _write(tmp_path / "q", "1 0 a 1\n")
    r = _write(tmp_path / "r", "1 Q0 a 1 1 x\n")
    from graphsr.cli.wording import CLI_WORDING

    with pytest.raises(GraphsrInputError, match="^collection=PATH: TREC document qrels"):
        evaluate_files(q, [r], ["AP"], collection=str(tmp_path))
    with pytest.raises(GraphsrInputError, match="^--collection: TREC document qrels"):
        evaluate_files(q, [r], ["AP"], collection=str(tmp_path), wording=CLI_WORDING)


def test_the_command_reads_no_file_itself():
    """The command modules parse options and print; reading, detecting formats and scoring are the library's."""
    import graphsr.cli.eval_cmd as a
    import graphsr.cli.eval_passages as b

    for module in (a, b):
        tree = ast.parse(Path(module.__file__).read_text())
        imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {m for m in imported if m.lstrip(".").startswith("io")}, (module.__name__, imported)
