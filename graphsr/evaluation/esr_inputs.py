"""Building the ESR measures' inputs from a run, assessments, documents and a learned navigation model.

Relevance values: ``binary`` counts an assessed node with relevance > 0 as 1;
``length`` counts its highlighted characters, taken as the relevance value
(the highlighted share, in [0, 1]) times the node length.  A tree's size is
the sum of its nodes' lengths.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..measures.esr_vectorised import ESRInputs
from ..measures.inputs import RankedNodes
from ..model.document import DocumentTree
from ..navigation.from_routes import RouteModel

__all__ = ["esr_inputs"]


def esr_inputs(ranked: RankedNodes, judged: Mapping[str, Mapping[tuple[str, int], float]],
               documents: Mapping[str, DocumentTree], doc_codes: dict[str, int],
               model: RouteModel) -> dict[str, ESRInputs]:
    """``{"binary": ESRInputs, "length": ESRInputs}`` for one run (see module docstring).

    ``doc_codes`` must be the dict :func:`~graphsr.evaluation.resolve.ranked_nodes`
    filled; documents assessed but not retrieved are added to it.
    """
    a_topic, a_node, a_doc, a_bin, a_len = [], [], [], [], []
    for t, topic in enumerate(ranked.topics):
        for (docid, i), rel in sorted(judged.get(topic, {}).items()):
            if rel <= 0:
                continue
            code = doc_codes.setdefault(docid, len(doc_codes))
            a_topic.append(t)
            a_node.append((code << 32) | i)
            a_doc.append(code)
            a_bin.append(1.0)
            a_len.append(rel * float(documents[docid].length[i]))
    by_code = {c: d for d, c in doc_codes.items()}
    item_doc = ranked.item_node >> 32
    item_idx = ranked.item_node & 0xFFFFFFFF
    codes = np.unique(item_doc)
    lengths = [documents[by_code[int(c)]].length for c in codes]
    offset = np.zeros(len(codes), dtype=np.int64)
    np.cumsum([len(x) for x in lengths[:-1]], out=offset[1:]) if len(codes) > 1 else None
    flat = np.concatenate(lengths) if lengths else np.zeros(0)
    size = flat[offset[np.searchsorted(codes, item_doc)] + item_idx].astype(float) if len(item_doc) else np.zeros(0)
    nav = model.elementwise(doc_codes)
    arrays = (np.array(a_topic, dtype=np.int64), np.array(a_node, dtype=np.int64), np.array(a_doc, dtype=np.int64))
    return {"binary": ESRInputs(ranked, size, *arrays, np.array(a_bin), nav),
            "length": ESRInputs(ranked, size, *arrays, np.array(a_len), nav)}
