"""graphsr: navigation-aware evaluation of structured document retrieval.

The public face is flat; heavy dependencies load lazily.

>>> import graphsr
>>> graphsr.parse_measure("SRP@10")
SRP@10
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import GraphsrError, GraphsrInputError

_LAZY = {
    "DocumentTree": "graphsr.model",
    "Run": "graphsr.model",
    "ElementQrels": "graphsr.model",
    "iter_documents": "graphsr.io",
    "read_run": "graphsr.io",
    "read_element_qrels": "graphsr.io",
    "build_summary": "graphsr.summaries",
    "Summary": "graphsr.summaries",
    "build_sr_model": "graphsr.navigation",
    "NoNavigation": "graphsr.navigation",
    "SteadyStateModel": "graphsr.navigation",
    "parse_model_spec": "graphsr.navigation",
    "parse_measure": "graphsr.measures",
    "SR": "graphsr.measures",
    "SRP": "graphsr.measures",
    "evaluate": "graphsr.evaluation",
    "element_context": "graphsr.evaluation",
    "ScoringContext": "graphsr.measures",
    "read_fol_qrels": "graphsr.io",
    "read_passage_run": "graphsr.io",
    "FOLQrels": "graphsr.model",
    "FOLRun": "graphsr.model",
    "Results": "graphsr.evaluation",
    "calc_aggregate": "graphsr.api",
    "bind": "graphsr.api",
    "iter_calc": "graphsr.api",
    "calc_frame": "graphsr.api",
    "as_qrels": "graphsr.api",
    "as_run": "graphsr.api",
    "Metric": "graphsr.api",
    "sample": "graphsr.data",
    "load_collection": "graphsr.evaluation",
    "LoadedCollection": "graphsr.evaluation",
    "partitions": "graphsr.analysis.partitions",
    "coverage": "graphsr.analysis.partitions",
}

__all__ = ["__version__", "GraphsrError", "GraphsrInputError", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'graphsr' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the lazily loaded ones included (tab completion in notebooks)."""
    return sorted(set(globals()) | set(_LAZY))
