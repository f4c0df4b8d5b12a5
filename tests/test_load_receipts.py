"""A load's receipt on the local store: the element nodes counted in the server for a collection whose documents'
codes form one run, per code otherwise, each equal to the keys the store holds; an element missing after the writes
fails the load, naming the count; and a load's first chunks are small (the server starts while the pass reads)."""

from __future__ import annotations

import pytest

from graphsr.data import sample
from graphsr.errors import StoreError
from graphsr.store import open_store, store_collection
from graphsr.store.ids import KEY_SPAN
from graphsr.store.services import count_elements
from graphsr.summaries.parallel import scan_collection


def _codes_held(store) -> dict[int, int]:
    held: dict[int, int] = {}
    for row in store.read_query("MATCH (e:Element) RETURN e.key AS key"):
        code = int(row["key"]) // KEY_SPAN
        held[code] = held.get(code, 0) + 1
    return held


def test_elements_are_counted_by_a_run_of_codes_or_per_code_as_the_store_holds_them(tmp_path):
    plays = sample("shakespeare")["collection"]
    with open_store(f"local:{tmp_path / 's'}") as store:
        store_collection(store, plays, "a", elements="all")
        store_collection(store, plays, "b", elements="all")
        assert not store.index_ready("Element")  # (the path counted here: the key index is built later)
        held = _codes_held(store)
        codes = sorted(held)
        assert len(codes) == 2 * len(list(plays.glob("*.xml"))) and codes == list(range(codes[0], codes[-1] + 1))
        for chosen in (codes, codes[:3], codes[4:], codes[::2], codes[1:2], [codes[-1] + 5], []):
            assert count_elements(store, chosen) == sum(held.get(c, 0) for c in chosen), chosen
        gone = held[codes[1]]
        store.run("drop_document_elements", codes=[codes[1]])  # one document's elements gone
        before, held = sum(held.values()), _codes_held(store)
        assert count_elements(store, codes) == sum(held.values()) == before - gone
        assert codes[1] not in held and count_elements(store, codes[:3]) == held[codes[0]] + held[codes[2]]


def test_a_load_whose_elements_the_store_does_not_hold_fails_naming_the_count(tmp_path, monkeypatch):
    """An element removed between the writes and the receipt: the load fails, the collection left INCOMPLETE."""
    import graphsr.store.load as load

    write_summary = load.store_summary

    def and_remove_one(store, summary, name):
        write_summary(store, summary, name)
        store._execute("MATCH (e:Element) WITH e LIMIT 1 DETACH DELETE e", {})

    monkeypatch.setattr(load, "store_summary", and_remove_one)
    with open_store(f"local:{tmp_path / 's'}") as store:
        with pytest.raises(StoreError, match=r"element nodes: read [\d,]+, the store holds [\d,]+") as failed:
            store_collection(store, sample("shakespeare")["collection"], "a", elements="all")
        assert "INCOMPLETE" in str(failed.value)


def test_a_sequence_of_chunk_sizes_gives_the_first_chunks_then_repeats_its_last(tmp_path):
    plays = sample("shakespeare")["collection"]
    sizes: list[int] = []
    scan_collection(plays, on_chunk=lambda chunk, builders: sizes.append(len(chunk)), chunk_docs=(1, 2, 3))
    n = len(list(plays.glob("*.xml")))
    assert sizes[:3] == [1, 2, 3] and all(s == 3 for s in sizes[3:-1]) and 0 < sizes[-1] <= 3 and sum(sizes) == n
    sizes.clear()
    scan_collection(plays, on_chunk=lambda chunk, builders: sizes.append(len(chunk)), chunk_docs=4)
    assert sizes[:-1] == [4] * (len(sizes) - 1) and sum(sizes) == n
    for wrong in ((), (2, 0), 0):
        with pytest.raises(ValueError, match="chunk_docs"):
            scan_collection(plays, on_chunk=lambda chunk, builders: None, chunk_docs=wrong)
