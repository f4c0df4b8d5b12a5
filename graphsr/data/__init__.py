"""Bundled sample data (see ``samples/*/README.md``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["samples_dir", "sample"]


def samples_dir() -> Path:
    """Directory holding the bundled sample sets."""
    return Path(__file__).resolve().parent / "samples"


def sample(name: str) -> dict:
    """Paths of one sample set: ``collection``, ``qrels`` and ``runs`` (sorted list)."""
    base = samples_dir() / name
    if not base.is_dir():
        known = ", ".join(sorted(p.name for p in samples_dir().iterdir() if p.is_dir()))
        raise KeyError(f"no sample {name!r}; known samples: {known}")
    return {"collection": base / "collection", "qrels": base / "qrels.txt",
            "runs": sorted((base / "runs").glob("*.run"))}
