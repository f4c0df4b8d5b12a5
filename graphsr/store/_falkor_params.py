"""Parameter encoding for FalkorDB's ``CYPHER name=value ...`` query header.

FalkorDB receives query parameters as a header of Cypher literals in front
of the (unchanged) query text; the ``falkordb`` client builds it with a
generic recursive encoder that costs a few microseconds per value.  This is
the same encoding, with a type dispatch and a fast path for the row lists of
``UNWIND $rows`` batches, so that loading is not bound by it:

* strings: double-quoted, backslash and double quote escaped (as the client);
* booleans ``true``/``false``; integers; finite floats by ``repr`` (exact);
  ``None`` -> ``null``; lists and tuples; maps with backtick-quoted keys.

Keys come from graphsr's own code (never from data) and are checked all the
same: empty keys and keys with a backtick are refused, as the client does.
Values are never interpreted as Cypher: they are literals of the header.
"""

from __future__ import annotations

import math

__all__ = ["params_header", "Literal", "string_literal", "literals"]


class Literal(str):
    """Text this module's rules already encoded as a Cypher literal (built from :func:`string_literal` and
    ``str`` of integers by a caller that knows its rows' layout): sent as it is."""


def _string(v: str) -> str:
    if "\\" in v:
        v = v.replace("\\", "\\\\")
    if '"' in v:
        v = v.replace('"', '\\"')
    return '"' + v + '"'


string_literal = _string


def _float(v: float) -> str:
    if not math.isfinite(v):
        raise ValueError(f"cannot send a non-finite number ({v!r}) as a query parameter")
    return repr(v)


def _key(k) -> str:
    k = k.decode() if isinstance(k, bytes) else str(k)
    if not k or "`" in k:
        raise ValueError(f"invalid parameter or map key {k!r}: empty or with a backtick")
    return "`" + k + "`"


def _list(v) -> str:
    if v:
        first = type(v[0])
        if first is dict and all(type(x) is dict for x in v):
            return _rows(v)
        if first is list and all(type(x) is list and len(x) == len(v[0]) for x in v):
            return _tuples(v)
    return "[" + ",".join(_encode(x) for x in v) + "]"


#: Rows encoded at a time by :func:`_tuples`: the cells' strings of one slice are held at once, not a whole
#: statement's (a document of 194,359 elements held ten columns of 194,359 strings, ~130 MB, to encode its rows).
SLICE = 1 << 14


def _tuples(rows: list[list]) -> str:
    """Rows given as lists of one length (``[key, pre, tag, ...]``): encoded column by column, a slice of rows at
    a time."""
    if not rows[0]:
        return "[" + ",".join("[]" for _ in rows) + "]"
    parts = []
    for at in range(0, len(rows), SLICE):
        columns = [_column(list(c)) for c in zip(*rows[at : at + SLICE])]
        parts.append(",".join("[" + ",".join(cells) + "]" for cells in zip(*columns)))
    return "[" + ",".join(parts) + "]"


def _dict(v: dict) -> str:
    return "{" + ",".join(_key(k) + ":" + _encode(x) for k, x in v.items()) + "}"


def _column(values: list) -> list[str]:
    """Encode one column of a batch; a column of one plain type maps a single encoder over it."""
    types = set(map(type, values))
    if types == {int}:
        return list(map(str, values))
    if types == {str}:
        joined = "".join(values)
        if "\\" not in joined and '"' not in joined:  # (nothing to escape: quoted as they are)
            return list(map('"%s"'.__mod__, values))
        return list(map(_string, values))
    if types == {float}:
        if all(map(math.isfinite, values)):
            return list(map(float.__repr__, values))
        return list(map(_float, values))  # (raises at the first non-finite number)
    return list(map(_encode, values))


def literals(values: list) -> list[str]:
    """Each value encoded as :func:`params_header` encodes it (a column of one plain type with one encoder)."""
    return _column(values)


def _rows(rows: list[dict]) -> str:
    # the rows of one batch usually share their keys: encode column by column
    keys = list(rows[0])
    keyset = rows[0].keys()
    if any(r.keys() != keyset for r in rows):
        return "[" + ",".join(map(_dict, rows)) + "]"
    parts: list = []
    for j, k in enumerate(keys):
        parts.append([("{" if j == 0 else ",") + _key(k) + ":"] * len(rows))
        parts.append(_column([r[k] for r in rows]))
    parts.append(["}"] * len(rows))
    return "[" + ",".join(map("".join, zip(*parts))) + "]"


_DISPATCH = {
    str: _string,
    Literal: str.__str__,
    bool: lambda v: "true" if v else "false",
    int: str,
    float: _float,
    type(None): lambda v: "null",
    list: _list,
    tuple: _list,
    dict: _dict,
}


def _encode(v) -> str:
    f = _DISPATCH.get(type(v))
    if f is not None:
        return f(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        return _float(float(v))
    if isinstance(v, str):
        return _string(str(v))
    if isinstance(v, (list, tuple)):
        return _list(v)
    if isinstance(v, dict):
        return _dict(v)
    try:  # numpy scalars
        return _encode(v.item())
    except AttributeError:
        raise TypeError(f"cannot send a {type(v).__name__} as a query parameter") from None


def params_header(params: dict | None) -> str:
    """The ``CYPHER k=v ...`` header for a parameter dict ('' for none).

    Examples
    --------
    >>> params_header({"rows": [{"id": 'a"b', "n": 1}, {"id": "c", "n": 2.5}]})
    'CYPHER `rows`=[{`id`:"a\\\\"b",`n`:1},{`id`:"c",`n`:2.5}] '
    >>> params_header({"rows": [[1, "t", None], [2, "u", 5]]})
    'CYPHER `rows`=[[1,"t",null],[2,"u",5]] '
    """
    if not params:
        return ""
    return "CYPHER " + "".join(_key(k) + "=" + _encode(v) + " " for k, v in params.items())
