"""A name loaded twice is replaced or refused, never merged: studies (and the other named things a command
loads), on a real local store, through the command line a user runs."""

from __future__ import annotations

import pytest

from graphsr.cli.main import main

from .conftest import run_cli
from graphsr.data import sample
from graphsr.store import open_store, study_routes


LOG1 = (
    "route_id,step,docid,from,to,duration_ms\n"
    "r1,1,mobydick,/book[1],/book[1]/body[1]/chapter[1],30\n"
    "r1,2,mobydick,/book[1]/body[1]/chapter[1],/book[1]/body[1]/chapter[2],10\n"
    "r2,1,mobydick,/book[1],/book[1]/body[1]/chapter[2],5\n"
)
# a corrected log: the same route ids, r1's first step went elsewhere
LOG2 = (
    "route_id,step,docid,from,to,duration_ms\n"
    "r1,1,mobydick,/book[1],/book[1]/body[1]/chapter[2],30\n"
    "r1,2,mobydick,/book[1]/body[1]/chapter[2],/book[1]/body[1]/chapter[1],10\n"
    "r2,1,mobydick,/book[1],/book[1]/body[1]/chapter[2],5\n"
)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("named")
    url = f"local:{tmp / 's'}"
    m = sample("mobydick")
    assert (
        main(
            [
                "store",
                "load",
                str(m["collection"]),
                "--store",
                url,
                "--name",
                "moby",
                "--elements",
                "all",
                "--no-progress",
            ]
        )
        == 0
    )
    yield url, tmp
    main(["store", "stop", "--store", url])


def _edges(url, study):
    with open_store(url) as s:
        return s.read_query(
            "MATCH (ro:Route)-[:HAS_STEP]->(st:Step)-[r]->() WHERE ro.study = $s "
            "RETURN ro.route_id AS route, st.seq AS seq, type(r) AS t, count(r) AS n "
            "ORDER BY route, seq, t",
            {"s": f"Y/moby/{study}"},
        )


def test_a_study_is_refused_another_log_unless_replaced_and_the_same_log_changes_nothing(store, capsys):
    url, tmp = store
    log1, log2 = tmp / "log1.csv", tmp / "log2.csv"
    log1.write_text(LOG1)
    log2.write_text(LOG2)
    code, out, err = run_cli(
        capsys, "store", "routes", str(log1), "--store", url, "--collection", "moby", "--study", "s"
    )
    assert code == 0 and "3 steps of 2 routes stored" in out, err
    before = _edges(url, "s")
    assert {r["n"] for r in before} == {1} and len(before) == 6
    code, out, err = run_cli(
        capsys, "store", "routes", str(log1), "--store", url, "--collection", "moby", "--study", "s"
    )
    assert code == 0 and "holds this log already" in out and "nothing changed" in out, err
    code, out, err = run_cli(
        capsys, "store", "routes", str(log2), "--store", url, "--collection", "moby", "--study", "s"
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "study 's' of collection 'moby' already holds another log" in err
    assert "--replace" in err and str(log2) in err
    assert _edges(url, "s") == before  # untouched
    code, out, err = run_cli(
        capsys, "routes", "load", str(log2), "--store", url, "--collection", "moby", "--study", "s", "--replace"
    )
    assert code == 0 and "replacing the log it held" in out, err
    after = _edges(url, "s")
    assert {r["n"] for r in after} == {1} and len(after) == 6  # one FROM and one TO per step, no mix
    with open_store(url) as s:
        df = study_routes(s, "moby", "s")
    assert df.sort_values(["route_id", "step"]).duration_ms.tolist() == [30, 10, 5]
    with open_store(url) as s:
        [st] = s.read_query("MATCH (st:Study) WHERE st.id = 'Y/moby/s' RETURN st.complete AS c")
    assert st["c"] is True


def test_an_incomplete_study_is_replaced_by_the_next_load(store, capsys):
    url, tmp = store
    log1 = tmp / "log1b.csv"
    log1.write_text(LOG1)
    with open_store(url) as s, s.writing():  # what a killed load leaves: the study begun, one step of another log
        s.run("begin_study", study="Y/moby/k", name="k", collection="moby")
    code, out, err = run_cli(
        capsys, "store", "routes", str(log1), "--store", url, "--collection", "moby", "--study", "k"
    )
    assert code == 0 and "3 steps of 2 routes stored" in out, err
    assert {r["n"] for r in _edges(url, "k")} == {1}


def _count(url, query, **params):
    with open_store(url) as s:
        return s.read_query(query, params)[0]["n"]


def test_a_collection_name_is_refused_other_documents_unless_replaced(tmp_path, capsys):
    import shutil

    url = f"local:{tmp_path / 's'}"
    m, sh = sample("mobydick"), sample("shakespeare")
    coll = tmp_path / "moby"
    shutil.copytree(m["collection"], coll)
    try:
        code, out, err = run_cli(
            capsys, "store", "load", str(coll), "--store", url, "--name", "c", "--elements", "all", "--no-progress"
        )
        assert code == 0, err
        code, out, err = run_cli(
            capsys, "store", "load", str(coll), "--store", url, "--name", "c", "--elements", "all", "--no-progress"
        )
        assert code == 0 and "already stored, nothing new written" in out, err
        # another collection under the name: refused, nothing changed
        code, out, err = run_cli(
            capsys, "store", "load", str(sh["collection"]), "--store", url, "--name", "c", "--no-progress"
        )
        assert code == 2 and err.count("\n") == 1
        assert "collection 'c' is stored with other documents (1 stored, 1 of them not in this collection" in err
        assert _count(url, "MATCH (d:Document) RETURN count(d) AS n") == 1
        # the same document ids, one of them changed: refused (the document is not rewritten)
        xml = coll / "mobydick.xml"
        xml.write_text(xml.read_text().replace("<body>", "<body><chapter>new</chapter>"))
        code, out, err = run_cli(
            capsys, "store", "load", str(coll), "--store", url, "--name", "c", "--elements", "all", "--no-progress"
        )
        assert code == 2 and "document 'mobydick' has 18 elements, the stored one 17" in err, err
        assert _count(url, "MATCH (e:Element) RETURN count(e) AS n") == 17
        code, out, err = run_cli(
            capsys,
            "store",
            "load",
            str(coll),
            "--store",
            url,
            "--name",
            "c",
            "--elements",
            "all",
            "--replace",
            "--no-progress",
        )
        assert code == 0, err
        assert _count(url, "MATCH (e:Element) RETURN count(e) AS n") == 18
        code, out, err = run_cli(
            capsys, "store", "load", str(sh["collection"]), "--store", url, "--name", "c", "--replace", "--no-progress"
        )
        assert code == 0, err
        assert _count(url, "MATCH (d:Document) RETURN count(d) AS n") == 10
        assert _count(url, "MATCH (e:Element) RETURN count(e) AS n") == 0  # moby's elements went with it
    finally:
        main(["store", "stop", "--store", url])


def test_assessments_and_runs_of_a_name_are_never_merged(store, capsys):
    url, tmp = store
    m = sample("mobydick")
    qrels, run = tmp / "qrels.txt", tmp / "focused.run"
    qrels.write_text(m["qrels"].read_text())
    run.write_text((m["collection"].parent / "runs" / "focused.run").read_text())
    base = ["store", "load", str(m["collection"]), "--store", url, "--name", "moby", "--no-progress"]
    code, out, err = run_cli(capsys, *base, "--qrels", str(qrels), "--run", str(run))
    assert code == 0, err
    code, out, err = run_cli(capsys, *base, "--qrels", str(qrels), "--run", str(run))
    assert code == 0 and out.count("(stored already: nothing changed)") == 2, out
    judged = _count(
        url, "MATCH (:Qrels {id: 'Q/moby/qrels.txt'})-[:HAS_TOPIC]->()-[a:ASSESSES]->() RETURN count(a) AS n"
    )
    # a corrected file of the same name: one grade and one rank changed
    qrels.write_text(qrels.read_text().replace("chapter[2] 1", "chapter[2] 0", 1))
    code, out, err = run_cli(capsys, *base, "--qrels", str(qrels))
    assert code == 2 and "assessments 'qrels.txt' of collection 'moby' already holds other content" in err, err
    run.write_text(
        run.read_text().replace(
            " 3 1.0 focused /book[1]/body[1]/chapter[2]", " 3 1.0 focused /book[1]/body[1]/chapter[3]"
        )
    )
    code, out, err = run_cli(capsys, *base, "--run", str(run))
    assert code == 2 and "run 'focused' of collection 'moby' already holds other content" in err, err
    code, out, err = run_cli(capsys, *base, "--qrels", str(qrels), "--run", str(run), "--replace")
    assert code == 0 and out.count("(replacing what the name held)") == 2, out
    assert (
        _count(url, "MATCH (:Qrels {id: 'Q/moby/qrels.txt'})-[:HAS_TOPIC]->()-[a:ASSESSES]->() RETURN count(a) AS n")
        == judged
    )
    assert (
        _count(
            url,
            "MATCH (:Qrels {id: 'Q/moby/qrels.txt'})-[:HAS_TOPIC]->()-[a:ASSESSES]->() WHERE a.rel = 0 "
            "RETURN count(a) AS n",
        )
        == 1
    )
    assert (
        _count(url, "MATCH (:Run {id: 'U/moby/focused'})-[r:RETURNS]->(e) WHERE r.rank = 3 RETURN count(r) AS n") == 1
    )


def test_drops_and_models_check_their_receipts(tmp_path, capsys):
    """A drop counts what it removed against what it found and what is left; a model its PI and WEIGHT edges
    against the values it computed."""
    from graphsr.store import drop_collection, drop_study

    url = f"local:{tmp_path / 's'}"
    m = sample("mobydick")
    log = tmp_path / "log.csv"
    log.write_text(LOG1.replace("/book[1]/chapter[", "/book[1]/body[1]/chapter["))
    try:
        assert (
            main(
                [
                    "store",
                    "load",
                    str(m["collection"]),
                    "--store",
                    url,
                    "--name",
                    "moby",
                    "--elements",
                    "all",
                    "--no-progress",
                ]
            )
            == 0
        )
        assert main(["store", "routes", str(log), "--store", url, "--collection", "moby", "--study", "s"]) == 0
        assert main(["store", "model", "--store", url, "--collection", "moby", "--model", "p*:extent"]) == 0
        with open_store(url) as s:
            [held] = s.run("model_holds", id="M/moby\\/p*:extent")
            assert held["pi"] == 7
            assert drop_study(s, "moby", "s") == 1 + 2 + 3
            n = drop_collection(s, "moby")
            assert n == 1 + 1 + 17 + 7 + 8 + 2 + 1  # collection, document, elements, summary nodes, summaries, model
            assert s.read_query("MATCH (n) WHERE n.id STARTS WITH 'D/moby/' RETURN count(n) AS n") == [{"n": 0}]
    finally:
        main(["store", "stop", "--store", url])


def test_a_replace_says_what_it_removed_and_keeps_dependants_unless_told(tmp_path, capsys):
    """``store load --replace`` over a collection with assessments, runs, a study and a model: refused, naming
    them, with the store unchanged; with --drop-dependants it removes them and says so in positive counts."""
    url = f"local:{tmp_path / 's'}"
    sh, m = sample("shakespeare"), sample("mobydick")
    try:
        code, out, err = run_cli(
            capsys,
            "store",
            "load",
            str(sh["collection"]),
            "--store",
            url,
            "--name",
            "plays",
            "--qrels",
            str(sh["qrels"]),
            "--run",
            str(sh["runs"][0]),
            "--no-progress",
        )
        assert code == 0, err
        assert (
            run_cli(capsys, "store", "model", "--store", url, "--collection", "plays", "--model", "p*:extent")[0] == 0
        )
        counts = {q: _count(url, f"MATCH (n:{q}) RETURN count(n) AS n") for q in ("Document", "Qrels", "Run", "Model")}
        assert counts == {"Document": 10, "Qrels": 1, "Run": 1, "Model": 1}
        code, out, err = run_cli(
            capsys,
            "store",
            "load",
            str(m["collection"]),
            "--store",
            url,
            "--name",
            "plays",
            "--replace",
            "--no-progress",
        )
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert (
            "1 set of assessments ('qrels.txt'); 1 run ('plays'); 1 model ('plays/p*:extent') depend on it" in err
            and "--drop-dependants" in err
        )
        assert {q: _count(url, f"MATCH (n:{q}) RETURN count(n) AS n") for q in counts} == counts  # nothing removed
        code, out, err = run_cli(
            capsys,
            "store",
            "load",
            str(m["collection"]),
            "--store",
            url,
            "--name",
            "plays",
            "--replace",
            "--drop-dependants",
            "--no-progress",
        )
        assert code == 0, err
        removed, loaded = out.splitlines()
        import re

        assert re.fullmatch(
            r"replaced collection 'plays': removed its 10 documents, 10,330 stored elements, 1 set of "
            r"assessments \('qrels.txt'\), 1 run \('plays'\), 1 model \('plays/p\*:extent'\); "
            r"10,[0-9]{3} nodes in all",
            removed,
        ), removed
        assert "-" not in loaded.split("summaries")[1]  # no negative count of what the load created
        assert loaded.startswith("collection 'plays': 1 documents, 17 elements")
        assert {q: _count(url, f"MATCH (n:{q}) RETURN count(n) AS n") for q in counts} == {
            "Document": 1,
            "Qrels": 0,
            "Run": 0,
            "Model": 0,
        }
    finally:
        main(["store", "stop", "--store", url])
