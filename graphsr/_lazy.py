"""The one way graphsr's packages load names on first use (PEP 562), so a command imports only what it needs.

A package lists its public names and the submodule that defines each; importing the package imports none of
them.  The top-level ``graphsr`` namespace, the layer packages (``graphsr.core``, ``graphsr.io``, ...) and the
measure families (whose providers, the code that builds a family's inputs, load only when a family scores) all
do it this way.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (importing typing's generics costs start-up time; the annotations are strings)
    from typing import Callable, Iterable

__all__ = ["lazy_namespace"]


def lazy_namespace(
    package: str, table: dict[str, str], eager: Iterable[str] = ()
) -> tuple[Callable, Callable, list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package``: ``table`` maps each public name loaded on first use
    to the submodule (relative to ``package``) that defines it; ``eager`` names the public names the package
    defines or imports itself.

    Examples
    --------
    In a package's ``__init__.py``::

        __getattr__, __dir__, __all__ = lazy_namespace(__name__, {"read_run": "runs"})
    """

    def __getattr__(name: str):
        if name in table:
            return getattr(importlib.import_module(f"{package}.{table[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__, [*eager, *table]
