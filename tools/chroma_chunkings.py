"""The three chunkings of the chunking tutorial as chunk maps (graphsr.io.chunks.make_chunks): ``fixed800``
(800 characters), ``overlap800`` (800 every 400) and ``blocks800`` (Markdown blocks packed up to 800).

tools/record_chroma.py runs Chroma's evaluation on them.  Usage: python tools/chroma_chunkings.py CORPORA OUT_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from graphsr.io.chunks import make_chunks, write_chunk_map

CHUNKINGS = {
    "fixed800": {"size": 800},
    "overlap800": {"size": 800, "step": 400},
    "blocks800": {"size": 800, "by": "blocks"},
}


def main(corpora: str, out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, kw in CHUNKINGS.items():
        print(f"{name}: {write_chunk_map(make_chunks(corpora, **kw), out / f'{name}.chunks.jsonl')} chunks")


if __name__ == "__main__":
    main(*sys.argv[1:3])
