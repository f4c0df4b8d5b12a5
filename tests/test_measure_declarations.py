"""Every measure's parameters are declared once, and every reader goes by the declaration: a numeric parameter
refuses nan, inf and each side of its declared range in one line; every canonical name parses back to an equal
measure; ``graphsr measures --format json`` prints the declarations and round-trips through the parser."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphsr
from graphsr._ranges import interval
from graphsr.cli.measures_cmd import declarations
from graphsr.errors import MeasureNameError
from graphsr.measures import registry

DECLARED = declarations()


def _base(entry) -> dict:
    """Keyword arguments that make the measure valid: a cut-off where one is required, its bracket parameter."""
    kw = {}
    if entry["cutoff"] == "required" and entry["at"] == "cutoff":
        kw["cutoff"] = 5
    for p in entry["parameters"]:
        if p["bracket"] or (p["at"] and entry["at"] != "cutoff"):
            kw[p["name"]] = 0.5
    return kw


def _outside(rng: str) -> list[float]:
    lo, hi, lo_open, hi_open = interval(rng)
    out = []
    if math.isfinite(lo):
        out.append(lo if lo_open else lo - 1e-9 if lo != 0 else -1e-9)
    if math.isfinite(hi):
        out.append(hi if hi_open else hi + 1e-9)
    return out


NUMERIC = [(e, p) for e in DECLARED for p in e["parameters"] if p["type"] in ("int", "float")]


@pytest.mark.parametrize("entry,param", NUMERIC, ids=[f"{e['name']}.{p['name']}" for e, p in NUMERIC])
def test_a_numeric_parameter_refuses_what_lies_outside_its_range_in_one_line(entry, param):
    cls = registry()[entry["name"]]
    bad = [math.nan, math.inf, -math.inf] + (_outside(param["range"]) if param["range"] else [])
    if param["type"] == "int":
        bad = [v for v in bad if not math.isfinite(v) or float(v).is_integer()] + [1.5]
    for v in bad:
        kw = {**_base(entry), param["name"]: v}
        with pytest.raises(MeasureNameError) as e:
            cls(**kw).validate()
        assert "\n" not in str(e.value) and param["name"] in str(e.value), (v, str(e.value))


def test_every_measure_declares_its_numeric_ranges():
    """A numeric parameter without a range reads any finite number: say which do, so a new one is a decision."""
    unranged = sorted(f"{e['name']}.{p['name']}" for e, p in NUMERIC if not p["range"])
    assert unranged == [], unranged


@st.composite
def valid_measures(draw):
    entry = draw(st.sampled_from(DECLARED))
    cls = registry()[entry["name"]]
    kw = _base(entry)
    if entry["cutoff"] != "none" and entry["at"] == "cutoff" and draw(st.booleans()):
        kw["cutoff"] = draw(st.integers(1, 1000))
    for p in entry["parameters"]:
        if p["type"] not in ("int", "float") or p["bracket"] or p["at"] or not draw(st.booleans()):
            continue
        lo, hi, lo_open, hi_open = interval(p["range"])
        lo, hi = max(lo, -1e6), min(hi, 1e6)
        if p["type"] == "int":
            v = draw(st.integers(math.ceil(lo + lo_open), math.floor(hi - hi_open)))
        else:
            v = draw(st.floats(lo, hi, exclude_min=lo_open, exclude_max=hi_open, allow_nan=False))
        kw[p["name"]] = v
    try:
        return cls(**kw).validate()
    except MeasureNameError:  # a combination a measure refuses as a whole (e.g. a parameter of another task)
        return cls(**_base(entry)).validate()


@settings(max_examples=300, deadline=None)
@given(valid_measures())
def test_every_canonical_name_parses_back_to_an_equal_measure(m):
    again = graphsr.parse_measure(repr(m))
    assert again == m and repr(again) == repr(m) and type(again) is type(m)


def test_the_json_listing_round_trips_every_name_through_the_parser():
    done = subprocess.run(
        [sys.executable, "-m", "graphsr", "measures", "--format", "json"], capture_output=True, text=True, check=True
    )
    listed = json.loads(done.stdout)
    assert [e["name"] for e in listed] == [e["name"] for e in DECLARED] and len(listed) > 50
    for e in listed:
        m = registry()[e["name"]](**_base(e)).validate()
        assert graphsr.parse_measure(repr(m)) == m
        for alias in e["aliases"]:
            assert type(graphsr.parse_measure(repr(m).replace(e["name"], alias, 1))) is type(m), alias


CHOSEN = [(e, p) for e in DECLARED for p in e["parameters"] if p["choices"]]


@pytest.mark.parametrize("entry,param", CHOSEN, ids=[f"{e['name']}.{p['name']}" for e, p in CHOSEN])
def test_a_parameter_with_choices_refuses_another_value_in_one_line(entry, param):
    cls = registry()[entry["name"]]
    for choice in param["choices"]:  # each declared choice is taken (alone, with the task it belongs to)
        cls(**{**_base(entry), param["name"]: choice}).validate()
    with pytest.raises(MeasureNameError) as e:
        cls(**{**_base(entry), param["name"]: "no-such-choice"}).validate()
    assert "\n" not in str(e.value) and f"parameter {param['name']} expects one of" in str(e.value)
