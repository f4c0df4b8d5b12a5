"""Sizes of memory as users write them (``8G``, ``512M``, ``50%`` of physical memory), read in one place for every
bound graphsr declares (the store server's limits, one document's reading)."""

from __future__ import annotations

import math
import os
import re

from .errors import GraphsrInputError

__all__ = ["parse_size", "physical_memory"]

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
    "t": 1 << 40,
    "tb": 1 << 40,
}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(%|[kKmMgGtT]?[bB]?)\s*")


def physical_memory() -> int:
    """The machine's physical memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def parse_size(text: str, what: str) -> int:
    """A size in bytes from ``text``: ``8G``, ``512M``, ``1073741824`` or ``50%`` (of physical memory).

    Examples
    --------
    >>> parse_size("2G", "memory"), parse_size("512 MB", "memory"), parse_size("1024", "memory")
    (2147483648, 536870912, 1024)
    >>> parse_size("lots", "memory")
    Traceback (most recent call last):
    graphsr.errors.GraphsrInputError: memory: expected a size such as 8G, 512M or 50% (of physical memory), got 'lots'
    """
    m = _SIZE.fullmatch(str(text))
    if m is None:
        raise GraphsrInputError(f"{what}: expected a size such as 8G, 512M or 50% (of physical memory), got {text!r}")
    number, unit = float(m.group(1)), m.group(2).lower()
    if unit == "%":
        if not 0 < number <= 100:
            raise GraphsrInputError(f"{what}: expected a percentage in (0, 100], got {text!r}")
        return int(physical_memory() * number / 100)
    size = number * _UNITS[unit]
    if not math.isfinite(size) or size >= 1 << 62:
        raise GraphsrInputError(f"{what}: {text!r} is larger than any machine's memory")
    return int(size)
