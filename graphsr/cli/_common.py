"""Helpers shared by the subcommands."""

from __future__ import annotations

import sys

__all__ = ["progress_default", "warn"]


def progress_default() -> bool:
    """Progress bars only when stderr is a terminal."""
    return sys.stderr.isatty()


def warn(message: str) -> None:
    print(f"graphsr: warning: {message}", file=sys.stderr)
