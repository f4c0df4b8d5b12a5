"""The C allocator's handling of large blocks, for commands that parse and encode large documents one after another.

glibc's malloc serves a block above its mmap threshold (128 KB at first) from a mapping of its own, returned to
the system when freed; but each such block freed raises the threshold (up to 32 MB), after which blocks of that
size come from the heap, whose freed space the process keeps.  A load parses a 10 MB score into a tree of tens of
megabytes, encodes its elements, frees them all and goes on: with the threshold raised, the heap keeps the high
water mark of every large document.  Fixing the threshold keeps large blocks mapped and returned (music-svg's
load: 353 MB peak RSS with glibc's default, 297 MB with 512 KB; the same time).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

__all__ = ["return_large_blocks"]

#: mallopt's parameter number for the mmap threshold (glibc's malloc.h: M_MMAP_THRESHOLD).
_M_MMAP_THRESHOLD = -3

#: Blocks at least this large are mapped on their own and returned to the system when freed.
LARGE_BLOCK = 512 * 1024


def return_large_blocks(threshold: int = LARGE_BLOCK) -> bool:
    """Fix glibc's mmap threshold at ``threshold`` bytes for this process (no dynamic rise); whether it was set
    (False where the C library is not glibc, or has no mallopt)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt(_M_MMAP_THRESHOLD, int(threshold)) == 1
