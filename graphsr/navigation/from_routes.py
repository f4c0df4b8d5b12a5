"""Navigation models learned from route logs: elementary or over a summary's partition.

States are elements (``partition='elements'``), the summary nodes of a
summary of the collection (any kind), or the four partitions of the ESR
paper's experiments (``partition='depth4'``): article, section (``sec``),
subsection (``ss1``) and every other element, by tag name.

**Step weights are inversely proportional to effort** (ESR paper, section
4.2: the weights "are inversely proportional to the effort that users
spend", so that "a higher probability for a step ... corresponds to a lower
effort").  Each observed step from state ``a`` to ``b`` adds ``1 / effort``
to ``w_ab``: with ``effort='count'`` every step costs 1 (``w_ab`` is the
number of steps), with ``effort='duration'`` a step costs its dwell time
(``w_ab = sum 1 / duration_ms``), so steps users took longer over are less
likely.  A step without a positive duration cannot be weighed by duration
and is refused.  Transitions are row-stochastic over each state's outgoing
weights (docs/conventions.md; see
:class:`~graphsr.navigation.transitions.StepNavigation`).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..errors import GraphsrInputError, UnknownNodeError
from ..core.document import DocumentTree, resolve_node
from ..core.routes import Routes
from ..summaries.summary import Summary
from .elementwise import NodeTransitions
from .transitions import StepNavigation

__all__ = [
    "EFFORTS",
    "step_weight",
    "aggregated_weights",
    "RouteModel",
    "route_model",
    "element_route_model",
    "summary_route_model",
    "depth4_prior",
    "depth4_states",
    "DEPTH4",
]


EFFORTS = ("count", "duration")


def check_effort(effort: str) -> None:
    if effort not in EFFORTS:
        raise ValueError(f"effort must be 'count' or 'duration', got {effort!r}")


def step_weight(effort: str, duration_ms: float | None) -> float | None:
    """The weight one observed step adds to its transition: ``1 / effort``.

    ``effort='count'``: 1.  ``effort='duration'``: ``1 / duration_ms``, or
    None when the step has no positive duration (the caller refuses it).

    >>> step_weight("count", 250.0), step_weight("duration", 250.0), step_weight("duration", None)
    (1.0, 0.004, None)
    """
    if effort == "count":
        return 1.0
    return 1.0 / duration_ms if duration_ms is not None and duration_ms > 0 else None


def aggregated_weights(t: Mapping[str, np.ndarray], effort: str, what: str) -> np.ndarray:
    """Transition weights from steps aggregated per pair of states (see
    :func:`graphsr.store.services.transitions`): step counts, or the summed
    ``1 / duration_ms`` of the steps; ``what`` names the steps in the error
    raised when some have no positive duration."""
    check_effort(effort)
    if effort == "count":
        return t["steps"].astype(float)
    untimed = int(np.asarray(t["untimed"]).sum())
    if untimed:
        raise GraphsrInputError(
            f"{what}: {untimed} steps have no positive duration_ms; effort 'duration' weighs "
            "each step by 1 / its duration (use effort 'count')"
        )
    return np.asarray(t["inverse_effort"], dtype=float)


class RouteModel:
    """A learned navigation model with the state of every node of the documents it knows.

    Node ``i`` of document ``docid`` is state ``nav.state_of[offsets[docid] + i]``;
    :meth:`elementwise` looks transitions up for node ids ``code << 32 | i``.
    """

    def __init__(self, nav: StepNavigation, offsets: dict[str, int], partition: str, effort: str):
        self.nav = nav
        self.offsets = offsets
        self.partition = partition
        self.effort = effort
        self._table = None  # the transition table elementwise hands out (NodeTransitions), made once

    def elementwise(self, base: np.ndarray) -> NodeTransitions:
        """Element-wise p~(to; from) for node ids ``code << 32 | i``, given ``base[code]``: the offset of the
        document coded ``code`` in :attr:`offsets` (-1 for a document the model does not know).  See
        :class:`~graphsr.navigation.elementwise.NodeTransitions`."""
        if self._table is None:  # summary models: a dense array, plain indexing; elementary: sparse rows
            self._table = NodeTransitions(np.zeros(0, np.int64), self.nav.state_of, self.nav.P)
        return self._table.with_base(base)  # the matrix prepared once, shared by every run


def route_model(
    routes: Routes, documents: Mapping[str, DocumentTree], partition: str | Summary = "elements", effort: str = "count"
) -> RouteModel:
    """Learn a navigation model from route steps.

    Parameters
    ----------
    routes : Routes
    documents : mapping of docid to DocumentTree
        Every document the routes name, and the documents to score.
    partition : 'elements' or Summary
    effort : {'count', 'duration'}
        Each step adds ``1 / effort`` to its transition's weight: 1 per step
        (count) or ``1 / duration_ms`` (see the module's docstring).

    Raises
    ------
    UnknownNodeError
        For a step naming a document or node that is not in ``documents``.
    GraphsrInputError
        With ``effort='duration'``, for a step without a positive duration.
    """
    check_effort(effort)
    offsets, doc_of, state, n_states, name = _states(documents, partition)
    src, dst, w = [], [], []
    for s in routes:
        context = f"route {s.route_id!r} step {s.step}"
        a = resolve_node(documents, s.docid, s.src, routes.source, s.line, context)
        b = resolve_node(documents, s.docid, s.dst, routes.source, s.line, context)
        src.append(offsets[s.docid] + a)
        dst.append(offsets[s.docid] + b)
        weight = step_weight(effort, s.duration_ms)
        if weight is None:
            raise GraphsrInputError(
                f"route {s.route_id!r} step {s.step}: effort 'duration' weighs each step by "
                f"1 / its duration, and this step has "
                f"{'no duration_ms' if s.duration_ms is None else 'duration_ms 0'} "
                "(use effort 'count')",
                routes.source,
                s.line,
            )
        w.append(weight)
    src, dst = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    if (state[src] < 0).any() or (state[dst] < 0).any():
        raise UnknownNodeError("a route step's node has a key the summary lacks", routes.source)
    nav = StepNavigation(
        state[src], state[dst], np.array(w), n_states=max(n_states, 1), state_of=np.maximum(state, 0), doc_of=doc_of
    )
    return RouteModel(nav, offsets, name, effort)


DEPTH4 = ("article", "sec", "ss1", "other")
# depth4_prior's weights: moving into a partition weighs 1 / its nominal tag depth
DEPTH4_DEPTHS = np.array([1.0, 2.0, 3.0, 4.0])


def depth4_states(doc: DocumentTree) -> np.ndarray:
    """Partition of each node: 0 article, 1 sec, 2 ss1, 3 any other tag."""
    code = {"article": 0, "sec": 1, "ss1": 2}
    return np.array([code.get(t, 3) for t in doc.tags], dtype=np.int64)[doc.tag]


def _states(documents: Mapping[str, DocumentTree], partition: str | Summary):
    """Node offsets per document, document of each node, state of each node, number of states, name."""
    offsets, off = {}, 0
    for docid, doc in documents.items():
        offsets[docid] = off
        off += len(doc)
    doc_of = np.repeat(np.arange(len(documents)), [len(d) for d in documents.values()])
    if isinstance(partition, str) and partition == "depth4":
        state = np.concatenate([depth4_states(d) for d in documents.values()]) if documents else np.zeros(0, int)
        return offsets, doc_of, state, 4, "depth4"
    if isinstance(partition, Summary):
        sids = partition.assign_many(list(documents.values()))
        state = np.concatenate(sids) if sids else np.zeros(0, dtype=np.int64)
        return offsets, doc_of, state, len(partition), partition.kind.name
    return offsets, doc_of, np.arange(off), off, "elements"


def summary_route_model(
    summary: Summary, src, dst, weight, documents: Mapping[str, DocumentTree], effort: str = "count"
) -> RouteModel:
    """A summary-partition navigation model from step weights between summary nodes.

    For weights aggregated elsewhere (e.g. in the graph store, or stored with
    a model): ``src``/``dst`` are SIDs of ``summary``.  Nodes of
    ``documents`` whose key the summary lacks have no navigation.
    """
    offsets, doc_of, state, n_states, name = _states(documents, summary)
    # nodes the summary does not know get a state of their own with no steps
    unknown = state < 0
    state = np.where(unknown, n_states, state)
    nav = StepNavigation(
        np.asarray(src),
        np.asarray(dst),
        np.asarray(weight, dtype=float),
        n_states=n_states + 1,
        state_of=state,
        doc_of=doc_of,
    )
    return RouteModel(nav, offsets, name, effort)


def element_route_model(
    docid, src_index, dst_index, weight, documents: Mapping[str, DocumentTree], effort: str = "count"
) -> RouteModel:
    """An elementary navigation model from step weights between elements aggregated elsewhere
    (e.g. in the graph store): step ``i`` goes from node ``src_index[i]`` to ``dst_index[i]`` of
    document ``docid[i]`` (0-based node indices) with weight ``weight[i]``.

    States are the nodes of ``documents``.  Steps in documents not among
    ``documents`` are left out: transitions are normalised per source element,
    so they change nothing in the documents that are.

    Raises
    ------
    UnknownNodeError
        For a step naming a node outside its document.
    """
    offsets, doc_of, state, n_states, name = _states(documents, "elements")
    docid = np.asarray(docid, dtype=object)
    src_index, dst_index = np.asarray(src_index, dtype=np.int64), np.asarray(dst_index, dtype=np.int64)
    base = np.array([offsets.get(d, -1) for d in docid.tolist()], dtype=np.int64)
    sizes = np.array([len(documents[d]) if d in documents else 0 for d in docid.tolist()], dtype=np.int64)
    keep = base >= 0
    bad = keep & ((src_index < 0) | (src_index >= sizes) | (dst_index < 0) | (dst_index >= sizes))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise UnknownNodeError(
            f"a step of document {docid[i]!r} names node {max(src_index[i], dst_index[i]) + 1}, "
            f"which has {sizes[i]} elements"
        )
    src, dst = base[keep] + src_index[keep], base[keep] + dst_index[keep]
    nav = StepNavigation(
        state[src],
        state[dst],
        np.asarray(weight, dtype=float)[keep],
        n_states=max(n_states, 1),
        state_of=state,
        doc_of=doc_of,
    )
    return RouteModel(nav, offsets, name, effort)


def depth4_prior(documents: Mapping[str, DocumentTree]) -> RouteModel:
    """The depth-weighted four-partition model without routes (ESR paper, section 4.2 and 7).

    The paper weights its four partitions (article, section, ss1, other)
    "inversely to the tag depth" without giving the weights; graphsr uses
    nominal depths 1, 2, 3, 4 and weighs every step into partition B by
    ``1 / depth(B)``, from any partition, so that
    ``p~(B; A) = (1/depth(B)) / (1 + 1/2 + 1/3 + 1/4)``:
    0.48 article, 0.24 section, 0.16 ss1, 0.12 other.

    Examples
    --------
    >>> m = depth4_prior({})
    >>> m.nav.P.toarray()[0].round(2).tolist()
    [0.48, 0.24, 0.16, 0.12]
    """
    offsets, doc_of, state, n_states, _ = _states(documents, "depth4")
    a, b = np.meshgrid(np.arange(4), np.arange(4), indexing="ij")
    nav = StepNavigation(
        a.ravel(), b.ravel(), (1.0 / DEPTH4_DEPTHS)[b.ravel()], n_states=4, state_of=state, doc_of=doc_of
    )
    return RouteModel(nav, offsets, "depth4", "prior")
