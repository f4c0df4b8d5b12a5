"""The measure registry and parser: canonical strings round-trip, errors list what is known."""

from __future__ import annotations

import pytest

from graphsr.errors import MeasureNameError
from graphsr.measures import SR, SRP, parse_measure, parse_measures, registry


@pytest.mark.parametrize(
    "text",
    [
        "SR",
        "SR@5",
        "SRP@10",
        "SRP@1000",
        "ESRP@2",
        "ESRR(rel=length)@5",
        "NSRCG(m=2)@10",
        "NSRCG2(l=0.5,m=2)@10",
        "SRPRUM(r=0.55)",
        "SRiP2@1000",
        "ESR.Hits@1",
        "ESR.RecallBase@3",
    ],
)
def test_round_trip(text):
    m = parse_measure(text)
    assert repr(m) == text
    assert parse_measure(repr(m)) == m
    assert hash(parse_measure(text)) == hash(m)


def test_ir_measures_style_construction():
    assert SRP @ 10 == parse_measure("SRP@10")
    assert repr(SR @ 3) == "SR@3"
    assert parse_measure(" SRP@5 ") == SRP @ 5
    assert {SRP @ 5: 1}[parse_measure("SRP@5")] == 1


def test_unknown_measure_suggests_the_closest_or_lists_known_ones():
    with pytest.raises(MeasureNameError, match=r"unknown measure 'SPR'; did you mean SRP@5, SR@5"):
        parse_measure("SPR@5")
    with pytest.raises(MeasureNameError, match=r"unknown measure 'Prec'; did you mean Rprec, IPrec"):
        parse_measure("Prec@5")  # measures that take no @5 are suggested without it
    with pytest.raises(MeasureNameError, match="unknown measure 'Zzzz'; known measures: .*SR, SRiP"):
        parse_measure("Zzzz@5")


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("SRP", "needs a rank cut-off"),
        ("SRP@0", "positive integer cut-off"),
        ("SRP@x", "integer cut-off"),
        ("SR(beta=1)@5", "unknown parameter"),
        ("SR(beta)@5", "name=value"),
        ("5@SR", "cannot parse"),
    ],
)
def test_bad_measure_strings(text, pattern):
    with pytest.raises(MeasureNameError, match=pattern):
        parse_measure(text)


def test_parse_measures_keeps_order_and_drops_repeats():
    assert [repr(m) for m in parse_measures(["SRP@10", "SR", "SRP@10"])] == ["SRP@10", "SR"]


def test_every_registered_measure_round_trips():
    for name, cls in registry().items():
        m = cls(
            cutoff=None if cls.CUTOFF == "none" else 7,
            **({cls.BRACKET: 0.5} if getattr(cls, "BRACKET", None) else {}),
            **({cls.AT_PARAM: 0.5} if cls.AT_PARAM != "cutoff" else {}),
        )
        assert parse_measure(repr(m)) == m
        assert cls.DESCRIPTION


def test_measures_command_lists_parseable_names(capsys):
    from graphsr.cli.main import main

    assert main(["measures"]) == 0
    out = capsys.readouterr().out
    for name, cls in registry().items():
        assert f"  {name}" in out or f"also named: {name}" in out
    assert "iP[x]" in out and "rel=length" in out and "task=ric, beta=0.25, irr=300, n=500, beyond=last" in out
    assert "tasks: focused, thorough, ric, t2i, bic" in out and "also named: AgP" in out
    assert main(["measures", "--family", "fol"]) == 0
    assert "SRP" not in capsys.readouterr().out


def test_every_measure_listed_as_json_has_an_example_that_parses_back(capsys):
    """``graphsr measures --format json``: each entry's ``example`` is a canonical string that parses back to a
    measure of that entry (its name or an alias), whatever the measure needs written (GRPng[0.50], budgetP@10)."""
    import json

    from graphsr.cli.main import main
    from graphsr.measures import parse_measure

    assert main(["measures", "--format", "json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert len(entries) > 50
    for e in entries:
        m = parse_measure(e["example"])
        assert str(m) == e["example"] and m.NAME in [e["name"], *e["aliases"]], e["example"]


def test_names_two_measures_answer_to_are_resolved_by_the_kind_of_assessments(tmp_path):
    """num_ret, num_rel, num_rel_ret: the official INEX tool's article counts (canonical names of their own) on
    passage assessments, trec_eval's counts (NumRet, NumRel, NumRelRet) on TREC document qrels; read from the
    two declarations, and found in results under the name asked for."""
    import graphsr
    from graphsr.evaluation.entry import shared_spellings
    from graphsr.measures import parse_measure

    assert shared_spellings() == {"num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet"}
    res = graphsr.evaluate({"1": {"a": 1, "b": 1}}, {"1": {"a": 2.0, "c": 1.0}}, ["num_ret", "num_rel_ret", "num_rel"])
    assert [label for label, _ in res.labels] == ["num_ret", "num_rel_ret", "num_rel"]
    assert [str(m) for _, m in res.labels] == ["NumRet", "NumRelRet", "NumRel"]
    assert [res.runs[0].mean(m) for _, m in res.labels] == [2, 1, 2]
    assert parse_measure("num_ret").FAMILY == "fol" and str(parse_measure("num_ret")) == "num_ret"
    assert str(parse_measure("NumRet")) == "NumRet"
