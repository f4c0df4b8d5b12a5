"""Summary construction on hand-checked small documents."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from graphsr.errors import ModelSpecError
from graphsr.io import parse_document
from graphsr.summaries import build_summary, partition_kind


def test_pstar_of_the_sr_paper_book(book):
    s = build_summary([book], "p*", keep_extents=True)
    assert s.labels() == ["/bk", "/bk/fm", "/bk/fm/d", "/bk/fm/d/n", "/bk/fm/d/m", "/bk/bd", "/bk/bd/c"]
    # Fig 5 (left): S5 = /bk/fm/d/m has extent {5, 6}
    assert s.extent(4) == [("moby", 5), ("moby", 6)]
    assert s.extent(2) == [("moby", 3), ("moby", 7), ("moby", 10)]
    assert s.extent_size.tolist() == [1, 1, 3, 6, 2, 1, 3]
    # content lengths are sums of element lengths
    assert s.content_length[6] == 200
    assert s.content_length[0] == book.end[0]
    assert s.content_length[3] == sum(
        len(t)
        for t in [
            "Moby Dick",
            "Herman Melville",
            "Plain Label Books",
            "Chapter 1: Looming",
            "Chapter 2: The Carpet-bag",
            "Chapter 3: The Spouter-Inn",
        ]
    )


def test_pstar_edges_count_parent_child_pairs(book):
    s = build_summary([book], "p*")
    edges = {
        (s.label(a), s.label(b)): (int(n), int(ln))
        for a, b, n, ln in zip(s.edge_src, s.edge_dst, s.edge_pairs, s.edge_child_length)
    }
    assert edges[("/bk/fm/d", "/bk/fm/d/n")] == (6, s.content_length[3])
    assert edges[("/bk/bd", "/bk/bd/c")] == (3, 200)
    assert edges[("/bk", "/bk/fm")] == (1, int(book.length[1]))
    # in p*, the extent weight of an edge is the extent size of the child part
    for a, b, npairs in zip(s.edge_src, s.edge_dst, s.edge_pairs):
        assert npairs == s.extent_size[b]
    assert len(edges) == 6


def test_pstar_c_splits_by_child_labels(book):
    s = build_summary([book], "p*|c", keep_extents=True)
    labels = s.labels()
    assert "/bk/fm/d|{m,n}" in labels and "/bk/fm/d|{n}" in labels
    assert s.extent(s.sid("/bk/fm/d|{n}")) == [("moby", 7), ("moby", 10)]
    assert s.extent(s.sid("/bk/bd/c|{}")) == [("moby", 15), ("moby", 16), ("moby", 17)]
    assert len(s) == 8


def test_c_and_tag_merge_paths():
    doc = parse_document(b"<r><s><p/></s><t><s><p/></s><s/></t></r>", "d")
    tag = build_summary([doc], "tag")
    assert tag.labels() == ["r", "s", "p", "t"]
    assert tag.extent_size.tolist() == [1, 3, 2, 1]
    c = build_summary([doc], "c")
    assert c.labels() == ["r|{s,t}", "s|{p}", "p|{}", "t|{s}", "s|{}"]
    pstar = build_summary([doc], "p*")
    assert pstar.labels() == ["/r", "/r/s", "/r/s/p", "/r/t", "/r/t/s", "/r/t/s/p"]


def test_self_loops_in_tag_summary():
    doc = parse_document(b"<s><s><s/></s></s>", "d")
    s = build_summary([doc], "tag")
    assert len(s) == 1
    assert s.edge_src.tolist() == [0] and s.edge_dst.tolist() == [0] and s.edge_pairs.tolist() == [2]


def test_summary_over_several_documents_and_flushes(book):
    docs = [parse_document(f"<a><b>{'x' * i}</b><c/></a>".encode(), str(i)) for i in range(50)]
    from graphsr.summaries import SummaryBuilder

    b = SummaryBuilder("p*", flush_nodes=7)  # force many partial flushes
    for d in docs:
        b.add(d)
    s = b.build()
    ref = build_summary(docs, "p*")
    assert s.extent_size.tolist() == ref.extent_size.tolist() == [50, 50, 50]
    assert s.content_length.tolist() == ref.content_length.tolist() == [sum(range(50))] * 2 + [0]
    assert s.edge_pairs.tolist() == ref.edge_pairs.tolist()
    assert s.num_documents == 50


def test_networkx_graph(book):
    s = build_summary([book], "p*")
    g = s.graph()
    assert isinstance(g, nx.Graph) and g.number_of_nodes() == 7 and g.number_of_edges() == 6
    assert g.nodes[3]["label"] == "/bk/fm/d/n" and g.nodes[3]["extent_size"] == 6
    assert g[2][3]["pairs"] == 6
    assert nx.is_tree(g)
    d = s.graph(directed=True)
    assert d.has_edge(0, 1) and not d.has_edge(1, 0)


def test_assign_maps_other_documents():
    a = parse_document(b"<a><b/><c/></a>", "1")
    s = build_summary([a], "p*|c")
    other = parse_document(b"<a><b/><d/></a>", "2")
    sids = s.assign(other)
    # root has child set {b, d}: unknown; b is known; d unknown
    assert sids.tolist() == [-1, s.sid("/a/b|{}"), -1]
    assert np.array_equal(s.assign(a), np.arange(3))


def test_extent_requires_keep_extents(book):
    with pytest.raises(ValueError, match="keep_extents"):
        build_summary([book], "p*").extent(0)


def test_unknown_kind():
    with pytest.raises(ModelSpecError, match="expected one of p\\*, p\\*\\|c, c, tag"):
        partition_kind("q*")


def test_summary_frame(book):
    df = build_summary([book], "tag").to_frame()
    assert list(df.columns) == ["sid", "label", "extent_size", "content_length"]
    assert df.extent_size.sum() == 17


@pytest.mark.parametrize("kind", ["p*", "p*|c", "c", "tag"])
def test_sids_asked_chunk_by_chunk_are_those_of_a_fresh_look_up(kind):
    """SIDs asked for chunk after chunk, as the store loader asks, with flushes falling inside and between
    chunks (documents keyed by a recent flush take that flush's SIDs, the others are keyed again): each is the
    SID the finished summary assigns."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from graphsr.core.document import DocumentTree
    from graphsr.summaries import SummaryBuilder

    def tree(draw, docid):
        def node(depth):
            kids = [node(depth + 1) for _ in range(draw(st.integers(0, 3 if depth < 3 else 0)))]
            return (draw(st.sampled_from(["a", "b", "sec", "p"])), "x", kids)

        return DocumentTree.from_nested(docid, node(0))

    @settings(max_examples=25, deadline=None)
    @given(st.data(), st.integers(1, 40), st.lists(st.integers(1, 6), min_size=1, max_size=8))
    def check(data, flush, sizes):
        b = SummaryBuilder(kind, flush_nodes=flush)
        asked, n = [], 0
        for size in sizes:
            chunk = [tree(data.draw, f"d{n + k}") for k in range(size)]
            n += size
            for d in chunk:
                b.add(d)
            asked.append((chunk, b.sids(chunk)))
        summary = b.build()
        for chunk, sids in asked:
            for d, s in zip(chunk, sids):
                assert s.tolist() == summary.assign(d).tolist()

    check()
