"""Small numpy helpers shared across layers.

:func:`distinct` is ``numpy.unique`` without its options: numpy 2's ``unique``
asks ``numpy.ma`` whether the array is masked, and importing ``numpy.ma``
costs a short command ~6 ms the first time.
"""

from __future__ import annotations

import numpy as np

__all__ = ["distinct"]


def distinct(a) -> np.ndarray:
    """The sorted distinct values of ``a`` (flattened), as ``numpy.unique(a)`` gives them.

    >>> distinct([3, 1, 3, 2]).tolist()
    [1, 2, 3]
    """
    s = np.sort(np.asarray(a).ravel())
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]
