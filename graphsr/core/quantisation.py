"""INEX 2002-2005 relevance grades and the quantisation functions that map them to one value.

An INEX 2002-2005 assessment is an exhaustivity/specificity pair ``(e, s)``,
each in 0..3 (0 on both for a non-relevant element).  A quantisation
function ``f_quant: ES -> [0, 1]`` models a user's preferences:

* ``strict``: 1 for (3, 3), else 0;
* ``gen`` (generalised; PRUM paper Appendix C.1): 1 for (3, 3); 0.75 for
  (2, 3), (3, 2), (3, 1); 0.5 for (1, 3), (2, 2), (2, 1); 0.25 for (1, 1),
  (1, 2); 0 for (0, 0);
* ``sog`` (specificity-oriented generalised; the Kazai-Lalmas paper Eq 2):
  1 for (3, 3); 0.9 for (2, 3); 0.75 for (1, 3), (3, 2); 0.5 for (2, 2);
  0.25 for (1, 2), (3, 1); 0.1 for (2, 1), (1, 1); 0 for (0, 0);
* a user mapping, written ``es:value/es:value/...`` with ``es`` the two
  digits of a pair (``33:1/23:0.8/...``; pairs not listed map to 0), or
  registered by name with :func:`register_quantisation`.

inex-2003 quantises each dimension on its own (PRUM paper Appendix C.2):
``gen`` maps 3, 2, 1, 0 to 1, 2/3, 1/3, 0; ``strict`` maps 3 to 1 and the
rest to 0 (:func:`quantise_dimension`).

>>> quantise([(3, 3), (2, 3), (1, 1)], "sog").tolist()
[1.0, 0.9, 0.1]
>>> quantise([(3, 1)], "33:1/31:0.4").tolist()
[0.4]
"""

from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np

from ..errors import GraphsrInputError

__all__ = [
    "ES_PAIRS",
    "QUANTISATIONS",
    "quantise",
    "quantise_dimension",
    "register_quantisation",
    "check_quantisation",
    "check_grade",
]

#: The pairs an INEX 2002-2005 assessment may take.
ES_PAIRS = ((0, 0), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3))


def _table(values: Mapping[tuple[int, int], float]) -> np.ndarray:
    t = np.zeros((4, 4))
    for (e, s), v in values.items():
        t[e, s] = v
    return t


QUANTISATIONS: dict[str, np.ndarray] = {
    "strict": _table({(3, 3): 1.0}),
    "gen": _table(
        {
            (3, 3): 1.0,
            (2, 3): 0.75,
            (3, 2): 0.75,
            (3, 1): 0.75,
            (1, 3): 0.5,
            (2, 2): 0.5,
            (2, 1): 0.5,
            (1, 1): 0.25,
            (1, 2): 0.25,
        }
    ),
    "sog": _table(
        {
            (3, 3): 1.0,
            (2, 3): 0.9,
            (1, 3): 0.75,
            (3, 2): 0.75,
            (2, 2): 0.5,
            (1, 2): 0.25,
            (3, 1): 0.25,
            (2, 1): 0.1,
            (1, 1): 0.1,
        }
    ),
}

_DIMENSION = {"gen": np.array([0.0, 1 / 3, 2 / 3, 1.0]), "strict": np.array([0.0, 0.0, 0.0, 1.0])}


#: Other names of the built-in quantisations (the INEX papers spell "generalised" both ways).
ALIASES = {"generalised": "gen", "generalized": "gen", "general": "gen", "strict": "strict", "sog": "sog", "gen": "gen"}


def canonical_quantisation(spec: str) -> str:
    """The canonical name of a quantisation: ``generalised``/``generalized`` are ``gen`` (any case); other
    names and ``33:1/...`` pairs are kept as given.

    >>> canonical_quantisation("Generalized"), canonical_quantisation("STRICT"), canonical_quantisation("33:1")
    ('gen', 'strict', '33:1')
    """
    return ALIASES.get(spec.strip().lower(), spec.strip()) if isinstance(spec, str) else spec


def check_grade(e: int, s: int) -> None:
    """Raise ValueError unless ``(e, s)`` is an INEX pair (both 0, or both in 1..3)."""
    if (e, s) not in ES_PAIRS:
        raise ValueError(f"expected an INEX (e, s) pair, both 0 or both in 1..3, got ({e}, {s})")


def register_quantisation(name: str, values: Mapping[tuple[int, int], float]) -> None:
    """Make ``quant=name`` mean the mapping ``values`` ((e, s) -> value in [0, 1]; pairs not given map to 0)."""
    if not name.isidentifier():
        raise GraphsrInputError(f"a quantisation name must be an identifier, got {name!r}")
    for (e, s), v in values.items():
        check_grade(e, s)
        if not 0.0 <= float(v) <= 1.0:
            raise GraphsrInputError(f"quantisation {name}: value for ({e}, {s}) must be in [0, 1], got {v!r}")
    QUANTISATIONS[name] = _table(values)


def _parse(spec: str) -> np.ndarray:
    values = {}
    for part in spec.split("/"):
        pair, sep, value = part.partition(":")
        try:
            if not sep or len(pair) != 2:
                raise ValueError
            e, s, v = int(pair[0]), int(pair[1]), float(value)
            check_grade(e, s)
        except ValueError:
            raise GraphsrInputError(
                f"quant={spec!r}: expected strict, gen (generalised), sog, a registered name or pairs like "
                f"33:1/23:0.8 (exhaustivity and specificity digits, then a value), got "
                f"{part!r}"
            ) from None
        if not 0.0 <= v <= 1.0:
            raise GraphsrInputError(f"quant={spec!r}: values must be in [0, 1], got {value!r}")
        values[(e, s)] = v
    return _table(values)


def check_quantisation(spec: str) -> None:
    """Raise GraphsrInputError if ``spec`` names no quantisation (for measure validation)."""
    spec = canonical_quantisation(spec)
    if spec not in QUANTISATIONS:
        _parse(spec)


def quantise(grades: Iterable[tuple[int, int]] | np.ndarray, spec: str) -> np.ndarray:
    """The values of ``(e, s)`` grades under quantisation ``spec`` (see the module docstring)."""
    spec = canonical_quantisation(spec)
    table = QUANTISATIONS[spec] if spec in QUANTISATIONS else _parse(spec)
    g = np.asarray(list(grades) if not isinstance(grades, np.ndarray) else grades, dtype=np.int64).reshape(-1, 2)
    return table[g[:, 0], g[:, 1]]


def quantise_dimension(values: Iterable[int] | np.ndarray, spec: str = "gen") -> np.ndarray:
    """inex-2003's quantisation of one dimension (exhaustivity or specificity, 0..3): ``gen`` or ``strict``."""
    spec = canonical_quantisation(spec)
    if spec not in _DIMENSION:
        raise GraphsrInputError(f"inex-2003 quantises each dimension with gen (generalised) or strict, got {spec!r}")
    return _DIMENSION[spec][np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=np.int64)]
