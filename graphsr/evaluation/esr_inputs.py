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
    a_topic, a_code, a_idx, a_rel = [], [], [], []
    for t, topic in enumerate(ranked.topics):
        for (docid, i), rel in judged.get(topic, {}).items():
            if rel > 0:
                a_topic.append(t)
                a_code.append(doc_codes.setdefault(docid, len(doc_codes)))
                a_idx.append(i)
                a_rel.append(rel)
    a_topic = np.array(a_topic, dtype=np.int64)
    a_code = np.array(a_code, dtype=np.int64)
    a_idx = np.array(a_idx, dtype=np.int64)
    a_rel = np.array(a_rel, dtype=float)
    by_code = {c: d for d, c in doc_codes.items()}

    def node_lengths(codes: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Lengths of nodes (document code, node index), looked up per distinct document."""
        if len(codes) == 0:
            return np.zeros(0)
        present = np.flatnonzero(np.bincount(codes))  # distinct codes without sorting the nodes
        lengths = [documents[by_code[int(c)]].length for c in present]
        start = np.zeros(int(present[-1]) + 1, dtype=np.int64)
        start[present] = np.concatenate([[0], np.cumsum([len(x) for x in lengths])[:-1]])
        return np.concatenate(lengths)[start[codes] + idx].astype(float)

    a_len = a_rel * node_lengths(a_code, a_idx)
    size = node_lengths(ranked.item_node >> 32, ranked.item_node & 0xFFFFFFFF)
    nav = model.elementwise(doc_codes)
    arrays = (a_topic, (a_code << 32) | a_idx, a_code)
    return {"binary": ESRInputs(ranked, size, *arrays, np.ones(len(a_rel)), nav),
            "length": ESRInputs(ranked, size, *arrays, a_len, nav)}
