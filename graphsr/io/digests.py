"""A file's SHA-256, read in blocks: what provenance records name inputs by."""

from __future__ import annotations

import hashlib
import os

__all__ = ["file_sha256"]


def file_sha256(path) -> str | None:
    """The SHA-256 of the file ``path`` (hex), or None where ``path`` names no regular file (assessments in
    memory, a stored name, a directory)."""
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path):
        return None
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
