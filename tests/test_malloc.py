"""The loader fixes glibc's mmap threshold, so that each large document's parse tree and encoding go back to the
system once written (a heap keeps what it was freed)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from graphsr._malloc import LARGE_BLOCK, return_large_blocks


def test_the_threshold_is_set_where_the_c_library_is_glibc():
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert return_large_blocks() is glibc


@pytest.mark.skipif(
    not (sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"), reason="glibc's malloc"
)
def test_large_blocks_freed_leave_the_process():
    """In a fresh process: a 4 MB block freed raises glibc's default threshold, so 20 more come from the heap, each
    followed by a smaller block kept; freed, they stay resident as holes the heap cannot give back.  With the
    threshold fixed each is mapped on its own and unmapped when freed."""
    code = f"""
import ctypes, sys
from graphsr._malloc import return_large_blocks
if sys.argv[1] == "fixed":
    assert return_large_blocks({LARGE_BLOCK})
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
libc.free(libc.malloc(4 << 20))
big, small = [], []
for k in range(20):
    p = libc.malloc(4 << 20)
    ctypes.memset(p, 1, 4 << 20)  # touched: resident
    big.append(p)
    small.append(libc.malloc(200_000))  # (too large for the bins of small blocks: from the heap top, after p)
for p in big:
    libc.free(p)
print(int(open("/proc/self/statm").read().split()[1]) * 4096 // 2**20)
"""
    resident = {
        mode: int(subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True, check=True).stdout)
        for mode in ("default", "fixed")
    }
    assert resident["fixed"] + 20 < resident["default"], resident
