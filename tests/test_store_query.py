"""Read-only Cypher: writes refused before sending and by the server, parameters never formatted in, and the
the manual's three schema examples (docs/manual.md) run against the sample store."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.errors import GraphsrInputError
from graphsr.io import read_element_qrels
from graphsr.store import open_store, store_assessments, store_collection
from graphsr.store.readonly import check_read_only

README = Path(__file__).parents[1] / "docs" / "manual.md"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = sample("mobydick")
    st = open_store(f"local:{tmp_path_factory.mktemp('qstore')}")
    store_collection(st, s["collection"], "moby", kinds=["p*", "p*|c"], elements="all")
    store_assessments(st, read_element_qrels(s["qrels"]), "moby", "qrels.txt")
    yield st
    st.close()


@pytest.mark.parametrize(
    "query, word",
    [
        ("CREATE (n:X {a: 1})", "CREATE"),
        ("MERGE (n:X {a: 1}) RETURN n", "MERGE"),
        ("MATCH (e:Element) SET e.x = 1", "SET"),
        ("MATCH (e:Element) DELETE e", "DELETE"),
        ("MATCH (e) DETACH DELETE e", "DETACH DELETE"),
        ("MATCH (e:Element) REMOVE e.xpath", "REMOVE"),
        ("match (e) set e.x = 1", "SET"),
        ("CALL db.idx.fulltext.createNodeIndex('Element', 'xpath')", "CALL"),
        ("MATCH (e) CALL { WITH e CREATE (x:Y) } RETURN 1", "CREATE"),
        ("FOREACH (x IN [1] | CREATE (:Z))", "FOREACH"),
    ],
)
def test_writes_are_refused(store, query, word):
    before = store.counts()
    with pytest.raises(GraphsrInputError, match=f"{word}.*read-only"):
        store.read_query(query)
    assert store.counts() == before


def test_words_in_strings_and_comments_are_not_clauses(store):
    check_read_only("MATCH (e:Element) WHERE e.tag <> 'CREATE (x)' // SET in a comment\nRETURN count(e) AS n")
    rows = store.read_query("MATCH (e:Element) WHERE e.tag <> 'DELETE' RETURN count(e) AS n /* MERGE */")
    assert rows == [{"n": 17}]
    assert store.read_query("CALL db.labels() YIELD label RETURN label ORDER BY label")


def test_the_server_refuses_writes_too(store):
    before = store.counts()
    with pytest.raises(Exception):
        store._execute_read("CREATE (n:Intruder {x: 1})", {})  # past the check: GRAPH.RO_QUERY refuses it
    assert store.counts() == before


@pytest.mark.parametrize(
    "value",
    ["') DETACH DELETE n //", 'a "quoted" \\ value', "line\nbreak", "ünïcødé 🙂", "$other", "{x: 1}", "", " spaced "],
)
def test_hostile_parameters_round_trip(store, value):
    assert store.read_query("RETURN $v AS v", {"v": value}) == [{"v": value}]


def test_the_readme_examples_run(store):
    blocks = re.findall(r"```cypher\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 3
    s = sample("mobydick")
    from graphsr.io import iter_documents
    from graphsr.summaries import build_summary

    doc = next(iter_documents(s["collection"]))
    one = store.read_query(blocks[0], {"doc": "mobydick"})
    assert [r["pre"] for r in one] == list(range(1, len(doc) + 1)) and [r["tag"] for r in one] == doc.tag_names()
    assert [r["depth"] for r in one] == doc.depth.tolist() and [r["length"] for r in one] == doc.length.tolist()
    two = store.read_query(blocks[1], {"kind": "p*"})
    summary = build_summary([doc], "p*", keep_extents=True)
    assert sorted(r["extent"] for r in two) == sorted(summary.extent_size.tolist())
    three = store.read_query(blocks[2], {"topic": "1", "collection": "moby"})
    qrels = read_element_qrels(s["qrels"])
    assert len(three) == sum(1 for _ in qrels)
    node_of = {pre: summary.label(sid) for sid in range(len(summary)) for _, pre in summary.extent(sid)}
    assert sorted(r["node"] for r in three) == sorted(node_of[doc.node(x) + 1] for _, _, x, _ in qrels)


def test_the_query_command(store, capsys):
    url = store.url
    assert (
        main(
            [
                "store",
                "query",
                "MATCH (d:Document) WHERE d.docid = $d RETURN d.elements AS n",
                "--param",
                "d=mobydick",
                "--store",
                url,
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert '"n": 17' in capsys.readouterr().out
    assert main(["store", "query", "MATCH (e) DETACH DELETE e", "--store", url]) == 2
    assert "read-only" in capsys.readouterr().err
    assert (
        main(["store", "query", "RETURN $x AS x", "--param-json", "x=[1, 2]", "--store", url, "--format", "csv"]) == 0
    )
    assert capsys.readouterr().out == 'x\n"[1, 2]"\n'


def test_the_help_example_runs_against_the_schema(store, capsys):
    """`graphsr store query --help` shows an example that answers on the schema the store has."""
    import argparse

    from graphsr.cli.main import build_parser
    from graphsr.cli.store_cmd import QUERY_EXAMPLE

    parser = build_parser("store")
    store_parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["store"]
    query_parser = next(a for a in store_parser._actions if isinstance(a, argparse._SubParsersAction)).choices["query"]
    helps = " ".join(a.help or "" for a in query_parser._actions)
    assert QUERY_EXAMPLE in helps
    rows = store.read_query(QUERY_EXAMPLE, {"doc": "mobydick"})
    assert len(rows) == 1 and rows[0]["elements"] == 17 and rows[0]["length"] > 0
