"""Resolving runs and assessments against document trees into measure inputs.

Every run line and qrels line must name a document of the collection and a
node that exists in it.  By default a line that does not is an error
(:class:`~graphsr.errors.UnknownNodeError`, with file and line); with
``unknown='warn'`` such lines are dropped, counted and reported, never
silently.  A tree result whose every node was dropped is dropped too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

from ..errors import UnknownNodeError
from ..measures.inputs import RankedNodes
from ..model.document import DocumentTree
from ..model.qrels import ElementQrels
from ..model.run import Run
from ..model.topics import missing_topics_warning, topic_sort_key

__all__ = ["Diagnostics", "topic_sort_key", "check_qrels", "ranked_nodes"]


@dataclass
class Diagnostics:
    """What resolution dropped or noticed, for the warning report."""

    unknown_run_lines: int = 0
    unknown_qrels_lines: int = 0
    dropped_results: int = 0
    run_topics_without_qrels: list = field(default_factory=list)
    examples: list = field(default_factory=list)

    def note(self, message: str) -> None:
        if len(self.examples) < 5:
            self.examples.append(message)

    def messages(self, run_name: str | None = None) -> list[str]:
        out = []
        prefix = f"{run_name}: " if run_name else ""
        if self.unknown_run_lines:
            out.append(f"{prefix}{self.unknown_run_lines} run line(s) name unknown documents or nodes and were "
                       f"ignored ({self.dropped_results} result(s) left empty and dropped)")
        if self.unknown_qrels_lines:
            out.append(f"{self.unknown_qrels_lines} qrels line(s) name unknown documents or nodes and were ignored")
        if self.run_topics_without_qrels:
            out.append(missing_topics_warning(run_name, self.run_topics_without_qrels))
        out.extend(f"  e.g. {e}" for e in self.examples)
        return out


def _locate(doc: DocumentTree | None, docid: str, xpath: str, source, line, unknown: str,
            diag: Diagnostics, what: str) -> int | None:
    if doc is None:
        msg = f"unknown document {docid!r}: expected a document of the collection"
    else:
        try:
            return doc.node(xpath)
        except KeyError:
            msg = f"document {docid!r} has no node {xpath}: expected an XPath that exists in the collection"
    if unknown == "error":
        raise UnknownNodeError(msg, source, line)
    diag.note(f"{source}:{line}: {msg}")
    return None


def check_qrels(qrels: ElementQrels, documents: Mapping[str, DocumentTree], unknown: str = "error",
                diag: Diagnostics | None = None) -> dict[str, dict[tuple[str, int], float]]:
    """Judgments keyed by (docid, node index); unknown nodes raise or are counted."""
    diag = diag if diag is not None else Diagnostics()
    out: dict[str, dict[tuple[str, int], float]] = {}
    for topic, docid, xp, rel in qrels:
        line = qrels.lines.get((topic, docid, xp))
        i = _locate(documents.get(docid), docid, xp, qrels.source, line, unknown, diag, "qrels")
        if i is None:
            diag.unknown_qrels_lines += 1
            continue
        out.setdefault(topic, {})[(docid, i)] = rel
    return out


def ranked_nodes(run: Run, judged: Mapping[str, Mapping[tuple[str, int], float]], topics: list[str],
                 documents: Mapping[str, DocumentTree], seen_of: Callable[[str], np.ndarray],
                 unknown: str = "error", diag: Diagnostics | None = None,
                 doc_codes: dict[str, int] | None = None) -> RankedNodes:
    """Resolve a run's results for the given topics into :class:`RankedNodes`.

    Parameters
    ----------
    run : Run
    judged : mapping
        ``judged[topic][(docid, node index)] = rel`` (see :func:`check_qrels`).
    topics : list of str
        The topics to evaluate, in output order; a topic absent from the run
        gets no results (its measures are 0).
    documents : mapping of docid to DocumentTree
        At least every document the run names.
    seen_of : callable
        ``seen_of(docid)`` -> per-node ``p(e;f)`` of the document (SR Eq 7).
    unknown : {'error', 'warn'}
    doc_codes : dict, optional
        Document codes to use (and extend); share one dict to give other
        arrays (e.g. ESR assessments) the same codes.  Node ids are
        ``code << 32 | node index``.
    """
    diag = diag if diag is not None else Diagnostics()
    doc_codes = {} if doc_codes is None else doc_codes
    seen_cache: dict[str, np.ndarray] = {}
    rt, rd, ir, inode, rel, seen = [], [], [], [], [], []
    for t, topic in enumerate(topics):
        qt = judged.get(topic, {})
        for res in run.results.get(topic, ()):
            doc = documents.get(res.docid)
            nodes = []
            for xp, line in zip(res.xpaths, res.lines or (None,) * len(res.xpaths)):
                i = _locate(doc, res.docid, xp, run.source, line, unknown, diag, "run")
                if i is None:
                    diag.unknown_run_lines += 1
                else:
                    nodes.append(i)
            if not nodes:
                diag.dropped_results += 1
                continue
            code = doc_codes.setdefault(res.docid, len(doc_codes))
            s = seen_cache.get(res.docid)
            if s is None:
                s = seen_cache[res.docid] = seen_of(res.docid)
            r = len(rt)
            rt.append(t)
            rd.append(code)
            for i in nodes:
                ir.append(r)
                inode.append((code << 32) | i)
                rel.append(qt.get((res.docid, i), 0.0))
                seen.append(s[i])
    return RankedNodes(list(topics), rt, rd, ir, inode, rel, seen)
