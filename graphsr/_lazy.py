"""Package namespaces whose names load on first use (PEP 562), so a command imports only what it needs."""

from __future__ import annotations

import importlib
from typing import Callable

__all__ = ["lazy_namespace"]


def lazy_namespace(package: str, table: dict[str, str]) -> tuple[Callable, Callable, list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package``: ``table`` maps each public name to the submodule
    (relative to ``package``) that defines it."""

    def __getattr__(name: str):
        if name in table:
            return getattr(importlib.import_module(f"{package}.{table[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(table) | {"__doc__", "__name__", "__all__"})

    return __getattr__, __dir__, list(table)
