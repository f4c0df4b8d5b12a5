"""The flat measures users asked for, each equal to its reference on random data reaching the edges: ERR@k to
ir_measures' (the TREC Web track's gdeval, which prints 5 decimals), DCG@k and DCG(dcg=exp-log2)@k to ranx's
dcg and dcg_burges, F1@k and F1 to ranx's f1 (recorded: tools/record_ranx.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import graphsr

ir_measures = pytest.importorskip("ir_measures")


def _random(rng, grades=(-1, 5), topics=7, docs=40):
    qrels = {
        str(t): {f"d{i}": int(rng.integers(*grades)) for i in range(docs) if rng.random() < 0.6}
        for t in range(1, topics + 1)
    }
    run = {
        str(t): {f"d{i}": float(rng.integers(0, 6)) for i in range(int(rng.integers(1, docs + 10)))}
        for t in range(1, topics + 1)
    }  # (integer scores: many ties, broken as trec_eval and gdeval do)
    return qrels, run


@pytest.mark.parametrize("seed", range(8))
def test_err_equals_ir_measures_gdeval(seed):
    rng = np.random.default_rng(seed)
    qrels, run = _random(rng)
    for k in (1, 3, 10, 20, 100):
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.ERR @ k], qrels, run)}
        ours = {m.query_id: m.value for m in graphsr.iter_calc([f"ERR@{k}"], qrels, run)}
        assert theirs and {q: float(f"{ours[q]:.5f}") for q in theirs} == theirs


def test_err_refuses_grades_above_gdevals_four():
    with pytest.raises(graphsr.errors.GraphsrInputError, match="grades go up to 4") as e:
        graphsr.calc_aggregate(["ERR@5"], {"1": {"a": 5}}, {"1": {"a": 1.0}})
    assert "\n" not in str(e.value)


DCG_SEEDS = range(6)
DCG_CUTOFFS = (1, 5, 10, 100)
#: ranx's dcg, dcg_burges and f1 on dcg_inputs(seed), recorded by tools/record_ranx.py (ranx compiles itself with
#: numba on first use: 40 to 130 s, which the suite does not spend).
RANX = Path(__file__).parent / "data" / "ranx" / "values.json"
#: The ranx measures recorded, and graphsr's name of each.
RANX_NAMES = {
    **{f"dcg@{k}": f"DCG@{k}" for k in DCG_CUTOFFS},
    **{f"dcg_burges@{k}": f"DCG(dcg=exp-log2)@{k}" for k in DCG_CUTOFFS},
    **{f"f1@{k}": f"F1@{k}" for k in DCG_CUTOFFS},
    "f1": "F1",
}


def dcg_inputs(seed: int):
    """Random graded qrels and runs (6 topics, up to 50 results): what ranx was given for ``seed``."""
    rng = np.random.default_rng(seed)
    qrels = {f"q{t}": {f"d{i}": int(rng.integers(1, 4)) for i in range(40) if rng.random() < 0.4} for t in range(6)}
    qrels = {q: v for q, v in qrels.items() if v}
    run = {q: {f"d{i}": float(rng.random()) for i in range(int(rng.integers(1, 50)))} for q in qrels}
    return qrels, run


@pytest.mark.parametrize("seed", DCG_SEEDS)
def test_dcg_and_f1_equal_ranx(seed):
    qrels, run = dcg_inputs(seed)
    recorded = json.loads(RANX.read_text())["values"]
    for theirs_name, ours_name in RANX_NAMES.items():
        theirs = recorded[f"{seed} {theirs_name}"]
        assert sorted(theirs) == sorted(qrels)
        ours = {m.query_id: m.value for m in graphsr.iter_calc([ours_name], qrels, run)}
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12), ours_name
