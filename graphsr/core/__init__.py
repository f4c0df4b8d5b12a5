"""In-memory core types: document trees, runs, assessments, and what kind of input each is
(:mod:`graphsr.core.kinds`).  (Navigation *models* are :mod:`graphsr.navigation`'s.)

Nothing here reads files or databases; :mod:`graphsr.io` and
:mod:`graphsr.store` build these objects.  Names load on first use: a command
scoring passage runs never imports the element run or route types.
"""

from .._lazy import lazy_namespace

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {
        "FOLQrels": "fol",
        "FOLRun": "fol",
        "DocumentTree": "document",
        "normalize_xpath": "document",
        "Run": "run",
        "TreeResult": "run",
        "ElementQrels": "qrels",
        "RouteReport": "routes",
        "Routes": "routes",
        "RouteStep": "routes",
        "AssessmentColumns": "columns",
        "DocumentColumns": "columns",
        "ElementColumns": "columns",
    },
)
