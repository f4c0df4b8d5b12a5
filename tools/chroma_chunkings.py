"""Three chunkings of a Markdown collection as chunk maps (JSON lines ``chunk_id, doc_id, start, end``):

* ``fixed800``: 800 characters, no overlap;
* ``overlap800``: 800 characters every 400 (half of each chunk overlaps the next);
* ``blocks800``: the Markdown blocks graphsr reads (paragraphs, lists, code, tables; top level), packed in
  order while a chunk stays within 800 characters, a longer block cut every 800 characters.

Used by tools/record_chroma.py (what Chroma's evaluation gives on these chunkings) and by the chunking
tutorial.  Usage: python tools/chroma_chunkings.py CORPORA_DIR OUT_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import graphsr
import graphsr.io

SIZE = 800


def fixed(text: str, size: int = SIZE, step: int = SIZE) -> list[tuple[int, int]]:
    out, start = [], 0
    while start < len(text):
        out.append((start, min(start + size, len(text))))
        if start + size >= len(text):
            break
        start += step
    return out


def blocks(tree, size: int = SIZE) -> list[tuple[int, int]]:
    """Top-level blocks packed up to ``size`` characters (a longer block cut every ``size``)."""
    pieces = []
    for i in range(1, len(tree)):
        if tree.parent[i] == 0:
            s, e = int(tree.start[i]), int(tree.end[i])
            pieces.extend((a, min(a + size, e)) for a in range(s, e, size))
    out: list[list[int]] = []
    for s, e in pieces:
        if out and e - out[-1][0] <= size:  # (the blank lines between blocks go with them)
            out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def chunkings(corpora) -> dict[str, list[tuple[str, str, int, int]]]:
    texts = graphsr.io.document_texts(corpora)
    trees = {t.docid: t for t in graphsr.iter_documents(corpora)}
    out: dict[str, list] = {"fixed800": [], "overlap800": [], "blocks800": []}
    for doc in sorted(texts):
        text = texts[doc]
        for name, ranges in (("fixed800", fixed(text)), ("overlap800", fixed(text, SIZE, SIZE // 2)),
                             ("blocks800", blocks(trees[doc]))):
            out[name].extend((f"{doc}_{k}", doc, s, e) for k, (s, e) in enumerate(ranges))
    return out


def main(corpora: str, out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, chunks in chunkings(corpora).items():
        with open(out / f"{name}.chunks.jsonl", "w") as f:
            for cid, doc, s, e in chunks:
                f.write(json.dumps({"chunk_id": cid, "doc_id": doc, "start": s, "end": e}) + "\n")
        print(f"{name}: {len(chunks)} chunks")


if __name__ == "__main__":
    main(*sys.argv[1:3])
