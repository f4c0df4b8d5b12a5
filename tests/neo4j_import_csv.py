"""A reader of ``neo4j-admin database import`` CSV files, written from the import tool's documented header grammar
(independently of graphsr's exporter), to check an export by reading it back.

Header fields: ``name[:type]`` (type string by default; int, long, short, byte, float, double, boolean, char, string,
each with an optional ``[]`` for arrays split at the array delimiter), ``[name]:ID[(group)]`` (the node id, stored
as property ``name`` when named), ``:LABEL`` (labels split at the array delimiter), ``:START_ID[(group)]``,
``:END_ID[(group)]``, ``:TYPE`` and ``:IGNORE``.  Fields are separated by ``,`` and may be quoted with ``"``, a quote
inside doubled; an empty unquoted field is no value (the property is absent), a quoted one an empty string.
"""

from __future__ import annotations

import re
from pathlib import Path

INTEGER = {"int", "long", "short", "byte"}
FLOAT = {"float", "double"}
FIELD = re.compile(r"^(?P<name>[^:]*)(?::(?P<kind>[A-Za-z_]+)(?P<array>\[\])?(?:\((?P<group>[^)]*)\))?)?$")


def fields(line: str) -> list[tuple[str, bool]]:
    """The fields of one record: (text, quoted)."""
    out, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            j, text = i + 1, []
            while True:
                k = line.index('"', j)
                text.append(line[j:k])
                if k + 1 < n and line[k + 1] == '"':
                    text.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            out.append(("".join(text), True))
        else:
            k = line.find(",", i)
            k = n if k < 0 else k
            out.append((line[i:k], False))
            i = k
        if i >= n:
            return out
        if line[i] != ",":
            raise ValueError(f"expected ',' after a field at column {i}: {line!r}")
        i += 1
        if i == n:
            out.append(("", False))
            return out


def header(line: str) -> list[tuple[str, str, bool]]:
    """(name, kind, array) per column; kind is a type or ID, LABEL, START_ID, END_ID, TYPE, IGNORE."""
    out = []
    for text, _ in fields(line):
        m = FIELD.match(text)
        if m is None:
            raise ValueError(f"bad header field {text!r}")
        kind = m["kind"] or "string"
        if kind.upper() in {"ID", "LABEL", "START_ID", "END_ID", "TYPE", "IGNORE"}:
            kind = kind.upper()
        elif kind.lower() not in INTEGER | FLOAT | {"boolean", "char", "string"}:
            raise ValueError(f"unknown type {kind!r} in header field {text!r}")
        else:
            kind = kind.lower()
        out.append((m["name"], kind, bool(m["array"])))
    return out


def convert(text: str, kind: str):
    if kind in INTEGER:
        return int(text)
    if kind in FLOAT:
        return float(text)
    if kind == "boolean":
        return text.lower() == "true"
    return text


def read(path: Path, delimiter: str = ";") -> list[dict]:
    """Every record of a file: ``{"id", "labels", "properties"}`` for nodes, ``{"start", "end", "type",
    "properties"}`` for relationships."""
    lines = path.read_text(encoding="utf-8").splitlines()
    columns = header(lines[0])
    records = []
    for line in lines[1:]:
        values = fields(line)
        if len(values) != len(columns):
            raise ValueError(f"{path.name}: {len(values)} fields for {len(columns)} columns: {line!r}")
        rec: dict = {"properties": {}}
        for (name, kind, array), (text, quoted) in zip(columns, values):
            if text == "" and not quoted:
                continue
            if kind == "ID":
                rec["id"] = text
                if name:
                    rec["properties"][name] = text
            elif kind == "LABEL":
                rec["labels"] = text.split(delimiter)
            elif kind == "START_ID":
                rec["start"] = text
            elif kind == "END_ID":
                rec["end"] = text
            elif kind == "TYPE":
                rec["type"] = text
            elif kind == "IGNORE":
                continue
            elif array:
                rec["properties"][name] = [convert(t, kind) for t in text.split(delimiter)]
            else:
                rec["properties"][name] = convert(text, kind)
        records.append(rec)
    return records
