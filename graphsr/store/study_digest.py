"""A navigation log's digest, the fingerprint a study is stored with (:mod:`graphsr.store.study_writes`): the same log
loaded again is told apart from another log under the study's name.

:func:`log_digest` is taken a column at a time over the log's steps in a canonical order (by route and step
number), elements named by document and canonical XPath, so that it needs nothing resolved; :func:`row_digest` is
the digest a graphsr before 2026-11-29 stored (a row at a time, elements as their keys), to compare the studies it
stored (:func:`held_digest`).
"""

from __future__ import annotations

__all__ = ["DIGEST_PREFIX", "log_digest", "row_digest", "held_digest", "route_starts", "sorted_rows"]


#: The prefix of a study's digest taken a column at a time (:func:`log_digest`); a digest without it was taken a row at
#: a time, with the elements' keys (:func:`row_digest`), by a graphsr before.
DIGEST_PREFIX = "c1:"


def log_digest(columns) -> str:
    """The log's digest: a SHA-256 of its steps sorted by route and step number -- route, step, document, the
    canonical XPaths of ``from`` and ``to`` (within a stored collection, one element each), user, topic,
    duration, time -- a column at a time (:func:`column_bytes`).  It needs no element resolved, so that a log is
    compared with a stored study before its documents are read, and a new study's is taken while the server
    writes its last routes: 1.0 s alone for the 400,803 steps of help's log, where the JSON encoder a row at a
    time (:func:`row_digest`) took 1.1-1.5 s, and only once the elements were resolved, with the server idle."""
    import hashlib

    import numpy as np

    route_ids, seqs, docids, src, dst, users, topics, durations, times, _ = columns
    row = (route_ids, seqs, docids, src, dst, users, topics, durations, times)
    order = sorted_rows(route_ids, seqs)
    if order is None:
        order = np.array(sorted(range(len(route_ids)), key=list(zip(*row)).__getitem__), dtype=np.int64)
    if np.array_equal(order, np.arange(len(order))):
        order = None
    h = hashlib.sha256()
    for column in row:
        h.update(column_bytes(column, order))
    return DIGEST_PREFIX + h.hexdigest()


def column_bytes(values: list, order) -> bytes:
    """One column's values in the rows' ``order`` (None: as they are) as bytes that tell any two columns apart: a
    tag of the column's kind and its length, which of its values are None, then the values -- 64-bit integers or
    floats as they are held, strings as their lengths and their UTF-8 text (lone surrogates kept); anything else
    (a mix of kinds, integers past 64 bits) as the JSON encoder writes the list."""
    import json

    import numpy as np

    n = len(values)
    kinds = set(map(type, values))
    none = type(None) in kinds
    kinds.discard(type(None))
    mask = np.fromiter((v is None for v in values), dtype=bool, count=n) if none else None
    present = [v for v in values if v is not None] if none else values
    head = b""
    body = None
    try:
        if kinds <= {int}:
            head, body = b"i", np.array(present, dtype="<i8")  # (little-endian on every machine)
        elif kinds == {float}:
            head, body = b"f", np.array(present, dtype="<f8")
    except OverflowError:
        head = b""
    if head and body is not None:
        full = np.zeros(n, dtype=body.dtype)
        full[slice(None) if mask is None else ~mask] = body
        if order is not None:
            full = full[order]
        data = full.tobytes()
    elif kinds == {str}:
        texts = [v if v is not None else "" for v in values] if none else values
        if order is not None:
            held = np.empty(n, dtype=object)
            held[:] = texts
            texts = held[order].tolist()
        lengths = np.fromiter(map(len, texts), dtype="<i8", count=n)
        head, data = b"s", lengths.tobytes() + "".join(texts).encode("utf-8", "surrogatepass")
    else:
        listed = values if order is None else list(map(values.__getitem__, order.tolist()))
        encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
        head, data, mask = b"j", encode(listed).encode("utf-8", "surrogatepass"), None
    if mask is not None and order is not None:
        mask = mask[order]
    missing = mask.tobytes() if mask is not None else b""
    return head + n.to_bytes(8, "little") + len(missing).to_bytes(8, "little") + missing + data


def row_digest(columns, src_keys: list[int], dst_keys: list[int]) -> str:
    """The log's digest as a graphsr before 2026-11-29 took it, to compare a study it stored
    (:func:`~graphsr.store.named.content_digest` of its steps sorted, elements as keys)."""
    from .named import content_digest

    route_ids, seqs, _, _, _, users, topics, durations, times, _ = columns
    row = (route_ids, seqs, src_keys, dst_keys, users, topics, durations, times)
    order = sorted_rows(route_ids, seqs)
    if order is None:
        return content_digest(sorted(zip(*row)))
    order = order.tolist()
    return content_digest(zip(*(map(c.__getitem__, order) for c in row)))


def held_digest(state: list[dict], columns, src_keys: list[int], dst_keys: list[int], digest: str) -> str:
    """The log's digest as the stored study's was taken (``digest``: the log's, a column at a time; an earlier
    graphsr's a row at a time, with the elements' keys)."""
    held = state[0]["digest"] if state else None
    if held and not held.startswith(DIGEST_PREFIX):
        return row_digest(columns, src_keys, dst_keys)
    return digest


def route_starts(route_ids: list[str]) -> list[int]:
    """The first row of each run of consecutive rows of one route."""
    return [i for i in range(len(route_ids)) if i == 0 or route_ids[i] != route_ids[i - 1]]


def sorted_rows(route_ids: list[str], seqs: list[int]):
    """The rows in the order of the steps sorted (an array of row numbers), found from their routes alone where
    that is the order (each route's rows together, with step numbers rising: then the rows sort by (route, step),
    which no two share), else None.  Sorts the 100,000 routes of a log of 400,803 steps rather than its steps."""
    import numpy as np

    n = len(route_ids)
    starts = route_starts(route_ids)
    try:
        seq = np.array(seqs, dtype=np.int64)
    except (OverflowError, TypeError, ValueError):
        return None
    within = np.ones(n, dtype=bool)
    within[starts] = False  # (a row of the same route as the row before it)
    if np.any(seq[1:][within[1:]] <= seq[:-1][within[1:]]):
        return None
    firsts = sorted(starts, key=route_ids.__getitem__)
    if any(route_ids[a] == route_ids[b] for a, b in zip(firsts, firsts[1:])):  # (a route's rows apart)
        return None
    length = dict(zip(starts, np.diff(np.array(starts + [n], dtype=np.int64)).tolist()))
    first = np.array(firsts, dtype=np.int64)
    lengths = np.array([length[a] for a in firsts], dtype=np.int64)
    # each route's rows in turn: its first row, then the next ones
    return np.repeat(first - (np.cumsum(lengths) - lengths), lengths) + np.arange(n, dtype=np.int64)
