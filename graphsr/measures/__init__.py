"""Measures: declarative measure objects, their registry and parser, and one package per family.

Each family (``sr``, ``esr``, ``fol``) declares its measures, the kernel that
computes them from arrays, and a provider that builds the kernel's inputs
(:mod:`graphsr.measures.provider`); :func:`graphsr.evaluation.evaluate`
scores runs with any mix of them.

>>> from graphsr.measures import parse_measure, SRP
>>> parse_measure("SRP@5") == SRP @ 5
True
"""

from __future__ import annotations

from .base import Measure, Param, register, registry
from .parse import parse_measure, parse_measures, parse_requests
from .esr import ESRP, ESRR, NSRCG, NSRCG2, SRPRUM, ESRInputs, SRiP, SRiP2, SRiR, SRiR2, compute_esr_family
from .fol import MAgP, MAiP, compute_fol_family, gP, gR, iP
from .inputs import RankedNodes
from . import interop  # noqa: F401  (graphsr measures inside ir_measures: registers runtime_values)
from .provider import Provider, ScoringContext, provider_of, providers, register_provider
from .sr import SR, SRP, compute_sr_family, sr_components

__all__ = ["Measure", "Param", "parse_measure", "parse_measures", "parse_requests", "register", "registry", "RankedNodes",
           "Provider", "ScoringContext", "provider_of", "providers", "register_provider",
           "SR", "SRP", "sr_components", "compute_sr_family",
           "ESRInputs", "ESRP", "ESRR", "SRiP", "SRiR", "SRiP2", "SRiR2", "NSRCG", "NSRCG2", "SRPRUM",
           "compute_esr_family", "iP", "MAiP", "gP", "gR", "MAgP", "compute_fol_family"]
