"""Settings from a ``.env`` file in the working directory (the file ``.env.example`` shows).

The command line reads ``./.env`` before it runs a command and takes from it
the ``GRAPHSR_*`` variables (``GRAPHSR_STORE``, ``GRAPHSR_NEO4J_USER``,
``GRAPHSR_NEO4J_PASSWORD``, ``GRAPHSR_NEO4J_DATABASE``); other names in it are
left to the tools that read them too (``docker compose``).  A variable already
set in the environment wins over the file.  The format is the one
``docker compose`` reads: ``KEY=VALUE`` lines, ``#`` comments, an optional
``export`` prefix, values optionally in single or double quotes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import GraphsrInputError

__all__ = ["read_dotenv", "apply_dotenv", "PREFIX"]

PREFIX = "GRAPHSR_"
_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


def _value(raw: str, path: Path, lineno: int) -> str:
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        q = raw[0]
        end = raw.find(q, 1)
        while q == '"' and end > 0 and raw[end - 1] == "\\":
            end = raw.find(q, end + 1)
        if end < 0:
            raise GraphsrInputError(f"expected a closing {q} in the value", path, lineno)
        rest = raw[end + 1:].strip()
        if rest and not rest.startswith("#"):
            raise GraphsrInputError(f"expected nothing but a comment after the quoted value, got {rest!r}", path,
                                    lineno)
        inner = raw[1:end]
        return inner.replace('\\"', '"').replace("\\\\", "\\") if q == '"' else inner
    return re.split(r"\s+#", raw, maxsplit=1)[0].rstrip()


def read_dotenv(path: str | os.PathLike) -> dict[str, str]:
    """The variables a ``.env`` file sets, in file order (a later line wins).

    Raises
    ------
    GraphsrInputError
        Naming the file and line of a line that is not ``KEY=VALUE``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".env", delete=False) as f:
    ...     _ = f.write("# a comment\\nexport GRAPHSR_STORE=local:/tmp/s  # inline\\nGRAPHSR_NEO4J_PASSWORD='p#w d'\\n")
    >>> read_dotenv(f.name)
    {'GRAPHSR_STORE': 'local:/tmp/s', 'GRAPHSR_NEO4J_PASSWORD': 'p#w d'}
    """
    path = Path(path)
    out: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GraphsrInputError("expected a UTF-8 text file of KEY=VALUE lines", path) from None
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _LINE.fullmatch(stripped)
        if m is None:
            raise GraphsrInputError(f"expected KEY=VALUE (or a # comment), got {stripped[:60]!r}", path, lineno)
        out[m.group(1)] = _value(m.group(2), path, lineno)
    return out


def apply_dotenv(directory: str | os.PathLike = ".", environ=None) -> dict[str, str]:
    """Set the ``GRAPHSR_*`` variables of ``directory/.env`` that the environment does not set;
    returns those it set.  No file, nothing set."""
    environ = os.environ if environ is None else environ
    path = Path(directory) / ".env"
    if not path.is_file():
        return {}
    new = {k: v for k, v in read_dotenv(path).items() if k.startswith(PREFIX) and k not in environ}
    environ.update(new)
    return new
