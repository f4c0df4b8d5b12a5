"""The fenced searches of a kept index (graphsr.io.record_index) give what numpy's searchsorted gives on the whole
column, however the blocks the keys fall in are read together (one at a time, or runs of adjacent blocks up to
RUN_BLOCKS), from an array held whole or a column read from disk by pread."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.io import fenced_columns
from graphsr.io.fenced_columns import Column, fence, fenced_find, fenced_search


def _column(values: list[bytes], tmp_path, on_disk: bool):
    a = np.array(sorted(set(values)), dtype="S12") if values else np.zeros(0, dtype="S12")
    if not on_disk:
        return a, a
    path = tmp_path / f"ids{len(a)}.npy"
    np.save(path, a)
    return Column(path), a


_ids = st.lists(st.integers(0, 5000).map(lambda k: f"c{k:05d}".encode()), max_size=1500)


@settings(max_examples=60, deadline=None)
@given(ids=_ids, keys=_ids, run_blocks=st.sampled_from([1, 2, 3, 512]), on_disk=st.booleans())
def test_fenced_search_and_find_equal_searchsorted(tmp_path_factory, ids, keys, run_blocks, on_disk):
    tmp_path = tmp_path_factory.mktemp("col")
    column, whole = _column(ids, tmp_path, on_disk)
    wanted = np.array(keys, dtype="S12") if keys else np.zeros(0, dtype="S12")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fenced_columns, "RUN_BLOCKS", run_blocks)
        fences = fence(whole)
        for side in ("left", "right"):
            got = fenced_search(column, fences, wanted, side)
            want = np.searchsorted(whole, wanted, side=side) if len(whole) else np.zeros(len(wanted), dtype=np.int64)
            assert got.tolist() == want.tolist()
        rows, found = fenced_find(column, fences, wanted)
        held = {v: k for k, v in enumerate(whole.tolist())}
        assert found.tolist() == [k in held for k in wanted.tolist()]
        assert rows[found].tolist() == [held[k] for k in wanted[found].tolist()]
