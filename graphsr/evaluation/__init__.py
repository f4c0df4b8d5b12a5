"""Scoring runs: resolve runs and assessments against a collection, compute measures, report.

Names load on first use: scoring passage runs imports neither pandas nor the
collection readers.
"""

from __future__ import annotations

from .._lazy import lazy_namespace

_LAZY = {
    "LoadedCollection": "element_evaluate", "evaluate": "element_evaluate", "load_collection": "element_evaluate",
    "navigation_for": "element_evaluate",
    "evaluate_passages": "fol_evaluate", "evaluate_passage_run": "fol_evaluate", "passage_inputs": "fol_evaluate",
    "Diagnostics": "resolve", "check_qrels": "resolve", "ranked_nodes": "resolve", "topic_sort_key": "resolve",
    "Results": "results", "RunResult": "results", "Evaluation": "results",
    "ElementContext": "context", "element_context": "context", "score": "entry",
}

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY)
