"""Quantisation functions and ideal recall-bases: the Kazai-Lalmas paper's Table 1 (trees a-c of its Fig 2) and
topic 163's ideal nodes (Fig 1, §4.1)."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.errors import GraphsrInputError
from graphsr.measures.ideal import ideal_mask, recall_base
from graphsr.core.document import DocumentTree
from graphsr.core.quantisation import quantise, quantise_dimension, register_quantisation


def test_quantisation_functions():
    pairs = [(3, 3), (2, 3), (3, 2), (3, 1), (1, 3), (2, 2), (2, 1), (1, 1), (1, 2), (0, 0)]
    assert quantise(pairs, "strict").tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert quantise(pairs, "gen").tolist() == [1, 0.75, 0.75, 0.75, 0.5, 0.5, 0.5, 0.25, 0.25, 0]
    assert quantise(pairs, "sog").tolist() == [1, 0.9, 0.75, 0.25, 0.75, 0.5, 0.1, 0.1, 0.25, 0]
    assert quantise([(3, 3), (2, 2)], "33:1/22:0.4").tolist() == [1, 0.4]
    register_quantisation("mine", {(3, 3): 0.5})
    assert quantise([(3, 3), (1, 1)], "mine").tolist() == [0.5, 0]
    assert quantise_dimension([3, 2, 1, 0]).tolist() == pytest.approx([1, 2 / 3, 1 / 3, 0])
    for bad in ("33:2", "3:1", "40:1", "nope"):
        with pytest.raises(GraphsrInputError):
            quantise([(3, 3)], bad)


# Fig 2 of the Kazai-Lalmas paper (nodes numbered 1..n in pre-order; SOG values as printed)
TREE_A = ([-1, 0, 1], [(3, 1), (3, 1), (3, 3)])  # a, a/bdy, a/bdy/sec[1]
TREE_B = ([-1, 0, 1, 1, 3], [(3, 1), (3, 2), (2, 3), (1, 1), (1, 2)])  # + sec[2], sec[2]/p[1]
TREE_C = ([-1, 0, 1, 2, 2, 2, 2, 2, 2], [(3, 1), (3, 1), (3, 3), (1, 3), (1, 3), (1, 3), (1, 3), (3, 3), (1, 3)])


@pytest.mark.parametrize(
    "tree, kazai, piwowarski", [(TREE_A, [3], [3]), (TREE_B, [2], [3, 5]), (TREE_C, [3], [4, 5, 6, 7, 8, 9])]
)
def test_table1(tree, kazai, piwowarski):
    parent, grades = tree
    q = quantise(grades, "sog")
    for method, expected in (("kazai", kazai), ("piwowarski", piwowarski)):
        got = np.flatnonzero(ideal_mask(np.array(parent), q, q > 0, method)) + 1
        assert got.tolist() == expected, method


TOPIC_163 = {
    "/article[1]": (3, 1),
    "/article[1]/bdy[1]": (3, 1),
    "/article[1]/bdy[1]/sec[4]": (2, 2),
    "/article[1]/bdy[1]/sec[4]/ip1[2]": (2, 3),
    "/article[1]/bdy[1]/sec[4]/p[1]": (2, 3),
    "/article[1]/bdy[1]/sec[4]/p[2]": (1, 2),
    "/article[1]/bdy[1]/sec[6]": (3, 3),
    "/article[1]/bdy[1]/sec[6]/ip1[2]": (2, 3),
    "/article[1]/bdy[1]/sec[6]/p[1]": (2, 3),
    "/article[1]/bdy[1]/sec[6]/p[2]": (2, 3),
}


def r7022() -> DocumentTree:
    """The part of co/2001/r7022.xml that topic 163 assessed (Fig 1), with unassessed siblings around it."""

    def sec(children):
        return ("sec", "t", children)

    body = [
        sec([]),
        sec([]),
        sec([]),
        sec([("ip1", "x", []), ("ip1", "x", []), ("p", "x", []), ("p", "x", []), ("p", "x", [])]),
        sec([]),
        sec([("ip1", "x", []), ("ip1", "x", []), ("p", "x", []), ("p", "x", [])]),
    ]
    return DocumentTree.from_nested("r7022", ("article", "", [("fm", "f", []), ("bdy", "", body)]))


def test_topic_163():
    doc = r7022()
    judged = {("r7022", doc.node(xp)): 1.0 for xp in TOPIC_163}
    grades = {("r7022", doc.node(xp)): g for xp, g in TOPIC_163.items()}
    names = {v: k for k, v in ((xp, doc.node(xp)) for xp in TOPIC_163)}
    for method, expected in (
        ("kazai", ["sec[6]", "sec[4]"]),
        ("piwowarski", ["sec[6]", "sec[4]/ip1[2]", "sec[4]/p[1]", "sec[4]/p[2]"]),
    ):
        base = recall_base(judged, grades, {"r7022": doc}, "sog", method)
        got = {names[n].replace("/article[1]/bdy[1]/", "") for _, n in base.ideal_elements()}
        assert got == set(expected), method
        assert len(base.near_misses()) == len(TOPIC_163) - len(expected)  # the rest of the full recall-base
    base = recall_base(judged, grades, {"r7022": doc}, "sog", "assessed")
    assert base.q.sum() == pytest.approx(6.75)  # the full recall-base's n under SOG (Kazai-Lalmas Table 4)
    assert base.q[base.ideal].sum() == pytest.approx(6.75)
    kazai = recall_base(judged, grades, {"r7022": doc}, "sog", "kazai")
    assert kazai.q[kazai.ideal].sum() == pytest.approx(1.5)  # the maximal ideal gain


def test_graded_values_refuse_a_quantisation():
    doc = r7022()
    with pytest.raises(GraphsrInputError, match="quant=sog maps INEX"):
        recall_base({("r7022", 0): 1.0}, None, {"r7022": doc}, "sog", "kazai")
