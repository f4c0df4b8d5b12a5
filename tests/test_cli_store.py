"""`graphsr store ...` and `graphsr eval --store`: stored models score exactly as models built in memory."""

from __future__ import annotations

import pytest

from graphsr.cli.main import main

from .conftest import run_cli
from graphsr.data import sample


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """A local store with Shakespeare (elements of the documents the runs/qrels touch) and two models."""
    url = f"local:{tmp_path_factory.mktemp('cs') / 's'}"
    s = sample("shakespeare")
    assert main(["store", "start", "--store", url]) == 0
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--store",
                url,
                "--name",
                "plays",
                "--kind",
                "p*",
                "--kind",
                "p*|c",
                "--qrels",
                str(s["qrels"]),
                *[a for r in s["runs"] for a in ("--run", str(r))],
                "--no-progress",
            ]
        )
        == 0
    )
    for spec in ("p*|c:length", "p*:extent"):
        assert main(["store", "model", "--store", url, "--collection", "plays", "--model", spec]) == 0
    yield url, s
    assert main(["store", "stop", "--store", url]) == 0


@pytest.mark.parametrize("spec", ["p*|c:length", "p*:extent"])
def test_stored_model_scores_equal_in_memory(capsys, loaded, spec):
    url, s = loaded
    capsys.readouterr()
    args = [str(s["qrels"]), *map(str, s["runs"]), "-m", "SRP@5", "-m", "SRP@10", "-m", "SR", "-q"]
    code, memory, err = run_cli(capsys, "eval", *args, "--collection", str(s["collection"]), "--model", spec)
    assert code == 0, err
    code, stored, err = run_cli(capsys, "eval", *args, "--store", url, "--model", f"plays/{spec}")
    assert code == 0, err
    assert stored == memory
    code, mixed, err = run_cli(
        capsys, "eval", *args, "--store", url, "--model", f"plays/{spec}", "--collection", str(s["collection"])
    )
    assert code == 0, err
    assert mixed == memory


def test_store_listings(capsys, loaded):
    url, _ = loaded
    capsys.readouterr()
    code, out, _ = run_cli(capsys, "store", "models", "--store", url)
    assert code == 0 and "plays/p*|c:length" in out and "plays/p*:extent" in out
    code, out, _ = run_cli(capsys, "store", "summaries", "--store", url)
    assert code == 0 and "p*|c" in out
    code, out, _ = run_cli(capsys, "store", "show", "--store", url)
    assert code == 0 and "Element" in out and "ASSESSES" in out and "RETURNS" in out and "plays" in out


def test_eval_with_unknown_stored_model(capsys, loaded):
    url, s = loaded
    code, out, err = run_cli(capsys, "eval", str(s["qrels"]), str(s["runs"][0]), "--store", url, "--model", "nope")
    assert code == 2 and out == "" and "no model named 'nope'" in err


def test_eval_needs_a_model_name_with_store(capsys, loaded):
    url, s = loaded
    code, _, err = run_cli(capsys, "eval", str(s["qrels"]), str(s["runs"][0]), "--store", url)
    assert code == 2 and "needs --model NAME" in err


def test_unknown_store_url(capsys):
    code, _, err = run_cli(capsys, "store", "show", "--store", "ftp://x")
    assert code == 2 and "unknown store URL" in err


def test_routes_into_the_store_and_a_stored_route_model(capsys, loaded, tmp_path):
    from graphsr.simulation import RouteSimulator, write_routes
    from graphsr.store import open_store, stored_document

    url, s = loaded
    # routes over documents whose elements are stored (those the runs and qrels touch)
    with open_store(url) as store:
        docs = [stored_document(store, "plays", d) for d in ("hamlet", "macbeth")]
    log = tmp_path / "log.csv"
    write_routes(RouteSimulator(seed=3).walk(docs, 300), log)
    assert main(["routes", "load", str(log), "--store", url, "--collection", "plays", "--study", "sim"]) == 0
    assert main(["model", "build", "--store", url, "--collection", "plays", "--from-routes", "sim", "--nav", "p*"]) == 0
    assert main(["store", "routes", str(log), "--store", url, "--collection", "plays", "--study", "sim"]) == 0
    capsys.readouterr()
    assert main(["model", "list", "--store", url]) == 0
    assert "plays/routes:sim:p*:count" in capsys.readouterr().out
    capsys.readouterr()
    args = [str(s["qrels"]), str(s["runs"][3]), "-m", "ESRP@10", "-m", "ESRR@10", "-m", "SRiP2@10", "-q"]
    code, stored, err = run_cli(
        capsys,
        "eval",
        *args,
        "--store",
        url,
        "--model",
        "plays/p*:extent",
        "--routes-model",
        "plays/routes:sim:p*:count",
    )
    assert code == 0, err
    # the same model learned in memory from the same log
    code, memory, err = run_cli(
        capsys,
        "eval",
        *args,
        "--collection",
        str(s["collection"]),
        "--model",
        "p*:extent",
        "--routes",
        str(log),
        "--nav",
        "p*",
    )
    assert code == 0, err

    def values(text):
        return {
            tuple(line.split("\t")[:2]): float(line.split("\t")[2])
            for line in text.splitlines()
            if line.split("\t")[0] not in ("runid", "num_q")
        }

    a, b = values(stored), values(memory)
    assert a.keys() == b.keys()
    for k in a:
        assert a[k] == pytest.approx(b[k], abs=1e-12), k
    # an elementary model: one state per element, the study's steps aggregated in the database on load
    assert (
        main(["model", "build", "--store", url, "--collection", "plays", "--from-routes", "sim", "--nav", "elements"])
        == 0
    )
    capsys.readouterr()
    code, stored, err = run_cli(
        capsys,
        "eval",
        *args,
        "--store",
        url,
        "--model",
        "plays/p*:extent",
        "--routes-model",
        "plays/routes:sim:elements:count",
    )
    assert code == 0, err
    code, memory, err = run_cli(
        capsys,
        "eval",
        *args,
        "--collection",
        str(s["collection"]),
        "--model",
        "p*:extent",
        "--routes",
        str(log),
        "--nav",
        "elements",
    )
    assert code == 0, err
    a, b = values(stored), values(memory)
    assert a.keys() == b.keys() and any(v > 0 for v in a.values())
    for k in a:
        assert a[k] == pytest.approx(b[k], abs=1e-12), k
    # it is not an SR model
    code, _, err = run_cli(
        capsys,
        "eval",
        str(s["qrels"]),
        str(s["runs"][3]),
        "-m",
        "SRP@10",
        "--store",
        url,
        "--model",
        "plays/routes:sim:elements:count",
    )
    assert code == 2 and "elementary route model" in err
