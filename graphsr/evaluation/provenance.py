"""What a result rests on: graphsr's version, the inputs (each file's SHA-256, size, and for judgments who judged
them), the options and the command, recorded with every score table ``graphsr eval --save`` writes, and shown
by ``graphsr report``.

A record is plain JSON::

    {"graphsr": "0.1.0", "created": "2026-12-04T01:50:00Z", "command": ["eval", "qrels", "run", ...],
     "options": {"measures": ["P@10"], ...},
     "inputs": [{"role": "qrels", "path": "qrels", "bytes": 1234, "sha256": "...", "judge": "person"},
                {"role": "run", "path": "run", "bytes": 99, "sha256": "...", "ir_metadata": "tag: bm25\\n"}, ...]}

Files the evaluation reads whole (qrels, runs, navigation logs) are hashed; a collection, a corpus or a chunk
map (read only where the inputs point, and up to hundreds of gigabytes) is recorded by its size and
modification time, a directory by the digest of its listing (each file's relative path, size and modification
time): its content is never read for the record.  :func:`qrels_digests` gives the judgments' digests a record
names, by which tables scored against different judgments are told apart.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["input_record", "provenance_record", "qrels_digests", "JUDGMENT_ROLES", "HASHED_ROLES"]

#: The roles of inputs holding judgments (a record names who judged them).
JUDGMENT_ROLES = ("qrels", "model-qrels")
#: The roles of inputs read whole by an evaluation, and so hashed whole.
HASHED_ROLES = ("qrels", "model-qrels", "run", "routes")
#: The most files a directory's listing digest covers: past it the listing is refused, not walked for hours.
MAX_LISTED = 1_000_000


def _sha256(path: Path) -> str:
    from ..io.digests import file_sha256

    found = file_sha256(path)
    assert found is not None  # (a file: the caller saw it)
    return found


def _listing(path: Path) -> dict:
    from ..errors import GraphsrInputError

    digest = hashlib.sha256()
    count = total = 0
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            full = Path(root) / name
            st = full.stat()
            digest.update(f"{full.relative_to(path).as_posix()}\t{st.st_size}\t{st.st_mtime_ns}\n".encode())
            count += 1
            total += st.st_size
            if count > MAX_LISTED:
                raise GraphsrInputError(f"{path}: more than {MAX_LISTED:,} files: too many to record their listing")
    return {"kind": "directory", "files": count, "bytes": total, "listing_sha256": digest.hexdigest()}


def input_record(role: str, path: str | os.PathLike, judge: str | None = None) -> dict:
    """One input's entry: its role (qrels, model-qrels, run, collection, chunks, routes, ...), path, size, and
    its SHA-256 (for the roles read whole, :data:`HASHED_ROLES`) or listing digest; who judged it, for
    judgments; a run's ir_metadata header, as its text."""
    p = Path(path)
    out: dict = {"role": role, "path": str(path)}
    if p.is_dir():
        out.update(_listing(p))
    elif p.is_file():
        st = p.stat()
        out["bytes"] = st.st_size
        if role in HASHED_ROLES:
            out["sha256"] = _sha256(p)
        else:
            out["mtime_ns"] = st.st_mtime_ns
    else:  # (a name the evaluation resolved otherwise: a stored model, a dataset id)
        out["kind"] = "name"
    if role in JUDGMENT_ROLES:
        out["judge"] = judge or ("model" if role == "model-qrels" else "person")
    if role == "run" and p.is_file():
        from ..io.ir_metadata import read_ir_metadata

        meta = read_ir_metadata(p)
        if meta is not None:
            out["ir_metadata"] = meta.text
    return out


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def provenance_record(inputs: list[dict], options: dict, command: list[str]) -> dict:
    """The record of one evaluation: graphsr's version, when, the command's words, its options (as JSON values)
    and its inputs (:func:`input_record` each)."""
    from datetime import datetime, timezone

    from .. import __version__

    return {
        "graphsr": __version__,
        "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": [str(w) for w in command],
        "options": _plain(options),
        "inputs": list(inputs),
    }


def qrels_digests(record: dict) -> tuple[str, ...]:
    """The digests of the judgments people gave a record's evaluation (its ``qrels`` inputs), in order."""
    return tuple(
        i.get("sha256") or i.get("listing_sha256", "?") for i in record.get("inputs", ()) if i["role"] == "qrels"
    )
