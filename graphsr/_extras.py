"""Optional parts of graphsr: the report's figures, page and Parquet score tables need packages that scoring
and the store do not (matplotlib, jinja2, pyarrow), installed with the ``report`` extra; the linear mixed model
of ``compare --test lmm`` needs statsmodels, installed with the ``stats`` extra."""

from __future__ import annotations

import importlib

from .errors import GraphsrInputError

__all__ = ["MissingExtraError", "need"]

#: The extra that installs each optional package.
EXTRA = {"matplotlib": "report", "jinja2": "report", "pyarrow": "report", "statsmodels": "stats"}


class MissingExtraError(GraphsrInputError):
    """An optional package a command needs is not installed (one line naming the extra to install)."""


def need(module: str, what: str):
    """Import ``module`` (a package of an extra), or say in one line which extra installs it.

    >>> need("json", "reading JSON").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        extra = EXTRA.get(module.split(".")[0], "report")
        raise MissingExtraError(
            f"{what} needs {module.split('.')[0]}, installed with graphsr's {extra} extra: "
            f"pip install 'graphsr[{extra}]'"
        ) from None
