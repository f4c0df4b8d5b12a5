"""Structural summaries (p*, p*|c, c, tag) built in one streaming pass.  Names load on first use."""

from __future__ import annotations

import importlib

_LAZY = {"KINDS": "kinds", "PartitionKind": "kinds", "partition_kind": "kinds",
         "summarize_collection": "parallel",
         "Summary": "summary", "SummaryBuilder": "summary", "build_summary": "summary"}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
