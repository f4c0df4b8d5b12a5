"""Export a stored collection as CSV files for ``neo4j-admin database import``.

A collection, with everything stored under it (documents, elements,
summaries, assessments, runs, studies, routes, steps) and the models built
over it, is written as one node file per label and one relationship file per
type, each with a header in the import tool's grammar::

    id:ID,:LABEL,collection:string,docid:string,code:long,...
    :ID,:LABEL,key:long,pre:long,tag:string,depth:long,...
    :START_ID,:END_ID,:TYPE,rank:long,score:double,topic:string

graphsr's ids are unique across labels (:mod:`graphsr.store.ids`), so every
file shares one id space and ``id:ID`` keeps the id as the ``id`` property
the queries key on.  Elements have no id but an integer ``key``: their
import id is ``E:KEY`` (no other id starts so), written in an ``:ID`` column
of no name, which the import tool does not store, beside ``key:long``.  Values are written as the import tool reads them:
strings always quoted (``"`` doubled inside), so an empty string is ``""``;
an absent property is an empty, unquoted field; arrays joined by ``;`` (the
import tool's default array delimiter; a value holding one is refused);
floats at full precision (``repr``); booleans ``true``/``false``.  An empty
array is written as an empty field, which the import tool reads as no value
(graphsr reads an absent ``children`` or ``path`` as empty).

A label's nodes are listed by key (documents by their integer code, the
rest by id, with a scan: a range over a string index is never used, since
FalkorDB's does not compare strings the way ORDER BY sorts them), then read a
page of keys at a time by equality; a document's elements and a route's steps
are read with their document or route (by index, a bounded part at a time),
each with the relationships going out of it, so the export's memory is one
page and the list of keys.  The export then checks its receipt: what it wrote
per label and relationship type against what the store holds for the
collection, counted along the collection's own relationships; any difference
is an error and nothing is kept.  The files are written into a
new directory beside the target and renamed into place when complete: a
failed or killed export leaves nothing that looks whole.
"""

from __future__ import annotations

import collections
import itertools
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GraphsrInputError
from .base import GraphStore, StoreError
from .ids import LABEL_CODES, collection_id, node_id_prefix
from .receipts import check_receipt, collection_holdings

__all__ = [
    "NODE_PROPERTIES",
    "RELATIONSHIP_PROPERTIES",
    "ExportReport",
    "export_collection",
    "import_command",
    "element_import_id",
]

#: Every property graphsr stores, per label, with its type in the import tool's header grammar.
NODE_PROPERTIES: dict[str, dict[str, str]] = {
    "Store": {"version": "long", "next_document": "long"},
    "Collection": {"name": "string", "path": "string", "documents": "long", "elements": "long", "marked": "boolean"},
    "Document": {
        "collection": "string",
        "docid": "string",
        "code": "long",
        "elements": "long",
        "length": "long",
        "stored": "boolean",
        "complete": "string[]",
        "writing": "boolean",
        "shape": "string",
    },
    "Element": {
        "key": "long",
        "pre": "long",
        "tag": "string",
        "depth": "long",
        "offset": "long",
        "length": "long",
        "in_p_star": "long",
        "in_p_star_c": "long",
        "in_c": "long",
        "in_tag": "long",
    },
    "Summary": {
        "collection": "string",
        "kind": "string",
        "nodes": "long",
        "edges": "long",
        "documents": "long",
        "elements": "long",
    },
    "SummaryNode": {
        "summary": "string",
        "sid": "long",
        "label": "string",
        "path": "string[]",
        "tag": "string",
        "children": "string[]",
        "has_children": "boolean",
        "extent_size": "long",
        "content_length": "long",
    },
    "Model": {
        "name": "string",
        "collection": "string",
        "summary": "string",
        "kind": "string",
        "weight": "string",
        "solver": "string",
        "source": "string",
        "params": "string",
    },
    "Study": {"name": "string", "collection": "string", "complete": "boolean", "digest": "string"},
    "Route": {"study": "string", "route_id": "string", "user_id": "string", "topic_id": "string"},
    "Step": {"seq": "long", "duration_ms": "double", "time": "string"},
    "Qrels": {
        "name": "string",
        "collection": "string",
        "complete": "boolean",
        "digest": "string",
        "graphsr": "string",
        "source_sha256": "string",
        "judges": "string[]",
    },
    "Topic": {"qrels": "string", "topic": "string"},
    "Run": {
        "name": "string",
        "collection": "string",
        "complete": "boolean",
        "digest": "string",
        "graphsr": "string",
        "source_sha256": "string",
        "judges": "string[]",
    },
}

#: Every relationship type graphsr stores, with its properties' types.
RELATIONSHIP_PROPERTIES: dict[str, dict[str, str]] = {
    "HAS_DOCUMENT": {},
    "ROOT": {},
    "CHILD": {},
    "HAS_SUMMARY": {},
    "HAS_NODE": {},
    "SUMMARY_EDGE": {"pairs": "long", "child_length": "long"},
    "OF_SUMMARY": {},
    "PI": {"value": "double", "exact": "string"},
    "WEIGHT": {"model": "string", "value": "double", "exact": "string"},
    "HAS_ROUTE": {},
    "HAS_STEP": {},
    "FROM": {},
    "TO": {},
    "HAS_TOPIC": {},
    "ASSESSES": {"rel": "double", "e": "double", "s": "double", "judge": "string"},
    "RETURNS": {"topic": "string", "rank": "long", "score": "double"},
}

#: Nodes read per query.
PAGE = 20_000

ARRAY_DELIMITER = ";"


@dataclass
class ExportReport:
    """What an export wrote: nodes per label and relationships per type, and the files."""

    directory: Path
    nodes: dict = field(default_factory=dict)
    relationships: dict = field(default_factory=dict)
    files: list = field(default_factory=list)


def element_import_id(key: int) -> str:
    """The import id of the element keyed ``key`` (``E:`` and the key: no graphsr id starts so).

    >>> element_import_id(4294967297)
    'E:4294967297'
    """
    return f"E:{int(key)}"


def _end(row: dict) -> str:
    """A relationship row's end: the node's id, or its element import id."""
    return row["end"] if row.get("end") is not None else element_import_id(row["end_key"])


def _string(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _value(value, kind: str, where) -> str:
    """A value of scalar type ``kind`` as text (unquoted), checked to be of that type."""
    if kind == "string":
        if not isinstance(value, str):
            raise StoreError(f"cannot export {where()}: expected a string, got {value!r}")
        return value
    if kind == "boolean":
        if not isinstance(value, bool):
            raise StoreError(f"cannot export {where()}: expected a boolean, got {value!r}")
        return "true" if value else "false"
    if kind == "long":
        if isinstance(value, bool) or not isinstance(value, int):
            raise StoreError(f"cannot export {where()}: expected an integer, got {value!r}")
        return str(value)
    if kind == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise StoreError(f"cannot export {where()}: expected a number, got {value!r}")
        return repr(float(value))
    raise ValueError(f"unknown export type {kind!r}")  # pragma: no cover - the tables above


def _cell(value, kind: str, where) -> str:
    """One CSV field as the import tool reads a value of type ``kind`` (None: an empty, unquoted field)."""
    if value is None:
        return ""
    if kind.endswith("[]"):
        if not isinstance(value, (list, tuple)):
            raise StoreError(f"cannot export {where()}: expected an array ({kind}), got {value!r}")
        if not value:
            return ""
        parts = [_value(v, kind[:-2], where) for v in value]
        bad = next((v for v in parts if ARRAY_DELIMITER in v), None)
        if bad is not None:
            raise StoreError(
                f"cannot export {where()}: the array value {bad!r} holds the array delimiter {ARRAY_DELIMITER!r}"
            )
        return _string(ARRAY_DELIMITER.join(parts))
    text = _value(value, kind, where)
    return _string(text) if kind == "string" else text


class _Table:
    """One CSV file of the export: its header, then rows appended as they are read."""

    def __init__(self, path: Path, head: list[str], properties: dict[str, str], what: str):
        self.path, self.properties, self.what, self.rows = path, properties, what, 0
        self.known = set(properties) | ({"id"} if head[0] == "id:ID" else set())
        self.fh = open(path, "w", encoding="utf-8", newline="")
        self.fh.write(",".join(head + [f"{k}:{t}" for k, t in properties.items()]) + "\n")

    def add(self, fixed: list[str], values: dict, ident: str) -> None:
        if not self.known.issuperset(values):
            unknown = set(values) - self.known
            raise StoreError(
                f"cannot export {self.what} {ident}: properties {sorted(unknown)} are not in graphsr's schema"
            )
        cells = [
            _cell(values.get(k), t, lambda k=k: f"{self.what} {ident}, property {k!r}")
            for k, t in self.properties.items()
        ]
        self.fh.write(",".join(fixed + cells) + "\n")
        self.rows += 1

    def write_lines(self, lines: str, n: int) -> None:
        """``n`` whole lines (without the last line break) written as they are."""
        self.fh.write(lines + "\n")
        self.rows += n

    def close(self) -> None:
        self.fh.close()


def import_command(report: ExportReport, database: str = "neo4j") -> str:
    """The ``neo4j-admin database import full`` command that loads the exported files."""
    parts = ["neo4j-admin database import full", database, "--id-type=string", "--array-delimiter=';'"]
    for path in report.files:
        name = os.path.basename(path)
        parts.append(f"--nodes={name}" if name.startswith("nodes_") else f"--relationships={name}")
    return " \\\n  ".join(parts)


def export_collection(store: GraphStore, name: str, directory: str | os.PathLike, progress=None) -> ExportReport:
    """Write collection ``name`` with everything stored under it as ``neo4j-admin`` import CSV files.

    Parameters
    ----------
    store : GraphStore
    name : str
        The stored collection.
    directory : path-like
        A directory to create (or an empty one): ``nodes_<Label>.csv`` and ``relationships_<TYPE>.csv``.
    progress : callable, optional
        Called with the number of nodes read after each page.

    Returns
    -------
    ExportReport

    Raises
    ------
    GraphsrInputError
        If the directory holds files, or the collection is INCOMPLETE.
    UnknownNodeError
        If no such collection is stored.
    """
    from .services import require_complete_collection

    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise GraphsrInputError(
            f"{target}: exists and is not an empty directory; expected a new directory for the export"
        )
    with store.writing():  # one state of the store throughout (no load or drop can change it meanwhile)
        require_complete_collection(store, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            report = _export(store, name, work, progress)
            if target.exists():
                target.rmdir()
            os.replace(work, target)
        except OSError as exc:  # a full disk, a directory that cannot be written: nothing is kept
            shutil.rmtree(work, ignore_errors=True)
            raise StoreError(f"cannot write the export to {target} ({exc.strerror or exc}); nothing was kept") from None
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    report.directory = target
    report.files = [target / os.path.basename(p) for p in report.files]
    return report


#: Labels read with the nodes that own them (a document's elements, a route's steps), not a page at a time.
_OWNED = ("Element", "Step")


class _Files:
    """The files of one export, each opened on first use: a node file per label, a relationship file per type."""

    def __init__(self, store: GraphStore, work: Path, progress):
        self.store, self.work, self.progress = store, work, progress
        self.nodes: dict[str, _Table] = {}
        self.relationships: dict[str, _Table] = {}
        self.read = 0

    def node_table(self, label: str) -> _Table:
        if label not in self.nodes:
            head = [":ID" if label == "Element" else "id:ID", ":LABEL"]  # an element's import id is not stored
            self.nodes[label] = _Table(self.work / f"nodes_{label}.csv", head, NODE_PROPERTIES[label], label)
        return self.nodes[label]

    def write_nodes(self, label: str, rows: list[dict]) -> None:
        t = self.node_table(label)
        for r in rows:
            ident = element_import_id(r["key"]) if label == "Element" else r["id"]
            t.add([_string(ident), label], r["properties"], ident)
        self.read += len(rows)
        if self.progress is not None:
            self.progress(self.read)

    def relationship_table(self, kind: str, start: str) -> _Table:
        table = self.relationships.get(kind)
        if table is None:
            if kind not in RELATIONSHIP_PROPERTIES:
                raise StoreError(f"cannot export a {kind} relationship from {start}: not in graphsr's schema")
            table = self.relationships[kind] = _Table(
                self.work / f"relationships_{kind}.csv",
                [":START_ID", ":END_ID", ":TYPE"],
                RELATIONSHIP_PROPERTIES[kind],
                kind,
            )
        return table

    def write_relationships(self, query: str, ids: list, key: str = "ids") -> None:
        """The relationships going out of the nodes ``ids`` (``query``: one of export.cypher's; ``key``: its
        parameter, ``codes`` for a document's elements)."""
        if not ids:
            return
        for r in self.store.run(query, **{key: ids}):
            kind = r["type"]
            start = r["start"] if r.get("start") is not None else element_import_id(r["start_key"])
            end = _end(r)
            table = self.relationship_table(kind, start)
            table.add([_string(start), _string(end), kind], r["properties"] or {}, f"{start} -> {end}")

    def write_elements(self, documents: list[dict]) -> None:
        """The elements of a page of documents (those stored with their elements), with their relationships, a
        part of at most :data:`PAGE` elements at a time.  The local store writes a part's lines itself, two
        queries at a time (its nodes' and its edges'), the next part's asked while this one's are written."""
        stored = [
            (int(d["properties"]["code"]), int(d["properties"].get("elements") or 0))
            for d in documents
            if any(d["properties"].get(k) for k in ("complete", "stored", "writing"))
        ]
        parts = _parts([c for c, _ in stored], [n for _, n in stored])
        if self.store.backend != "falkordb":
            for part in parts:
                self.write_element_rows(part)
            return
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphsr-export") as pool:

            def ask(part):
                return (
                    part,
                    pool.submit(self.store.run, "export_element_lines_of", codes=part),
                    pool.submit(self.store.run, "export_element_edge_lines_of", codes=part),
                )

            following = iter(parts)
            asked = collections.deque(ask(part) for part in itertools.islice(following, 2))
            while asked:
                part, nodes, edges = asked.popleft()
                asked.extend(ask(part) for part in itertools.islice(following, 1))
                if not self.write_element_lines(part, nodes.result()[0], edges.result()[0]):
                    self.write_element_rows(part)

    def write_element_rows(self, codes: list[int]) -> None:
        """The elements of the documents ``codes`` and their relationships, read as rows."""
        self.write_nodes("Element", self.store.run("export_elements_of", codes=codes))
        self.write_relationships("export_out_elements_of", codes, key="codes")

    def write_element_lines(self, codes: list[int], nodes: dict, edges: dict) -> bool:
        """The elements of the documents ``codes`` and their CHILD edges as the lines the local store wrote
        (``nodes``, ``edges``: the rows of export_element_lines_of and export_element_edge_lines_of; the same
        lines :meth:`write_nodes` and :meth:`write_relationships` write from rows); False, with nothing
        written, where the store holds one that is not as graphsr's schema has it (the rows then say which)."""
        if nodes["odd"] or edges["odd"]:
            return False
        for table, row in ((self.node_table("Element"), nodes), (self.relationship_table("CHILD", "E:?"), edges)):
            n = int(row["n"])
            if n:
                if row["lines"].count("\n") != n - 1:  # a null concatenated: a line left out
                    raise StoreError(
                        f"cannot export {table.what} of documents {codes[:3]}...: {n} read, "
                        f"{row['lines'].count(chr(10)) + 1} lines written by the store"
                    )
                table.write_lines(row["lines"], n)
        self.read += int(nodes["n"])
        if self.progress is not None:
            self.progress(self.read)
        return True

    def write_steps(self, routes: list[str]) -> None:
        """The steps of a page of routes, with their relationships."""
        for part in _parts(routes, [10] * len(routes)):  # a route has some ten steps
            steps = self.store.run("export_steps_of", ids=part)
            self.write_nodes("Step", steps)
            self.write_relationships("export_out_Step", [r["id"] for r in steps])

    def close(self) -> None:
        for t in [*self.nodes.values(), *self.relationships.values()]:
            t.close()


def _keys(store: GraphStore, label: str, name: str) -> list:
    """Every key (document code, or id) of the collection's nodes of ``label``, in order: listed whole by a scan,
    never by a range over a string index (FalkorDB's does not compare strings as ORDER BY sorts them)."""
    keys = [
        r["key"]
        for r in store.run(
            f"export_keys_{label}",
            id=collection_id(name),
            name=name,
            prefix=node_id_prefix(label, name) if label in LABEL_CODES else "",
        )
    ]
    if len(set(keys)) != len(keys):
        raise StoreError(f"cannot export collection {name!r}: two {label} nodes share a key")
    return sorted(keys)


def _export(store: GraphStore, name: str, work: Path, progress) -> ExportReport:
    files = _Files(store, work, progress)
    try:
        for label in NODE_PROPERTIES:
            files.node_table(label)  # every label's file, empty if the collection has none
            if label in _OWNED:
                continue
            keys = _keys(store, label, name)
            for start in range(0, len(keys), PAGE):
                page = keys[start : start + PAGE]
                rows = store.run(f"export_nodes_{label}", keys=page)
                if len(rows) != len(page):
                    raise StoreError(
                        f"cannot export collection {name!r}: {len(page)} {label} keys listed, "
                        f"{len(rows)} nodes read by them"
                    )
                files.write_nodes(label, rows)
                if label != "Store":  # (the Store node has no relationships)
                    ids = [r["id"] for r in rows]
                    files.write_relationships(f"export_out_{label}", ids)
                    if label == "Document":
                        files.write_elements(rows)
                    elif label == "Route":
                        files.write_steps(ids)
    finally:
        files.close()
    report = ExportReport(work)
    report.nodes = {label: t.rows for label, t in files.nodes.items()}
    report.relationships = {kind: t.rows for kind, t in files.relationships.items()}
    report.files = [t.path for t in [*files.nodes.values(), *files.relationships.values()]]  # nodes first
    check_receipt(
        f"export of collection {name!r}", collection_holdings(store, name), {**report.nodes, **report.relationships}
    )
    return report


def _parts(ids: list, sizes: list[int]) -> list[list]:
    """``ids`` cut into consecutive parts whose ``sizes`` add up to at most :data:`PAGE` (one id at least)."""
    parts: list[list] = []
    part: list = []
    held = 0
    for i, n in zip(ids, sizes):
        if part and held + n > PAGE:
            parts.append(part)
            part, held = [], 0
        part.append(i)
        held += n
    if part:
        parts.append(part)
    return parts
