"""Trees rebuilt from their columns in batches (what the store's shapes hold) equal the trees they came from, and
the key hashes of a batch equal those computed document by document."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.core.document import DocumentTree
from graphsr.core.shape_trees import trees_from_columns
from graphsr.store.shapes import ShapeError, decode_columns, encode_shape
from graphsr.summaries._keys import fill_key_hashes, key_hashes

NAMES = ["a", "b", "sec", "p", "é", "x:y", "w" * 30]


def _nested(draw, depth: int, names) -> tuple:
    kids = draw(st.integers(0, 3 if depth < 6 else 0))
    text = draw(st.sampled_from(["", "x", "héllo", "€😀" * 3]))
    return (draw(st.sampled_from(names)), text, [_nested(draw, depth + 1, names) for _ in range(kids)])


@st.composite
def documents(draw):
    docs = []
    for k in range(draw(st.integers(1, 6))):
        names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
        docs.append(DocumentTree.from_nested(f"d{k}", _nested(draw, 1, names)))
    return docs


FIELDS = ("tag", "parent", "depth", "position", "start", "end")


@settings(max_examples=200, deadline=None)
@given(documents())
def test_a_batch_of_shapes_gives_back_its_documents(docs):
    cols = [decode_columns(encode_shape(d), len(d)) for d in docs]
    trees = trees_from_columns(
        [d.docid for d in docs],
        [c.names for c in cols],
        [len(d) for d in docs],
        *(np.concatenate([getattr(c, f) for c in cols]) for f in ("depth", "tag", "start", "end")),
    )
    for doc, tree in zip(docs, trees):
        assert tree.docid == doc.docid and tree.tags == doc.tags
        for name in FIELDS:
            got, want = getattr(tree, name), getattr(doc, name)
            assert np.array_equal(got, want) and got.dtype == want.dtype, name
        assert tree.xpaths() == doc.xpaths()


@settings(max_examples=200, deadline=None)
@given(documents())
def test_the_key_hashes_of_a_batch_are_each_documents(docs):
    for d in docs:
        d.key_hashes = None
    fill_key_hashes(docs)
    for d in docs:
        codes, hashes = key_hashes(d)
        assert np.array_equal(d.key_hashes[0], codes) and np.array_equal(d.key_hashes[1], hashes)


def test_text_outside_the_parents_is_refused():
    depth, tag = np.array([1, 2]), np.array([0, 0])
    with pytest.raises(ValueError, match="outside their parent"):
        trees_from_columns(["d"], [("a",)], [2], depth, tag, np.array([0, 1]), np.array([3, 4]))


def test_a_shape_with_offsets_out_of_order_is_not_written():
    doc = DocumentTree("d", ("a", "b"), [0, 1], [-1, 0], [1, 2], [1, 1], [5, 2], [6, 6])
    with pytest.raises(ShapeError, match="offsets"):
        encode_shape(doc)


@settings(max_examples=200, deadline=None)
@given(documents(), st.data())
def test_paths_walked_find_the_nodes_the_index_finds(docs, data):
    from graphsr.core.document import normalize_xpath

    doc = docs[0]
    xpaths = doc.xpaths()
    asked = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from(xpaths),
                st.sampled_from(xpaths).map(lambda x: x + "/b[1]"),
                st.sampled_from(xpaths).map(lambda x: x.replace("[1]", "[2]", 1)),
                st.just("/zz[1]"),
            ),
            min_size=1,
            max_size=4,
        )
    )
    paths = [normalize_xpath(x) for x in asked]
    walked = [doc._walk(p) for p in paths]
    index = doc.node_index()
    assert walked == [index.get(p, -1) for p in paths]
    assert doc.nodes_at(paths) == walked


def test_a_few_paths_are_walked_and_many_get_the_index():
    from graphsr.core.document import normalize_xpath

    doc = DocumentTree.from_nested("d", ("a", "", [("b", "", [("c", "", [])]) for _ in range(200)]))
    one = normalize_xpath("/a[1]/b[7]/c[1]")
    assert doc.nodes_at([one]) == [14] and doc._index is None  # walked: no index
    for k in range(1, 200):
        assert doc.node(f"/a/b[{k}]/c") == 2 * k  # asked one at a time: the index comes once enough are walked
    assert doc._index is not None


@pytest.mark.parametrize(
    "depth, tag, why",
    [
        ([2, 3], [0, 0], "depths"),  # a first element below the root
        ([1, 3], [0, 0], "depths"),  # a jump down two levels
        ([1, 1], [0, 0], "depths"),  # a second root in one document
        ([1, 2], [0, 2], "tag outside"),  # tag 2 of 2 names
    ],
)
def test_columns_that_are_not_trees_are_refused(depth, tag, why):
    with pytest.raises(ValueError, match=why):
        trees_from_columns(["d"], [("a", "b")], [2], np.array(depth), np.array(tag), np.zeros(2, int), np.ones(2, int))
