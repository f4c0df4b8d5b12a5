"""Summaries of large collections kept between evaluations (graphsr.summaries.cache): a second read of an unchanged
collection parses only the documents kept and gives the summaries and SR values of a full read; a changed
file, a changed document list or a damaged kept file is summarised again; small collections keep nothing."""

from __future__ import annotations

import os
import shutil
import stat

import numpy as np
import pytest

import graphsr.io.collection as collection
import graphsr.summaries.parallel as parallel
from graphsr.data import sample
from graphsr.evaluation.collection import load_collection
from graphsr.summaries.cache import _ARRAYS

KINDS = ["p*", "p*|c"]


@pytest.fixture()
def plays(tmp_path, monkeypatch):
    """A copy of the Shakespeare plays, every collection kept whatever its size, in a cache of the test's own."""
    monkeypatch.setenv("GRAPHSR_INDEX_FROM", "0")
    monkeypatch.setenv("GRAPHSR_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "plays"
    shutil.copytree(sample("shakespeare")["collection"], path)
    return path


def _same(a, b):
    assert sorted(a) == sorted(b)
    for kind in a:
        x, y = a[kind], b[kind]
        assert len(x) == len(y) and x.num_documents == y.num_documents and x.num_elements == y.num_elements
        for name in _ARRAYS:
            assert np.array_equal(getattr(x, name), getattr(y, name)), (kind, name)
        assert [x.readable_key(s) for s in range(len(x))] == [y.readable_key(s) for s in range(len(y))]


def _no_scan(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the collection was summarised again")

    monkeypatch.setattr(parallel, "scan_collection", refuse)


def test_a_second_read_takes_the_kept_summaries_and_parses_only_the_kept_documents(plays, monkeypatch):
    first = load_collection(plays, KINDS, keep={"hamlet"})
    kept = list((plays.parent / "cache" / "summary").iterdir())
    assert len(kept) == 2
    assert stat.S_IMODE(os.stat(plays.parent / "cache" / "summary").st_mode) == 0o700
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in kept)  # (the user's alone)
    parsed = []
    real_read = collection.read_document
    monkeypatch.setattr(collection, "read_document", lambda s, *a, **k: parsed.append(s.docid) or real_read(s, *a, **k))
    _no_scan(monkeypatch)
    again = load_collection(plays, KINDS, keep={"hamlet"})
    assert parsed == ["hamlet"]
    _same(first.summaries, again.summaries)
    assert again.num_documents == first.num_documents == 10
    assert again.num_elements == first.num_elements
    for kind in KINDS:  # the kept document's nodes take the same summary nodes either way
        assert np.array_equal(first.sids_of(kind, "hamlet"), again.sids_of(kind, "hamlet"))
        nav_a, nav_b = first.navigation(f"{kind}:extent"), again.navigation(f"{kind}:extent")
        assert np.array_equal(nav_a.seen_of("hamlet"), nav_b.seen_of("hamlet"))


@pytest.mark.parametrize("change", ["a document edited", "a document added", "a document removed"])
def test_a_changed_collection_is_summarised_again(plays, monkeypatch, change):
    load_collection(plays, KINDS, keep=set())
    if change == "a document edited":
        doc = plays / "hamlet.xml"
        text = doc.read_text()
        doc.write_text(text.replace("</TITLE>", "</TITLE><NOTE>added</NOTE>", 1))
    elif change == "a document added":
        shutil.copy(plays / "hamlet.xml", plays / "hamlet2.xml")
    else:
        (plays / "hamlet.xml").unlink()
    again = load_collection(plays, KINDS, keep=set())
    monkeypatch.setenv("GRAPHSR_CACHE", str(plays.parent / "other-cache"))
    fresh = load_collection(plays, KINDS, keep=set())  # (read whole, nothing kept before)
    _same(again.summaries, fresh.summaries)
    _no_scan(monkeypatch)
    _same(load_collection(plays, KINDS, keep=set()).summaries, fresh.summaries)  # (and kept in its turn)


def test_a_damaged_kept_summary_is_said_and_summarised_again(plays, capsys):
    first = load_collection(plays, KINDS, keep=set())
    for f in (plays.parent / "cache" / "summary").iterdir():
        f.write_bytes(f.read_bytes()[:100])
    again = load_collection(plays, KINDS, keep=set())
    assert "cannot be read" in capsys.readouterr().err
    _same(first.summaries, again.summaries)


def test_a_small_collection_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("GRAPHSR_INDEX_FROM", raising=False)
    monkeypatch.setenv("GRAPHSR_CACHE", str(tmp_path / "cache"))
    load_collection(sample("shakespeare")["collection"], KINDS, keep=set())  # (about 2 MB: under 8 MB)
    assert not (tmp_path / "cache" / "summary").exists() or not list((tmp_path / "cache" / "summary").iterdir())


def test_sr_from_the_files_is_the_same_with_a_kept_summary(plays, capsys):
    from graphsr.cli.main import main

    s = sample("shakespeare")
    args = ["eval", str(s["qrels"]), *map(str, s["runs"][:2]), "--collection", str(plays), "-m", "SR@10", "-m", "SRP@5"]
    assert main(args) == 0
    before = capsys.readouterr().out
    assert len(list((plays.parent / "cache" / "summary").iterdir())) == 1  # (p*, the model's summary)
    assert main(args) == 0
    assert capsys.readouterr().out == before and "SR@10" in before


def test_a_cache_that_cannot_be_written_is_said_and_the_collection_read_whole(plays, monkeypatch, capsys):
    blocked = plays.parent / "not-a-directory"
    blocked.write_text("a file where the cache would be")
    monkeypatch.setenv("GRAPHSR_CACHE", str(blocked))
    got = load_collection(plays, KINDS, keep=set())
    assert "cannot keep the collection's summary" in capsys.readouterr().err
    monkeypatch.setenv("GRAPHSR_CACHE", str(plays.parent / "cache"))
    _same(got.summaries, load_collection(plays, KINDS, keep=set()).summaries)
