"""In-memory core types: document trees, runs, assessments.

Nothing here reads files or databases; :mod:`graphsr.io` and
:mod:`graphsr.store` build these objects.
"""

from .document import DocumentTree, normalize_xpath
from .run import Run, TreeResult
from .fol import FOLQrels, FOLRun
from .qrels import ElementQrels
from .routes import RouteReport, Routes, RouteStep

__all__ = ["FOLQrels", "FOLRun", "DocumentTree", "normalize_xpath", "Run", "TreeResult", "ElementQrels", "RouteReport", "Routes",
           "RouteStep"]
