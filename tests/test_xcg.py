"""GRP (inex-2002), GRPng (inex-2003) and XCG on the Kazai-Lalmas paper's topic 163 (its Tables 4-6 and §6.2),
and properties of XCG on random trees."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.evaluation import evaluate
from graphsr.measures import ScoringContext, parse_measure
from graphsr.measures.ideal import recall_base
from .inex_reference import TopicAssessments, grpng_curve, ideal_gain_vector, xcg_gains
from graphsr.core.document import DocumentTree
from graphsr.core.qrels import ElementQrels, QrelsRow
from graphsr.core.run import Run, TreeResult

from .test_ideal import TOPIC_163

B = "/article[1]/bdy[1]/"
FRB = [
    "sec[6]",
    "sec[4]/ip1[2]",
    "sec[4]/p[1]",
    "sec[6]/ip1[2]",
    "sec[6]/p[1]",
    "sec[6]/p[2]",
    "sec[4]",
    "/article[1]",
    "/article[1]/bdy[1]",
    "sec[4]/p[2]",
]  # the full recall-base run, by SOG value (Table 6)


def xp(name: str) -> str:
    return name if name.startswith("/") else B + name


def r7022() -> DocumentTree:
    """co/2001/r7022.xml's shape with the element sizes of Fig 1 (words there, characters here)."""

    def el(tag, size, children=()):
        own = size - sum(_size(c) for c in children)
        return (tag, "x" * own, list(children))

    sec4 = el("sec", 266, [el("ip1", 33), el("ip1", 108), el("p", 38), el("p", 87)])
    sec6 = el("sec", 360, [el("ip1", 22), el("ip1", 125), el("p", 148), el("p", 65)])
    body = el("bdy", 2011, [el("sec", 400), el("sec", 400), el("sec", 400), sec4, el("sec", 185), sec6])
    return DocumentTree.from_nested("r7022", el("article", 2028, [body]))


def _size(node) -> int:
    return len(node[1]) + sum(_size(c) for c in node[2])


DOC = r7022()
QRELS = ElementQrels.from_rows([QrelsRow("163", "r7022", x, 0.0, i, g) for i, (x, g) in enumerate(TOPIC_163.items())])
CTX = ScoringContext({"r7022": DOC}, num_elements=len(DOC))


def run(names: list[str], name: str = "run") -> Run:
    return Run(name, {"163": [TreeResult("163", k + 1, "r7022", (xp(n),), -k) for k, n in enumerate(names)]})


def values(names, measures):
    res = evaluate(QRELS, [run(names)], measures, CTX)
    return [float(res.runs[0].values[m][0]) for m in res.measures]


def test_the_document_has_fig1s_sizes():
    sizes = {n: int(DOC.length[DOC.node(xp(n))]) for n in FRB}
    assert sizes == {
        "sec[6]": 360,
        "sec[4]/ip1[2]": 108,
        "sec[4]/p[1]": 38,
        "sec[6]/ip1[2]": 125,
        "sec[6]/p[1]": 148,
        "sec[6]/p[2]": 65,
        "sec[4]": 266,
        "/article[1]": 2028,
        "/article[1]/bdy[1]": 2011,
        "sec[4]/p[2]": 87,
    }


def test_xcg_ideal_reverse_and_full_recall_base_runs():
    ms = [f"nxCG(quant=sog)@{k}" for k in range(1, 11)]
    assert values(["sec[6]", "sec[4]"], ms[:2]) == [1.0, 1.0]  # the ideal run (Table 4)
    assert values(["sec[4]", "sec[6]"], ms[:2]) == [0.5, 1.0]  # reversed (Table 5)
    assert values(FRB, ms) == pytest.approx([1.0] * 10)  # the full recall-base run, alpha = 1 (Table 6)
    judged = {("r7022", DOC.node(xp(n))): 1.0 for n in TOPIC_163}
    grades = {("r7022", DOC.node(n)): g for n, g in TOPIC_163.items()}
    ta = TopicAssessments(recall_base(judged, grades, {"r7022": DOC}, "sog", "kazai"), {"r7022": DOC}, grades)
    assert ideal_gain_vector(ta).tolist() == [1.0, 1.5]  # the maximal ideal gain
    entries = [[("r7022", DOC.node(xp(n)))] for n in FRB]
    # sec[4]/ip1[2] earns only what sec[4] (0.5) leaves; later results in the ideal subtrees earn nothing
    assert xcg_gains(entries, ta, 1.0).tolist() == pytest.approx([1, 0.5, 0, 0, 0, 0, 0, 0, 0, 0])


def test_grp_on_the_full_recall_base_run():
    cum = np.cumsum([1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.25, 0.25, 0.25])  # n = 6.75
    assert cum[-1] == pytest.approx(6.75)
    ms = [f"GRP(quant=sog)[{float(cum[k - 1]) / 6.75!r}]" for k in (3, 4, 7, 8, 10)]
    got = values(FRB, ms)
    assert [round(v, 3) for v in got] == [0.950, 0.937, 0.9, 0.845, 0.718]  # the paper: .95 .937 .90 .84 .718
    assert round(values(["sec[6]", "sec[4]"], [f"GRP(quant=sog)[{1.5 / 6.75!r}]"])[0], 2) == 0.90


def test_grpng_on_the_full_recall_base_run():
    grades = {("r7022", DOC.node(n)): g for n, g in TOPIC_163.items()}
    judged = {key: 1.0 for key in grades}
    ta = TopicAssessments(recall_base(judged, grades, {"r7022": DOC}, None, "assessed"), {"r7022": DOC}, grades)
    recall, precision = grpng_curve([[("r7022", DOC.node(xp(n)))] for n in FRB], ta)
    # Table 6's i3 column (the paper rounds 2/3 and 1/3 to .67 and .34)
    assert recall[[0, 1, 2, 6, 7]] == pytest.approx(
        [1 / 3.6667, 1.6667 / 3.6667, 2.3333 / 3.6667, 0.72, 0.908], abs=0.005
    )
    assert precision[[0, 1, 2, 6]] == pytest.approx([1, 1, 1, 0.936], abs=0.001)
    assert precision[7] == pytest.approx((586 + 1402 / 3) / 2028)  # .519; printed .524 with q_s(1) = .34


def test_names_parse_back():
    for text in (
        "GRP[0.5]",
        "GRP(quant=strict)[1]",
        "GRPng(base=all)[0.3]",
        "xCG@5",
        "nxCG(quant=sog,alpha=0.5)@10",
        "ep(ideal=piwowarski)[0.2]",
        "MAep(quant=gen)",
    ):
        m = parse_measure(text)
        assert parse_measure(str(m)) == m
    for bad in ("GRP", "GRP[1.5]", "nxCG", "nxCG(alpha=2)@5", "ep(ideal=x)[0.5]", "GRPng(quant=sog)[0.5]"):
        with pytest.raises(Exception):
            parse_measure(bad)


def random_tree(rng, n):
    spec = {0: ("a", "x" * int(rng.integers(0, 20)), [])}
    nodes = [spec[0]]
    for i in range(1, n):
        parent = nodes[int(rng.integers(len(nodes)))]
        node = ("e", "y" * int(rng.integers(0, 30)), [])
        parent[2].append(node)
        nodes.append(node)
    return DocumentTree.from_nested("d", nodes[0])


def test_xcg_properties_on_random_trees():
    rng = np.random.default_rng(4)
    from graphsr.core.quantisation import ES_PAIRS

    for _ in range(60):
        doc = random_tree(rng, int(rng.integers(2, 25)))
        n = len(doc)
        assessed = rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)
        grades = {("d", int(i)): ES_PAIRS[int(rng.integers(1, len(ES_PAIRS)))] for i in assessed}
        judged = {key: 1.0 for key in grades}
        for ideal in ("kazai", "piwowarski"):
            ta = TopicAssessments(recall_base(judged, grades, {"d": doc}, "sog", ideal), {"d": doc}, grades)
            ci = ideal_gain_vector(ta)
            if len(ci) == 0:
                continue
            # a run of the ideal elements in decreasing value: nxCG = 1 at every rank
            order = np.flatnonzero(ta.base.ideal)[np.argsort(-ta.base.q[ta.base.ideal], kind="stable")]
            gains = np.cumsum(xcg_gains([[("d", int(ta.base.node[k]))] for k in order], ta, 1.0))
            assert gains == pytest.approx(ci)
            # any run without overlap (alpha = 1, Kazai's recall-base): nxCG in [0, 1]
            picked = []
            for node in rng.permutation(n):
                if all(not _nested(doc, int(node), p) for p in picked):
                    picked.append(int(node))
            cg = np.cumsum(xcg_gains([[("d", p)] for p in picked], ta, 1.0))
            ideal_at = ci[np.minimum(np.arange(len(cg)), len(ci) - 1)]
            if ideal == "kazai":
                assert ((cg >= -1e-12) & (cg <= ideal_at + 1e-9)).all()


def _nested(doc, a, b) -> bool:
    def up(x, y):
        while x >= 0:
            if x == y:
                return True
            x = int(doc.parent[x])
        return False

    return up(a, b) or up(b, a)
