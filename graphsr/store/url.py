"""Choosing a store by URL: ``local:PATH`` (default), ``bolt://...`` or ``neo4j://...``."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import GraphsrInputError
from .base import GraphStore

__all__ = ["default_store_url", "open_store", "stop_store"]


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
        Passed to the backend (``batch_size``, ``keep_running``, ...; ``create=False``: a local store must
        exist already -- commands that only read never make one).

    Raises
    ------
    GraphsrInputError
        For a URL of no known scheme; with ``create=False``, for a local path holding no store.
    """
    url = url or default_store_url()
    if url.startswith("local:"):
        from .local import LocalStore

        path = url[len("local:") :]
        if not path:
            raise GraphsrInputError(f"store URL {url!r}: expected local:PATH with a directory")
        return LocalStore(path, **options)
    if url.startswith(("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")):
        _check_server_url(url)
        from .bolt import BoltStore

        options.pop("keep_running", None)  # a Neo4j server is not ours to start or stop
        options.pop("create", None)  # nor its database ours to make
        options.pop("limits", None)  # nor its limits ours to set
        return BoltStore(url, **options)
    raise GraphsrInputError(f"unknown store URL {url!r}; expected local:PATH, bolt://HOST:PORT or neo4j://HOST:PORT")


def _check_server_url(url: str) -> None:
    """A Neo4j URL the driver can take: a host and, if given, a port number (one line otherwise)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
    except ValueError as exc:
        raise GraphsrInputError(
            f"store URL {url!r}: {exc}; expected bolt://HOST:PORT or neo4j://HOST:PORT "
            "(an IPv6 host in brackets: bolt://[::1]:7687)"
        ) from None
    if not parts.hostname:
        raise GraphsrInputError(f"store URL {url!r}: no host; expected bolt://HOST:PORT or neo4j://HOST:PORT")


def stop_store(url: str | None = None, wait: float = 0.0) -> bool:
    """Stop the local store's server once no command uses it (``graphsr store stop``); returns False if
    none was running.

    Raises
    ------
    GraphsrInputError
        For a store that is not local (graphsr does not run a Neo4j server), or a path that holds no store.
    StoreError
        If commands still use it after ``wait`` seconds, or it does not stop.
    """
    url = url or default_store_url()
    if not url.startswith("local:"):
        raise GraphsrInputError(f"{url} is not a local store; graphsr starts and stops local stores only")
    from .local import LocalServer, StoreMissingError

    server = LocalServer(url[len("local:") :])
    if not server.exists():  # a mistyped path: no store was ever made there, and a stop makes none
        raise StoreMissingError(f"no store at {server.path}: nothing to stop (check --store)")
    return server.stop(wait=wait)
