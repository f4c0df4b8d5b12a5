"""The Neo4j path (Bolt, through the official neo4j driver) against a second real server: ArcadeDB.

No Neo4j server can be installed here; ArcadeDB (the ``arcadedb-embedded`` wheel, a test extra, with its own
Java runtime and Bolt plugin) speaks Bolt and Cypher.  The suite starts one on 127.0.0.1 for this module
(tests/bolt/arcadedb_server.py: it stops when the suite ends, or after a bounded lifetime) and runs the whole
path the local store's tests run -- init with its uniqueness constraints, load, routes, models, partitions,
coverage, ``eval --store``, concurrent loads, a killed load resumed, drop, export -- each compared with the same
commands on a local store.  CI requires it to run (``GRAPHSR_REQUIRE_ARCADEDB=1``); elsewhere it is skipped,
saying why, where the wheel is not installed.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.store import open_store

from .test_store_export import exported_graph, stored_graph

pytestmark = pytest.mark.slow

PASSWORD = "graphsr-test-pw"
LIFETIME = 1800  # seconds: the server stops by then whatever the suite does


@pytest.fixture(scope="module")
def arcade(tmp_path_factory):
    """``bolt://127.0.0.1:PORT`` of a fresh ArcadeDB server, its credentials in the environment."""
    try:
        import arcadedb_embedded  # noqa: F401
    except ImportError as exc:
        if os.environ.get("GRAPHSR_REQUIRE_ARCADEDB") == "1":
            pytest.fail(f"the ArcadeDB tests must run here: {exc}")
        pytest.skip(f"ArcadeDB is not installed (pip install graphsr[test-servers]): {exc}")
    root = tmp_path_factory.mktemp("arcadedb")
    script = Path(__file__).parent / "bolt" / "arcadedb_server.py"
    log = open(root / "server.log", "w")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(root / "data"), PASSWORD, str(LIFETIME)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        cwd=root,
    )  # (ArcadeDB writes its log/ under the working directory)
    line = proc.stdout.readline()  # the server prints READY once it answers, or exits
    if not line.startswith("READY"):
        proc.kill()
        log.close()
        pytest.fail(f"ArcadeDB did not start: {line!r} {(root / 'server.log').read_text()[-2000:]}")
    bolt_port = int(line.split()[1])
    mp = pytest.MonkeyPatch()
    mp.setenv("GRAPHSR_NEO4J_USER", "root")
    mp.setenv("GRAPHSR_NEO4J_PASSWORD", PASSWORD)
    mp.setenv("GRAPHSR_NEO4J_DATABASE", "graphsr")
    try:
        yield f"bolt://127.0.0.1:{bolt_port}"
    finally:
        mp.undo()
        proc.stdin.close()  # the server stops
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def both(arcade, tmp_path_factory):
    """The same loads into ArcadeDB and into a local store: Shakespeare with every element, assessments and
    runs, a study of simulated routes, an SR model and two route models."""
    tmp = tmp_path_factory.mktemp("arcade-both")
    local = f"local:{tmp / 'store'}"
    s = sample("shakespeare")
    log = tmp / "routes.csv"
    assert main(["simulate-routes", str(s["collection"]), "--routes", "150", "-o", str(log), "--no-progress"]) == 0
    assert main(["store", "start", "--store", local]) == 0
    for url in (arcade, local):
        assert main(["store", "init", "--store", url]) == 0
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
                    "--elements",
                    "all",
                    "--qrels",
                    str(s["qrels"]),
                    *[a for r in s["runs"] for a in ("--run", str(r))],
                    "--no-progress",
                ]
            )
            == 0
        )
        assert main(["store", "routes", str(log), "--store", url, "--collection", "plays", "--study", "st"]) == 0
        for extra in (
            ["--from-routes", "st"],
            ["--from-routes", "st", "--nav", "elements"],
            ["--model", "p*|c:length"],
        ):
            assert main(["store", "model", "--store", url, "--collection", "plays", *extra]) == 0
    yield arcade, local, s, tmp
    assert main(["store", "stop", "--store", local]) == 0


def counts(url):
    with open_store(url) as store:
        return store.counts()


def out_of(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_init_makes_the_ids_unique_on_the_server(arcade):
    """The schema's uniqueness constraints hold on ArcadeDB (it takes Neo4j's CREATE CONSTRAINT as a unique
    index): a second node of a stored id is refused by the server itself."""
    from neo4j import GraphDatabase
    from neo4j.exceptions import Neo4jError

    assert main(["store", "init", "--store", arcade]) == 0
    assert main(["store", "init", "--store", arcade]) == 0  # idempotent
    with GraphDatabase.driver(arcade, auth=("root", PASSWORD)) as driver, driver.session(database="graphsr") as session:
        session.run("CREATE (:Collection {id: 'C/unique-test'})").consume()
        with pytest.raises(Neo4jError):
            session.run("CREATE (:Collection {id: 'C/unique-test'})").consume()
        session.run("MATCH (c:Collection {id: 'C/unique-test'}) DELETE c").consume()
        assert session.run("MATCH (c:Collection {id: 'C/unique-test'}) RETURN count(c) AS n").single()["n"] == 0


def test_a_load_stores_what_the_local_store_stores(both):
    arcade, local, _, _ = both
    a, b = counts(arcade), counts(local)
    assert a == b and a["Element"] == 10330 and a["Step"] > 0 and a["Model"] == 3


def test_stored_scores_equal_the_local_stores(both, capsys):
    arcade, local, s, _ = both
    args = [
        str(s["qrels"]),
        *map(str, s["runs"]),
        "-m",
        "SRP@10",
        "-m",
        "SR",
        "-m",
        "ESRP@10",
        "-m",
        "SRiP2@10",
        "-q",
        "--model",
        "plays/p*|c:length",
        "--routes-model",
        "plays/routes:st:p*:count",
    ]
    on_arcade = out_of(capsys, "eval", *args, "--store", arcade)
    assert on_arcade == out_of(capsys, "eval", *args, "--store", local)
    assert on_arcade.count("\n") > 50
    elementary = [
        str(s["qrels"]),
        str(s["runs"][0]),
        "-m",
        "ESRP@10",
        "-q",
        "--model",
        "plays/p*|c:length",
        "--routes-model",
        "plays/routes:st:elements:count",
    ]
    assert out_of(capsys, "eval", *elementary, "--store", arcade) == out_of(
        capsys, "eval", *elementary, "--store", local
    )


def test_partitions_and_coverage_read_as_from_the_local_store(both, capsys):
    arcade, local, s, _ = both
    for argv in (
        ["partitions", "plays", "--kind", "p*|c", "--format", "csv"],
        ["partition", "plays", "S3", "--kind", "p*|c", "--limit", "20", "--offset", "5", "--format", "csv"],
        ["coverage", str(s["qrels"]), *map(str, s["runs"]), "--collection", "plays", "--format", "csv"],
        ["store", "models"],
        ["store", "summaries"],
    ):
        on_arcade = out_of(capsys, *argv, "--store", arcade)
        assert on_arcade == out_of(capsys, *argv, "--store", local), argv
        assert on_arcade.count("\n") > 1


def test_an_export_is_whole_and_equals_the_local_stores(both):
    arcade, local, _, tmp = both
    for url, name in ((arcade, "a"), (local, "l")):
        assert main(["store", "export", str(tmp / name), "--store", url, "--collection", "plays", "--no-progress"]) == 0
    nodes, rels = exported_graph(tmp / "a")
    assert (nodes, rels) == stored_graph(arcade, "plays")
    assert sum(1 for v in nodes.values() if v[0][0] == "Element") == 10330
    # the same graph as the local store's export, but for the doubles: ArcadeDB keeps all 17 digits of a PI
    # edge's value, FalkorDB 15 (which is why graphsr stores each value's exact text beside it, and reads that)
    local_nodes, local_rels = exported_graph(tmp / "l")
    assert nodes == local_nodes

    def exact_only(rels, full_digits):
        out = collections.Counter()
        for (a, kind, b, text), n in rels.items():
            props = json.loads(text)
            if "exact" in props:
                assert (props.pop("value") == float(props["exact"])) or not full_digits, (a, b, props)
            out[(a, kind, b, json.dumps(props, sort_keys=True))] += n
        return out

    assert exact_only(rels, True) == exact_only(local_rels, False)
    assert sum(1 for k in rels if k[1] == "PI") > 0


def _load_command(url, collection, name):
    return [
        sys.executable,
        "-m",
        "graphsr",
        "store",
        "load",
        str(collection),
        "--store",
        url,
        "--name",
        name,
        "--elements",
        "all",
        "--no-progress",
    ]


def test_three_loads_at_once_store_one_load(both):
    """No writer lock on a Bolt server: three processes loading one collection at once MERGE on ids the
    constraints keep unique, and store it once: what they add equals what one load adds to the local store (whose
    loads equal ArcadeDB's: test_a_load_stores_what_the_local_store_stores)."""
    arcade, local, s, _ = both
    before_local = counts(local)
    assert main(["store", "load", *_load_command(local, s["collection"], "single")[5:]]) == 0
    one_load = {k: v - before_local.get(k, 0) for k, v in counts(local).items()}
    assert one_load["Element"] == 10330 and one_load["Document"] == 10
    before = counts(arcade)
    procs = [
        subprocess.Popen(
            _load_command(arcade, s["collection"], "three"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    three = counts(arcade)
    assert {k: three[k] - before.get(k, 0) for k in three} == one_load
    assert main(["store", "drop", "three", "--store", arcade]) == 0
    assert main(["store", "drop", "single", "--store", local]) == 0
    assert counts(arcade) == before and counts(local) == before_local


def test_a_killed_load_is_resumed_whole_and_dropped_whole(both):
    arcade, _, s, _ = both
    before = counts(arcade)
    proc = subprocess.Popen(
        _load_command(arcade, s["collection"], "killed"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    with open_store(arcade) as store:
        while True:  # kill it once some of its elements are in, before its documents are all complete
            if (
                store.counts().get("Element", 0) > before["Element"]
                or proc.poll() is not None
                or time.monotonic() > deadline
            ):
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the load ended before it could be killed: the test needs a slower load"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        unfinished = store.read_query(
            "MATCH (d:Document) WHERE d.collection = 'C/killed' AND (d.complete IS NULL "
            "OR size(d.complete) = 0) RETURN count(d) AS n"
        )[0]["n"]
    assert unfinished > 0
    assert counts(arcade)["Element"] > before["Element"]
    # an incomplete collection is not read as whole
    code = main(["partitions", "killed", "--store", arcade, "--format", "json"])
    assert code != 0
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--store",
                arcade,
                "--name",
                "killed",
                "--elements",
                "all",
                "--no-progress",
            ]
        )
        == 0
    )
    after = counts(arcade)
    assert after["Element"] - before["Element"] == 10330
    assert after["CHILD"] - before["CHILD"] == 10330 - 10  # one root per document
    with open_store(arcade) as store:
        assert (
            store.read_query(
                "MATCH (d:Document) WHERE d.collection = 'C/killed' AND (d.complete IS NULL "
                "OR size(d.complete) = 0) RETURN count(d) AS n"
            )[0]["n"]
            == 0
        )
    assert main(["store", "drop", "killed", "--store", arcade]) == 0
    assert counts(arcade) == before


def test_user_queries_are_read_only_and_take_parameters_as_values(both):
    """``graphsr store query`` runs in a read transaction: the server refuses every write; a parameter holding
    Cypher is a value, never query text."""
    from graphsr.errors import GraphsrInputError

    arcade, _, _, _ = both
    with open_store(arcade) as store:
        hostile = "x') DETACH DELETE n // $x {x: 1} ; MATCH (n) RETURN n \\ \" \n"
        assert store.read_query("RETURN $v AS v", {"v": hostile}) == [{"v": hostile}]
        before = store.counts()
        for write in (
            "CREATE (n:X)",
            "MATCH (e) DETACH DELETE e",
            "MATCH (e:Element) SET e.x = 1",
            "MERGE (n:X) RETURN n",
            "MATCH (e:Element) DELETE e",
        ):
            with pytest.raises(GraphsrInputError):
                store.read_query(write)
        assert store.counts() == before
