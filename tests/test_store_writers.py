"""One writer at a time on a local store: two loads at once, or a drop during a load, leave exactly the counts of
one clean load or of a clean drop (real processes, a real server)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from graphsr.data import sample
from graphsr.store import open_store, stop_store


def _graphsr(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "graphsr", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _counts(url: str) -> dict:
    with open_store(url, create=False) as s:
        return {k: v for k, v in s.counts().items() if v}


@pytest.fixture
def store_url(tmp_path):
    url = f"local:{tmp_path / 'store'}"
    done = subprocess.run([sys.executable, "-m", "graphsr", "store", "start", "--store", url], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    yield url
    stop_store(url, wait=30)


@pytest.fixture(scope="module")
def clean_load_counts(tmp_path_factory):
    url = f"local:{tmp_path_factory.mktemp('clean') / 'store'}"
    coll = str(sample("shakespeare")["collection"])
    done = subprocess.run([sys.executable, "-m", "graphsr", "store", "load", coll, "--elements", "all", "--name",
                           "sh", "--store", url], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return _counts(url)


def test_two_loads_at_once_store_everything_once(store_url, clean_load_counts):
    coll = str(sample("shakespeare")["collection"])
    for _ in range(3):
        procs = [_graphsr("store", "load", coll, "--elements", "all", "--name", "sh", "--store", store_url)
                 for _ in range(2)]
        results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
        assert [code for code, _, _ in results] == [0, 0], results
        assert _counts(store_url) == clean_load_counts


def test_a_drop_during_a_load_leaves_a_clean_state(store_url, clean_load_counts):
    coll = str(sample("shakespeare")["collection"])
    for _ in range(3):
        load = _graphsr("store", "load", coll, "--elements", "all", "--name", "sh", "--store", store_url)
        drop = _graphsr("store", "drop", "sh", "--store", store_url)
        codes = [load.wait(timeout=300), drop.wait(timeout=300)]
        outs = [load.communicate(), drop.communicate()]
        assert codes[0] == 0, outs[0]
        got = _counts(store_url)
        assert got in ({}, clean_load_counts), (got, outs)  # dropped after the load, or the load after the drop
        if got:  # leave the store empty for the next round
            assert subprocess.run([sys.executable, "-m", "graphsr", "store", "drop", "sh", "--store", store_url],
                                  capture_output=True).returncode == 0
