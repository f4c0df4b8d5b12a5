"""What an evaluation reads of chunk maps and corpora: only what its runs and assessments touch, through indexes
kept while the files are unchanged, with the same values as reading everything (MS MARCO v2.1-shaped shards from
bench/msmarco_shards.py, the generator of the scale bench)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("msmarco_shards", ROOT / "bench" / "msmarco_shards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("msmarco")
    _generator().generate(out, segments=3000, shards=3, topics=6, depth=40, seed=3)
    return out


def _values(out: str) -> dict:
    return {tuple(line.split("\t")[:-1]): line.split("\t")[-1] for line in out.splitlines()}


MEASURES = ("-m", "iP[0.01]", "-m", "MAiP", "-m", "ChromaIoU", "-m", "ChromaR@10", "-m", "unjudged_chars")


def _eval(capsys, shards: Path, monkeypatch, threshold: str, *extra, chunks=None) -> tuple[int, str, str]:
    """``graphsr eval`` of the two runs by character, the chunk map the segment shards (or ``chunks``)."""
    monkeypatch.setenv("GRAPHSR_INDEX_FROM", threshold)
    return run_cli(
        capsys,
        "eval",
        shards / "qrels.txt",
        shards / "run_a.trec",
        shards / "run_b.trec",
        "--chunks",
        chunks or shards / "msmarco_v2.1_doc_segmented",
        "--task",
        "thorough",
        *MEASURES,
        *extra,
    )


def test_generated_ids_carry_their_shard_and_the_byte_offset_of_their_line(shards):
    for kind, field in (("msmarco_v2.1_doc_segmented", "segment"), ("msmarco_v2.1_doc", "body")):
        for path in sorted((shards / kind).iterdir()):
            data = gzip.decompress(path.read_bytes())
            for line in data.splitlines()[:50]:
                r = json.loads(line)
                docid = r["docid"]
                offset = int(docid.rsplit("_", 1)[1])
                assert data[offset:].split(b"\n", 1)[0] == line, docid
                assert path.name.split("_")[-1].split(".")[0] == docid.split("_")[3]
                if field == "segment":
                    body = _body_of(shards, docid.split("#")[0])
                    assert body[r["start_char"] : r["end_char"]] == r["segment"]


def _body_of(shards: Path, docid: str) -> str:
    shard = docid.split("_")[3]
    data = gzip.decompress((shards / "msmarco_v2.1_doc" / f"msmarco_v2.1_doc_{shard}.json.gz").read_bytes())
    offset = int(docid.rsplit("_", 1)[1])
    return json.loads(data[offset:].split(b"\n", 1)[0])["body"]


def test_indexed_shards_score_as_the_whole_map_read(shards, capsys, monkeypatch, tmp_path):
    code, whole, err = _eval(capsys, shards, monkeypatch, "100G")
    assert code == 0, err
    code, indexed, err = _eval(capsys, shards, monkeypatch, "0")
    assert code == 0, err
    assert _values(indexed) == _values(whole)
    kept = list((Path(os.environ["GRAPHSR_CACHE"]) / "index").iterdir())
    assert sum(p.name.endswith(".chunks") for p in kept) >= 3
    code, again, err = _eval(capsys, shards, monkeypatch, "0")  # (through the indexes kept)
    assert code == 0 and again == indexed
    # one flat map of the same chunks, as graphsr writes one: the same values again
    from graphsr.io.chunks import read_chunk_map, write_chunk_map

    flat = tmp_path / "map.jsonl"
    write_chunk_map(read_chunk_map(shards / "msmarco_v2.1_doc_segmented"), flat)
    code, out, err = _eval(capsys, shards, monkeypatch, "100G", chunks=flat)
    assert code == 0 and _values(out) == _values(whole)


def test_the_documents_give_lengths_and_are_read_only_where_touched(shards, capsys, monkeypatch):
    code, without, _ = _eval(capsys, shards, monkeypatch, "0")
    code, out, err = _eval(capsys, shards, monkeypatch, "0", "--collection", shards / "msmarco_v2.1_doc")
    assert code == 0, err
    assert _values(out) == _values(without)  # (the lengths check; thorough measures read no length)
    assert "not checked" not in err
    # a segment past its document's end is refused by the lengths the index keeps
    from graphsr.io.corpus_source import CorpusSource, corpus_files

    files = corpus_files(shards / "msmarco_v2.1_doc")
    first = json.loads(gzip.decompress(Path(files[0]).read_bytes()).split(b"\n", 1)[0])
    monkeypatch.setenv("GRAPHSR_INDEX_FROM", "0")
    source = CorpusSource(files)
    assert source.lengths([first["docid"], "nope"]) == {first["docid"]: len(first["body"])}
    assert source.texts([first["docid"]]) == {first["docid"]: first["body"]}


def test_without_the_collection_t2i_is_refused_and_the_skipped_checks_said(shards, capsys, monkeypatch):
    monkeypatch.setenv("GRAPHSR_INDEX_FROM", "0")
    code, out, err = run_cli(
        capsys,
        "eval",
        shards / "qrels.txt",
        shards / "run_a.trec",
        "--chunks",
        shards / "msmarco_v2.1_doc_segmented",
        "-m",
        "gP[5]",
        "--task",
        "t2i",
        "--lenient",
    )
    assert code == 2 and "T2I reads each document to its end" in err and "--collection DIR" in err


def test_options_are_checked_before_the_map_is_read(tmp_path, capsys, shards):
    broken = tmp_path / "map"
    broken.mkdir()
    (broken / "x.jsonl.gz").write_bytes(b"not gzip at all")
    code, _, err = run_cli(
        capsys, "eval", shards / "qrels.txt", shards / "run_a.trec", "--chunks", broken, "-m", "nosuchmeasure"
    )
    assert code == 2 and "unknown measure" in err and "x.jsonl.gz" not in err


def test_an_index_is_built_again_when_its_file_changes(tmp_path, monkeypatch):
    from graphsr.io.chunk_source import ChunkSource

    monkeypatch.setenv("GRAPHSR_INDEX_FROM", "0")
    path = tmp_path / "m.jsonl"
    path.write_text('{"chunk_id": "c1", "doc_id": "d", "start": 0, "end": 5}\n')
    assert ChunkSource(path).lookup(["c1"]) == {"c1": ("d", 0, 5)}
    path.write_text('{"chunk_id": "c1", "doc_id": "d", "start": 2, "end": 9}\n')
    os.utime(path, ns=(1, 1))  # (whatever the clock says: another time is another file)
    assert ChunkSource(path).lookup(["c1", "c2"]) == {"c1": ("d", 2, 9)}


@pytest.mark.parametrize("threshold", ["0", "100G"])
def test_a_chunk_given_twice_is_refused_in_one_file_and_across_shards(tmp_path, monkeypatch, threshold):
    from graphsr.errors import RunFormatError
    from graphsr.io.chunk_source import ChunkSource

    monkeypatch.setenv("GRAPHSR_INDEX_FROM", threshold)
    one = tmp_path / "one"
    one.mkdir()
    (one / "a.jsonl").write_text(
        '{"chunk_id": "c1", "doc_id": "d", "start": 0, "end": 5}\n{"chunk_id": "c1", "doc_id": "d", "start": 1, "end": 5}\n'
    )
    with pytest.raises(RunFormatError, match=r"'c1' is (given|mapped) twice.*line 1") as e:
        ChunkSource(one).lookup(["c1"])
    assert str(e.value).count(":2:") == 1
    two = tmp_path / "two"
    two.mkdir()
    (two / "a.jsonl").write_text('{"chunk_id": "c1", "doc_id": "d", "start": 0, "end": 5}\n')
    (two / "b.csv").write_text("chunk_id,doc_id,start,end\nc2,d,5,9\nc1,e,0,3\n")
    source = ChunkSource(two)
    assert source.lookup(["c2"]) == {"c2": ("d", 5, 9)}
    with pytest.raises(RunFormatError, match=r"chunk 'c1' is mapped twice \(also in .*a.jsonl, line 1\)"):
        source.lookup(["c1"])
    assert set(source.of_documents(["e"])) == {"c1"}


def _small_map(tmp_path, per_doc: int) -> tuple[Path, list]:
    """A chunk map of documents z, a and b, ``per_doc`` chunks each, and its rows."""
    rows = [
        {"chunk_id": f"{d}_{k}", "doc_id": d, "start": 10 * k, "end": 10 * k + 15}
        for d in "zab"
        for k in range(per_doc)
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def test_chunks_of_documents_through_an_index_equal_a_whole_read(tmp_path, monkeypatch):
    from graphsr.io.chunk_source import ChunkSource

    path, _ = _small_map(tmp_path, 4)
    got = {}
    for threshold in ("0", "100G"):
        monkeypatch.setenv("GRAPHSR_INDEX_FROM", threshold)
        got[threshold] = ChunkSource(path).working_set(["z_0", "q"], docs_of=["b_3"], docs=["a"])
    assert got["0"] == got["100G"]
    assert set(got["0"]) == {"z_0"} | {f"{d}_{k}" for d in "ab" for k in range(4)}


KEYS = st.sampled_from(["chunk_id", "doc_id", "start", "end", "url", "segment", "note"])
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12)
VALUE = st.one_of(
    TEXT,
    st.integers(-5, 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.none(),
    st.dictionaries(KEYS, TEXT, max_size=2),
    st.lists(TEXT, max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, VALUE, max_size=7), st.booleans(), st.sampled_from([", ", ",", " , "]))
def test_fields_taken_by_search_are_the_fields_a_json_parser_reads(record, ascii_only, separator):
    """Where the search takes a line's fields, they are what json.loads reads there (else it defers to it)."""
    from graphsr.io.record_index import fast_fields, int_field, string_field

    line = json.dumps(record, ensure_ascii=ascii_only, separators=(separator, ": ")).encode()
    got = fast_fields(line, [string_field("chunk_id"), string_field("doc_id")], [int_field("start"), int_field("end")])
    if got is not None:
        r = json.loads(line)
        assert got == (r["chunk_id"], r["doc_id"], r["start"], r["end"])
        assert all(isinstance(r[k], int) and not isinstance(r[k], bool) for k in ("start", "end"))
        assert all(isinstance(r[k], str) for k in ("chunk_id", "doc_id"))


def test_lines_the_search_cannot_take_are_parsed(tmp_path, monkeypatch):
    from graphsr.io.chunk_source import ChunkSource

    lines = [
        '\ufeff{"chunk_id": "a", "doc_id": "d", "start": 0, "end": 3}',  # a byte order mark
        '{"end": 9, "start": 4.0, "doc_id": "d", "chunk_id": "b"}',  # a float holding an integer, keys reordered
        '{"chunk_id": "c\\u00e9", "doc_id": "d", "start": "2", "end": 5}',  # an escape, a number as text
        '{"meta": {"start": 99}, "chunk_id": "e", "doc_id": "d", "start": 1, "end": 2}',  # a nested key
        '{"chunk_id": "f", "doc_id": "d", "start": 1, "end": 2, "start": 0}',  # a key twice: the last counts
        '{"chunk_id": "g", "doc_id": "{x}", "start": 3, "end": 4}',
    ]
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for threshold in ("0", "100G"):
        monkeypatch.setenv("GRAPHSR_INDEX_FROM", threshold)
        got = ChunkSource(path).lookup(["a", "b", "c\u00e9", "e", "f", "g"])
        assert got == {
            "a": ("d", 0, 3),
            "b": ("d", 4, 9),
            "c\u00e9": ("d", 2, 5),
            "e": ("d", 1, 2),
            "f": ("d", 0, 2),
            "g": ("{x}", 3, 4),
        }


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.binary(min_size=1, max_size=4), max_size=600),
    st.lists(st.binary(min_size=0, max_size=5), min_size=1, max_size=40),
    st.sampled_from(["left", "right"]),
)
def test_a_fenced_search_finds_what_a_binary_search_of_the_whole_column_finds(values, keys, side):
    import numpy as np

    from graphsr.io.record_index import fence, fenced_search, same_width

    column = np.array(sorted(v.rstrip(b"\x00") or b"x" for v in values), dtype="S4") if values else np.zeros(0, "S4")
    wanted = np.array([k.rstrip(b"\x00") for k in keys], dtype="S5")
    fits, cast = same_width(wanted, column)
    got = fenced_search(column, fence(column), cast, side)
    assert got.tolist() == np.searchsorted(column, cast, side=side).tolist()
    assert all(len(wanted[i]) <= 4 for i in fits)


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.binary(min_size=1, max_size=4), max_size=600),
    st.lists(st.binary(min_size=1, max_size=4), min_size=1, max_size=40),
)
def test_a_fenced_find_finds_what_is_in_the_column_and_where(values, keys):
    import numpy as np

    from graphsr.io.record_index import fence, fenced_find

    column = np.array(sorted({v.rstrip(b"\x00") or b"x" for v in values}), dtype="S4") if values else np.zeros(0, "S4")
    wanted = np.array([k.rstrip(b"\x00") or b"x" for k in keys], dtype="S4")
    rows, found = fenced_find(column, fence(column), wanted)
    assert found.tolist() == np.isin(wanted, column).tolist()
    assert (column[rows[found]] == wanted[found]).all()


def test_an_index_of_many_parts_reads_as_a_whole_read_and_refuses_an_id_in_two(tmp_path, monkeypatch):
    """A chunk map indexed in parts of a few records (as MS MARCO's shards of millions are): its working set, the
    chunks of documents and the chunks named read as the whole file does, in the same order; a chunk id on two
    lines that fall in two parts is refused, naming both lines, however it is reached."""
    from graphsr.errors import RunFormatError
    from graphsr.io import record_index
    from graphsr.io.chunk_source import ChunkSource

    monkeypatch.setattr(record_index, "PART_ROWS", 4)
    monkeypatch.setenv("GRAPHSR_CACHE", str(tmp_path / "cache"))
    path, rows = _small_map(tmp_path, 5)
    got = {}
    for threshold in ("0", "100G"):
        monkeypatch.setenv("GRAPHSR_INDEX_FROM", threshold)
        source = ChunkSource(path)
        got[threshold] = (
            dict(source.working_set(["z_0", "q", "b_1"], docs_of=["b_3"], docs=["a"])),
            dict(source.of_documents(["z", "b"])),
            list(source.lookup(["z_2", "a_4", "nope"]).items()),  # (by chunk id)
        )
    assert got["0"] == got["100G"]
    twice = tmp_path / "twice.jsonl"
    twice.write_text("".join(json.dumps(r) + "\n" for r in rows + [{**rows[1], "start": 3}]))
    monkeypatch.setenv("GRAPHSR_INDEX_FROM", "0")
    for reach in (
        lambda s: s.lookup(["z_1"]),
        lambda s: s.of_documents(["z"]),
        lambda s: s.working_set([], docs=["z"]),
    ):
        with pytest.raises(RunFormatError, match=r"chunk 'z_1' is given twice \(lines 2 and 16\)"):
            reach(ChunkSource(twice))


WS = st.sampled_from(["", " ", "  ", "\t", "\r"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            TEXT,
            TEXT,
            st.integers(-3, 10**15),
            st.integers(-3, 10**15),
            st.booleans(),
            st.lists(WS, min_size=18, max_size=18),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_lines_as_graphsr_writes_them_read_as_a_json_parser_reads_them(tmp_path_factory, rows):
    """Lines in write_chunk_map's shape, with any white space JSON allows between the tokens and any text in
    the ids (escapes, quotes, control characters, other scripts), read as json.loads reads each line."""
    from graphsr.errors import RunFormatError
    from graphsr.io.chunk_records import _chunk_record, iter_chunk_records

    lines = []
    for chunk, doc, start, end, ascii_only, ws in rows:
        values = [json.dumps(v, ensure_ascii=ascii_only) for v in (chunk, doc, start, end)]
        keys = ['"chunk_id"', '"doc_id"', '"start"', '"end"']
        parts = [ws[0], "{"]
        for k, (key, value) in enumerate(zip(keys, values)):
            parts += [ws[4 * k + 1], key, ws[4 * k + 2], ":", ws[4 * k + 3], value, ws[4 * k + 4]]
            parts.append("," if k < 3 else "}")
        parts.append(ws[17])
        lines.append("".join(parts))
    path = tmp_path_factory.mktemp("own") / "m.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))

    def reference():
        out = []
        for n, line in enumerate(lines, 1):
            out.append(_chunk_record(json.loads(line), str(path), n))
        return out

    def ours():
        return list(iter_chunk_records(str(path)))

    try:
        want = reference()
    except RunFormatError as exc:
        with pytest.raises(RunFormatError) as got:
            ours()
        assert str(got.value) == str(exc)
        return
    assert ours() == want
