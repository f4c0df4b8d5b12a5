"""Summary partitions: the same nodes and pi as `graphsr summary`, from memory and from the store; a partition's
elements are exactly its extent."""

from __future__ import annotations

import pytest

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.io import iter_documents
from graphsr.summaries import build_summary


def summary_rows(capsys, collection, kind):
    assert main(["summary", str(collection), "--kind", kind]) == 0
    lines = capsys.readouterr().out.splitlines()[2:]
    return [
        (f.split("\t")[0], int(f.split("\t")[1]), int(f.split("\t")[2]), f.split("\t")[3], f.split("\t")[4])
        for f in lines
    ]


def partition_rows(capsys, argv):
    assert main(["partitions", *argv, "--format", "csv"]) == 0
    import csv
    import io

    text = capsys.readouterr().out  # data only: the note goes to stderr
    return [
        (r["sid"], int(r["extent_size"]), int(r["content_length"]), f"{float(r['pi']):.6f}", r["key"])
        for r in csv.DictReader(io.StringIO(text))
    ]


@pytest.mark.parametrize(
    "name, kind", [("mobydick", "p*"), ("mobydick", "p*|c"), ("shakespeare", "c"), ("shakespeare", "tag")]
)
def test_partitions_are_the_summary_nodes_from_memory_and_the_store(name, kind, capsys, tmp_path):
    s = sample(name)
    expected = summary_rows(capsys, s["collection"], kind)
    assert partition_rows(capsys, [str(s["collection"]), "--kind", kind]) == expected
    url = f"local:{tmp_path / 'store'}"
    assert (
        main(
            ["store", "load", str(s["collection"]), "--name", name, "--kind", kind, "--elements", "all", "--store", url]
        )
        == 0
    )
    capsys.readouterr()
    assert partition_rows(capsys, [name, "--kind", kind, "--store", url]) == expected
    main(["store", "stop", "--store", url])
    capsys.readouterr()


def test_a_partition_is_its_extent(capsys, tmp_path):
    s = sample("mobydick")
    docs = list(iter_documents(s["collection"]))
    summary = build_summary(docs, "p*|c", keep_extents=True)
    url = f"local:{tmp_path / 'store'}"
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--name",
                "moby",
                "--kind",
                "p*|c",
                "--elements",
                "all",
                "--store",
                url,
            ]
        )
        == 0
    )
    capsys.readouterr()
    for k in range(len(summary)):
        expected = sorted((d, pre - 1) for d, pre in summary.extent(k))  # pre-order ids are 1-based
        for where in ([str(s["collection"])], ["moby", "--store", url]):
            assert main(["partition", *where, f"S{k + 1}", "--kind", "p*|c", "--format", "csv", "--limit", "1000"]) == 0
            out = capsys.readouterr().out.splitlines()
            got = [(line.split(",")[0], int(line.split(",")[1])) for line in out[1:]]  # the header, then data
            assert got == expected, (k, where)
    big = next(k for k in range(len(summary)) if len(summary.extent(k)) >= 2)
    assert (
        main(
            [
                "partition",
                str(s["collection"]),
                f"S{big + 1}",
                "--kind",
                "p*|c",
                "--limit",
                "1",
                "--offset",
                "1",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    second = sorted(summary.extent(big))[1]
    assert "showing 1 from 1" in captured.err  # the note on stderr, the data alone on stdout
    assert len(out) == 2 and out[1].startswith(f"{second[0]},{second[1] - 1},")
    assert main(["partition", str(s["collection"]), "S99", "--kind", "p*|c"]) == 2
    assert "expected a summary node S1 .. S" in capsys.readouterr().err
    main(["store", "stop", "--store", url])


def test_coverage_counts_equal_a_direct_computation(tmp_path, capsys):
    import numpy as np

    from graphsr.analysis.partitions import memory_partitions, partition_coverage
    from graphsr.core.qrels import ElementQrels
    from graphsr.core.run import Run, TreeResult

    s = sample("shakespeare")
    docs = {d.docid: d for d in iter_documents(s["collection"])}
    parts = memory_partitions(s["collection"], "p*|c")
    q = 1 - parts.pi
    rng = np.random.default_rng(8)
    for case in range(4):
        names = sorted(docs)
        judgments, results = {}, {}
        for t in ("1", "2", "3"):
            judgments[t] = {}
            for _ in range(30):
                d = names[int(rng.integers(len(names)))]
                judgments[t][(d, docs[d].xpath(int(rng.integers(len(docs[d])))))] = float(rng.integers(0, 2))
            if rng.random() < 0.8:
                picked = {}
                for _ in range(20):
                    d = names[int(rng.integers(len(names)))]
                    picked[(d, docs[d].xpath(int(rng.integers(len(docs[d])))))] = None
                results[t] = [TreeResult(t, k + 1, d, (x,), 1.0) for k, (d, x) in enumerate(picked)]
        qrels, run = ElementQrels(judgments), Run("r", results)
        got = partition_coverage(parts, qrels, [run]).set_index("sid")
        expect: dict[str, list[float]] = {}
        sid_of = {d: parts.summary.assign(doc) for d, doc in docs.items()}
        for t, res in results.items():
            retrieved = {(r.docid, docs[r.docid].node(r.xpaths[0])) for r in res}
            for d, i in retrieved:
                expect.setdefault(f"S{sid_of[d][i] + 1}", [0, 0, 0, 0.0])[0] += 1
            for (d, x), v in judgments[t].items():
                if v <= 0:
                    continue
                i = docs[d].node(x)
                row = expect.setdefault(f"S{sid_of[d][i] + 1}", [0, 0, 0, 0.0])
                row[1] += 1
                m = sum(1 for dd, _ in retrieved if dd == d)
                if (d, i) in retrieved:
                    row[2] += 1
                elif m:
                    row[3] += 1 - (1 - q[sid_of[d][i]]) ** m
        assert sorted(got.index) == sorted(k for k, v in expect.items() if any(v)), case
        for sid, (a, b, c, e) in expect.items():
            if any((a, b, c, e)):
                row = got.loc[sid]
                assert (row.retrieved, row.relevant, row.relevant_retrieved) == (a, b, c), (case, sid)
                assert row.relevant_reachable == pytest.approx(e), (case, sid)
    plot = tmp_path / "cov.png"
    assert (
        main(
            [
                "coverage",
                str(s["qrels"]),
                *map(str, s["runs"][:2]),
                "--collection",
                str(s["collection"]),
                "--plot",
                str(plot),
                "--format",
                "csv",
            ]
        )
        == 0
    )
    assert plot.read_bytes()[:4] == b"\x89PNG" and capsys.readouterr().out.startswith("run,sid,key,retrieved")


@pytest.mark.parametrize("kind", ["p*", "p*|c", "c"])
def test_coverage_from_the_store_equals_coverage_from_memory(kind, capsys, tmp_path):
    s = sample("shakespeare")
    argv = ["coverage", str(s["qrels"]), *map(str, s["runs"]), "--kind", kind, "--format", "csv"]
    assert main([*argv, "--collection", str(s["collection"])]) == 0
    memory = capsys.readouterr().out
    assert len(memory.splitlines()) > 10 and memory.splitlines()[1].startswith("plays,")  # runs named by run id
    url = f"local:{tmp_path / 'store'}"
    # only the documents the runs and assessments name need their elements stored
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--name",
                "plays",
                "--kind",
                kind,
                "--qrels",
                str(s["qrels"]),
                *(a for r in s["runs"] for a in ("--run", str(r))),
                "--store",
                url,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main([*argv, "--collection", "plays", "--store", url]) == 0
    assert capsys.readouterr().out == memory
    assert main([*argv, "--collection", "nope", "--store", url]) == 2
    assert "nope" in capsys.readouterr().err
    main(["store", "stop", "--store", url])
    capsys.readouterr()


def test_partitions_and_coverage_in_python_from_one_read(tmp_path):
    import graphsr
    from graphsr.analysis.partitions import memory_partitions, partition_coverage, partition_table

    s = sample("shakespeare")
    loaded = graphsr.load_collection(s["collection"], kinds=["p*", "tag"])
    for kind in ("p*", "tag"):
        expected = partition_table(memory_partitions(s["collection"], kind))
        assert graphsr.partitions(loaded, kind).equals(expected)
        assert (
            graphsr.partitions(s["collection"], kind, model=f"{kind}:length").pi.tolist()
            == partition_table(memory_partitions(s["collection"], kind, f"{kind}:length")).pi.tolist()
        )
    qrels, runs = graphsr.read_element_qrels(s["qrels"]), [graphsr.read_run(p) for p in s["runs"]]
    assert graphsr.coverage(loaded, qrels, runs).equals(
        partition_coverage(memory_partitions(s["collection"], "p*"), qrels, runs)
    )
    with pytest.raises(graphsr.GraphsrInputError, match="without the c summary"):
        graphsr.partitions(loaded, "c")


def test_the_table_cuts_long_edge_lists_and_csv_keeps_them(capsys, monkeypatch):
    """partitions --format table shows at most EDGES_SHOWN edges per cell (six; two here, for the small sample)
    and counts the rest; CSV keeps every edge."""
    import io

    import pandas as pd

    import graphsr.cli.partitions_cmd as partitions_cmd
    from graphsr.cli.main import main
    from graphsr.data import sample

    monkeypatch.setattr(partitions_cmd, "EDGES_SHOWN", 2)
    EDGES_SHOWN = 2

    coll = str(sample("shakespeare")["collection"])
    assert main(["partitions", coll, "--kind", "p*|c", "--format", "csv", "--no-progress"]) == 0
    out = capsys.readouterr().out
    frame = pd.read_csv(io.StringIO(out[out.index("sid,") :]), keep_default_na=False)
    long = [
        cell for cell in frame["in_edges"].tolist() + frame["out_edges"].tolist() if len(cell.split()) > EDGES_SHOWN
    ]
    assert long  # the sample has a partition with many neighbours
    assert main(["partitions", coll, "--kind", "p*|c", "--no-progress"]) == 0
    table = capsys.readouterr().out
    for cell in long:
        edges = cell.split()
        assert " ".join(edges[:EDGES_SHOWN]) + f" ... (+{len(edges) - EDGES_SHOWN})" in table
        assert cell not in table


@pytest.mark.parametrize("elements", ["all", "all-by-documents", "touched"])
def test_a_stored_partition_is_paged_as_in_memory_across_documents(elements, capsys, tmp_path, monkeypatch):
    """A page of a partition from the store (by the membership index or the documents' roots where every
    document is stored whole; else read a batch of documents at a time, in document order, until the page is
    whole): pages that start in one batch and end in another, and the counts (the extent when every element is
    stored, else counted) are those of the collection read in memory, restricted to the stored documents."""
    monkeypatch.setattr("graphsr.store.trees.ELEMENTS_PER_READ", 1200)  # batches of one or two plays
    if elements == "all-by-documents":  # the way a store without the index (or an incomplete one) is read
        monkeypatch.setattr("graphsr.store.extents._extent", lambda *args: None)
        elements = "all"
    s = sample("shakespeare")
    url = f"local:{tmp_path / 'store'}"
    extra = []
    if elements == "touched":  # assessments of three plays: only theirs are stored
        qrels = tmp_path / "qrels.txt"
        qrels.write_text(
            "".join(
                line
                for line in s["qrels"].read_text().splitlines(keepends=True)
                if line.split()[2] in ("hamlet", "macbeth", "lear")
            )
        )
        extra = ["--qrels", str(qrels)]
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--name",
                "plays",
                "--kind",
                "p*",
                "--elements",
                elements,
                *extra,
                "--store",
                url,
                "--no-progress",
            ]
        )
        == 0
    )
    docs = list(iter_documents(s["collection"]))
    if elements == "touched":
        from graphsr.io import read_element_qrels

        touched = {d for _, d, _, _ in read_element_qrels(qrels)}
        assert touched == {"hamlet", "macbeth", "lear"}
    else:
        touched = {d.docid for d in docs}
    summary = build_summary(docs, "p*", keep_extents=True)
    capsys.readouterr()
    try:
        for k in sorted(range(len(summary)), key=lambda k: -len(summary.extent(k)))[:4]:
            extent = sorted((d, pre - 1) for d, pre in summary.extent(k) if d in touched)
            for offset, limit in ((0, 5), (len(extent) // 3, 7), (max(len(extent) - 3, 0), 50), (0, 100000)):
                assert (
                    main(
                        [
                            "partition",
                            "plays",
                            f"S{k + 1}",
                            "--kind",
                            "p*",
                            "--store",
                            url,
                            "--format",
                            "csv",
                            "--offset",
                            str(offset),
                            "--limit",
                            str(limit),
                        ]
                    )
                    == 0
                )
                captured = capsys.readouterr()
                got = [(line.split(",")[0], int(line.split(",")[1])) for line in captured.out.splitlines()[1:]]
                assert got == extent[offset : offset + limit], (k, offset, limit)
                assert f"; {len(extent)} elements" in captured.err, captured.err
    finally:
        main(["store", "stop", "--store", url])


def test_every_node_of_two_stored_collections_is_read_whole_by_its_index_or_roots(tmp_path):
    """Two collections in one store hold the same SIDs: a node's elements read through the membership index
    (or, for nodes of roots only, the documents' roots: the local store's index never finds SID 0) are those of
    its own collection, in document order, equal to its extent in memory, for every node of every kind; and
    that fast path served every node (it gives None where it cannot vouch for the whole extent)."""
    from graphsr.store import open_store
    from graphsr.store.extents import _complete, _extent, _extent_params, summary_extent

    url = f"local:{tmp_path / 'store'}"
    kinds = ["p*", "p*|c", "c", "tag"]
    for name in ("mobydick", "shakespeare"):
        assert (
            main(
                [
                    "store",
                    "load",
                    str(sample(name)["collection"]),
                    "--name",
                    name,
                    *sum((["--kind", k] for k in kinds), []),
                    "--elements",
                    "all",
                    "--store",
                    url,
                    "--no-progress",
                ]
            )
            == 0
        )
    store = open_store(url)
    try:
        for name in ("mobydick", "shakespeare"):
            docs = list(iter_documents(sample(name)["collection"]))
            for kind in kinds:
                summary = build_summary(docs, kind, keep_extents=True)
                entered = set(summary.edge_dst.tolist())
                for k in range(len(summary)):
                    expected = sorted(summary.extent(k))  # (docid, 1-based pre-order id), as stored
                    assert summary_extent(store, name, kind, summary.label(k)) == expected, (name, kind, k)
                    params = _extent_params(store, name, kind, summary.label(k))
                    extent, roots = params.pop("extent_size"), params.pop("roots")
                    assert roots == (k not in entered)  # the store says which nodes hold roots only
                    assert _extent(store, params, extent, _complete(store, params, kind), roots) is not None
    finally:
        store.close()
        main(["store", "stop", "--store", url])
