"""A JSON lines corpus's records: each document's id (``doc_id``, ``_id`` as BEIR's, ``docid`` as MS MARCO's), its
text (``text``, or ``body`` as MS MARCO's) and the ``format`` it is in."""

from __future__ import annotations

from ..errors import CollectionError

__all__ = ["CORPUS_SUFFIXES", "ID_KEYS", "TEXT_KEYS", "FORMATS", "record_fields"]

#: The names of JSON lines corpus files (also gzipped).
CORPUS_SUFFIXES = (".jsonl", ".ndjson", ".json")
#: A corpus record's id and text, in the order they are looked for.
ID_KEYS = ("doc_id", "_id", "docid")
TEXT_KEYS = ("text", "body")
#: The ``format`` a corpus record declares, and the file name ending each is read as.
FORMATS = {"markdown": ".md", "text": ".txt", "html": ".html", "xml": ".xml"}


def record_fields(r: dict, path, line: int) -> tuple[str, str, str]:
    """A corpus record's ``(doc_id, text, format)``, checked."""
    docid = next((r[k] for k in ID_KEYS if k in r), None)
    text = next((r[k] for k in TEXT_KEYS if k in r), None)
    if docid in (None, "") or not isinstance(text, str):
        raise CollectionError(
            "expected a doc_id (or _id, docid) and a text (or body) on each line of a JSON lines corpus", path, line
        )
    kind = r.get("format", "text")
    if kind not in FORMATS:
        raise CollectionError(f"expected a format among {', '.join(FORMATS)}, got {kind!r}", path, line)
    return str(docid), text, kind
