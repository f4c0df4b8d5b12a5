"""Bundled sample data (see ``samples/*/README.md``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["samples_dir", "sample"]


def samples_dir() -> Path:
    """Directory holding the bundled sample sets."""
    return Path(__file__).resolve().parent / "samples"


def sample(name: str) -> dict:
    """Paths of one sample set: ``collection`` (None for ``inex2010``, whose Wikipedia collection is not
    bundled), ``qrels``, ``runs`` (sorted list, plain or gzip) and ``topics`` (None where there are none).

    >>> s = sample("inex2010")
    >>> s["collection"] is None, s["qrels"].name, [r.name for r in s["runs"]]
    (True, 'qrels.txt', ['bic11.run.gz', 'foc11.run.gz', 'ric11.run.gz'])
    """
    base = samples_dir() / name
    if not base.is_dir():
        known = ", ".join(sorted(p.name for p in samples_dir().iterdir() if p.is_dir()))
        raise KeyError(f"no sample {name!r}; known samples: {known}")
    topics = [p for p in (base / "topics.txt", base / "topics.xml") if p.exists()]
    return {"collection": base / "collection" if (base / "collection").is_dir() else None,
            "qrels": base / "qrels.txt",
            "runs": sorted(p for p in (base / "runs").iterdir() if p.name.endswith((".run", ".run.gz"))),
            "topics": topics[0] if topics else None}
