"""Sorted columns on disk searched through a fence: a saved NumPy array read by ``pread`` (:class:`Column`), only
the rows asked for entering memory, and searches that read of it only the blocks of :data:`FENCE` rows the keys
fall in, found through every :data:`FENCE`-th value held whole (:func:`fence`) -- what a kept index
(:mod:`graphsr.io.record_index`) is looked up with, so that a lookup of *n* ids reads *n* blocks of a few kilobytes
whatever the file's size."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import numpy as np

__all__ = ["FENCE", "RUN_BLOCKS", "Column", "fence", "fenced_search", "fenced_find", "same_width"]


class Column:
    """One saved array of an index read by ``pread``: only the rows asked for enter memory (a memory map would
    bring in the pages around each one, and count them as the process's own)."""

    def __init__(self, path: Path):
        with open(path, "rb") as fh:
            fmt = np.lib.format
            version = fmt.read_magic(fh)
            read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read_header(fh)
            self.offset = fh.tell()
        if fortran or len(shape) != 1 or dtype.hasobject:
            raise ValueError(f"not an index column: {path}")
        self.path, self.dtype, self.length = str(path), dtype, int(shape[0])
        self._fd: int | None = None

    def __len__(self) -> int:
        return self.length

    def _read(self, start: int, stop: int) -> np.ndarray:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        size = self.dtype.itemsize
        data = os.pread(self._fd, (stop - start) * size, self.offset + start * size)
        if len(data) != (stop - start) * size:
            raise OSError(f"{self.path}: cut short")
        return np.frombuffer(data, dtype=self.dtype)

    def block(self, start: int, stop: int) -> np.ndarray:
        """Rows ``[start, stop)`` (clipped to the column)."""
        start, stop = max(0, start), min(self.length, stop)
        return self._read(start, stop) if stop > start else np.zeros(0, dtype=self.dtype)

    def take(self, rows: np.ndarray) -> np.ndarray:
        """The values at ``rows``, each run of consecutive rows read at once."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros(len(rows), dtype=self.dtype)
        if not len(rows):
            return out
        order = np.argsort(rows, kind="stable")
        sorted_rows = rows[order]
        breaks = np.flatnonzero(np.diff(sorted_rows) > 1) + 1
        for a, b in zip(np.r_[0, breaks].tolist(), np.r_[breaks, len(rows)].tolist()):
            lo, hi = int(sorted_rows[a]), int(sorted_rows[b - 1]) + 1
            out[order[a:b]] = self._read(lo, hi)[sorted_rows[a:b] - lo]
        return out

    def __del__(self):
        if self._fd is not None:
            os.close(self._fd)


#: Rows a block of a sorted column holds: a lookup reads one block per key (a page or two), found through the
#: column's fence (its first id of every block), so that its memory follows the keys, not the file.
FENCE = 128


def fence(column: np.ndarray) -> np.ndarray:
    """Every :data:`FENCE`-th value of a sorted column: where each block starts."""
    return np.ascontiguousarray(column[::FENCE])


#: The most blocks read at once: blocks some keys fall in that follow one another are read together, up to this
#: many (a lookup of many keys reads in a few large reads what it would read in many small ones, no more).
RUN_BLOCKS = 512


def _blocks(column: "np.ndarray | Column", fences: np.ndarray, keys: np.ndarray, side: Literal["left", "right"]):
    """``(at, start, piece)`` for each run of adjacent blocks of the column some keys fall in (by
    ``np.searchsorted(fences, keys, side)``; at most :data:`RUN_BLOCKS` a run): the keys' positions, the run's
    first row, and its rows, read once.  A key's place found in the piece is its place in its own block (the
    blocks after it in the piece start above the key)."""
    block = np.searchsorted(fences, keys, side=side) - 1
    by_block = np.argsort(block, kind="stable")
    blocks, first = np.unique(block[by_block], return_index=True)
    ends = np.r_[first[1:], len(keys)].tolist()
    runs: list[list[int]] = []  # [first block, last block, first key, end of keys]
    for b, a, z in zip(blocks.tolist(), first.tolist(), ends):
        if b < 0:
            continue
        if runs and b == runs[-1][1] + 1 and b - runs[-1][0] < RUN_BLOCKS:
            runs[-1][1], runs[-1][3] = b, z
        else:
            runs.append([b, b, a, z])
    for b0, b1, a, z in runs:
        start, stop = b0 * FENCE, (b1 + 1) * FENCE
        piece = column.block(start, stop) if isinstance(column, Column) else column[start:stop]
        yield by_block[a:z], start, piece


def fenced_search(
    column: "np.ndarray | Column", fences: np.ndarray, keys: np.ndarray, side: Literal["left", "right"] = "left"
) -> np.ndarray:
    """What ``np.searchsorted(column, keys, side)`` gives (``keys`` of ``column``'s dtype), reading of the column
    only the block each key falls in."""
    out = np.zeros(len(keys), dtype=np.int64)
    if not len(column) or not len(keys):
        return out
    for at, start, piece in _blocks(column, fences, keys, side):
        out[at] = start + np.searchsorted(piece, keys[at], side=side)
    return out


def fenced_find(column: "np.ndarray | Column", fences: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, found)``: where each key is in a sorted column of distinct values (``keys`` of its dtype) and
    whether it is there, reading of the column only the block each key would be in, once."""
    rows = np.zeros(len(keys), dtype=np.int64)
    found = np.zeros(len(keys), dtype=bool)
    if not len(column) or not len(keys):
        return rows, found
    # (the last block whose first value is at most the key)
    for at, start, piece in _blocks(column, fences, keys, "right"):
        pos = np.searchsorted(piece, keys[at])
        inside = pos < len(piece)
        rows[at] = start + pos
        found[at[inside]] = piece[pos[inside]] == keys[at[inside]]
    return rows, found


def same_width(wanted: np.ndarray, kept: "np.ndarray | Column") -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``wanted`` no longer than ``kept``'s ids, and those ids in ``kept``'s dtype: searched
    as they are (NumPy would otherwise copy the whole kept array to a common width)."""
    width = kept.dtype.itemsize
    fits = np.flatnonzero(np.char.str_len(wanted) <= width) if wanted.dtype.itemsize > width else np.arange(len(wanted))
    return fits, wanted[fits].astype(kept.dtype)
