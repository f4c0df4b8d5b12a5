"""`graphsr store export`: a collection as neo4j-admin import CSV files, read back by a reader of the import
tool's header grammar (tests/neo4j_import_csv.py) into the same graph the store holds."""

from __future__ import annotations

import collections
import json

import pytest

from .conftest import error_lines

from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.store import open_store
from graphsr.store.base import StoreError
from graphsr.store.export import ARRAY_DELIMITER, NODE_PROPERTIES, RELATIONSHIP_PROPERTIES, _cell
from graphsr.store.ids import LABEL_CODES

from .neo4j_import_csv import read


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A store with two collections; 'plays' has every element, assessments, runs, a study of routes and three
    models (SR, routes over p*, routes over elements)."""
    tmp = tmp_path_factory.mktemp("export")
    url = f"local:{tmp / 'store'}"
    s, m = sample("shakespeare"), sample("mobydick")
    assert main(["store", "start", "--store", url]) == 0
    assert (
        main(
            [
                "store",
                "load",
                str(s["collection"]),
                "--store",
                url,
                "--name",
                "plays",
                "--elements",
                "all",
                "--qrels",
                str(s["qrels"]),
                *[a for r in s["runs"] for a in ("--run", str(r))],
                "--no-progress",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "store",
                "load",
                str(m["collection"]),
                "--store",
                url,
                "--name",
                "plays2",
                "--elements",
                "all",
                "--no-progress",
            ]
        )
        == 0
    )
    log = tmp / "routes.csv"
    assert main(["simulate-routes", str(s["collection"]), "--routes", "150", "-o", str(log), "--no-progress"]) == 0
    assert main(["store", "routes", str(log), "--store", url, "--collection", "plays", "--study", "st"]) == 0
    for extra in (["--from-routes", "st"], ["--from-routes", "st", "--nav", "elements"], ["--model", "p*:extent"]):
        assert main(["store", "model", "--store", url, "--collection", "plays", *extra]) == 0
    yield url, tmp
    assert main(["store", "stop", "--store", url]) == 0


def in_collection(node_id: str, label: str, props: dict, name: str, codes: set[int]) -> bool:
    if label == "Store":  # the store's version and document counter go with every export
        return True
    if label == "Collection":
        return node_id == f"C/{name}"
    if label == "Model":
        return props.get("collection") == name
    if label == "Element":  # keyed by its document's code
        return props["key"] // 2**32 in codes
    return node_id.startswith(f"{LABEL_CODES[label]}/{name}/")


def stored_graph(url: str, name: str) -> tuple[dict, collections.Counter]:
    """The store's nodes and relationships of collection ``name``, read with plain queries (elements named by
    their import id, E:KEY); an empty array is read as absent (the import tool cannot tell one from none)."""

    def clean(p):
        return {k: v for k, v in p.items() if v != []}

    def ident(node_id, key):
        return node_id if node_id is not None else f"E:{key}"

    with open_store(url) as store:
        codes = {
            r["code"]
            for r in store.read_query(
                "MATCH (d:Document) WHERE d.collection = $c RETURN d.code AS code", {"c": f"C/{name}"}
            )
        }
        nodes = {}
        for r in store.read_query("MATCH (n) RETURN n.id AS id, n.key AS key, labels(n) AS labels, properties(n) AS p"):
            if in_collection(r["id"], r["labels"][0], r["p"], name, codes):
                nodes[ident(r["id"], r["key"])] = (tuple(r["labels"]), json.dumps(clean(r["p"]), sort_keys=True))
        rels = collections.Counter()
        for r in store.read_query(
            "MATCH (a)-[r]->(b) RETURN a.id AS a, a.key AS ak, type(r) AS t, b.id AS b, b.key AS bk, properties(r) AS p"
        ):
            a = ident(r["a"], r["ak"])
            if a in nodes:
                rels[(a, r["t"], ident(r["b"], r["bk"]), json.dumps(clean(r["p"] or {}), sort_keys=True))] += 1
    return nodes, rels


def exported_graph(directory) -> tuple[dict, collections.Counter]:
    nodes, rels = {}, collections.Counter()
    for path in sorted(directory.glob("*.csv")):
        for rec in read(path):
            if "labels" in rec:
                assert rec["id"] not in nodes, f"{rec['id']} twice"
                nodes[rec["id"]] = (tuple(rec["labels"]), json.dumps(rec["properties"], sort_keys=True))
            else:
                rels[(rec["start"], rec["type"], rec["end"], json.dumps(rec["properties"], sort_keys=True))] += 1
    return nodes, rels


@pytest.mark.slow
def test_export_reads_back_into_the_stored_graph(stored, capsys, monkeypatch):
    url, tmp = stored
    monkeypatch.setattr("graphsr.store.export.PAGE", 997)  # several pages of elements, steps, memberships
    out = tmp / "plays-csv"
    capsys.readouterr()
    assert main(["store", "export", str(out), "--store", url, "--collection", "plays", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "neo4j-admin database import full" in text and "--nodes=nodes_Element.csv" in text
    nodes, rels = exported_graph(out)
    want_nodes, want_rels = stored_graph(url, "plays")
    assert len(nodes) == len(want_nodes) and nodes == want_nodes
    assert sum(rels.values()) == sum(want_rels.values()) and rels == want_rels
    labels = collections.Counter(v[0][0] for v in nodes.values())
    types = collections.Counter(k[1] for k in rels.elements())
    # every label and relationship type of the schema is in the test's graph, and the other collection is not
    assert set(labels) == set(NODE_PROPERTIES) and set(types) == set(RELATIONSHIP_PROPERTIES)
    assert labels["Element"] == 10330 and not any("plays2" in k for k in nodes)
    with open_store(url) as store:
        counts = store.counts()
    assert labels["Element"] < counts["Element"]  # plays2's elements stay out


@pytest.mark.slow
def test_export_refuses_a_directory_with_files_and_an_unknown_collection(stored, capsys):
    url, tmp = stored
    full = tmp / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x")
    assert main(["store", "export", str(full), "--store", url, "--collection", "plays"]) == 2
    assert "not an empty directory" in capsys.readouterr().err
    assert sorted(p.name for p in full.iterdir()) == ["keep.txt"]
    assert main(["store", "export", str(tmp / "none"), "--store", url, "--collection", "nope"]) != 0
    assert not (tmp / "none").exists()
    assert not [p for p in tmp.iterdir() if p.name.startswith(".none.")]  # no half-written directory left


def test_values_are_written_as_the_import_tool_reads_them():
    where = lambda: "x"  # noqa: E731
    assert _cell('say "hi", twice', "string", where) == '"say ""hi"", twice"'
    assert _cell("", "string", where) == '""' and _cell(None, "string", where) == ""
    assert _cell(["p*", "p*|c"], "string[]", where) == '"p*;p*|c"' and _cell([], "string[]", where) == ""
    assert _cell(0.1 + 0.2, "double", where) == repr(0.1 + 0.2) and _cell(3, "long", where) == "3"
    assert _cell(True, "boolean", where) == "true"
    with pytest.raises(StoreError, match="array delimiter"):
        _cell(["a" + ARRAY_DELIMITER + "b"], "string[]", where)
    with pytest.raises(StoreError, match="expected an integer"):
        _cell(1.5, "long", where)


def test_an_export_of_mixed_case_ids_over_several_pages_reads_back_whole(tmp_path, capsys, monkeypatch):
    """Ids that differ only in case sort apart in code-point order but not in FalkorDB's string index: a keyset
    page by id skipped every document after 'aB…' ('ab' sorts after it but the index found nothing there).
    Every page size the export uses is crossed (documents, elements and summary nodes by page)."""
    coll = tmp_path / "coll"
    coll.mkdir()
    names = [f"aB{i:03d}" for i in range(40)] + ["ab", "AB", "Ab", "a_b", "ä", "z"]
    for n in names:
        (coll / f"{n}.xml").write_text("<a><b/><B/></a>")
    url = f"local:{tmp_path / 'store'}"
    assert main(["store", "load", str(coll), "--store", url, "--elements", "all", "--no-progress"]) == 0
    try:
        for page in (7, 41, 46, 47, 20_000):
            monkeypatch.setattr("graphsr.store.export.PAGE", page)
            out = tmp_path / f"out{page}"
            assert main(["store", "export", str(out), "--store", url, "--collection", "coll", "--no-progress"]) == 0
            nodes, rels = exported_graph(out)
            assert (nodes, rels) == stored_graph(url, "coll")
            docids = sorted(json.loads(p)["docid"] for (lab, p) in nodes.values() if lab == ("Document",))
            assert docids == sorted(names)
            assert sum(1 for lab, _ in nodes.values() if lab == ("Element",)) == 3 * len(names)
    finally:
        main(["store", "stop", "--store", url])


def test_an_export_whose_receipt_differs_from_the_store_fails_and_keeps_nothing(tmp_path, capsys):
    """The export counts what it wrote per label and type against what the store holds for the collection (along
    its relationships); a store whose documents say they hold more elements than are there, or a study whose
    steps have two TO edges (two logs mixed), is refused, exit 3, and no directory is left."""
    from graphsr.store import open_store

    coll = tmp_path / "coll"
    coll.mkdir()
    for n in ("a", "b"):
        (coll / f"{n}.xml").write_text("<a><b/><c/></a>")
    url = f"local:{tmp_path / 'store'}"
    assert main(["store", "load", str(coll), "--store", url, "--elements", "all", "--no-progress"]) == 0
    try:
        with open_store(url) as store, store.writing():
            store._execute("MATCH (e:Element) WHERE e.pre = 3 WITH e LIMIT 1 DETACH DELETE e", {})
        capsys.readouterr()
        assert main(["store", "export", str(tmp_path / "out"), "--store", url, "--collection", "coll"]) == 3
        err = capsys.readouterr().err.strip()
        assert len(error_lines(err)) == 1
        assert "Element: wrote 5, the store holds 6" in err and "CHILD: wrote 3, the store holds 4" in err
        assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out.*"))
    finally:
        main(["store", "stop", "--store", url])


@pytest.mark.slow
def test_an_export_of_65000_documents_reads_back_equal(tmp_path, capsys):
    """The issue's shape at full size: 65,000 one-element-child documents whose names mix case (aB…, ab…), with
    the export's own page size (several pages of documents and of elements)."""
    import tarfile
    import io

    archive = tmp_path / "coll.tar"
    body = b"<a><b/></a>"
    names = [f"aB{i:05d}" for i in range(32_500)] + [f"ab{i:05d}" for i in range(32_500)]
    with tarfile.open(archive, "w") as tar:
        for n in names:
            info = tarfile.TarInfo(f"{n}.xml")
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    url = f"local:{tmp_path / 'store'}"
    assert (
        main(["store", "load", str(archive), "--store", url, "--name", "big", "--elements", "all", "--no-progress"])
        == 0
    )
    try:
        out = tmp_path / "out"
        assert main(["store", "export", str(out), "--store", url, "--collection", "big", "--no-progress"]) == 0
        nodes, rels = exported_graph(out)
        labels = collections.Counter(v[0][0] for v in nodes.values())
        assert labels["Document"] == 65_000 and labels["Element"] == 130_000
        assert (nodes, rels) == stored_graph(url, "big")
    finally:
        main(["store", "stop", "--store", url])


@pytest.mark.slow
def test_the_stores_own_element_lines_equal_the_lines_written_from_rows(stored, capsys, monkeypatch):
    """The local store writes the elements' and CHILD edges' lines itself (one string a part); they are the
    lines the exporter writes from rows, and an element not as graphsr's schema has it sends the export back
    to rows, which name it."""
    from graphsr.store.export import _Files

    url, tmp = stored
    monkeypatch.setattr("graphsr.store.export.PAGE", 997)
    fast, rows = tmp / "lines-fast", tmp / "lines-rows"
    assert main(["store", "export", str(fast), "--store", url, "--collection", "plays", "--no-progress"]) == 0
    with monkeypatch.context() as m:
        m.setattr(_Files, "write_element_lines", lambda self, codes, nodes, edges: False)
        assert main(["store", "export", str(rows), "--store", url, "--collection", "plays", "--no-progress"]) == 0
    for name in ("nodes_Element.csv", "relationships_CHILD.csv"):
        a, b = (fast / name).read_text().splitlines(), (rows / name).read_text().splitlines()
        assert a[0] == b[0] and len(a) > 1000 and sorted(a[1:]) == sorted(b[1:]), name
    with open_store(url) as store:
        store._execute(
            "MATCH (d:Document {id: 'D/plays/hamlet'}) WITH d.code * 4294967296 + 7 AS key "
            "MATCH (e:Element {key: key}) SET e.colour = 'red'",
            {},
        )
    capsys.readouterr()
    try:
        assert (
            main(["store", "export", str(tmp / "lines-odd"), "--store", url, "--collection", "plays", "--no-progress"])
            != 0
        )
        err = capsys.readouterr().err
        assert "colour" in err and "not in graphsr's schema" in err, err
        assert not (tmp / "lines-odd").exists()
    finally:
        with open_store(url) as store:
            store._execute("MATCH (e:Element) WHERE e.colour IS NOT NULL REMOVE e.colour", {})
