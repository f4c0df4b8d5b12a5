"""Measures: declarative measure objects, their registry and parser, and one package per family.

Each family (``sr``, ``esr``, ``fol``, ``prum``, ``xcg``, ``flat``, ``span``) declares its measures, the kernel that
computes them from arrays, and a provider that builds the kernel's inputs
(:mod:`graphsr.measures.provider`); :func:`graphsr.evaluation.evaluate`
scores runs with any mix of them.  Names load on first use: importing this
package imports no family.

>>> from graphsr.measures import parse_measure, SRP
>>> parse_measure("SRP@5") == SRP @ 5
True
"""

from __future__ import annotations

from .._lazy import lazy_namespace

from ._index import EXPORTS

__getattr__, __dir__, __all__ = lazy_namespace(
    __name__,
    {
        "Measure": "base",
        "Param": "base",
        "register": "base",
        "registry": "base",
        "parse_measure": "parse",
        "parse_measures": "parse",
        "parse_requests": "parse",
        "RankedNodes": "inputs",
        "Provider": "provider",
        "ScoringContext": "provider",
        "provider_of": "provider",
        "providers": "provider",
        "register_provider": "provider",
        "ESRInputs": "esr.kernel",
        **EXPORTS,  # (each family's public names, read from its declarations by tools/gen_docs.py)
    },
)
