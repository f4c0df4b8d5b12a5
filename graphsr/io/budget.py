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
import time

__all__ = [
    "BYTES_PER_ELEMENT",
    "TEXT_FACTOR",
    "document_budget",
    "reading_cost",
    "check_document",
    "check_text_document",
    "check_text_size",
    "text_reading_cost",
    "TEXT_COST",
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


def check_document(size: int, chunks, name: str, count: bool = True) -> None:
    """Refuse a document whose reading would take more memory than :func:`document_budget`; ``chunks``: a
    callable giving its bytes in chunks, called only for a document large enough to come near the bound
    (``count=False``: the bytes are not there yet, only what they alone cost is checked).

    Raises
    ------
    CollectionError
        In one line: the document's elements and size, what reading it would take, and the bound.
    """
    budget, why = document_budget()
    if reading_cost(size, size // _MIN_ELEMENT_BYTES) <= budget:
        return  # even a file of nothing but <a/> fits
    if not count:
        return check_text_size(size, name, TEXT_FACTOR)
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


#: What reading a Markdown or text document costs (bytes), per byte of the file (its bytes, its decoded text, the
#: parser's copy), per line (a paragraph's line is two of cmark's nodes, some 300 bytes each, and its block
#: graphsr's arrays), per line opening with a block marker or indentation (a list item, a quote, a heading, a
#: table row: several nodes and elements each), and per inline delimiter (``*_`[]<!&\|~``: each a node or two).
#: Measured on generated worst cases of each kind (nested lists 1,916 bytes a line, one line of a million
#: emphases 228 bytes a byte, tables 1,945 bytes a row, 6.7 million short paragraphs 424 bytes a line), every one
#: below this bound (tests/test_document_budget.py); real Markdown (Hugo's, the Rust book's and tldr's pages) takes
#: 17 to 33 bytes a byte, a third to a half of what the bound says.
TEXT_COST = {"byte": 12, "line": 500, "marked line": 1500, "delimiter": 520}
_DELIMITERS = b"*_`[]<!&\\|~"
_MARKERS = b"-*+#>|`~ \t0123456789"


def text_reading_cost(data: bytes) -> tuple[int, dict[str, int]]:
    """What reading a Markdown or text document of bytes ``data`` takes, about (an upper bound: see
    :data:`TEXT_COST`), and the counts it rests on."""
    counts = {
        "byte": len(data),
        "line": data.count(b"\n") + 1,
        "marked line": sum(data.count(b"\n" + bytes((c,))) for c in _MARKERS)
        + (data[:1] in [bytes((c,)) for c in _MARKERS]),
        "delimiter": sum(data.count(bytes((c,))) for c in _DELIMITERS),
    }
    return sum(TEXT_COST[k] * n for k, n in counts.items()), counts


#: The most a byte of a text document can cost (each byte a line, a marked line and a delimiter at once): a
#: document this cost of whose size fits the bound is read without counting.
_MOST_PER_BYTE = sum(TEXT_COST.values())


def check_text_size(size: int, name: str, factor: int | None = None) -> None:
    """Refuse, before reading it, a document (an archive's member) of ``size`` bytes that could not be read within
    :func:`document_budget` whatever it holds: what its bytes alone cost, ``factor`` (default: a text document's,
    ``TEXT_COST["byte"]``) times the file."""
    factor = TEXT_COST["byte"] if factor is None else factor
    budget, why = document_budget()
    if factor * size > budget:
        from ..errors import CollectionError

        raise CollectionError(
            f"{_size(size)}: reading it takes at least {_size(factor * size)} ({factor} times the file), more "
            f"than graphsr's bound for one document: {_size(budget)}, {why}",
            name,
        )


def check_text_document(data: bytes, name: str) -> None:
    """:func:`check_document` for a Markdown, text or HTML document in memory: its lines, marked lines and
    inline delimiters (Markdown, text: :func:`text_reading_cost`) or start tags (HTML) counted against the same
    bound."""
    budget, why = document_budget()
    size = len(data)
    if _MOST_PER_BYTE * (size + 1) <= budget:
        return
    if data.lstrip()[:1] == b"<":
        return check_document(size, lambda: (data,), name)
    cost, counts = text_reading_cost(data)
    if cost > budget:
        from ..errors import CollectionError

        raise CollectionError(
            f"{counts['line']:,} lines ({counts['marked line']:,} opening a block) and {counts['delimiter']:,} "
            f"inline delimiters in {_size(size)}: reading it takes about {_size(cost)}, more than graphsr's bound "
            f"for one document: {_size(budget)}, {why}",
            name,
        )
