"""Shared fixtures: tiny collections written to temporary directories."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from graphsr.core import DocumentTree


def memberships(store, kind: str) -> int:
    """How many stored elements hold a membership of summary ``kind`` (a property per kind: see
    graphsr.store.ids)."""
    from graphsr.store.ids import membership_property

    prop = membership_property(kind)  # a fixed name from graphsr's list, never user text
    return int(store.read_query(f"MATCH (e:Element) WHERE e.{prop} IS NOT NULL RETURN count(e) AS n")[0]["n"])


@contextmanager
def small_tmpfs(directory: Path, size: str):
    """A tmpfs of ``size`` (``8m``, ``256k``) mounted at ``directory`` (made) for the block: a real full disk.
    Skips where it cannot be mounted (it needs root; CI runs as root)."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    directory.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], capture_output=True)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True, scope="session")
def _private_default_store(tmp_path_factory):
    """Keep tests away from the user's own default store."""
    import os

    old = os.environ.get("GRAPHSR_STORE")
    os.environ["GRAPHSR_STORE"] = f"local:{tmp_path_factory.mktemp('default-store')}"
    yield
    from graphsr.store.local import LocalServer

    LocalServer(os.environ["GRAPHSR_STORE"][len("local:"):]).stop()
    if old is None:
        del os.environ["GRAPHSR_STORE"]
    else:
        os.environ["GRAPHSR_STORE"] = old


@pytest.fixture
def tiny_collection(tmp_path: Path) -> Path:
    """Two documents whose p* summary and steady state are worked out by hand in test_cli."""
    coll = tmp_path / "coll"
    write(coll / "a.xml", "<a><b>xx</b><b>yyy</b><c>z</c></a>")
    write(coll / "d2.xml", "<x><y>w</y></x>")
    return coll


def n(tag: str, *kids, text: str = "") -> tuple:
    return (tag, text, list(kids))


@pytest.fixture
def book() -> DocumentTree:
    """The book of the SR paper's Fig 2 (tags abbreviated, pre-order ids 1..17)."""
    return DocumentTree.from_nested("moby", n(
        "bk",
        n("fm",
          n("d", n("n", text="Moby Dick"), n("m", text="whale" + "x" * 20), n("m", text="bio" + "y" * 15)),
          n("d", n("n", text="Herman Melville"), n("n", text="Plain Label Books")),
          n("d", n("n", text="Chapter 1: Looming"), n("n", text="Chapter 2: The Carpet-bag"),
            n("n", text="Chapter 3: The Spouter-Inn"))),
        n("bd", n("c", text="w" * 50), n("c", text="c" * 100), n("c", text="z" * 50))))
