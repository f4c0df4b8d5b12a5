"""Structural summaries (p*, p*|c, c, tag) built in one streaming pass.  Names load on first use."""

from __future__ import annotations

from .._lazy import lazy_namespace

_LAZY = {
    "KINDS": "kinds",
    "PartitionKind": "kinds",
    "partition_kind": "kinds",
    "summarize_collection": "parallel",
    "scan_collection": "parallel",
    "Summary": "summary",
    "SummaryBuilder": "summary",
    "build_summary": "summary",
}

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY)
