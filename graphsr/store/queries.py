"""The Cypher queries, loaded by name from ``cypher/*.cypher``.

(``cypher/`` at the top of the repository is a link to ``graphsr/cypher/``,
where the files live so that they install with the package.)

A file holds blocks that each start with a ``// @name NAME`` line; other
``//`` lines are comments.  Shared files serve every backend; the schema
statements of a backend live in ``schema.<backend>.cypher`` (several blocks
share the name ``schema``, made with the store, or ``deferred``, indexes made when first needed: see
:mod:`graphsr.store.deferred`).  Query text is never built from user values:
every value travels as a parameter.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

__all__ = ["query", "schema_statements", "deferred_statements", "query_names"]


def _parse(text: str, source: str) -> list[tuple[str, str]]:
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("// @name "):
            blocks.append((stripped[len("// @name ") :].strip(), []))
        elif stripped.startswith("//") or not stripped:
            continue
        elif not blocks:
            raise ValueError(f"{source}: query text before the first '// @name' line")
        else:
            blocks[-1][1].append(line)
    return [(name, "\n".join(lines)) for name, lines in blocks]


@lru_cache(maxsize=None)
def _load() -> tuple[dict[str, str], dict[tuple[str, str], tuple[str, ...]]]:
    shared: dict[str, str] = {}
    schema: dict[tuple[str, str], list[str]] = {}
    for entry in sorted((resources.files("graphsr") / "cypher").iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".cypher"):
            continue
        blocks = _parse(entry.read_text(encoding="utf-8"), entry.name)
        if entry.name.startswith("schema."):
            backend = entry.name[len("schema.") : -len(".cypher")]
            for name, text in blocks:
                if name not in ("schema", "deferred"):
                    raise ValueError(f"{entry.name}: a schema block is named 'schema' or 'deferred', not {name!r}")
                schema.setdefault((backend, name), []).append(text)
                schema.setdefault((backend, "schema" if name == "deferred" else "deferred"), [])
            continue
        for name, text in blocks:
            if name in shared:
                raise ValueError(f"query {name!r} defined twice (in {entry.name})")
            shared[name] = text
    return shared, {k: tuple(v) for k, v in schema.items()}


def query(name: str) -> str:
    """The text of a shared query.

    Raises
    ------
    KeyError
        For an unknown name.
    """
    shared, _ = _load()
    try:
        return shared[name]
    except KeyError:
        raise KeyError(f"no Cypher query named {name!r}") from None


def schema_statements(backend: str) -> tuple[str, ...]:
    """The schema statements (indexes, constraints) a backend's store is made with: 'falkordb' or 'neo4j'."""
    return _load()[1][(backend, "schema")]


def deferred_statements(backend: str) -> tuple[str, ...]:
    """The indexes a backend makes only when a statement first needs them (see :mod:`graphsr.store.deferred`)."""
    return _load()[1][(backend, "deferred")]


def query_names() -> list[str]:
    return sorted(_load()[0])
