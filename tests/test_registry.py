"""Every registered measure, on every kind of input a user may give it: it scores, or fails with one clear
line (exit 2) -- never a traceback; names round-trip; values stay in their bounds; topics come in order."""

from __future__ import annotations


import numpy as np
import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.measures import parse_measure, registry

from .conftest import write

FOL_QRELS = sample("inex2010")["qrels"]
FOL_RUN = FOL_QRELS.parent / "runs" / "foc11.run.gz"


def _instance(cls):
    kw = {}
    if getattr(cls, "BRACKET", None):
        kw[cls.BRACKET] = 0.5
    if cls.AT_PARAM != "cutoff":  # IPrec@0.5: the @ sets a recall level
        kw[cls.AT_PARAM] = 0.5
    return cls(cutoff=None if cls.CUTOFF == "none" else 5, **kw)


MEASURES = sorted({str(_instance(cls)) for name, cls in registry().items() if cls.NAME == name})


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    errors = [line for line in err.splitlines() if line.startswith("graphsr: error")]
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(errors) == 1, err
    return code, out, errors


def _values(out: str, measure: str) -> dict[str, float]:
    return {t: float(v) for m, t, v in (line.split("\t") for line in out.splitlines()) if m == measure}


@pytest.mark.parametrize("measure", MEASURES)
def test_names_round_trip(measure):
    m = parse_measure(measure)
    assert str(m) == measure and parse_measure(str(m)) == m


@pytest.mark.parametrize("measure", MEASURES)
def test_on_element_assessments_and_runs(measure, capsys):
    s = sample("mobydick")
    runs = [str(p) for p in s["runs"]]
    code, out, errors = _run(
        capsys,
        ["eval", str(s["qrels"]), *runs, "--collection", str(s["collection"]), "-m", measure, "-q", "--nav", "depth4"],
    )
    m = parse_measure(measure)
    if code == 2 and m.GRADES:  # the sample's assessments are graded values, not INEX (e, s) pairs
        assert "need INEX (e, s) assessments" in errors[0]
        return
    if m.FAMILY == "diversity":  # judgments per subtopic of document runs only
        assert code == 2 and ("element run" in errors[0] or "per subtopic" in errors[0]), errors
        return
    if m.FAMILY == "nq":  # Natural Questions' annotations only (tests/test_nq_measures.py)
        assert code == 2 and "not element assessments" in errors[0], errors
        return
    if code == 2:  # passage measures of the focused/in-context tasks refuse runs of nested elements
        assert m.FAMILY == "fol" and ("refuses" in errors[0] or "interleave" in errors[0] or "again" in errors[0])
        return
    values = _values(out, measure)
    assert values and "all" in values
    if m.BOUNDS is not None:  # (read from the measure's declaration)
        low, high = m.BOUNDS
        assert all(low - 1e-12 <= v <= high + 1e-12 for v in values.values()), values
    topics = [t for line in out.splitlines() for mm, t, _ in [line.split("\t")] if mm == measure and t != "all"]
    assert topics == sorted(topics, key=lambda t: (not t.isdigit(), int(t) if t.isdigit() else 0, t))


@pytest.mark.parametrize("measure", MEASURES)
def test_on_passage_assessments_and_runs(measure, capsys, tmp_path):
    m = parse_measure(measure)
    code, out, errors = _run(capsys, ["eval", str(FOL_QRELS), str(FOL_RUN), "-m", measure])
    if m.FAMILY in ("sr", "esr"):  # SR and ESR score passages as the collection's elements: they need it
        assert code == 2 and "need the collection's documents" in errors[0]
        return
    if m.FAMILY not in ("fol", "span"):
        assert code == 2 and "not passage assessments" in errors[0]
        return
    if code == 2:  # the in-context tasks refuse a focused run whose articles come back
        assert m["task"] in ("ric", "t2i", "bic")
        return
    assert "all" in _values(out, measure)
    # an empty run scores 0 on every judged topic (-c), counts included but the judged ones
    empty = write(tmp_path / "empty.fol", "")
    code, out, _ = _run(capsys, ["eval", str(FOL_QRELS), str(empty), "-m", measure, "-c"])
    assert code == 0
    value = _values(out, measure)["all"]
    assert value == (value if m.NAME in ("num_rel", "rel_size") else 0)


# -- through the API: every measure on every kind of input, as its provider declares --------------------------

KINDS = [(q, r) for q in ("element", "passage") for r in ("element", "passage")]


@pytest.fixture(scope="module")
def inputs():
    """The Shakespeare sample as element and as passage assessments and runs, with every navigation model."""
    from graphsr.evaluation import element_context
    from graphsr.io import read_element_qrels, read_run
    from graphsr.measures.fol.convert import passage_qrels, passage_run
    from graphsr.core.qrels import ElementQrels, QrelsRow

    s = sample("shakespeare")
    qrels = read_element_qrels(s["qrels"])
    runs = [read_run(p, name=p.stem) for p in s["runs"]]
    ctx = element_context(
        qrels.docids().union(*(r.docids() for r in runs)),
        measures=MEASURES,
        collection=s["collection"],
        model="p*:extent",
        nav="depth4",
    )
    fol_qrels = passage_qrels(qrels, ctx.documents)
    graded = ElementQrels.from_rows(
        [
            QrelsRow(t, d, x, 0.0, None, (3, 3) if v >= 1 else (2, 3) if v >= 0.5 else (1, 2) if v > 0 else (0, 0))
            for t, d, x, v in qrels
        ]
    )
    return {
        "qrels": {"element": qrels, "passage": fol_qrels, "element (e, s)": graded},
        "runs": {"element": runs, "passage": [passage_run(r, ctx.documents) for r in runs]},
        "ctx": ctx,
    }


def _empty(kind: str):
    from graphsr.core.fol import FOLRun
    from graphsr.core.run import Run

    return Run("empty", {}) if kind == "element" else FOLRun.from_columns("empty", *[[]] * 7)


@pytest.mark.parametrize("qkind, rkind", KINDS)
@pytest.mark.parametrize("measure", MEASURES)
def test_every_measure_on_every_kind_of_input(measure, qkind, rkind, inputs):
    from graphsr.errors import GraphsrInputError, RunRuleError
    from graphsr.evaluation import evaluate
    from graphsr.measures import provider_of

    m = parse_measure(measure)
    provider = provider_of(m)
    qrels, runs, ctx = inputs["qrels"][qkind], inputs["runs"][rkind], inputs["ctx"]
    if m.GRADES and qkind == "element":  # graded values: one line; scored on the (e, s) version instead
        with pytest.raises(GraphsrInputError, match="need INEX") as err:
            evaluate(qrels, runs, [m], ctx)
        assert "\n" not in str(err.value)
        qrels = inputs["qrels"]["element (e, s)"]
    if m.FAMILY == "diversity":  # document runs against judgments per subtopic only (tests/test_diversity.py)
        with pytest.raises(GraphsrInputError) as err:
            evaluate(qrels, runs, [m], ctx)
        assert "\n" not in str(err.value)
        return
    if qkind not in provider.ASSESSMENTS or rkind not in provider.RUNS:  # one clear line, naming what is wrong
        with pytest.raises(GraphsrInputError) as err:
            evaluate(qrels, runs, [m], ctx)
        assert "\n" not in str(err.value) and f"{qkind} " in str(err.value)
        return
    judged = sorted(qrels.topics, key=int)
    scored = 0
    for run in runs:
        try:
            r = evaluate(qrels, [run], [m], ctx, lenient=True).runs[0]  # lenient: the runs nest elements
        except RunRuleError as exc:  # even lenient, the in-context tasks refuse articles that come back
            assert exc.kind == "interleave" and m["task"] in ("ric", "t2i", "bic"), exc
            continue
        scored += 1
        assert r.topics == [t for t in judged if t in r.topics]  # judged topics, in order
        v = r.values[m]
        assert v.shape == (len(r.topics),) and np.isfinite(v).all()
        if m.BOUNDS is not None:
            lo, hi = m.BOUNDS
            assert ((v >= lo - 1e-12) & (v <= hi + 1e-12)).all(), (r.name, v)
    assert scored
    empty = evaluate(qrels, [_empty(rkind)], [m], ctx, all_topics=True).runs[0]
    assert empty.topics == judged
    if m.EMPTY is not None:
        assert empty.values[m].tolist() == [m.EMPTY] * len(judged)
        assert empty.mean(m) == m.aggregate(empty.values[m])


def test_a_context_lacking_what_a_family_needs_is_one_line(inputs):
    from graphsr.errors import GraphsrInputError
    from graphsr.evaluation import evaluate
    from graphsr.measures import ScoringContext

    qrels, runs = inputs["qrels"]["element"], inputs["runs"]["element"]
    docs = inputs["ctx"].documents
    for measure, context, need in (
        ("SRP@5", ScoringContext(), "documents"),
        ("SRP@5", ScoringContext(docs), "SR navigation model"),
        ("ESRP@5", ScoringContext(docs), "route steps"),
        ("MAiP", ScoringContext(), "documents"),
    ):
        with pytest.raises(GraphsrInputError, match=f"^{measure}: need .*{need}") as err:
            evaluate(qrels, runs, [measure], context)
        assert "\n" not in str(err.value)
