"""Choosing a store by URL: ``local:PATH`` (default), ``bolt://...`` or ``neo4j://...``."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import GraphsrInputError
from .base import GraphStore

__all__ = ["default_store_url", "open_store"]


def default_store_url() -> str:
    """``$GRAPHSR_STORE``, else the local store in the per-user data directory.

    The data directory is ``$XDG_DATA_HOME/graphsr/store`` (default
    ``~/.local/share/graphsr/store``).
    """
    env = os.environ.get("GRAPHSR_STORE")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"local:{Path(base) / 'graphsr' / 'store'}"


def open_store(url: str | None = None, **options) -> GraphStore:
    """Open (and, for ``local:``, start if needed) the store at ``url``.

    Parameters
    ----------
    url : str, optional
        ``local:PATH``, ``bolt://HOST:PORT`` or ``neo4j://HOST:PORT``;
        default :func:`default_store_url`.
    **options
        Passed to the backend (``batch_size``, ``keep_running``, ...).

    Raises
    ------
    GraphsrInputError
        For a URL of no known scheme.
    """
    url = url or default_store_url()
    if url.startswith("local:"):
        from .local import LocalStore

        path = url[len("local:"):]
        if not path:
            raise GraphsrInputError(f"store URL {url!r}: expected local:PATH with a directory")
        return LocalStore(path, **options)
    if url.startswith(("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")):
        from .bolt import BoltStore

        return BoltStore(url, **options)
    raise GraphsrInputError(f"unknown store URL {url!r}; expected local:PATH, bolt://HOST:PORT or neo4j://HOST:PORT")
