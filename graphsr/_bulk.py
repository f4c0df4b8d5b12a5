"""Fewer garbage-collector passes while graphsr builds many small objects at once.

Reading a run or assessments creates hundreds of thousands of small objects
that live on; with CPython's default thresholds the cyclic collector rescans
the growing heap again and again (about 1 s of 4 for 200 topics x 1000
results).  :func:`bulk` raises the first-generation threshold for the
duration of a block and restores it after (nothing else changes: objects
are still collected, later).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager

__all__ = ["bulk"]

THRESHOLD = (100_000, 50, 100)


@contextmanager
def bulk():
    """Run a block with :data:`THRESHOLD` as the collector's thresholds (restored after)."""
    old = gc.get_threshold()
    gc.set_threshold(*(max(a, b) for a, b in zip(THRESHOLD, old)))
    try:
        yield
    finally:
        gc.set_threshold(*old)
