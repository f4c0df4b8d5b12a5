"""Whether graphsr's measures are ir_measures measures.

Where ir_measures is installed (it stays optional), :class:`graphsr.measures.base.Measure` derives from
``ir_measures.Measure``: tools that accept only ir_measures' measure objects (PyTerrier's ``pt.Experiment``,
``ir_measures.calc_aggregate``) take graphsr's.  The ``graphsr`` command's own process says no before any
measure is imported (:func:`graphsr.cli.main.main`): it never hands a measure to ir_measures, and importing it
would cost every command ~30 ms of start-up.  Imports nothing itself.
"""

from __future__ import annotations

__all__ = ["IR_MEASURES", "measure_base", "plain_measures"]

#: Derive graphsr's measures from ``ir_measures.Measure`` where ir_measures is installed (read once, when
#: :mod:`graphsr.measures.base` is first imported).
IR_MEASURES = True


def measure_base() -> type:
    """The base class of graphsr's measures: ``ir_measures.Measure``, or ``object``."""
    if IR_MEASURES:
        try:
            from ir_measures.measures.base import Measure
        except ImportError:
            return object
        return Measure
    return object


def plain_measures() -> None:
    """Build graphsr's measures on ``object`` (before :mod:`graphsr.measures.base` is imported: the command line's
    own process)."""
    global IR_MEASURES
    IR_MEASURES = False
