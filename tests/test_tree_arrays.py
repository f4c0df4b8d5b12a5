"""The element families on arrays: PRUM's links computed for every entry of a topic at once give the numbers the
per-entry reference (:func:`entry_links`) gives, for every navigation, on random trees and random tree results;
subtree ends agree with the reference walk."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.core.document import DocumentTree
from graphsr.measures.prum.links import item_links
from graphsr.measures.tree_arrays import NodeArrays, subtree_ends

from .inex_reference import entry_links, subtree_last


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
        got = item_links(
            entry, doc, node, len(entries), ideal_doc, ideal_node, nav, arrays, arrays.values("seen", seen.get), routes
        )
        assert got[0].tolist() == want[0].tolist()
        assert got[1].tolist() == want[1].tolist()
        assert got[2].tolist() == want[2].tolist()  # the same products in the same order: equal, not close


def _random_topic(rng):
    """Random documents, (e, s) assessments, a recall base, and a ranked list of tree results over them (nodes of
    one document per result, results overlapping one another and repeating nodes)."""
    from graphsr.measures.ideal import recall_base
    from .inex_reference import TopicAssessments
    from graphsr.core.quantisation import ES_PAIRS

    docs = {f"d{k}": random_tree(rng, f"d{k}", int(rng.integers(1, 18))) for k in range(int(rng.integers(1, 4)))}
    grades = {}
    for d, doc in docs.items():
        for n in rng.choice(len(doc), int(rng.integers(0, len(doc) + 1)), replace=False):
            grades[(d, int(n))] = ES_PAIRS[int(rng.integers(0, len(ES_PAIRS)))]
    if not grades:
        grades[("d0", 0)] = (3, 3)
    judged = {key: 1.0 for key in grades}
    entries = []
    names = list(docs)
    for _ in range(int(rng.integers(1, 15))):
        d = names[int(rng.integers(len(names)))]
        size = int(rng.integers(1, min(3, len(docs[d])) + 1))
        entries.append([(d, int(n)) for n in np.sort(rng.choice(len(docs[d]), size, replace=False))])
    return docs, grades, judged, entries, recall_base, TopicAssessments


@pytest.mark.parametrize("seed", range(6))
def test_the_xcg_family_on_arrays_gives_the_reference_numbers(seed):
    """GRP, GRPng and the XCG gains computed on a topic's item arrays equal (exactly) the per-entry reference
    kernels' values, on random trees, assessments, tree results and parameters."""
    from graphsr.measures.xcg.arrays import TopicArrays, grp_items, grpng_items, xcg_item_gains
    from .inex_reference import grp, grpng_curve, xcg_gains

    rng = np.random.default_rng(100 + seed)
    for _ in range(40):
        docs, grades, judged, entries, recall_base, TopicAssessments = _random_topic(rng)
        codes = {d: 5 + k for k, d in enumerate(docs)}
        arrays = NodeArrays(docs, {c: d for d, c in codes.items()}, list(codes.values()))
        entry = np.array([j for j, e in enumerate(entries) for _ in e], dtype=np.int64)
        doc = np.array([codes[d] for e in entries for d, _ in e], dtype=np.int64)
        node = np.array([n for e in entries for _, n in e], dtype=np.int64)
        flat = arrays.index(doc, node)
        quant = ["gen", "strict", "sog"][int(rng.integers(3))]
        ideal = ["kazai", "piwowarski", "assessed"][int(rng.integers(3))]
        ta = TopicAssessments(recall_base(judged, grades, docs, quant, ideal), docs, grades)
        tops = TopicArrays(ta.base, codes, arrays)
        for alpha in (1.0, 0.0, 0.5):
            want = xcg_gains(entries, ta, alpha)
            got = xcg_item_gains(entry, flat, doc, len(entries), tops, arrays, alpha)
            assert got.tolist() == want.tolist(), (alpha, entries)
        u = int(rng.integers(0, 50))
        for x in (0.1, 0.3, 1.0):
            assert grp_items(entry, flat, len(entries), tops, x, u) == grp(entries, ta, x, u)
        ta_ng = TopicAssessments(recall_base(judged, grades, docs, None, "assessed"), docs, grades)  # as GRPng's
        tops_ng = TopicArrays(ta_ng.base, codes, arrays)
        for quant_ng in ("gen", "strict"):
            for base in ("leaves", "all"):
                want_r, want_p = grpng_curve(entries, ta_ng, quant_ng, base)
                got_r, got_p = grpng_items(entry, flat, doc, len(entries), tops_ng, arrays, quant_ng, base)
                assert got_r.tolist() == want_r.tolist() and got_p.tolist() == want_p.tolist()


def test_esr_survival_in_c_equals_the_numpy_products():
    """ESR's survival along events: the one-pass C products and numpy's cumulated logarithms agree (to rounding),
    certain steps (q = 1) and assessments without events included."""
    from graphsr.measures.esr import kernel

    if kernel._SURVIVAL is None:
        pytest.skip("the C extension graphsr.measures.esr._survival is not built")
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 30))
        pa = np.sort(rng.integers(0, n, int(rng.integers(0, 80))))
        q = rng.uniform(0, 1, len(pa))
        q[rng.random(len(pa)) < 0.1] = 1.0
        q[rng.random(len(pa)) < 0.1] = 0.0
        c_found, c_hit = kernel.survival(pa, q, n)
        py_found, py_hit = kernel._survival_numpy(pa, q, n)
        assert np.allclose(c_found, py_found, rtol=1e-12, atol=1e-15)
        assert np.allclose(c_hit, py_hit, rtol=1e-12, atol=1e-15)
