"""The graph store on its default backend: a real FalkorDB server on a unix socket."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.data import sample
from graphsr.errors import UnknownNodeError
from graphsr.io import iter_documents, read_element_qrels, read_run
from graphsr.navigation import build_sr_model
from graphsr.navigation.stored import build_stored_model, load_stored_model
from graphsr.store import (
    open_store,
    store_assessments,
    store_collection,
    store_run,
    store_steps,
    stored_document,
    stored_summary,
    study_routes,
    summary_extent,
    transitions,
)
from graphsr.summaries import build_summary

from .conftest import memberships, write


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = open_store(f"local:{tmp_path_factory.mktemp('gs')}", batch_size=2000)
    yield s
    s.close()
    assert not s.server.alive()


@pytest.fixture(scope="module")
def shakespeare(store):
    report, summaries = store_collection(
        store, sample("shakespeare")["collection"], "shakespeare", kinds=["p*", "p*|c"], elements="all"
    )
    return report, summaries


def test_collection_summary_round_trip(store, shakespeare):
    report, summaries = shakespeare
    assert report.documents == 10 and report.elements == 10330
    for kind, mem in summaries.items():
        st = stored_summary(store, "shakespeare", kind)
        assert st.labels() == mem.labels()
        assert st.extent_size.tolist() == mem.extent_size.tolist()
        assert st.content_length.tolist() == mem.content_length.tolist()
        assert sorted(zip(st.edge_src.tolist(), st.edge_dst.tolist(), st.edge_pairs.tolist())) == sorted(
            zip(mem.edge_src.tolist(), mem.edge_dst.tolist(), mem.edge_pairs.tolist())
        )
    counts = store.counts()
    assert counts["Element"] == 10330 and counts["CHILD"] == 10330 - 10 and counts["ROOT"] == 10
    assert memberships(store, "p*") == memberships(store, "p*|c") == 10330 and counts["Document"] == 10


def test_loading_twice_changes_nothing(store, shakespeare):
    before = store.counts()
    store_collection(store, sample("shakespeare")["collection"], "shakespeare", kinds=["p*", "p*|c"], elements="all")
    assert store.counts() == before


def test_stored_documents_equal_parsed_ones(store, shakespeare):
    for doc in iter_documents(sample("shakespeare")["collection"]):
        st = stored_document(store, "shakespeare", doc.docid)
        assert st.tags == doc.tags
        for name in ("tag", "parent", "depth", "position", "start", "end"):
            assert np.array_equal(getattr(st, name), getattr(doc, name)), name


def test_extent_of_a_summary_node(store, shakespeare):
    mem = build_summary(iter_documents(sample("shakespeare")["collection"]), "p*", keep_extents=True)
    for sid in (0, 3, len(mem) - 1):
        assert sorted(summary_extent(store, "shakespeare", "p*", mem.label(sid))) == sorted(mem.extent(sid))


def test_stored_model_is_bit_identical(store, shakespeare):
    mem = build_sr_model(shakespeare[1]["p*|c"], "length")
    built = build_stored_model(store, "shakespeare", "p*|c:length", "t/p*|c:length")
    again = load_stored_model(store, "t/p*|c:length")
    assert np.array_equal(mem.pi, built.pi) and np.array_equal(mem.pi, again.pi)
    assert again.summary.labels() == shakespeare[1]["p*|c"].labels()
    # re-saving replaces the values, it does not add to them
    before = store.counts()
    build_stored_model(store, "shakespeare", "p*|c:length", "t/p*|c:length")
    assert store.counts() == before


def test_unknown_model_lists_stored_ones(store, shakespeare):
    build_stored_model(store, "shakespeare", "p*:extent", "t/p*:extent")
    with pytest.raises(UnknownNodeError, match="stored models: .*t/p\\*:extent"):
        load_stored_model(store, "nope")


def test_assessments_runs_and_routes(store, shakespeare):
    s = sample("shakespeare")
    qrels = read_element_qrels(s["qrels"])
    assert store_assessments(store, qrels, "shakespeare", "q").rows == sum(1 for _ in qrels)
    run = read_run(s["runs"][0], name="plays")
    store_run(store, run, "shakespeare")
    rows = store.run("run_results", id=f"U/shakespeare/{run.run_ids[0]}")  # named by its run id column
    assert len(rows) == run.num_results
    steps = [
        {
            "route_id": "r1",
            "step": 1,
            "docid": "hamlet",
            "from": "/play/text/act[1]",
            "to": "/play/text/act[1]/scene[1]",
            "duration_ms": 500,
        },
        {
            "route_id": "r1",
            "step": 2,
            "docid": "hamlet",
            "from": "/play/text/act[1]/scene[1]",
            "to": "/play/text/act[1]",
            "duration_ms": 200,
        },
        {
            "route_id": "r2",
            "step": 1,
            "docid": "hamlet",
            "from": "/play/text/act[1]",
            "to": "/play/text/act[1]/scene[2]",
            "duration_ms": 100,
            "user": "u7",
            "topic": "1",
        },
    ]
    assert not store_steps(store, "shakespeare", "study1", steps).unchanged
    again = store_steps(store, "shakespeare", "study1", steps)  # idempotent
    assert again.unchanged and (again.steps, again.routes) == (3, 2)
    el = transitions(store, "shakespeare", "study1")
    assert sorted(el["steps"].tolist()) == [1, 1, 1]
    summ = transitions(store, "shakespeare", "study1", kind="p*")
    pstar = shakespeare[1]["p*"]
    act, scene = pstar.sid("/play/text/act"), pstar.sid("/play/text/act/scene")
    got = {
        (a, b): (n, e)
        for a, b, n, e in zip(
            summ["src"].tolist(), summ["dst"].tolist(), summ["steps"].tolist(), summ["inverse_effort"].tolist()
        )
    }
    assert got == {(act, scene): (2, pytest.approx(1 / 500 + 1 / 100)), (scene, act): (1, pytest.approx(1 / 200))}
    df = study_routes(store, "shakespeare", "study1")
    assert list(df.route_id) == ["r1", "r1", "r2"] and list(df.step) == [1, 2, 1]
    assert df.topic_id.tolist()[2] == "1"


def test_unknown_element_for_a_run(store, shakespeare, tmp_path):
    run = write(tmp_path / "r.run", "1 Q0 hamlet 1 1 s /play[1]/nothing[1]\n")
    with pytest.raises(UnknownNodeError, match="has no node"):
        store_run(store, read_run(run), "shakespeare")


def _listening_inodes() -> set[str]:
    inodes = set()
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(f).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if parts[3] == "0A":  # LISTEN
                inodes.add(parts[9])
    return inodes


def test_local_store_opens_no_tcp_port(store, shakespeare):
    pid = store.server.pid()
    assert pid is not None
    sockets = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            sockets.add(target[len("socket:[") : -1])
    assert sockets, "the server should at least hold its unix socket"
    assert not (sockets & _listening_inodes()), "the local store listens on a TCP port"
    mode = os.stat(store.server.socket).st_mode & 0o777
    assert mode == 0o700


# document ids come from file names, which cannot hold "/"; names given through the API can
HOSTILE = ['q"uote', "back`tick", "}) DETACH DELETE n \\\\", "a'b\\c", "x]}) MATCH (m) DETACH DELETE m"]


def test_hostile_ids_leave_the_graph_intact(store, shakespeare, tmp_path):
    before = store.counts()
    coll = tmp_path / "hostile"
    for i, h in enumerate(HOSTILE):
        write(coll / f"{h}.xml", f"<a><b>{i}</b><c/></a>")
    cname = "c`) MATCH (m) DETACH DELETE m //"
    store_collection(store, coll, cname, kinds=["p*"], elements="all")
    # docids with spaces cannot appear in whitespace-separated files; those without can
    ok = [h for h in HOSTILE if " " not in h]
    qrels_lines = "".join(f"t{j}`}}) Q0 {h} /a/b 1\n" for j, h in enumerate(ok))
    q = read_element_qrels(write(tmp_path / "hq", qrels_lines))
    store_assessments(store, q, cname, "}) DETACH DELETE n //")
    r = read_run(write(tmp_path / "hr", "".join(f"1 Q0 {h} 1 1 s /a/c\n" for h in ok[:1])), name="`r`} //")
    store_run(store, r, cname)
    store_steps(
        store,
        cname,
        "s`}) DETACH DELETE n",
        [{"route_id": "'}) //", "step": 1, "docid": HOSTILE[2], "from": "/a", "to": "/a/b", "user": '"u'}],
    )
    build_stored_model(store, cname, "p*:extent", "m`}) DETACH DELETE n //")
    after = store.counts()
    # nothing that was there before is gone
    for k, v in before.items():
        assert after[k] >= v, k
    assert after["Element"] == before["Element"] + 3 * len(HOSTILE)
    assert stored_document(store, cname, HOSTILE[2]).docid == HOSTILE[2]
    rows = store.run("collection", id=f"C/{cname.replace('/', chr(92) + '/')}")
    assert rows and rows[0]["name"] == cname
    assert load_stored_model(store, "m`}) DETACH DELETE n //").summary.labels() == ["/a", "/a/b", "/a/c"]
    # the Shakespeare data are untouched
    test_stored_documents_equal_parsed_ones(store, shakespeare)


def _make_collection(path, n_docs=400):
    rng = np.random.default_rng(7)
    for i in range(n_docs):
        secs = "".join(
            "<sec>" + "<p>x</p>" * int(rng.integers(1, 5)) + "</sec>" for _ in range(int(rng.integers(1, 5)))
        )
        write(path / f"{i:04d}.xml", f"<article><name>n</name><bdy>{secs}</bdy></article>")


def test_interrupted_load_completes_without_duplicates(tmp_path):
    coll = tmp_path / "many"
    _make_collection(coll)
    url = f"local:{tmp_path / 'gs'}"
    script = (
        "import sys; from graphsr.store import open_store, store_collection\n"
        "s = open_store(sys.argv[1], batch_size=50)\n"
        "store_collection(s, sys.argv[2], 'many', kinds=['p*', 'tag'], elements='all', chunk_docs=10)\n"
    )
    with open_store(url) as s:
        s.init_schema()
        proc = subprocess.Popen([sys.executable, "-c", script, url, str(coll)])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and s.counts()["Element"] < 2000:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        partial = s.counts()
        assert 0 < partial["Element"]
        report, summaries = store_collection(s, coll, "many", kinds=["p*", "tag"], elements="all")
        counts = s.counts()
        n = summaries["p*"].num_elements
        assert counts["Element"] == n and counts["Document"] == 400
        assert counts["CHILD"] == n - 400 and counts["ROOT"] == 400
        assert memberships(s, "p*") == memberships(s, "tag") == n
        assert counts["SummaryNode"] == len(summaries["p*"]) + len(summaries["tag"])
        assert stored_summary(s, "many", "tag").extent_size.tolist() == summaries["tag"].extent_size.tolist()


def test_server_is_reused_and_data_persist(tmp_path):
    url = f"local:{tmp_path / 'p'}"
    with open_store(url) as a:
        store_collection(a, sample("mobydick")["collection"], "moby", kinds=["p*"], elements="all")
        with open_store(url) as b:
            assert not b.started  # reused, not started again
            assert b.counts()["Element"] == 17
        assert a.server.alive()
    assert not a.server.alive()
    with open_store(url) as c:  # restarted from the snapshot
        assert c.started and c.counts()["Element"] == 17


def test_a_summary_kind_loaded_later_keeps_the_earlier_ones(tmp_path):
    coll = sample("mobydick")["collection"]
    with open_store(f"local:{tmp_path / 'k'}") as s:
        store_collection(s, coll, "moby", kinds=["p*"], elements="all")
        build_stored_model(s, "moby", "p*:extent", "m1")
        store_collection(s, coll, "moby", kinds=["tag"], elements="all")
        counts = s.counts()
        assert counts["Element"] == 17 and memberships(s, "p*") == memberships(s, "tag") == 17
        assert counts["CHILD"] == 16
        store_collection(s, coll, "moby", kinds=["p*", "tag"], elements="all")
        assert s.counts() == counts
        # memberships agree with the summaries for both kinds
        for kind in ("p*", "tag"):
            summ = stored_summary(s, "moby", kind)
            for sid in range(len(summ)):
                assert len(summary_extent(s, "moby", kind, summ.label(sid))) == summ.extent_size[sid]
        assert load_stored_model(s, "m1").summary.kind.name == "p*"


def test_a_route_log_loads_into_the_store(store, shakespeare, tmp_path):
    from graphsr.io import read_routes

    log = write(
        tmp_path / "log.csv",
        "route_id,step,docid,from,to,duration_ms\n"
        "x,1,macbeth,/play/text/act[1],/play/text/act[1]/scene[3],30\n"
        "x,2,macbeth,/play/text/act[1]/scene[3],/play/text/act[1],10\n",
    )
    routes = read_routes(log)
    assert store_steps(store, "shakespeare", "log-study", [s.as_dict() for s in routes]).steps == 2
    summ = transitions(store, "shakespeare", "log-study", kind="p*")
    assert sorted(summ["steps"].tolist()) == [1, 1] and sorted(summ["inverse_effort"].tolist()) == pytest.approx(
        [1 / 30, 1 / 10]
    )
    assert summ["untimed"].tolist() == [0, 0]


def test_two_collections_qrels_and_runs_of_one_name_stay_apart(tmp_path):
    from graphsr.store import drop_collection, drop_model, drop_study

    moby = sample("mobydick")
    with open_store(f"local:{tmp_path / 'two'}") as s:
        for name in ("m1", "m2"):
            store_collection(s, moby["collection"], name, kinds=["p*"], elements="all")
        qrels = read_element_qrels(moby["qrels"])
        run = read_run(moby["runs"][0])
        for name in ("m1", "m2"):
            store_assessments(s, qrels, name, "qrels.txt")
            store_run(s, run, name)
        counts = s.counts()
        assert counts["Qrels"] == 2 and counts["Run"] == 2 and counts["Topic"] == 2  # before the (e, s) file
        assert counts["ASSESSES"] == 2 * sum(1 for _ in qrels)
        rid = run.run_ids[0]
        assert len(s.run("run_results", id=f"U/m1/{rid}")) == len(s.run("run_results", id=f"U/m2/{rid}")) > 0
        for q in ("Q/m1/qrels.txt", "Q/m2/qrels.txt"):  # each topic assesses its own collection's elements only
            rows = s.run("qrels_judgments", id=q)
            assert len(rows) == sum(1 for _ in qrels)
        from graphsr.core.qrels import ElementQrels, QrelsRow

        graded = ElementQrels.from_rows(
            [QrelsRow(t, d, x, 0.0, None, (3, 3) if v > 0 else (0, 0)) for t, d, x, v in qrels]
        )
        store_assessments(s, graded, "m1", "es.txt")  # INEX (e, s) pairs are kept on the relationship
        rows = s.run("qrels_judgments", id="Q/m1/es.txt")
        assert {(r["e"], r["s"]) for r in rows} <= {(3, 3), (0, 0)} and len(rows) == sum(1 for _ in qrels)
        assert {r["e"] for r in s.run("qrels_judgments", id="Q/m1/qrels.txt")} == {None}
        build_stored_model(s, "m1", "p*:extent", "m1-model")
        store_steps(
            s,
            "m1",
            "st",
            [{"route_id": "r", "step": 1, "docid": "mobydick", "from": "/book[1]", "to": "/book[1]/fm[1]"}],
        )
        with pytest.raises(UnknownNodeError, match="no study 'nope'"):
            drop_study(s, "m1", "nope")
        assert drop_study(s, "m1", "st") == 3  # study, route, step
        assert drop_model(s, "m1-model") == 1
        before = s.counts()
        removed = drop_collection(s, "m1")
        after = s.counts()
        assert sum(before.values()) - sum(after.values()) > removed  # nodes and their relationships went
        assert after["Collection"] == 1 and after["Qrels"] == 1 and after["Run"] == 1
        assert after["Element"] == 17 and len(s.run("run_results", id=f"U/m2/{rid}")) > 0
        with pytest.raises(UnknownNodeError, match="no collection 'm1'"):
            drop_collection(s, "m1")


def test_drops_go_in_bounded_batches_and_leave_what_a_clean_store_has(tmp_path, monkeypatch):
    from graphsr.store import drop_collection, drop_study, services

    moby = sample("mobydick")
    with open_store(f"local:{tmp_path / 'only'}") as s:
        store_collection(s, moby["collection"], "m2", kinds=["p*"], elements="all")
        clean = s.counts()
    monkeypatch.setattr(services, "DROP_BATCH", 5)  # many transactions of 20 nodes (4 x 5 on the local store)
    with open_store(f"local:{tmp_path / 'both'}") as s:
        for name in ("m1", "m2"):
            store_collection(s, moby["collection"], name, kinds=["p*"], elements="all")
        store_steps(
            s,
            "m1",
            "st",
            [
                {"route_id": f"r{k}", "step": 1, "docid": "mobydick", "from": "/book[1]", "to": "/book[1]/fm[1]"}
                for k in range(12)
            ],
        )
        assert drop_study(s, "m1", "st") == 1 + 12 + 12  # the study, its routes and steps
        build_stored_model(s, "m1", "p*:extent", "m1-model")
        assert drop_collection(s, "m1") > 0
        assert s.counts() == clean


@pytest.mark.slow
def test_a_server_that_accepts_but_never_answers_is_not_alive(tmp_path):
    """A ping has a deadline: a process holding the socket without answering (a server hung in a deadlock)
    counts as not alive within the ping's timeout instead of blocking the command forever."""
    import socket

    from graphsr.store.local import LocalServer

    server = LocalServer(tmp_path / "s")
    server.path.mkdir(parents=True, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(server.socket))
    listener.listen(4)  # connections are queued, never read nor answered
    try:
        t0 = time.monotonic()
        assert not server.alive()
        assert time.monotonic() - t0 < server.PING_TIMEOUT + 3
    finally:
        listener.close()


def test_a_first_load_deletes_nothing_and_a_reload_of_a_begun_document_does(tmp_path, monkeypatch):
    """Documents are marked while their elements are written: a first load sends no delete at all; a document
    left marked (an interrupted write) has its leftovers deleted before it is written again."""
    from graphsr.store.load import document_id

    coll = tmp_path / "few"
    for k in range(3):
        write(coll / f"d{k}.xml", f"<a><b>{k}</b><c/></a>")
    sent: list[str] = []
    with open_store(f"local:{tmp_path / 'gs'}") as s:
        run = s.run
        monkeypatch.setattr(s, "run", lambda name, /, **params: (sent.append(name), run(name, **params))[1])
        store_collection(s, coll, "few", kinds=["p*"], elements="all")
        assert "delete_document_elements" not in sent  # (documents are marked as they are merged)
        assert s.read_query("MATCH (d:Document) WHERE d.writing = true RETURN count(d) AS n") == [{"n": 0}]
        clean = s.counts()
        # an interrupted write of d1: marked as being written, not complete (its elements are there: written
        # again, they must not be there twice)
        s._execute(
            "MATCH (d:Document) WHERE d.id = $id SET d.writing = true, d.complete = null",
            {"id": document_id("few", "d1")},
        )
        sent.clear()
        store_collection(s, coll, "few", kinds=["p*"], elements="all")
        assert "delete_document_elements" in sent
        assert s.counts() == clean


def test_a_store_of_another_schema_is_refused_in_one_line(tmp_path):
    """A store an earlier graphsr wrote (collections, no Store node: elements keyed by string ids) or a later one
    (a Store node of another version) is refused before any query reads it, in one line; an empty store is not."""
    from graphsr.errors import GraphsrInputError
    from graphsr.store import collection_info, list_collections

    url = f"local:{tmp_path / 'old'}"
    with open_store(url) as s:
        assert list_collections(s) == []  # empty: fine
        s._execute("CREATE (:Collection {id: 'C/old', name: 'old', elements: 3})", {})
        s._execute("CREATE (:Element {id: 'E/old/d/1'})", {})
        s._dirty = True
    with open_store(url) as s:
        with pytest.raises(
            GraphsrInputError, match="earlier graphsr .*schema 1.* load the collections into a new store"
        ):
            collection_info(s, "old")
        s._execute("CREATE (:Store {id: 'graphsr', version: 9})", {})
        s._dirty = True
    with open_store(url) as s:
        with pytest.raises(GraphsrInputError, match="holds graph schema 9; this graphsr reads schema 2"):
            list_collections(s)


@given(
    st.lists(
        st.lists(
            st.one_of(
                st.integers(-(2**62), 2**62),
                st.text(max_size=5),
                st.none(),
                st.floats(allow_nan=False, allow_infinity=False),
                st.booleans(),
            ),
            min_size=3,
            max_size=3,
        ),
        min_size=1,
        max_size=60,
    ),
    st.integers(1, 7),
)
@settings(max_examples=150, deadline=None)
def test_rows_are_encoded_the_same_a_slice_at_a_time(rows, size):
    """The local store's parameter encoder takes a statement's rows a slice at a time (to bound its memory):
    the text is the one the whole rows give at once, whatever the slice and the types in its columns."""
    from graphsr.store import _falkor_params as fp

    whole = fp.params_header({"rows": rows})
    saved = fp.SLICE
    try:
        fp.SLICE = size
        assert fp.params_header({"rows": rows}) == whole
    finally:
        fp.SLICE = saved


@given(
    st.lists(
        st.recursive(
            st.tuples(st.sampled_from(["a", "b", "é", "ns:t", "w" * 30]), st.just(""), st.just([])),
            lambda kids: st.tuples(
                st.sampled_from(["a", "sec", "p"]), st.sampled_from(["", "text", "é" * 70]), st.lists(kids, max_size=3)
            ),
            max_leaves=12,
        ),
        min_size=1,
        max_size=4,
    ),
    st.sets(st.sampled_from(["p*", "p*|c", "c", "tag"])),
)
@settings(max_examples=150, deadline=None)
def test_element_rows_as_literal_text_are_those_the_encoder_writes(nested, kinds):
    """A load's element rows and CHILD pairs, written as literal text straight from a document's columns, are
    the text the parameter encoder writes for the same rows as lists."""
    import numpy as np

    from graphsr.core.document import DocumentTree
    from graphsr.store import _falkor_params as fp
    from graphsr.store.collection_writes import _element_literal, _element_rows

    rows, children, literal_rows, literal_children, at = [], [], [], [], 0
    for i, tree in enumerate(nested):
        doc = DocumentTree.from_nested(f"d{i}", tree)
        sids = {k: np.arange(len(doc), dtype=np.int64) * (j + 3) for j, k in enumerate(sorted(kinds))}
        r, parent = _element_rows(doc, 7 + i, sids)
        children += [[at + p, at + c] for c, p in enumerate(parent) if p >= 0]
        text, edges = _element_literal(doc, 7 + i, sids, at)
        literal_rows.append(text)
        if edges:
            literal_children.append(edges)
        rows += r
        at += len(doc)
    as_lists = fp.params_header({"rows": rows, "children": children})
    as_text = fp.params_header(
        {
            "rows": fp.Literal("[" + ",".join(literal_rows) + "]"),
            "children": fp.Literal("[" + ",".join(literal_children) + "]"),
        }
    )
    assert as_text == as_lists
