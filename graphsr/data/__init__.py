"""Bundled sample data (see ``samples/*/README.md``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["samples_dir", "sample"]


def samples_dir() -> Path:
    """Directory holding the bundled sample sets."""
    return Path(__file__).resolve().parent / "samples"


def sample(name: str) -> dict:
    """Paths of one sample set: ``collection`` (a directory, or ``collection.tar.gz``; None for ``inex2010``,
    whose Wikipedia collection is not bundled), ``qrels`` (``qrels.txt``, or the ``chroma`` sample's span
    judgments ``qrels.csv.gz``), ``runs`` (sorted list, plain or gzip), ``topics`` (None where there are none)
    and ``chunks`` (the chunk maps of ``chunks/*.jsonl.gz``, by name; empty where there are none).

    >>> s = sample("inex2010")
    >>> s["collection"] is None, s["qrels"].name, [r.name for r in s["runs"]]
    (True, 'qrels.txt', ['bic11.run.gz', 'foc11.run.gz', 'ric11.run.gz'])
    """
    base = samples_dir() / name
    if not base.is_dir():
        known = ", ".join(sorted(p.name for p in samples_dir().iterdir() if p.is_dir()))
        raise KeyError(f"no sample {name!r}; known samples: {known}")
    topics = [p for p in (base / "topics.txt", base / "topics.xml") if p.exists()]
    collection = [p for p in (base / "collection", base / "collection.tar.gz") if p.exists()]
    qrels = [p for p in (base / "qrels.txt", base / "qrels.csv.gz") if p.exists()]
    chunks = sorted((base / "chunks").glob("*.jsonl.gz")) if (base / "chunks").is_dir() else []
    return {
        "collection": collection[0] if collection else None,
        "qrels": qrels[0],
        "runs": sorted(p for p in (base / "runs").iterdir() if p.name.endswith((".run", ".run.gz"))),
        "topics": topics[0] if topics else None,
        "chunks": {p.name.removesuffix(".jsonl.gz"): p for p in chunks},
    }
