"""Documents' shapes: stored with their elements, they resolve a log's XPaths without reading the elements."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.core.document import DocumentTree
from graphsr.data import sample
from graphsr.io import iter_documents
from graphsr.store import drop_collection, open_store, store_collection, store_steps, study_routes
from graphsr.store.base import StoreError
from graphsr.store.trees import _xpaths
from graphsr.store.shapes import ShapeError, decode_shape, encode_shape

from .conftest import write


def _nested(draw, depth: int, names) -> tuple:
    kids = draw(st.integers(0, 3 if depth < 5 else 0))
    return (draw(st.sampled_from(names)), "", [_nested(draw, depth + 1, names) for _ in range(kids)])


@st.composite
def trees(draw):
    names = draw(
        st.lists(
            st.sampled_from(["a", "b", "sec", "p", "é", "x-y", "ns:t", "w" * 40]), min_size=1, max_size=8, unique=True
        )
    )
    return DocumentTree.from_nested("d", _nested(draw, 1, names))


@settings(max_examples=150, deadline=None)
@given(trees())
def test_a_shape_gives_back_the_depths_tags_and_xpaths(doc):
    depths, tags = decode_shape(encode_shape(doc), len(doc))
    assert depths == doc.depth.tolist() and tags == doc.tag_names()
    assert _xpaths(depths, tags) == doc.xpaths()


@st.composite
def texts(draw):
    names = draw(st.lists(st.sampled_from(["a", "b", "sec", "é", "w" * 40]), min_size=1, max_size=5, unique=True))

    def nested(depth: int) -> tuple:
        kids = draw(st.integers(0, 3 if depth < 4 else 0))
        text = draw(st.sampled_from(["", "x", "some words", "é" * 300]))
        return (draw(st.sampled_from(names)), text, [nested(depth + 1) for _ in range(kids)])

    return DocumentTree.from_nested("d", nested(1))


@settings(max_examples=200, deadline=None)
@given(texts(), st.sampled_from([1, 300, 70_000, 5_000_000_000]))
def test_small_documents_are_encoded_to_the_same_text_without_numpy(doc, scale):
    """The Python-list encoder of small documents writes what the array encoder does, for offsets of every
    width (scaled up to need 2, 4 and 8 bytes)."""
    from graphsr.store.shapes import _encode_arrays, _encode_small

    doc.start, doc.end = doc.start * scale, doc.end * scale
    assert _encode_small(doc) == _encode_arrays(doc)
    doc.end = doc.end.copy()
    if len(doc) > 1 and doc.end[-1] > 0:  # an element ending before it starts is refused by both
        doc.end[-1] = doc.start[-1] - 1
        with pytest.raises(ShapeError):
            _encode_small(doc)
        with pytest.raises(ShapeError):
            _encode_arrays(doc)


def test_wide_and_deep_shapes_take_wider_numbers():
    deep = ("a", "", [])
    for _ in range(300):  # depth 301: two bytes a number
        deep = ("a", "", [deep])
    doc = DocumentTree.from_nested("d", deep)
    assert decode_shape(encode_shape(doc), len(doc))[0] == doc.depth.tolist()
    wide = DocumentTree.from_nested("w", ("r", "", [(f"t{i}", "", []) for i in range(70_000)]))  # 70,001 tags
    assert decode_shape(encode_shape(wide), len(wide))[1] == wide.tag_names()


def test_a_shape_that_does_not_fit_its_document_is_refused():
    import base64
    import zlib

    doc = DocumentTree.from_nested("d", ("a", "", [("b", "", []), ("c", "", [])]))
    text = encode_shape(doc)
    for n in (2, 4):
        with pytest.raises(ShapeError, match=f"do not hold the {n} elements stored"):
            decode_shape(text, n)
    for bad in ("", "x1:abc", "z1:%%%", "z1:" + base64.b64encode(b"not zlib").decode(), None):
        with pytest.raises(ShapeError):
            decode_shape(bad, 3)

    def shaped(names: bytes, depths: bytes, tags: bytes) -> str:
        return "z1:" + base64.b64encode(zlib.compress(names + b"\0\1" + depths + tags)).decode()

    assert decode_shape(shaped(b"a\tb", b"\1\2\2", b"\0\1\1"), 3) == ([1, 2, 2], ["a", "b", "b"])
    for depths, tags in (
        (b"\2\2\2", b"\0\0\0"),
        (b"\1\3\2", b"\0\0\0"),
        (b"\1\2\0", b"\0\0\0"),
        (b"\1\2\2", b"\0\2\0"),
    ):  # a root below 1, a jump down two levels, depth 0, tag 2 of 2
        with pytest.raises(ShapeError, match="not a tree"):
            decode_shape(shaped(b"a\tb", depths, tags), 3)


def _log(tmp_path, docs: dict[str, DocumentTree], n: int, seed: int):
    """A log of ``n`` routes of up to 5 steps between random elements of the documents (some in each)."""
    rng = random.Random(seed)
    lines = ["route_id,step,docid,from,to,duration_ms"]
    want = []
    names = sorted(docs)
    for r in range(n):
        docid = names[r % len(names)]
        xps = docs[docid].xpaths()
        for step in range(1, rng.randint(1, 5) + 1):
            a, b = rng.choice(xps), rng.choice(xps)
            lines.append(f"r{r},{step},{docid},{a},{b},{rng.randint(1, 900)}")
            want.append((f"r{r}", step, docid, a, b))
    return write(tmp_path / f"log{seed}.csv", "\n".join(lines) + "\n"), sorted(want)


def _stored(store, collection, study):
    df = study_routes(store, collection, study)
    return sorted(zip(df.route_id, df.step, df.docid, df.src, df.dst))


def _calls(store):
    """The names of the statements the store runs from now on (the path a resolution took), run as they were."""
    seen = []
    run = store.run

    def counted(query, **params):
        seen.append(query)
        return run(query, **params)

    store.run = counted
    return seen


@pytest.fixture()
def plays(tmp_path):
    s = open_store(f"local:{tmp_path / 's'}", batch_size=500)
    yield s, {d.docid: d for d in iter_documents(sample("shakespeare")["collection"])}
    s.close()


def test_a_log_is_resolved_by_shapes_and_node_ids_that_check(plays, tmp_path):
    from graphsr.io import read_routes

    store, docs = plays
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    log, want = _log(tmp_path, docs, 300, 1)
    seen = _calls(store)
    routes = read_routes(log)
    assert store_steps(store, "plays", "s", routes, routes.source).steps == len(want)
    assert "documents_state_shapes_and_roots" in seen and "elements_at_nodes" in seen
    assert "documents_shapes" not in seen  # no document's elements were read
    assert _stored(store, "plays", "s") == want


def test_node_ids_reused_after_a_drop_are_read_rather_than_taken(plays, tmp_path):
    """After a drop FalkorDB gives its freed ids to new nodes: a document's elements are then not a run of ids from
    its root's, the check finds it, and their ids are read with the elements; the study is the log whatever."""
    from graphsr.io import read_routes

    store, docs = plays
    first = tmp_path / "first"
    first.mkdir()
    for i in range(30):  # a collection of many small documents, dropped: its ids are freed
        write(first / f"d{i}.xml", "<a>" + "<b><c/></b>" * (i % 7 + 1) + "</a>")
    kept = tmp_path / "kept"
    kept.mkdir()
    write(kept / "k.xml", "<k><l/></k>")
    store_collection(store, kept, "kept", kinds=["p*"], elements="all")  # (a store left empty is made afresh)
    store_collection(store, first, "first", kinds=["p*"], elements="all")
    drop_collection(store, "first")
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    log, want = _log(tmp_path, docs, 300, 2)
    seen = _calls(store)
    routes = read_routes(log)
    store_steps(store, "plays", "s", routes, routes.source)
    assert "documents_shapes" in seen  # some ids did not check and were read
    assert _stored(store, "plays", "s") == want


def test_documents_stored_without_a_shape_are_resolved_from_their_elements(plays, tmp_path):
    """A store written by a graphsr before shapes has none: the log is resolved as before, from the elements."""
    from graphsr.io import read_routes

    store, docs = plays
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    store._graph.query("MATCH (d:Document) REMOVE d.shape")
    log, want = _log(tmp_path, docs, 200, 3)
    seen = _calls(store)
    routes = read_routes(log)
    store_steps(store, "plays", "old", routes, routes.source)
    assert "documents_shapes" in seen and "elements_at_nodes" not in seen
    assert _stored(store, "plays", "old") == want


def test_a_damaged_shape_is_an_error_not_a_guess(plays, tmp_path):
    store, docs = plays
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    store._graph.query("MATCH (d:Document) WHERE d.docid = 'hamlet' SET d.shape = 'z1:AAAA'")
    steps = [{"route_id": "r", "step": 1, "docid": "hamlet", "from": "/play[1]", "to": "/play[1]/title[1]"}]
    with pytest.raises(StoreError, match="shape of document 'hamlet' does not read back"):
        store_steps(store, "plays", "s", steps)


def _z1(doc: DocumentTree) -> str:
    """The shape a graphsr before offsets were kept wrote (depths and tags behind one width byte)."""
    import base64
    import zlib

    import numpy as np

    body = np.concatenate([doc.depth, doc.tag]).astype("<u1").tobytes()
    return "z1:" + base64.b64encode(zlib.compress("\t".join(doc.tags).encode() + b"\0\1" + body)).decode()


@pytest.mark.parametrize("older", ["", "z1", "none"])
def test_stored_trees_are_the_parsed_ones_from_shapes_or_older_stores(plays, older):
    """Trees come back from the documents' shapes without reading an element; from a store whose shapes hold no
    offsets (or none at all) they are rebuilt from the elements, equal all the same."""
    import numpy as np

    from graphsr.store.trees import stored_documents, stored_trees

    store, docs = plays
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    for docid, doc in docs.items():
        if older == "z1":
            store._graph.query("MATCH (d:Document) WHERE d.docid = $d SET d.shape = $s", {"d": docid, "s": _z1(doc)})
        elif older == "none":
            store._graph.query("MATCH (d:Document) WHERE d.docid = $d REMOVE d.shape", {"d": docid})
    seen = _calls(store)
    got = stored_trees(store, "plays", [*docs, "no-such-play"])
    assert sorted(got) == sorted(docs)
    assert ("documents_shapes" in seen) == bool(older)
    from graphsr.store.ids import document_id

    ids = [document_id("plays", d) for d in docs]
    by_code = stored_documents(store, [int(r["code"]) for r in store.run("documents_tree_shapes_by_id", ids=ids)])
    assert sorted(t.docid for t in by_code.values()) == sorted(docs)
    for docid, doc in docs.items():
        tree = got[docid]
        assert tree.tags == doc.tags and tree.source == store.url
        for name in ("tag", "parent", "depth", "position", "start", "end"):
            assert np.array_equal(getattr(tree, name), getattr(doc, name)), name


def test_a_damaged_shape_is_refused_when_trees_are_read(plays):
    from graphsr.store.trees import stored_trees

    store, docs = plays
    store_collection(store, sample("shakespeare")["collection"], "plays", kinds=["p*"], elements="all")
    store._graph.query("MATCH (d:Document) WHERE d.docid = 'hamlet' SET d.shape = 'z2:AAAA'")
    with pytest.raises(StoreError, match="shape of document 'hamlet' does not read back"):
        stored_trees(store, "plays", ["hamlet"])


def test_stored_trees_page_by_page_with_mixed_case_ids_and_namespaces(tmp_path, monkeypatch):
    """Many small documents read a few per statement: ids that differ only in case, namespaced and default-namespace
    elements, an entity-made element; every tree comes back equal to the parsed one, none mixed with another."""
    import numpy as np

    from graphsr.store import trees

    coll = tmp_path / "c"
    coll.mkdir()
    bodies = [
        '<a xmlns:s="urn:s"><s:b>x</s:b><b/></a>',
        '<svg xmlns="http://www.w3.org/2000/svg"><g><path/><path/></g></svg>',
        '<!DOCTYPE r [<!ENTITY e "<em>E</em>">]><r><p>&e; and &e;</p></r>',
        "<r><p>one</p><p>two<q/></p></r>",
    ]
    for k, name in enumerate(["Doc", "doc", "DOC", "dOc", "x1", "X1", "y", "Y", "z", "Z", "w"]):
        write(coll / f"{name}.xml", bodies[k % len(bodies)])
    docs = {d.docid: d for d in iter_documents(coll)}
    assert len(docs) == 11
    monkeypatch.setattr(trees, "SHAPES_PER_READ", 3)  # four statements for eleven documents
    with open_store(f"local:{tmp_path / 's'}") as store:
        store_collection(store, coll, "mixed", kinds=["p*"], elements="all")
        seen = _calls(store)
        got = trees.stored_trees(store, "mixed", docs)
        assert seen.count("documents_tree_shapes_by_id") == 4
    assert sorted(got) == sorted(docs)
    for docid, doc in docs.items():
        assert got[docid].tags == doc.tags, docid
        for name in ("tag", "parent", "depth", "position", "start", "end"):
            assert np.array_equal(getattr(got[docid], name), getattr(doc, name)), (docid, name)
