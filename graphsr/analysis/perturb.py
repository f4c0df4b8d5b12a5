"""Systematic perturbations of a run and the fidelity test of a measure (SR paper §7.1, §7.3).

Five perturbations of an element (tree) run, each doing exactly what its
name says to every topic and nothing else -- results keep their nodes and
their relative order within each group; ranks are renumbered 1..n and
scores set to n..1 so the file order, the rank order and the score order
agree:

* ``i`` (``relevant-first``): results holding a relevant node ranked above the rest;
* ``ii`` (``relevant-last``): results holding a relevant node ranked below the rest;
* ``iii`` (``no-overlap``): results sharing a node with, or nested in or
  around, a result ranked above them removed;
* ``iv`` (``leaves-first``): results whose nodes are all leaves (no element
  children) ranked above the rest;
* ``v`` (``mid-first``): results whose nodes are all mid-branch (neither the
  document's root nor a leaf) ranked above the rest.

A measure with fidelity scores them, topic by topic, in the order the SR
paper expects: ``S(i) >= S(iii) >= S0 >= S(iv) >= S(v) >= S(ii)``.
:func:`fidelity` reports, across topics, Spearman's rho between the
expected position of each perturbed run in that order and its score's rank
among the six runs of its topic, pooled over topics, with its p-value (the
SR paper's statistic; topics where every run scores the same carry no
information and are left out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..errors import GraphsrInputError
from ..core.document import DocumentTree, resolve_node
from ..core.qrels import ElementQrels
from ..core.run import Run, TreeResult

__all__ = ["PERTURBATIONS", "EXPECTED_ORDER", "perturb", "perturbations", "Fidelity", "fidelity"]

PERTURBATIONS = {
    "i": "relevant-first",
    "ii": "relevant-last",
    "iii": "no-overlap",
    "iv": "leaves-first",
    "v": "mid-first",
}
#: best first, as the SR paper expects; "0" is the original run
EXPECTED_ORDER = ("i", "iii", "0", "iv", "v", "ii")


def _renumbered(topic: str, results: list[TreeResult]) -> list[TreeResult]:
    n = len(results)
    return [TreeResult(topic, k + 1, r.docid, r.xpaths, float(n - k), r.lines) for k, r in enumerate(results)]


def _nodes(documents: Mapping[str, DocumentTree], r: TreeResult) -> list[int]:
    return [
        resolve_node(documents, r.docid, xp, line=line)
        for xp, line in zip(r.xpaths, r.lines or (None,) * len(r.xpaths))
    ]


def _is_leaf(doc: DocumentTree, i: int) -> bool:
    return i + 1 >= len(doc) or doc.parent[i + 1] != i  # pre-order: a child follows its parent


def perturb(run: Run, kind: str, qrels: ElementQrels, documents: Mapping[str, DocumentTree]) -> Run:
    """The perturbation ``kind`` (``i`` .. ``v``, or its name) of ``run``."""
    names = {v: k for k, v in PERTURBATIONS.items()}
    kind = names.get(kind, kind)
    if kind not in PERTURBATIONS:
        raise GraphsrInputError(
            f"perturbation must be one of {', '.join(PERTURBATIONS)} "
            f"({', '.join(PERTURBATIONS.values())}), got {kind!r}"
        )
    out: dict[str, list[TreeResult]] = {}
    for topic, results in run.results.items():
        judged = qrels.judgments.get(topic, {})
        if kind in ("i", "ii"):
            rel = [any(judged.get((r.docid, xp), 0.0) > 0 for xp in r.xpaths) for r in results]
            first = [r for r, x in zip(results, rel) if x == (kind == "i")]
            rest = [r for r, x in zip(results, rel) if x != (kind == "i")]
            out[topic] = _renumbered(topic, first + rest)
        elif kind == "iii":
            kept, seen = [], {}
            for r in results:
                doc = documents.get(r.docid)
                nodes = _nodes(documents, r)
                spans = [(int(doc.start[i]), int(doc.end[i]), i) for i in nodes]
                earlier = seen.setdefault(r.docid, [])
                if not any(_nested(doc, i, j) for _, _, i in spans for j in earlier):
                    kept.append(r)
                    earlier.extend(nodes)
            out[topic] = _renumbered(topic, kept)
        else:

            def wanted(r: TreeResult) -> bool:
                doc = documents[r.docid]
                nodes = _nodes(documents, r)
                if kind == "iv":
                    return all(_is_leaf(doc, i) for i in nodes)
                return all(i != 0 and not _is_leaf(doc, i) for i in nodes)

            flags = [wanted(r) for r in results]
            out[topic] = _renumbered(
                topic, [r for r, f in zip(results, flags) if f] + [r for r, f in zip(results, flags) if not f]
            )
    return Run(f"{run.name}.{kind}", out, run.source, run.run_ids)


def _nested(doc: DocumentTree, a: int, b: int) -> bool:
    """Whether nodes ``a`` and ``b`` are the same, or one contains the other."""
    for x, y in ((a, b), (b, a)):
        n = x
        while n >= 0:
            if n == y:
                return True
            n = int(doc.parent[n])
    return False


def perturbations(run: Run, qrels: ElementQrels, documents: Mapping[str, DocumentTree]) -> dict[str, Run]:
    """The five perturbed runs, by kind.  The assessments must judge elements of ``documents`` (the
    collection) and share a topic with the run: assessments of another collection perturb nothing.

    Raises
    ------
    GraphsrInputError
        If the assessments judge a document not in the collection, or share no topic with the run.
    """
    foreign = sorted(qrels.docids() - set(documents))
    if foreign:
        raise GraphsrInputError(
            f"the assessments judge {len(foreign)} document(s) that are not in the collection "
            f"(e.g. {foreign[0]!r}): are they another collection's?",
            qrels.source,
        )
    for topic, docid, xp, _ in qrels:
        resolve_node(documents, docid, xp, qrels.source, qrels.lines.get((topic, docid, xp)))
    if not set(run.topics) & set(qrels.topics):
        raise GraphsrInputError("the run and the assessments share no topic: nothing to perturb", run.source)
    return {k: perturb(run, k, qrels, documents) for k in PERTURBATIONS}


@dataclass
class Fidelity:
    """The scores of a run and its perturbations, and how well they follow the expected order."""

    measure: str
    means: dict[str, float]  # by kind ("0" the original), means over topics
    per_topic: "object"  # topics x kinds DataFrame
    rho: float
    p: float
    topics_used: int

    def text(self) -> str:
        lines = [f"{self.measure}: the run (0) and its perturbations, in the expected order (best first)"]
        for kind in EXPECTED_ORDER:
            label = "original" if kind == "0" else PERTURBATIONS[kind]
            lines.append(f"  S({kind:<3}) {label:<15} {self.means[kind]:.4f}")
        lines.append(
            f"Spearman rho (expected order vs the scores' order, {self.topics_used} run-topic pairs): "
            f"{self.rho:.4f}, p = {self.p:.3g}"
        )
        return "\n".join(lines) + "\n"


def fidelity(per_topic) -> tuple[float, float, int]:
    """Spearman's rho between the expected order and the scores, pooled over topics.

    ``per_topic``: a topics x kinds DataFrame (kinds of :data:`EXPECTED_ORDER`).
    Returns ``(rho, p, topics used)``.
    """
    from scipy import stats

    expected, observed = [], []
    used = 0
    for _, row in per_topic.iterrows():
        values = row[list(EXPECTED_ORDER)].to_numpy(dtype=float)
        if np.allclose(values, values[0]):
            continue
        used += 1
        expected.extend(range(len(EXPECTED_ORDER), 0, -1))  # best = highest
        observed.extend(stats.rankdata(values))  # within the topic: scales differ between topics
    if used == 0:
        return float("nan"), float("nan"), 0
    result = stats.spearmanr(expected, observed)
    return float(result.statistic), float(result.pvalue), used


def measure_fidelity(
    qrels: ElementQrels, runs: list[Run], measure, context, all_topics: bool = True, progress: bool = False
) -> Fidelity:
    """Score ``runs`` and their five perturbations with ``measure`` and test the expected order, pooling every
    (run, topic) of the runs (:func:`fidelity`)."""
    import pandas as pd

    from ..evaluation.entry import evaluate
    from ..measures.parse import parse_measure

    from ..io.progress import progress_bar

    m = parse_measure(measure)
    frames = []
    bar = progress_bar(len(runs), "runs and their perturbations", progress, "run")
    for run in runs:
        bar.update(1)
        variants = {"0": run, **perturbations(run, qrels, context.documents)}
        res = evaluate(qrels, list(variants.values()), [m], context, all_topics=all_topics)
        cols = {
            kind: pd.Series(r.values[m], index=[f"{run.name}\t{t}" for t in r.topics]) for kind, r in zip(variants, res)
        }
        frames.append(pd.DataFrame(cols))
    bar.close()
    table = pd.concat(frames)
    rho, p, used = fidelity(table)
    means = {kind: float(table[kind].mean()) for kind in EXPECTED_ORDER}
    return Fidelity(str(m), means, table, rho, p, used)
