"""Numbers read as C's ``atol`` and ``atof`` read them (glibc): what ``graphsr trec_eval`` needs to read every
number trec_eval reads exactly as trec_eval reads it.

Both skip leading white space, then read the longest prefix that is a number and ignore the rest:
``atol("23.4")`` is 23, ``atol("5 ")`` is 5, ``atof("1e3x")`` is 1000.0.  ``atol`` saturates at the limits of
a 64-bit ``long`` (``atol("99999999999999999999")`` is 9223372036854775807); ``atof`` reads ``inf``,
``infinity``, ``nan``, ``nan(...)`` and hexadecimal numbers (``0x1.8p1``) as ``strtod`` does, and rounds a
decimal as it does (correctly).  Where no number starts the text, C reads 0: these functions return ``None``
instead, so that the caller decides whether to read 0 as trec_eval does, or to refuse.
"""

from __future__ import annotations

import re

__all__ = ["c_atol", "c_atof", "LONG_MAX", "LONG_MIN"]

LONG_MAX = (1 << 63) - 1
LONG_MIN = -(1 << 63)

# C's isspace in the "C" locale
_SPACE = " \t\n\v\f\r"
_LONG = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(
    r"[+-]?(?:"
    r"(?P<hex>0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    r"|(?P<dec>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|(?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?)"
    r")"
)


def _text(value: str | bytes) -> str:
    return value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else value


def c_atol(value: str | bytes) -> int | None:
    """The number C's ``atol`` reads from ``value``; None where no digit starts it (C reads 0).

    Examples
    --------
    >>> c_atol("23.4"), c_atol(" 5 "), c_atol(b"-7x"), c_atol("99999999999999999999"), c_atol("x")
    (23, 5, -7, 9223372036854775807, None)
    """
    text = _text(value).lstrip(_SPACE)
    m = _LONG.match(text)
    if m is None:
        return None
    return max(LONG_MIN, min(LONG_MAX, int(m.group())))


def c_atof(value: str | bytes) -> float | None:
    """The number C's ``atof`` (``strtod``) reads from ``value``; None where no number starts it (C reads 0).

    Examples
    --------
    >>> c_atof(".25,"), c_atof("1e3x"), c_atof("1e"), c_atof("-inf"), c_atof("0x1.8p1"), c_atof("1e999")
    (0.25, 1000.0, 1.0, -inf, 3.0, inf)
    >>> c_atof("nan"), c_atof("e5")
    (nan, None)
    """
    text = _text(value).lstrip(_SPACE)
    m = _FLOAT.match(text)
    if m is None:
        return None
    negative = text[0] == "-"
    if m.group("hex") is not None:
        body = m.group("hex")
        if "p" not in body.lower():
            body += "p0"
        try:
            number = float.fromhex(body)
        except OverflowError:  # strtod: HUGE_VAL
            number = float("inf")
    elif m.group("dec") is not None:
        number = float(m.group("dec"))
    elif m.group("inf") is not None:
        number = float("inf")
    else:
        number = float("nan")
    return -number if negative else number
