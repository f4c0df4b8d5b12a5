"""Every registered measure, on every kind of input a user may give it: it scores, or fails with one clear
line (exit 2) -- never a traceback; names round-trip; values stay in their bounds; topics come in order."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.measures import parse_measure, registry

from .conftest import write

FOL_QRELS = Path(__file__).parents[2] / "shared" / "data" / "inex2010" / "inex2010.qrels"
FOL_RUN = FOL_QRELS.parent / "official" / "runs" / "foc11.run.gz"


def _instance(cls):
    kw = {}
    if getattr(cls, "BRACKET", None):
        kw[cls.BRACKET] = 0.5
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
    code, out, errors = _run(capsys, ["eval", str(s["qrels"]), *runs, "--collection", str(s["collection"]),
                                      "-m", measure, "-q", "--nav", "depth4"])
    m = parse_measure(measure)
    if code == 2:  # passage measures of the focused/in-context tasks refuse runs of nested elements
        assert m.FAMILY == "fol" and ("refuses" in errors[0] or "interleave" in errors[0] or "again" in errors[0])
        return
    values = _values(out, measure)
    assert values and "all" in values
    if not getattr(m, "INTEGER", False) and m.NAME not in ("SR", "SRiP2", "SRiR2", "NSRCG", "NSRCG2", "SRPRUM") \
            and not m.NAME.startswith("ESR."):
        assert all(-1e-12 <= v <= 1 + 1e-12 for v in values.values()), values
    topics = [t for line in out.splitlines() for mm, t, _ in [line.split("\t")] if mm == measure and t != "all"]
    assert topics == sorted(topics, key=lambda t: (not t.isdigit(), int(t) if t.isdigit() else 0, t))


@pytest.mark.parametrize("measure", MEASURES)
def test_on_passage_assessments_and_runs(measure, capsys, tmp_path):
    m = parse_measure(measure)
    code, out, errors = _run(capsys, ["eval", str(FOL_QRELS), str(FOL_RUN), "-m", measure])
    if m.FAMILY != "fol":
        assert code == 2 and "not a passage measure" in errors[0]
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
