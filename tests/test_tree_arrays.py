"""The element families on arrays: PRUM's links computed for every entry of a topic at once give the numbers the
per-entry reference (:func:`entry_links`) gives, for every navigation, on random trees and random tree results;
subtree ends agree with the reference walk."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.measures.prum.links import entry_links, item_links, subtree_last
from graphsr.measures.tree_arrays import NodeArrays, subtree_ends
from graphsr.model.document import DocumentTree


def random_tree(rng, docid, n):
    spec = ("a", "x" * int(rng.integers(0, 20)), [])
    nodes = [spec]
    for _ in range(1, n):
        parent = nodes[int(rng.integers(len(nodes)))]
        node = ("e", "y" * int(rng.integers(0, 30)) if rng.random() < 0.8 else "", [])
        parent[2].append(node)
        nodes.append(node)
    return DocumentTree.from_nested(docid, spec)


def test_subtree_ends_agree_with_the_walk():
    rng = np.random.default_rng(0)
    for _ in range(200):
        doc = random_tree(rng, "d", int(rng.integers(1, 40)))
        assert subtree_ends(doc.depth).tolist() == subtree_last(doc).tolist()


@pytest.mark.parametrize("nav", ["none", "structural", "model", "routes"])
def test_item_links_give_the_entry_links_numbers(nav):
    rng = np.random.default_rng(len(nav))
    for _ in range(80):
        docs = {f"d{k}": random_tree(rng, f"d{k}", int(rng.integers(1, 15))) for k in range(int(rng.integers(1, 4)))}
        names = list(docs)
        codes = {d: k + 3 for k, d in enumerate(names)}  # run codes need not start at 0
        seen = {d: rng.uniform(0, 1, len(docs[d])) * (rng.random() < 0.8) for d in names}
        weights = rng.uniform(0, 1, 64)

        def routes(to_ids, from_ids):  # any deterministic p~(x; e) in [0, 1]
            return weights[(to_ids * 7 + from_ids * 13) % 64]

        def routes_of(docid, e):
            code = np.int64(codes[docid]) << 32
            return lambda xs: routes(code | xs.astype(np.int64), np.full(len(xs), code | e, dtype=np.int64))

        entries = []
        for _ in range(int(rng.integers(1, 12))):
            d = names[int(rng.integers(len(names)))]
            size = int(rng.integers(1, min(3, len(docs[d])) + 1))
            entries.append([(d, int(n)) for n in np.sort(rng.choice(len(docs[d]), size, replace=False))])
        ideal = []
        for d in names:
            for n in rng.choice(len(docs[d]), min(len(docs[d]), int(rng.integers(0, 3))), replace=False):
                ideal.append((d, int(n)))
        ideal.append(("elsewhere", 0))  # an ideal element in a document no entry names
        docs_all = {**docs, "elsewhere": DocumentTree.single("elsewhere")}
        want = entry_links(entries, ideal, nav, docs_all, seen_of=seen.get, routes_of=routes_of)
        entry = np.array([j for j, e in enumerate(entries) for _ in e], dtype=np.int64)
        doc = np.array([codes[d] for e in entries for d, _ in e], dtype=np.int64)
        node = np.array([n for e in entries for _, n in e], dtype=np.int64)
        ideal_doc = np.array([codes.get(d, -1) for d, _ in ideal], dtype=np.int64)
        ideal_node = np.array([n for _, n in ideal], dtype=np.int64)
        arrays = NodeArrays(docs, {c: d for d, c in codes.items()}, list(codes.values()))
        got = item_links(entry, doc, node, len(entries), ideal_doc, ideal_node, nav, arrays,
                         arrays.values("seen", seen.get), routes)
        assert got[0].tolist() == want[0].tolist()
        assert got[1].tolist() == want[1].tolist()
        assert got[2].tolist() == want[2].tolist()  # the same products in the same order: equal, not close
