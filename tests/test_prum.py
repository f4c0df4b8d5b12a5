"""PRUM: the worked examples of docs/errata.md, Appendix B's reduction, an independent from-scratch computation, the
user model simulated and enumerated, and the measure end to end through `graphsr eval`."""

from __future__ import annotations

import numpy as np
import pytest

from graphsr.cli.main import main
from graphsr.measures import parse_measure
from graphsr.measures.prum import prum_by_recall
from .inex_reference import entry_links
from graphsr.core.document import DocumentTree

from .conftest import write
from .prum_reference import enumerate_exactly, prum_reference, raghavan, simulate

FIG5 = [{0: 0.4, 1: 0.4}, {0: 0.6, 1: 0.4}, {0: 1.0}, {1: 1.0}]  # list (c, d, a, b), ideal a = 0, b = 1


def kernel(links, t, u):
    ptr = np.cumsum([0] + [len(row) for row in links])
    ideal = np.array([x for row in links for x in row], dtype=np.int64)
    prob = np.array([w for row in links for w in row.values()])
    return prum_by_recall(t, ptr, ideal, prob, u)


def random_links(rng, o, t, certain=0.2):
    links = []
    for _ in range(o):
        row = {}
        for x in rng.choice(t, size=rng.integers(0, t + 1), replace=False):
            row[int(x)] = 1.0 if rng.random() < certain else float(rng.choice([0.5, rng.uniform(0.01, 0.99)]))
        links.append(row)
    return links


def test_fig5_web_example():
    assert np.round(kernel(FIG5, 2, 0), 4).tolist() == [0.6914, 0.6356]


def test_example2_best_entry_point():
    assert kernel([{0: 1.0, 1: 1.0}], 2, 99)[1] == pytest.approx(1.0)  # list (a), 100 elements, r = 2


def nested():
    """The PRUM paper's Fig 6: a (60 characters) contains b (40) contains c (10)."""
    return DocumentTree.from_nested("d", ("a", "x" * 20, [("b", "y" * 30, [("c", "z" * 10, [])])]))


@pytest.mark.parametrize("order, expected", [((2, 1, 0), 1.0), ((0, 1, 2), 0.4068)])
def test_example1_structural_navigation(order, expected):
    doc = nested()
    assert doc.length.tolist() == [60, 40, 10]
    entries = [[("d", i)] for i in order]
    ptr, ks, prob = entry_links(entries, [("d", 2)], "structural", {"d": doc})
    assert round(float(prum_by_recall(1, ptr, ks, prob, 6 - 3)[0]), 4) == expected  # 6 elements in all


def test_structural_navigation_is_eq9():
    doc = nested()
    ptr, ks, prob = entry_links([[("d", 0)], [("d", 1)], [("d", 2)]], [("d", 0), ("d", 2)], "structural", {"d": doc})
    rows = [dict(zip(ks[a:b].tolist(), prob[a:b].tolist())) for a, b in zip(ptr[:-1], ptr[1:])]
    assert rows == [
        {0: 1.0, 1: pytest.approx(10 / 60)},
        {0: pytest.approx(40 / 60), 1: pytest.approx(10 / 40)},
        {0: pytest.approx(10 / 60), 1: 1.0},
    ]


def test_no_browsing_is_raghavans_precision():  # PRUM Appendix B, on random cases
    rng = np.random.default_rng(11)
    for _ in range(300):
        o, t = int(rng.integers(0, 12)), int(rng.integers(1, 8))
        hits = rng.choice(o + 1, size=min(t, o), replace=False) if o else np.zeros(0, int)
        is_ideal = [False] * o
        links = [{} for _ in range(o)]
        for k, pos in enumerate(x for x in hits if x < o):
            is_ideal[pos] = True
            links[pos] = {k: 1.0}
        e = sum(is_ideal)
        u = int(rng.integers(t - e, t - e + 30))
        got = kernel(links, t, u)
        for r in range(1, t + 1):
            assert got[r - 1] == pytest.approx(raghavan(is_ideal, t, u, r), abs=1e-12)


def test_equals_the_literal_equations_recomputed_from_scratch():
    rng = np.random.default_rng(5)
    for _ in range(150):
        o, t = int(rng.integers(1, 9)), int(rng.integers(1, 7))
        links = random_links(rng, o, t)
        u = int(rng.integers(t, t + 20))
        assert kernel(links, t, u) == pytest.approx(prum_reference(links, t, u), abs=1e-11)


@pytest.mark.slow
def test_long_rankings_stay_exact():
    rng = np.random.default_rng(9)
    t, o = 40, 400
    links = random_links(rng, o, t, certain=0.05)
    links = [{x: w for x, w in row.items() if rng.random() < 0.15} for row in links]
    assert kernel(links, t, 1000) == pytest.approx(prum_reference(links, t, 1000), abs=1e-10)


def test_fig5_enumeration_and_where_the_formula_departs_from_it():
    # Enumerating every navigation outcome (Hypothesis 2.2 only) gives the paper's Table III: .691 and .646.
    assert round(enumerate_exactly(FIG5, 2, 1), 3) == 0.691 and round(enumerate_exactly(FIG5, 2, 2), 3) == 0.646
    # At r = 1 the formula is that expectation exactly: given F_{i-1} = 0 every ideal element is unseen, and
    # the events "x first seen at rank i" are independent.  At r = 2 Hypothesis 2.3 treats them as independent
    # given F_{i-1} = 1 too, where they are exclusive (only the unseen one can be new): .6356, not .646.
    f = kernel(FIG5, 2, 0)
    assert f[0] == pytest.approx(enumerate_exactly(FIG5, 2, 1), abs=1e-12)
    assert round(float(f[1]), 4) == 0.6356


def test_monte_carlo_of_the_user_model_agrees_where_the_formula_is_exact():
    rng = np.random.default_rng(3)
    for case in range(12):
        o, t = int(rng.integers(1, 6)), int(rng.integers(1, 4))
        links = random_links(rng, o, t, certain=0.1)
        u = int(rng.integers(t, t + 8))
        exact = float(kernel(links, t, u)[0])  # r = 1: exact under Hypothesis 2.2 (see the test above)
        est, se = simulate(links, t, u, 1, 20000, rng)
        assert abs(est - exact) <= 4 * se + 1e-9, (case, est, exact, se)


def test_names_parse_back():
    for text in ("PRUM", "PRUM(r=3,nav=none)", "PRUM(x=0.5,ideal=kazai,quant=sog)", "MAPRUM(nav=model)"):
        m = parse_measure(text)
        assert parse_measure(str(m)) == m
    assert str(parse_measure("PRUM[0.25]")) == str(parse_measure("PRUM(x=0.25)")) == "PRUM[0.25]"  # one bracket rule
    for bad in ("PRUM(r=2,x=0.5)", "PRUM(x=1.5)", "PRUM(nav=fly)", "PRUM(ideal=best)", "PRUM(quant=33:2)"):
        with pytest.raises(Exception):
            parse_measure(bad)


def test_end_to_end_on_example1(tmp_path, capsys):
    """The PRUM paper's Example 1 through `graphsr eval`: a file of 6 elements, c ideal."""
    coll = tmp_path / "coll"
    coll.mkdir()
    write(coll / "d.xml", "<a>" + "x" * 20 + "<b>" + "y" * 30 + "<c>" + "z" * 10 + "</c></b><e>" + "</e><f/><g/></a>")
    qrels = write(tmp_path / "q", "1 Q0 d /a[1]/b[1]/c[1] 1\n")
    good = write(tmp_path / "good.run", "1 Q0 d 1 3 r /a[1]/b[1]/c[1]\n1 Q0 d 2 2 r /a[1]/b[1]\n1 Q0 d 3 1 r /a[1]\n")
    bad = write(tmp_path / "bad.run", "1 Q0 d 1 3 r /a[1]\n1 Q0 d 2 2 r /a[1]/b[1]\n1 Q0 d 3 1 r /a[1]/b[1]/c[1]\n")
    code = main(
        ["eval", str(qrels), str(good), str(bad), "--collection", str(coll), "-m", "PRUM", "-m", "PRUM(nav=none)"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    values = [float(line.split("\t")[2]) for line in out.splitlines() if line.startswith("PRUM")]
    # good: 1, 1; bad: 0.4068 (structural), 1/3 (no browsing)
    assert [round(v, 4) for v in values] == [1.0, 1.0, 0.4068, 0.3333]


def test_ideal_runs_and_bounds_on_random_trees():
    """A run of the ideal elements scores PRUM = 1 at every r without browsing; PRUM and GRP stay in [0, 1]."""
    from graphsr.evaluation import evaluate
    from graphsr.measures import ScoringContext
    from graphsr.core.qrels import ElementQrels, QrelsRow
    from graphsr.core.quantisation import ES_PAIRS
    from graphsr.core.run import Run, TreeResult

    from .test_xcg import random_tree

    rng = np.random.default_rng(21)
    for case in range(25):
        doc = random_tree(rng, int(rng.integers(3, 30)))
        n = len(doc)
        assessed = rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)
        rows = [
            QrelsRow("1", "d", doc.xpath(int(i)), 0.0, None, ES_PAIRS[int(rng.integers(0, len(ES_PAIRS)))])
            for i in assessed
        ]
        qrels = ElementQrels.from_rows(rows)
        ctx = ScoringContext({"d": doc}, num_elements=n + int(rng.integers(0, 50)))
        from graphsr.measures.ideal import recall_base

        grades = {("d", doc.node(r.xpath)): r.grade for r in rows}
        judged = {key: 1.0 for key in grades}
        base = recall_base(judged, grades, {"d": doc}, "sog", "kazai")
        order = np.argsort(-base.q[base.ideal], kind="stable")  # ideal order: decreasing value
        ideal = [int(x) for x in base.node[base.ideal][order]]
        if not ideal:
            continue
        perfect = Run(
            "perfect", {"1": [TreeResult("1", k + 1, "d", (doc.xpath(x),), 0.0) for k, x in enumerate(ideal)]}
        )
        shuffled = Run(
            "random",
            {
                "1": [
                    TreeResult("1", k + 1, "d", (doc.xpath(int(x)),), 0.0)
                    for k, x in enumerate(rng.permutation(n)[: int(rng.integers(1, n + 1))])
                ]
            },
        )
        ms = [
            "MAPRUM(nav=none,ideal=kazai,quant=sog)",
            "PRUM(nav=none,ideal=kazai,quant=sog,x=1)",
            "MAPRUM(ideal=kazai,quant=sog)",
            "PRUM(x=0.5,quant=sog)",
            "GRP(quant=sog)[0.5]",
            "GRP(quant=sog)[1]",
            "nxCG(quant=sog)@3",
        ]
        res = evaluate(qrels, [perfect, shuffled], ms, ctx)
        got = res["perfect"].values
        assert got[res.measures[0]][0] == pytest.approx(1.0) and got[res.measures[1]][0] == pytest.approx(1.0)
        assert got[res.measures[6]][0] == pytest.approx(1.0)
        for r in res:
            for m in res.measures[:6]:
                assert -1e-12 <= r.values[m][0] <= 1 + 1e-12, (case, r.name, m)
