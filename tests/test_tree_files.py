"""The files under a directory as graphsr.io.tree_files finds them are those ``Path.rglob("*")`` with
``is_file()`` finds: nested and hidden files, links to files, no descent through links to directories, no
broken link, no directory; the paths spelt alike."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from graphsr.io.tree_files import tree_files


def _by_pathlib(root: Path) -> list[str]:
    return sorted(str(f) for f in root.rglob("*") if f.is_file())


def _ours(root: Path) -> list[str]:
    return sorted(e.path for e in tree_files(root))


_NAMES = st.sampled_from(["a.xml", "b.md", ".hidden.html", "c", "d.jsonl", "sub", "x y.txt", "é.htm"])


@settings(max_examples=80, deadline=None)
@given(
    layout=st.lists(st.tuples(st.lists(_NAMES, min_size=1, max_size=3), st.sampled_from(["file", "dir"])), max_size=12),
    links=st.lists(st.tuples(st.sampled_from(["file", "dir", "broken"]), _NAMES), max_size=3),
)
def test_the_files_found_are_those_a_recursive_glob_finds(tmp_path_factory, layout, links):
    root = tmp_path_factory.mktemp("tree")
    for parts, kind in layout:
        path = root.joinpath(*parts)
        try:
            if kind == "dir":
                path.mkdir(parents=True, exist_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("x")
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            continue
    outside = tmp_path_factory.mktemp("outside")
    (outside / "far.xml").write_text("x")
    for k, (kind, name) in enumerate(links):
        target = {"file": outside / "far.xml", "dir": outside, "broken": outside / "none"}[kind]
        try:
            os.symlink(target, root / f"link{k}{name}")
        except FileExistsError:
            continue
    for where in (root, Path(str(root) + "/")):
        assert _ours(where) == _by_pathlib(where)


def test_a_collection_is_listed_once_in_an_evaluation_and_afresh_in_the_next(tmp_path, monkeypatch):
    """Within one evaluation's scope a collection's listing is made once; a document added before the next
    evaluation is listed there (nothing kept past the scope)."""
    from graphsr.io import collection
    from graphsr.io.listings import listings_kept

    (tmp_path / "a.md").write_text("# a\n")
    made = []
    real = collection._sources
    monkeypatch.setattr(collection, "_sources", lambda p: made.append(p) or real(p))
    with listings_kept():
        first = collection.list_collection(tmp_path)
        assert [s.docid for s in collection.list_collection(str(tmp_path) + "/")] == [s.docid for s in first]
    assert len(made) == 1
    (tmp_path / "b.md").write_text("# b\n")
    with listings_kept():
        assert [s.docid for s in collection.list_collection(tmp_path)] == ["a", "b"]
    assert len(made) == 2
    assert [s.docid for s in collection.list_collection(tmp_path)] == ["a", "b"] and len(made) == 3
