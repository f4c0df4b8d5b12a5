"""The base class of graphsr's measures: ``ir_measures.Measure`` wherever ir_measures is installed.

ir_measures stays optional.  Where it is installed, :class:`graphsr.measures.base.Measure` derives from
``ir_measures.Measure`` in every process, whatever was imported first (the command line's own process too):
tools that accept only ir_measures' measure objects (PyTerrier's ``pt.Experiment``,
``ir_measures.calc_aggregate``) take graphsr's, and a measure's equality and hash never depend on import order.
Where it is not, the base is ``object``.  Imports nothing until asked.
"""

from __future__ import annotations

__all__ = ["measure_base"]


def measure_base() -> type:
    """The base class of graphsr's measures: ``ir_measures.Measure`` where ir_measures can be imported, else
    ``object``."""
    try:
        from ir_measures.measures.base import Measure
    except ImportError:
        return object
    return Measure
