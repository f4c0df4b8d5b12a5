"""How the span family scores: passage runs (chunk runs as read by :func:`graphsr.io.chunks.read_chunk_run`,
INEX passage runs, element runs as the text their elements cover) against passage assessments (span
judgments, projected chunk judgments, INEX FOL assessments), each topic's results in ranked order.

The references of Chroma's measures are the spans as judged where the assessments keep them
(:func:`graphsr.io.spans.read_spans`), else the relevant passages.  The judged text is what the assessments'
``judged_spans`` say, else every character of each assessed document (INEX assessed whole articles).
"""

from __future__ import annotations

import numpy as np

from ...core.fol import FOLQrels, FOLRun
from ...core.kinds import PASSAGES
from ...io.chunk_table import as_chunk_table
from ..fol.provider import passage_inputs
from ..fol.rules import new_characters
from ..provider import ELEMENT, PASSAGE, Provider, RunScores
from ..tie_groups import straddle_warning, straddled
from .kernels import SpanInputs, budget, budget_end, chroma, positions, touching_chunks, unjudged
from .measures import CHROMA_MOST

__all__ = ["SpanProvider"]


class SpanProvider(Provider):
    """Chroma's chunking measures, equal-budget precision and recall, and the share of text never judged, of
    passage or element runs against passage or element assessments."""

    NAME = "span"
    DESCRIPTION = "span (chunk retrieval)"
    TITLE = (
        "Chunk retrieval over character spans: Chroma's chunking evaluation (ChromaIoU, ChromaP, ChromaR), "
        "precision and recall within a reading budget, the share of text never judged"
    )
    ASSESSMENTS = RUNS = frozenset({ELEMENT, PASSAGE})

    def needs(self, kinds, measures=()):
        out = {"documents"} if ELEMENT in kinds else set()
        if any(getattr(m, "needs_chunks", False) for m in measures):
            out.add("chunks")
        return out

    def evaluator(self, measures, qrels, context, shared):
        if qrels.kind != PASSAGES:
            from ..fol.convert import passage_qrels

            qrels = shared.get("fol:qrels", lambda: passage_qrels(qrels, context.documents))
        return _SpanEvaluator(list(measures), qrels, context)


class _SpanEvaluator:
    def __init__(self, measures, qrels: FOLQrels, context):
        self.measures, self.qrels, self.context = measures, qrels, context
        self._touching: dict = {}

    def score(self, run, topics, scratch) -> RunScores:
        if run.kind != PASSAGES:
            from ..fol.convert import passage_run

            run = passage_run(run, self.context.documents, self.qrels.vocab)
        run = run.recoded(self.qrels.vocab)
        x = span_inputs(self.qrels, run, topics, self.context.order, self.context.option)
        values = {}
        by_cut: dict = {}  # (Chroma's three measures at one cut: one pass)
        for m in self.measures:
            if m.SCORE == "chroma":
                if m.cutoff not in by_cut:
                    k = (
                        np.full(x.T, min(m.cutoff, len(x.res_topic)), dtype=np.int64)  # (k past every result)
                        if m.cutoff is not None
                        else np.minimum(self.touching(tuple(topics)), CHROMA_MOST)
                    )
                    by_cut[m.cutoff] = chroma(x, k)
                values[m] = by_cut[m.cutoff][m.KIND]
            elif m.SCORE == "budget":
                rel = _topic_rel_chars(self.qrels, topics)
                values[m] = budget(x, m.cutoff, rel)[m.KIND]
            else:
                values[m] = unjudged(x, m.cutoff)
        return RunScores(values, {}, self._straddling(x, run, topics), run.run_id)

    def _straddling(self, x, run, topics) -> list[str]:
        """The line saying where results tied in score straddle a measure's cut-off (a rank, or where a budget of
        characters ends) in a run ranked by score."""
        if x.res_score is None:
            return []
        cuts, inside = {}, {}
        for m in self.measures:
            if m.SCORE == "budget":
                cuts[f"budget={m.cutoff}"], inside[f"budget={m.cutoff}"] = budget_end(x, m.cutoff)
            elif m.cutoff is not None:
                cuts[f"k={m.cutoff}"] = m.cutoff
            elif m.SCORE == "chroma":
                cuts["k=the chunks touching a reference"] = np.minimum(self.touching(tuple(topics)), CHROMA_MOST)
        tied = straddled(x.res_topic, positions(x.res_topic) + 1, x.res_score, cuts, inside)
        order = "trec_eval's order of tied results" if run.chunk_ranges else "the order of the run's lines"
        return [straddle_warning(run.name, tied, "", order)] if tied else []

    def touching(self, topics: tuple) -> np.ndarray:
        """Per topic, the chunks of the context's chunking touching a reference (Chroma's retrieve=-1)."""
        if topics not in self._touching:
            q = self.qrels
            index = _topic_index(q, list(topics))
            row, start, end = _references(q)
            chunks = as_chunk_table(self.context.chunks)
            names = [chunks.doc_names[d] for d in chunks.doc.tolist()]
            docs = q.vocab.doc_codes(names)
            table = np.stack([chunks.start, chunks.end], axis=1)
            _check_map(chunks, names, table, getattr(q, "text_lengths", None))
            self._touching[topics] = touching_chunks(
                index[q.topic_code[row]], q.doc_code[row], start, end, docs, table[:, 0], table[:, 1], len(topics)
            )
        return self._touching[topics]


def _check_map(chunks, names: list, table: np.ndarray, lengths) -> None:
    """The chunk map's ranges of the collection's documents against their texts (a chunk of a document the
    collection does not hold touches no reference, and is left as it is)."""
    if lengths is None:
        return
    from ...errors import RunFormatError
    from ...io.text_ranges import first_outside, outside, sizes

    size = sizes(names, lengths)
    held = np.flatnonzero(size >= 0)
    k = first_outside(size[held], table[held, 0], table[held, 1])
    if k is not None:
        i = int(held[k])
        cid = chunks.ids[i]
        raise RunFormatError(
            outside(f"chunk {cid!r} of the chunk map:", names[i], int(table[i, 0]), int(table[i, 1]), int(size[i]))
        )


def _topic_index(qrels: FOLQrels, topics: list[str]) -> np.ndarray:
    """Each topic code of the assessments' vocabulary: its index in ``topics``, -1 if not scored."""
    index = np.full(len(qrels.vocab.topics), -1, dtype=np.int64)
    codes = qrels.vocab.topics
    pairs = [(codes[t], k) for k, t in enumerate(topics) if t in codes]
    if pairs:
        index[[c for c, _ in pairs]] = [k for _, k in pairs]
    return index


def _topic_rel_chars(qrels: FOLQrels, topics: list[str]) -> np.ndarray:
    index = _topic_index(qrels, topics)
    t = index[qrels.topic_code]
    live = t >= 0
    return np.bincount(t[live], weights=qrels.rel_chars[live], minlength=len(topics))


def _references(qrels: FOLQrels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The references (row, start, end): the spans as judged where kept, else the relevant passages."""
    refs = getattr(qrels, "references", None)
    if refs is not None:
        return refs
    return qrels.pass_row, qrels.pass_start, qrels.pass_end


def _judged(qrels: FOLQrels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The judged characters (row, start, end): ``judged_spans`` where the assessments carry them, else every
    character of each assessed document."""
    spans = getattr(qrels, "judged_spans", None)
    if spans is None:
        n = len(qrels.topic_code)
        return np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64), qrels.doc_len.astype(np.int64)
    topics, docs = qrels.topic, qrels.docid
    row, start, end = [], [], []
    for k in range(len(topics)):
        for s, e in spans.get((str(topics[k]), str(docs[k])), ()):
            row.append(k)
            start.append(s)
            end.append(e)
    return np.asarray(row, dtype=np.int64), np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)


def span_inputs(qrels: FOLQrels, run: FOLRun, topics: list[str], order: str = "file", option=None) -> SpanInputs:
    """One run's :class:`~graphsr.measures.span.kernels.SpanInputs` for ``topics`` (in report order)."""
    x, idx = passage_inputs(qrels, run, topics, order, option)

    def new_parts():
        new_res, new_s, new_e = new_characters(x)
        if len(new_res) < 2 or bool((new_res[1:] > new_res[:-1]).all()):  # (one piece a result, in order: as is)
            return new_res, new_s, new_e
        by = np.lexsort((new_s, new_res))
        return new_res[by], new_s[by], new_e[by]

    row, start, end = _references(qrels)
    return SpanInputs(
        len(topics),
        x.res_topic,
        x.res_row,
        x.res_start,
        np.maximum(x.res_end, x.res_start),
        _topic_index(qrels, list(topics))[qrels.topic_code],
        qrels.pass_row,
        qrels.pass_start,
        qrels.pass_end,
        row,
        start,
        end,
        lambda: _judged(qrels),
        new_parts,
        run.score[idx] if run.ranked else None,
    )
