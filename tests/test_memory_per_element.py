"""What scoring from files keeps of each document: its columns (tag, parent, depth, position as int32, text
offsets as int64, four 64-bit key hashes: 64 bytes an element) and a few KB per document, never a parse tree or
an index of every element's XPath (docs/scale.md, Memory)."""

from __future__ import annotations

import random
import tracemalloc

from graphsr.core.document import normalize_xpath
from graphsr.io import iter_documents

from .conftest import write

BYTES_PER_ELEMENT = 64
BYTES_PER_DOCUMENT = 8192


def _collection(root, documents: int, seed: int = 3):
    rng = random.Random(seed)
    for k in range(documents):
        secs = "".join(
            "<sec><st>t</st>" + "".join(f"<p>w{j} <b>x</b> y</p>" for j in range(rng.randint(5, 30))) + "</sec>"
            for _ in range(rng.randint(2, 8))
        )
        write(root / f"d{k}.xml", f"<article><name>n{k}</name><bdy>{secs}</bdy></article>")
    return root


def test_documents_read_for_scoring_hold_their_columns_only(tmp_path):
    coll = _collection(tmp_path / "c", 300)
    tracemalloc.start()
    try:
        docs = {d.docid: d for d in iter_documents(coll)}
        elements = sum(len(d) for d in docs.values())
        rng = random.Random(1)
        for doc in docs.values():  # a run naming a few elements of each document, resolved as scoring does
            doc.nodes_at([normalize_xpath(doc.xpath(rng.randrange(len(doc)))) for _ in range(4)], keep=False)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elements > 50_000
    assert all(d._index is None for d in docs.values())  # no index of every element's XPath was built
    assert held <= BYTES_PER_ELEMENT * elements + BYTES_PER_DOCUMENT * len(docs), held / elements
