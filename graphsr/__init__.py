"""graphsr: navigation-aware evaluation of structured document retrieval.

The public face is flat; heavy dependencies load lazily.

>>> import graphsr
>>> graphsr.parse_measure("SRP@10")
SRP@10
"""

from __future__ import annotations

from ._version import __version__
from ._lazy import lazy_namespace
from .errors import GraphsrError, GraphsrInputError

_LAZY = {
    "DocumentTree": "core",
    "Run": "core",
    "ElementQrels": "core",
    "iter_documents": "io",
    "read_run": "io",
    "read_element_qrels": "io",
    "build_summary": "summaries",
    "Summary": "summaries",
    "build_sr_model": "navigation",
    "NoNavigation": "navigation",
    "SteadyStateModel": "navigation",
    "parse_model_spec": "navigation",
    "parse_measure": "measures",
    "evaluate": "evaluation",
    "element_context": "evaluation",
    "ScoringContext": "measures",
    "read_fol_qrels": "io",
    "read_spans": "io",
    "read_chunk_run": "io",
    "read_chunk_map": "io",
    "read_chunk_qrels": "io",
    "read_passage_run": "io",
    "FOLQrels": "core",
    "FOLRun": "core",
    "Results": "evaluation",
    "calc_aggregate": "api",
    "bind": "api",
    "iter_calc": "api",
    "calc_frame": "api",
    "calc_ppi": "api",
    "judge_holes": "api",
    "as_qrels": "api",
    "as_run": "api",
    "Metric": "api",
    "sample": "data",
    "load_collection": "evaluation",
    "LoadedCollection": "evaluation",
    "partitions": "analysis.partitions",
    "coverage": "analysis.partitions",
}

from .measures._index import TOP_LEVEL  # noqa: E402 (the measures declared TOP_LEVEL: SR, SRP)

_LAZY.update(dict.fromkeys(TOP_LEVEL, "measures"))

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY, ["__version__", "GraphsrError", "GraphsrInputError"])
