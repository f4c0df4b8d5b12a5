"""How much memory reading one XML document may take, declared once and checked before the parse.

lxml builds the whole tree of a document before graphsr walks it: about 170 bytes an element, and graphsr's
arrays and their working space about 250 more while the tree is alive (measured on generated documents of 3
million elements: 300 to 415 bytes an element in all, plus about 3 times the file for its text).  A document of
33 million small elements in 300 MB would take some 14 GB.  Before parsing a document that could come near
the bound, graphsr counts its elements (the start tags: one pass over the bytes) and refuses, in one line
naming the bound, a document whose reading would take more than :func:`document_budget`:

* a declared share of physical memory: ``$GRAPHSR_DOCUMENT_MEMORY`` (a size such as ``8G`` or a percentage of
  physical memory; default 50%);
* no more than the process may still take: its address-space limit (``ulimit -v``) and its cgroup's memory
  limit, less what it holds, and the machine's available memory.
"""

from __future__ import annotations

import os

__all__ = [
    "BYTES_PER_ELEMENT",
    "TEXT_FACTOR",
    "document_budget",
    "reading_cost",
    "check_document",
    "check_text_document",
]

#: Memory a document's element costs while it is read (lxml's node and graphsr's arrays), bytes.
BYTES_PER_ELEMENT = 420
#: Memory per byte of the file while it is read (its text in lxml's tree, the bytes read, the arrays' text).
TEXT_FACTOR = 3
#: The fewest bytes an element takes in a file (``<a/>``): what bounds the elements of a file by its size.
_MIN_ELEMENT_BYTES = 4
ENV = "GRAPHSR_DOCUMENT_MEMORY"


def _meminfo() -> dict[str, int]:
    try:
        with open("/proc/meminfo") as fh:
            return {k: int(v.split()[0]) * 1024 for k, v in (line.split(":", 1) for line in fh)}
    except (OSError, ValueError):
        return {}


def _own(field: str) -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def _cgroup_room() -> int | None:
    """What the process's cgroup (v2) may still take, where it sets a limit."""
    try:
        with open("/proc/self/cgroup") as fh:
            rel = next((line.strip().split(":", 2)[2] for line in fh if line.startswith("0::")), None)
        if rel is None:
            return None
        base = "/sys/fs/cgroup" + rel
        with open(os.path.join(base, "memory.max")) as fh:
            limit = fh.read().strip()
        if limit == "max":
            return None
        with open(os.path.join(base, "memory.current")) as fh:
            return int(limit) - int(fh.read().strip())
    except (OSError, ValueError, StopIteration):
        return None


_CACHED: dict = {"value": None, "at": -1.0, "env": None}


def document_budget() -> tuple[int, str]:
    """The memory reading one document may take, and what sets it (for the message); measured again at most
    once a second, or when ``$GRAPHSR_DOCUMENT_MEMORY`` changes (a collection of 60,000 small documents asks
    60,000 times)."""
    import time

    now, env = time.monotonic(), os.environ.get(ENV)
    if _CACHED["value"] is None or now - _CACHED["at"] > 1.0 or env != _CACHED["env"]:
        _CACHED.update(value=_measured_budget(), at=now, env=env)
    return _CACHED["value"]


def _measured_budget() -> tuple[int, str]:
    import resource

    from .._sizes import parse_size, physical_memory

    given = os.environ.get(ENV, "").strip()
    share = parse_size(given, f"${ENV}") if given else physical_memory() // 2
    bounds = [(share, f"${ENV}" if given else "half of physical memory ($GRAPHSR_DOCUMENT_MEMORY sets it)")]
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft != resource.RLIM_INFINITY:
        bounds.append((soft - _own("VmSize"), "what the process's address-space limit (ulimit -v) leaves"))
    room = _cgroup_room()
    if room is not None:
        bounds.append((room, "what the process's cgroup memory limit leaves"))
    available = _meminfo().get("MemAvailable")
    if available is not None:
        bounds.append((available, "the machine's available memory"))
    return min(bounds)


def reading_cost(size: int, elements: int) -> int:
    """The memory reading a document of ``size`` bytes and ``elements`` elements takes, about."""
    return TEXT_FACTOR * size + BYTES_PER_ELEMENT * elements


def _start_tags(chunks) -> int:
    """The start tags (elements) in a document's bytes, given in chunks: '<' not followed by '/', '!' or '?'
    (a chunk boundary may miscount one: this is an estimate)."""
    n = 0
    for chunk in chunks:
        n += chunk.count(b"<") - chunk.count(b"</") - chunk.count(b"<!") - chunk.count(b"<?")
    return n


def check_document(size: int, chunks, name: str) -> None:
    """Refuse a document whose reading would take more memory than :func:`document_budget`; ``chunks``: a
    callable giving its bytes in chunks, called only for a document large enough to come near the bound.

    Raises
    ------
    CollectionError
        In one line: the document's elements and size, what reading it would take, and the bound.
    """
    budget, why = document_budget()
    if reading_cost(size, size // _MIN_ELEMENT_BYTES) <= budget:
        return  # even a file of nothing but <a/> fits
    elements = _start_tags(chunks())
    cost = reading_cost(size, elements)
    if cost > budget:
        from ..errors import CollectionError

        raise CollectionError(
            f"about {elements:,} elements in {_size(size)}: reading it takes about {_size(cost)} "
            f"({BYTES_PER_ELEMENT} bytes an element and {TEXT_FACTOR} times the file), more than "
            f"graphsr's bound for one document: {_size(budget)}, {why}",
            name,
        )


def _size(n: int) -> str:
    return f"{n / 2**30:,.1f} GB" if n >= 10 * 2**30 else f"{n / 2**20:,.0f} MB"


def file_chunks(path: str, size: int = 1 << 26):
    """A file's bytes in chunks of ``size``."""

    def chunks():
        with open(path, "rb") as fh:
            while True:
                block = fh.read(size)
                if not block:
                    return
                yield block

    return chunks


#: Memory a line of a Markdown or text document costs while it is read (the parser's tokens), bytes.
BYTES_PER_LINE = 1200


def check_text_document(data: bytes, name: str) -> None:
    """:func:`check_document` for a Markdown, text or HTML document in memory: its lines (Markdown, text) or
    start tags (HTML) counted against the same bound."""
    budget, why = document_budget()
    size = len(data)
    if TEXT_FACTOR * size + BYTES_PER_LINE * (size // 2 + 1) <= budget:
        return
    if data.lstrip()[:1] == b"<":
        return check_document(size, lambda: (data,), name)
    lines = data.count(b"\n") + 1
    cost = TEXT_FACTOR * size + BYTES_PER_LINE * lines
    if cost > budget:
        from ..errors import CollectionError

        raise CollectionError(
            f"{lines:,} lines in {_size(size)}: reading it takes about {_size(cost)} "
            f"({BYTES_PER_LINE} bytes a line and {TEXT_FACTOR} times the file), more than graphsr's "
            f"bound for one document: {_size(budget)}, {why}",
            name,
        )
