"""The base class of graphsr's measures: ``ir_measures.Measure`` wherever ir_measures is installed.

ir_measures stays optional.  Where it is installed, :class:`graphsr.measures.base.Measure` derives from
``ir_measures.Measure`` in every Python process, whatever was imported first: tools that accept only ir_measures'
measure objects (PyTerrier's ``pt.Experiment``, ``ir_measures.calc_aggregate``) take graphsr's, and a measure's
equality and hash never depend on import order.  Where it is not, the base is ``object``, and so it is in the
command line's own process (:func:`standalone`) unless ir_measures is loaded there already: the command hands no
measure to another tool, and importing ir_measures (its providers, its parser) was a tenth of a small
evaluation's whole time.  Imports nothing until asked.
"""

from __future__ import annotations

__all__ = ["measure_base", "standalone"]

_STANDALONE = False


def standalone() -> None:
    """Measures defined from now on in this process derive from ``object``, unless ir_measures is loaded already
    (the command line calls this first, in its own process only; it has no effect once
    :mod:`graphsr.measures.base` is imported)."""
    import sys

    global _STANDALONE
    _STANDALONE = "ir_measures" not in sys.modules


def measure_base() -> type:
    """The base class of graphsr's measures: ``ir_measures.Measure`` where ir_measures can be imported (and the
    process is not the command line's), else ``object``."""
    if _STANDALONE:
        return object
    try:
        from ir_measures.measures.base import Measure
    except ImportError:
        return object
    return Measure
