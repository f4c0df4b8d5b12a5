"""A load's content adds up: a collection loaded whole holds what its two halves hold, loaded one after the
other (each element with its properties, parent and partitions, each document, each partition's extent).  This is
what makes timing the whole against its halves fair (bench/bench_real.py --halves)."""

from __future__ import annotations

import collections
import shutil

import pytest

from graphsr.data import sample
from graphsr.store import open_store, store_collection

KINDS = ["p*", "p*|c", "c", "tag"]
PROPERTY = {"p*": "in_p_star", "p*|c": "in_p_star_c", "c": "in_c", "tag": "in_tag"}


def content(store, name: str) -> tuple[dict, dict, dict, collections.Counter]:
    """Per document: its properties, its elements' rows (pre, tag, depth, offset, length, and each summary
    partition's label) and its CHILD edges; and each partition's extent, by label."""
    c = f"C/{name}"
    labels = {}
    extents: collections.Counter = collections.Counter()
    for kind in KINDS:
        for r in store.read_query(
            "MATCH (s:Summary)-[:HAS_NODE]->(n:SummaryNode) WHERE s.collection = $c AND "
            "s.kind = $k RETURN n.sid AS sid, n.label AS label, n.extent_size AS extent",
            {"c": c, "k": kind},
        ):
            labels[kind, r["sid"]] = r["label"]
            extents[kind, r["label"]] += r["extent"]
    documents = {
        r["docid"]: (r["elements"], r["length"], sorted(r["complete"]))
        for r in store.read_query(
            "MATCH (d:Document) WHERE d.collection = $c RETURN d.docid AS docid, "
            "d.elements AS elements, d.length AS length, d.complete AS complete",
            {"c": c},
        )
    }
    elements: dict = collections.defaultdict(list)
    for r in store.read_query(
        "MATCH (d:Document) WHERE d.collection = $c WITH d, d.code * 4294967296 AS lo "
        "MATCH (e:Element) WHERE e.key > lo AND e.key < lo + 4294967296 RETURN d.docid AS docid, "
        "properties(e) AS p",
        {"c": c},
    ):
        p = r["p"]
        elements[r["docid"]].append(
            (p["pre"], p["tag"], p["depth"], p["offset"], p["length"], *(labels[k, p[PROPERTY[k]]] for k in KINDS))
        )
    edges: dict = collections.defaultdict(list)
    for r in store.read_query(
        "MATCH (d:Document) WHERE d.collection = $c WITH d, d.code * 4294967296 AS lo "
        "MATCH (a:Element)-[:CHILD]->(b:Element) WHERE a.key > lo AND a.key < lo + 4294967296 "
        "RETURN d.docid AS docid, a.pre AS a, b.pre AS b",
        {"c": c},
    ):
        edges[r["docid"]].append((r["a"], r["b"]))
    return documents, {d: sorted(v) for d, v in elements.items()}, {d: sorted(v) for d, v in edges.items()}, extents


@pytest.mark.slow
def test_a_whole_load_holds_what_its_halves_hold(tmp_path):
    files = sorted(sample("shakespeare")["collection"].glob("*.xml"))
    whole, halves = tmp_path / "whole", [tmp_path / "half1", tmp_path / "half2"]
    for k, f in enumerate(files):
        for d in (whole, halves[k % 2]):
            d.mkdir(exist_ok=True)
            shutil.copy(f, d / f.name)
    with open_store(f"local:{tmp_path / 'store'}") as store:
        store_collection(store, whole, "whole", kinds=KINDS, elements="all")
        for i, half in enumerate(halves, start=1):
            store_collection(store, half, f"half{i}", kinds=KINDS, elements="all")
        w = content(store, "whole")
        h = [content(store, f"half{i}") for i in (1, 2)]
    assert len(w[0]) == len(files) and sum(len(v) for v in w[1].values()) == 10330
    for part in range(3):  # documents, elements, edges: the whole's are the union of the halves'
        assert set(h[0][part]).isdisjoint(h[1][part])
        assert w[part] == {**h[0][part], **h[1][part]}
    assert w[3] == h[0][3] + h[1][3]  # each partition's extent is the sum of its extents in the halves
