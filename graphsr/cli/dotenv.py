"""Settings from a ``.env`` file in the working directory (the file ``.env.example`` shows).

The command line reads ``./.env`` before it runs a command and takes from it
the ``GRAPHSR_*`` variables (``GRAPHSR_STORE``, the store's limits ``GRAPHSR_STORE_MEMORY`` .... ``GRAPHSR_NEO4J_USER``,
``GRAPHSR_NEO4J_PASSWORD``, ``GRAPHSR_NEO4J_DATABASE``).  Every other line is
left to the tools that read the file too (``docker compose``,
python-dotenv) and is not parsed at all, whatever its syntax: a bare ``FOO``
or a value in quotes over several lines never stops a command.  A variable
already set in the environment wins over the file.  A ``GRAPHSR_*`` line is
read as ``docker compose`` reads it: ``KEY=VALUE``, an optional ``export``
prefix, the value optionally in single or double quotes (which may span
lines), ``#`` comments; a malformed one is ignored with a warning naming
``.env:LINE``.
"""

from __future__ import annotations

import os
import re
from typing import Callable

from ..errors import GraphsrInputError

__all__ = ["read_dotenv", "apply_dotenv", "PREFIX"]

PREFIX = "GRAPHSR_"
_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


def _value(raw: str, path: str, lineno: int) -> str:
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        q = raw[0]
        end = raw.find(q, 1)
        while q == '"' and end > 0 and raw[end - 1] == "\\":
            end = raw.find(q, end + 1)
        if end < 0:
            raise GraphsrInputError(f"expected a closing {q} in the value", path, lineno)
        rest = raw[end + 1 :].strip()
        if rest and not rest.startswith("#"):
            raise GraphsrInputError(
                f"expected nothing but a comment after the quoted value, got {rest!r}", path, lineno
            )
        inner = raw[1:end]
        return _no_nul(inner.replace('\\"', '"').replace("\\\\", "\\") if q == '"' else inner, path, lineno)
    return _no_nul(re.split(r"\s+#", raw, maxsplit=1)[0].rstrip(), path, lineno)


def _no_nul(value: str, path: str, lineno: int) -> str:
    if "\0" in value:
        raise GraphsrInputError(
            "expected a value without a NUL byte (no environment variable can hold one)", path, lineno
        )
    return value


def _closing(raw: str) -> int:
    """Where the quote opening ``raw`` closes (-1 if it does not on this text)."""
    q = raw[0]
    end = raw.find(q, 1)
    while q == '"' and end > 0 and raw[end - 1] == "\\":
        end = raw.find(q, end + 1)
    return end


def read_dotenv(
    path: str | os.PathLike, prefix: str = PREFIX, warn: Callable[[str], None] | None = None
) -> dict[str, str]:
    """The ``prefix`` variables (``GRAPHSR_*``) a ``.env`` file sets, in file order (a later line wins); other
    lines are skipped unread (a quoted value over several lines included).

    A malformed line of a ``prefix`` variable is ignored: ``warn`` gets a message naming the file and line
    (without ``warn`` it raises :class:`~graphsr.errors.GraphsrInputError`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".env", delete=False) as f:
    ...     _ = f.write("# a comment\\nexport GRAPHSR_STORE=local:/tmp/s  # inline\\nFOO\\nKEY=\\"two\\nlines\\"\\n"
    ...                 "GRAPHSR_NEO4J_PASSWORD='p#w d'\\n")
    >>> read_dotenv(f.name)
    {'GRAPHSR_STORE': 'local:/tmp/s', 'GRAPHSR_NEO4J_PASSWORD': 'p#w d'}
    """
    path = os.fspath(path)  # (not pathlib: every command reads this module, and pathlib's import costs 5 ms)
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError as exc:
        raise GraphsrInputError(f"cannot read the file ({exc.strerror})", path) from None
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        lineno, stripped = k + 1, lines[k].strip()
        k += 1
        if not stripped or stripped.startswith("#"):
            continue
        body = stripped[len("export") :].lstrip() if re.match(r"export\s", stripped) else stripped
        m = _LINE.fullmatch(body)
        raw = m.group(2).strip() if m else ""
        if raw[:1] in ("'", '"') and _closing(raw) < 0:  # a quoted value going on over the next lines
            while k < len(lines) and _closing(raw) < 0:
                raw += "\n" + lines[k]
                k += 1
        if not body.startswith(prefix):
            continue
        try:
            if m is None:
                raise GraphsrInputError(f"expected {prefix}NAME=VALUE, got {stripped[:60]!r}", path, lineno)
            out[m.group(1)] = _value(raw, path, lineno)
        except GraphsrInputError as exc:
            if warn is None:
                raise
            warn(f"{exc}; the line is ignored")
    return out


def apply_dotenv(directory: str | os.PathLike = ".", environ=None) -> dict[str, str]:
    """Set the ``GRAPHSR_*`` variables of ``directory/.env`` that the environment does not set;
    returns those it set.  No file, nothing set."""
    environ = os.environ if environ is None else environ
    path = os.path.normpath(os.path.join(os.fspath(directory), ".env"))
    if not os.path.isfile(path):
        return {}
    from ._common import warn

    new = {k: v for k, v in read_dotenv(path, warn=warn).items() if k not in environ}
    environ.update(new)
    return new
