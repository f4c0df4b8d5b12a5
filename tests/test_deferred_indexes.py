"""The local store's indexes of its big labels (Element, Route, Step) are made when a statement first filters on
them and dropped when the server stops, so that a start loads the data alone (graphsr/store/deferred.py)."""

from __future__ import annotations

import os
import signal

import pytest

from graphsr.data import sample
from graphsr.store import open_store
from graphsr.store.deferred import DeferredIndex, deferred_indexes, indexes_needed, labels_needed
from graphsr.store.queries import query, query_names
from graphsr.store.server import GRAPH
from graphsr.store.load import store_collection
from graphsr.store.extents import summary_extent

#: A summary node of the sample's p* summary (a play's scene: hundreds of elements in every play)
LABEL = "/play/text/act/scene"

#: What the rule decides for the named queries that touch the big labels (a query not listed needs none).
NEEDS = {
    "delete_document_elements": {"Element"},
    "documents_shapes": {"Element"},
    "summary_extent_by_in_p_star": {"Element"},
    "summary_extent_list_by_in_tag": {"Element"},
    "merge_steps": {"Element", "Route", "Step"},
    "merge_elements": {"Element"},
    "export_out_Step": {"Step"},
}
NEEDS_NONE = [
    "create_elements",  # a CREATE's map sets properties, and its documents are found by code
    "create_steps",  # elements by node id, routes and steps created
    "documents_tree_shapes",  # scoring from the store reads Document nodes only
    "element_transitions",  # a.key read, not filtered on
    "summary_transitions",  # a[$property] IS NOT NULL: no index serves it
    "study_routes",
    "run_results",
    "qrels_judgments",
    "count_Element",
]


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_statements_that_filter_on_an_indexed_property_need_its_label(name):
    assert labels_needed(query(name)) == NEEDS[name]


@pytest.mark.parametrize("name", NEEDS_NONE)
def test_statements_that_only_read_or_create_need_none(name):
    assert labels_needed(query(name)) == frozenset()


def test_the_rule_reads_comparisons_maps_and_dynamic_properties():
    assert labels_needed("MATCH (x:Element) WHERE $k = x.key RETURN x") == {"Element"}
    assert labels_needed("MATCH (x:Element) WHERE x.in_c IN $sids RETURN x") == {"Element"}
    assert labels_needed("MATCH (x:Element) WHERE x[$p] = $v RETURN x") == frozenset()  # never index-served
    assert labels_needed("MATCH (x:Element {in_tag: 3}) RETURN x") == {"Element"}
    assert labels_needed("MATCH (x:Element) WHERE x.pre = 3 RETURN x") == frozenset()  # pre is not indexed
    assert labels_needed("MATCH (x:Element) RETURN x.key ORDER BY x.key") == frozenset()
    assert labels_needed("MATCH (d:Document) WHERE d.code = 3 RETURN d") == frozenset()


def test_only_the_properties_filtered_on_are_needed():
    assert indexes_needed(query("summary_extent_by_in_p_star")) == {DeferredIndex("Element", "in_p_star")}
    assert indexes_needed(query("documents_shapes")) == {DeferredIndex("Element", "key")}
    assert indexes_needed(query("merge_steps")) == {
        DeferredIndex("Element", "key"),
        DeferredIndex("Route", "id"),
        DeferredIndex("Step", "id"),
    }


def test_every_named_query_that_needs_an_index_is_decided():
    """The rule covers every deferred label some named query filters on (a typo in a declaration shows here)."""
    labels = {i.label for i in deferred_indexes()}
    assert labels == {"Element", "Route", "Step"}
    decided = set().union(*(labels_needed(query(n)) for n in query_names()))
    assert decided == labels


def _deferred_held(store) -> dict[str, str]:
    rows = store._graph.query("CALL db.indexes() YIELD label, properties, status RETURN label, properties, status")
    return {r[0]: r[2] for r in rows.result_set if r[0] in ("Element", "Route", "Step")}


def _index_labels_at_start(path) -> dict[str, str]:
    """The deferred labels indexed in a server just started from the store's snapshot."""
    import redis

    from graphsr.store.server import LocalServer

    server = LocalServer(path)
    server.start()
    try:
        client = redis.Redis(unix_socket_path=str(server.socket))
        rows = client.execute_command(
            "GRAPH.RO_QUERY", GRAPH, "CALL db.indexes() YIELD label, status RETURN label, status"
        )[1]
        client.close()
        return {r[0].decode(): r[1].decode() for r in rows if r[0] in (b"Element", b"Route", b"Step")}
    finally:
        server.leave()


def _saved(path) -> list[tuple]:
    """The store's saved data as files: the append-only log's manifest and files, each with its inode, modification
    time and size."""
    files = sorted((path / "graphsr.aof").iterdir())
    return [(f.name, f.stat().st_ino, f.stat().st_mtime_ns, f.stat().st_size) for f in files]


def test_indexes_are_made_when_needed_and_dropped_at_stop(tmp_path):
    path = tmp_path / "store"
    collection = sample("shakespeare")["collection"]
    with open_store(f"local:{path}") as s:
        _, summaries = store_collection(s, collection, "sh", kinds=["p*"], elements="all")
        assert _deferred_held(s) == {}  # a load into an empty store looks no element up
        expected = summary_extent(s, "sh", "p*", LABEL)
    assert _index_labels_at_start(path) == {}  # the stop dropped them: the saved data hold the data alone
    saved = _saved(path)
    with open_store(f"local:{path}") as s:
        s.run("documents_tree_shapes", codes=[1, 2])
        assert _deferred_held(s) == {}  # reading shapes needs no element index
        assert summary_extent(s, "sh", "p*", LABEL) == expected  # a partition page built it, then read through it
        assert _deferred_held(s) == {"Element": "OPERATIONAL"}
        rows = s.read_query("MATCH (e:Element) WHERE e.key = $k RETURN e.pre AS pre", {"k": 4294967296 + 3})
        assert rows == [{"pre": 3}]
    # a read that made indexes leaves the data as saved: the server drops them and exits without rewriting its
    # log, whose commands since its base are the indexes' making and dropping
    after = _saved(path)
    assert [f[0] for f in after] == [f[0] for f in saved]  # the same base and incremental files
    assert [f for f in after if f[0].endswith(".base.rdb")] == [f for f in saved if f[0].endswith(".base.rdb")]
    assert _index_labels_at_start(path) == {}


def test_a_killed_server_keeps_its_indexes_until_the_next_stop(tmp_path):
    """A server killed after a write, with an index made: the next start replays the write and the index's
    making from the log, every answer stays the same, and the next stop drops the index."""
    path = tmp_path / "store"
    collection = sample("shakespeare")["collection"]
    with open_store(f"local:{path}", keep_running=True) as s:
        store_collection(s, collection, "sh", kinds=["p*"], elements="all")
        expected = summary_extent(s, "sh", "p*", LABEL)
        assert _deferred_held(s) == {"Element": "OPERATIONAL"}
        pid = s.server.server_pid()
    os.kill(pid, signal.SIGKILL)
    (path / "graphsr.keep").unlink(missing_ok=True)
    with open_store(f"local:{path}") as s:
        assert set(_deferred_held(s)) == {"Element"}  # made again from the log while it loaded
        assert summary_extent(s, "sh", "p*", LABEL) == expected
    assert _index_labels_at_start(path) == {}


def test_a_write_command_stopping_the_server_drops_the_indexes_before_the_log_is_rewritten(tmp_path):
    """A command that wrote, and whose leaving stops the server: the stop drops the deferred indexes, then folds
    the log into a new base, which holds none of them; with another user still on the server, the indexes stay
    for it."""
    path = tmp_path / "store"
    collection = sample("shakespeare")["collection"]
    with open_store(f"local:{path}") as s:
        store_collection(s, collection, "sh", kinds=["p*"], elements="all")
        summary_extent(s, "sh", "p*", LABEL)  # builds the Element indexes
        assert _deferred_held(s) == {"Element": "OPERATIONAL"}
        with open_store(f"local:{path}") as other:  # a second user: the server outlives this command
            s.persist()
            assert _deferred_held(s) == {"Element": "OPERATIONAL"}
            assert other.server.alive()
        saved = _saved(path)
    after = _saved(path)
    assert [f[0] for f in after] != [f[0] for f in saved]  # rewritten: a new base and incremental file
    from graphsr.store.journal import Journal

    assert Journal(path).incremental_size() == 0
    assert _index_labels_at_start(path) == {}
