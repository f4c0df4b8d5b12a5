"""The Cypher queries, loaded by name from ``cypher/*.cypher``.

(``cypher/`` at the top of the repository is a link to ``graphsr/cypher/``,
where the files live so that they install with the package.)

A file holds blocks that each start with a ``// @name NAME`` line; other
``//`` lines are comments.  Shared files serve every backend; the schema
statements of a backend live in ``schema.<backend>.cypher`` (several blocks
share the name ``schema``, made with the store, or ``deferred``, indexes made when first needed: see
:mod:`graphsr.store.deferred`).  Any other ``<file>.<backend>.cypher`` holds a backend's own text of shared
queries (the same name, the same parameters and answer, where the backend has a cheaper way to say it); the
shared text serves the other backends.  Query text is never built from user values: every value travels as a
parameter.
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


BACKENDS = ("falkordb", "neo4j")


@lru_cache(maxsize=None)
def _load() -> tuple[dict[str, str], dict[tuple[str, str], tuple[str, ...]], dict[tuple[str, str], str]]:
    shared: dict[str, str] = {}
    schema: dict[tuple[str, str], list[str]] = {}
    variants: dict[tuple[str, str], str] = {}
    for entry in sorted((resources.files("graphsr") / "cypher").iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".cypher"):
            continue
        blocks = _parse(entry.read_text(encoding="utf-8"), entry.name)
        backend = entry.name[: -len(".cypher")].rpartition(".")[2] if entry.name.count(".") == 2 else None
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"{entry.name}: no backend {backend!r} (one of {', '.join(BACKENDS)})")
        if entry.name.startswith("schema."):
            for name, text in blocks:
                if name not in ("schema", "deferred"):
                    raise ValueError(f"{entry.name}: a schema block is named 'schema' or 'deferred', not {name!r}")
                schema.setdefault((backend, name), []).append(text)  # type: ignore[arg-type]
                schema.setdefault((backend, "schema" if name == "deferred" else "deferred"), [])  # type: ignore[arg-type]
            continue
        for name, text in blocks:
            held = variants if backend is not None else shared
            key = (backend, name) if backend is not None else name
            if key in held:
                raise ValueError(f"query {name!r} defined twice (in {entry.name})")
            held[key] = text  # type: ignore[index]
    for backend, name in variants:
        if name not in shared:
            raise ValueError(f"{backend}'s query {name!r} varies no shared query")
    return shared, {k: tuple(v) for k, v in schema.items()}, variants


def query(name: str, backend: str | None = None) -> str:
    """The text of a shared query; ``backend``'s own text of it where it has one.

    Raises
    ------
    KeyError
        For an unknown name.
    """
    shared, _, variants = _load()
    if backend is not None:
        text = variants.get((backend, name))
        if text is not None:
            return text
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
