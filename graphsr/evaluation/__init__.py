"""Scoring runs: one entry (:func:`evaluate`) for every measure family, what it needs (a collection read
once, navigation models), and results in every format.

Names load on first use: scoring passage runs imports neither pandas nor the
collection readers.
"""

from __future__ import annotations

from .._lazy import lazy_namespace

_LAZY = {
    "evaluate": "entry",
    "LoadedCollection": "collection",
    "load_collection": "collection",
    "navigation_for": "collection",
    "element_context": "context",
    "ScoringContext": "context",
    "Results": "results",
    "RunResult": "results",
    "evaluate_files": "files",
    "FileEvaluation": "files",
    "read_assessments": "files",
}

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY)
