"""Scoring runs: resolve runs and assessments against a collection, compute measures, report.

Names load on first use: scoring passage runs imports neither pandas nor the
collection readers.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "LoadedCollection": "element_evaluate", "evaluate": "element_evaluate", "load_collection": "element_evaluate",
    "navigation_for": "element_evaluate",
    "evaluate_passages": "fol_evaluate", "evaluate_passage_run": "fol_evaluate", "passage_inputs": "fol_evaluate",
    "Diagnostics": "resolve", "check_qrels": "resolve", "ranked_nodes": "resolve", "topic_sort_key": "resolve",
    "Results": "results", "RunResult": "results", "Evaluation": "results",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        module = importlib.import_module(f"{__name__}.{_LAZY[name]}")
        return getattr(module, "Results" if name == "Evaluation" else name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
