"""Each flat measure with a vectorised kernel (``FAST``, the fast path ``graphsr eval`` and the API score by)
equals the exact kernel it declares (``exact()``: the ``graphsr trec_eval`` kernel of its trec_eval name, which
trec_eval's own outputs hold), topic by topic, on random runs that reach the edges: ties in score, unjudged and
negative grades, rankings shorter and longer than the relevant set, topics without a relevant document, a grade
level, judged_only.  A flat measure with neither kernel cannot be scored (no silent fallback)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from graphsr.io.frames import as_qrels, as_run
from graphsr.measures import parse_measure
from graphsr.measures.flat.columnar import JudgedDocuments, document_inputs
from graphsr.measures.flat import FLAT_MEASURES, TREC_MORE
from graphsr.measures.flat.exact import trec_kernel
from graphsr.measures.flat.kernels import compute_flat, kernel_of

MEASURES = [
    "P@1",
    "P@5",
    "P@20",
    "R@3",
    "R@10",
    "AP",
    "AP@5",
    "nDCG",
    "nDCG@3",
    "nDCG@10",
    "nDCG(gains={1:2,2:5})",
    "RR",
    "Rprec",
    "Bpref",
    "Success@1",
    "Success@5",
    "IPrec@0.0",
    "IPrec@0.3",
    "IPrec@1.0",
    "NumRet",
    "NumRet(rel=2)",
    "NumRelRet",
    "NumRel",
    "NumQ",
    "P(rel=2)@5",
    "AP(rel=2)",
    "nDCG(judged_only=true)@5",
    "P(judged_only=true)@5",
    "Bpref(rel=2)",
    "RR(judged_only=true)",
]


def _case(rng: random.Random):
    qrels, run = {}, {}
    for t in range(rng.randint(1, 6)):
        docs = [f"d{k}" for k in rng.sample(range(40), rng.randint(1, 25))]
        qrels[str(t)] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in docs}
        retrieved = rng.sample([f"d{k}" for k in range(40)], rng.randint(0, 30))
        run[str(t)] = {d: float(rng.choice([1, 2, 3, rng.randint(-5, 5)])) for d in retrieved}
    return qrels, run


@pytest.mark.parametrize("seed", range(40))
def test_every_fast_path_equals_its_exact_kernel(seed):
    rng = random.Random(seed)
    qrels, run = _case(rng)
    q = as_qrels(qrels)
    r = as_run(run, "run", vocabulary=q)
    judged = JudgedDocuments(q.columns)
    topics = sorted(qrels)
    ranking, _ = document_inputs(r.columns, judged, topics)
    judgments = judged.judgments(topics)
    measures = [parse_measure(m) for m in MEASURES]
    fast = compute_flat(measures, ranking, judgments)
    for m in measures:
        assert m.FAST is not None and m.exact() is not None, m  # (each of these has both)
        exact = trec_kernel(m, ranking, judgments)
        exact = np.where(np.isnan(exact), 0.0, exact)  # (trec_eval's 0 / 0, IPrec of an empty ranking: graphsr 0)
        np.testing.assert_allclose(fast[m], exact, rtol=0, atol=1e-12, err_msg=str(m))


def test_which_flat_measures_have_no_exact_kernel_and_why():
    """The fast paths with no trec_eval kernel are the measures trec_eval lacks, held to their own references
    elsewhere (ir_measures, ranx, gdeval: tests/test_more_flat_measures.py)."""
    no_exact = sorted(
        str(parse_measure(m))
        for m in ("RR@5", "Judged@5", "ERR@5", "DCG@5", "nDCG(dcg=exp-log2)@5", "nDCG(gains={1:2})@5", "NumQ")
        if parse_measure(m).exact() is None
    )
    assert len(no_exact) == 6


def test_every_flat_measure_with_both_kernels_is_held_to_its_exact_one_here():
    """The list above reaches every class declaring a fast path and a trec_eval name (a new one is added to it)."""
    tested = {type(parse_measure(m)) for m in MEASURES}
    both = {cls for cls in FLAT_MEASURES + TREC_MORE if cls.FAST is not None and cls.TREC}
    assert both <= tested, sorted(cls.NAME for cls in both - tested)


def test_a_flat_measure_without_a_kernel_is_refused():
    from graphsr.measures.flat.measures import _Flat

    class _Nothing(_Flat):
        NAME = "Nothing"

    with pytest.raises(TypeError, match="no kernel"):
        kernel_of(_Nothing())
