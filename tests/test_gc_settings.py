"""graphsr leaves the caller's garbage-collector settings as they were: thresholds, whether it is enabled, what is
frozen -- after reading, scoring and the ir_measures-style API, whichever settings the caller had."""

from __future__ import annotations

import gc

import pytest

import graphsr
import graphsr.io
from graphsr.data import sample


def _settings():
    return gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()


@pytest.mark.parametrize("threshold, enabled", [((700, 10, 10), True), ((123, 4, 5), False), ((500_000, 20, 20), True)])
def test_the_callers_collector_settings_are_left_as_they_were(threshold, enabled):
    old = _settings()
    try:
        gc.set_threshold(*threshold)
        (gc.enable if enabled else gc.disable)()
        before = _settings()
        s = sample("shakespeare")
        qrels = graphsr.read_element_qrels(s["qrels"])
        runs = [graphsr.read_run(p) for p in s["runs"][:2]]
        graphsr.evaluate(
            qrels, runs, ["SRP@10", "P@10"], graphsr.load_collection(s["collection"], ["p*"]).context("p*:extent")
        )
        graphsr.calc_aggregate(["P@2", "AP"], {"1": {"a": 1, "b": 0}}, {"1": {"a": 2.0, "b": 1.0}})
        graphsr.read_spans(sample("chroma")["qrels"], graphsr.io.document_texts(sample("chroma")["collection"]))
        assert _settings() == before
    finally:
        gc.set_threshold(*old[0])
        (gc.enable if old[1] else gc.disable)()
