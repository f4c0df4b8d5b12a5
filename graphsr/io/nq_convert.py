"""Natural Questions' answers as the elements and character spans graphsr's other measures score.

* Long answers become **graded element judgments**: each candidate an annotator chose is judged by the number of
  annotators who chose it; every other candidate of the page is judged 0 (the annotators read it and did not
  choose it), so an example nobody answered is judged with nothing relevant rather than left out.
* Short answers become **span judgments** in characters of the page's text (:mod:`graphsr.io.nq_pages`), graded
  the same way; yes/no answers have no span and are left to the NQ measures.
* A prediction's long answer is an **element run** of one result (its score the long answer's); a ranked list of
  candidates (a TREC run whose document field ends in the candidate's index, ``EXAMPLE-12`` as ir_datasets writes
  passage ids, or gives its bytes, ``1024:2048``) is an element run of those candidates, and, for the NQ measures,
  a prediction whose long answer is its first candidate.

A long answer that is no candidate of its page is the smallest element holding its characters.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping

from ..core.answers import Answer, NQAssessments, NQPredictions, Span
from ..errors import RunFormatError

__all__ = ["NQPages", "read_pages", "long_answer_qrels", "short_answer_qrels", "prediction_run", "ranked_candidates"]


def candidate_of(candidates: tuple[Span, ...], span: Span) -> int:
    """The index of the first candidate that is the same answer as ``span`` (NQ's rule), or -1."""
    for k, c in enumerate(candidates):
        if not c.is_null and c.same(span):
            return k
    return -1


@dataclass
class NQPages:
    """The page trees of the examples read (:class:`~graphsr.io.nq_pages.PageTree` by example id) and the NQ file
    they were read from."""

    pages: Mapping
    source: str
    #: Each example's page as NQ gives it (:class:`~graphsr.io.nq_pages.NQPage`: its bytes and tokens), by id.
    given: Mapping = field(default_factory=dict)
    #: The same pages by where they were read (file, line): what a collection of the same file takes as read
    #: (:class:`graphsr.io.nq_collection.remembered`).
    by_place: Mapping = field(default_factory=dict)

    def documents(self) -> dict:
        return {eid: p.tree for eid, p in self.pages.items()}

    def chars(self, eid: str, span: Span) -> tuple[int, int]:
        """A non-null span's characters in its example's page."""
        return self.pages[eid].chars(*self.given[eid].byte_range(span))

    def node(self, eid: str, candidates: tuple[Span, ...], span: Span) -> int:
        """The node of a long answer: its candidate's element, else the smallest element holding it."""
        page = self.pages[eid]
        k = candidate_of(candidates, span)
        if k >= 0 and page.candidate_node[k] >= 0:
            return int(page.candidate_node[k])
        from ..core.document import containing_node

        return containing_node(page.tree, *self.chars(eid, span))


def _answer_bytes(answers, page) -> set[int]:
    out: set[int] = set()
    for a in answers:
        for s in (a.long, *a.short):
            if not s.is_null:
                out.update(page.byte_range(s))
    return out


def read_pages(path: str | os.PathLike, assessments: NQAssessments, predictions=()) -> NQPages:
    """The page of every annotated example, read from the NQ file (or shards) at ``path`` in one pass, with the
    characters of every answer's bytes (the annotators' and the predictions')."""
    from ..errors import CollectionError
    from .nq import example_id, iter_examples
    from .nq_pages import page_of, page_tree

    wanted = set(assessments.annotations)
    trees, raw, places = {}, {}, {}
    for name, line, record in iter_examples(path, CollectionError):
        eid = example_id(record, CollectionError, (name, line))
        if eid not in wanted or eid in trees:
            continue
        page = page_of(record, name)
        answers = list(assessments.annotations[eid]) + [p.answers[eid] for p in predictions if eid in p.answers]
        trees[eid] = places[name, line] = page_tree(page, f"{name}:{line}", _answer_bytes(answers, page))
        raw[eid] = page
    missing = wanted - set(trees)
    if missing:
        raise CollectionError(
            f"{len(missing)} annotated examples have no page here (e.g. {sorted(missing)[0]}): give the NQ file "
            "the annotations came from",
            path,
        )
    return NQPages(trees, str(path), raw, places)


def long_answer_qrels(assessments: NQAssessments, pages: NQPages, share: bool = False):
    """Long answers as element judgments: each candidate graded by the annotators who chose it (``share``: that
    number over the example's annotators, in [0, 1]), every other candidate 0."""
    from ..core.qrels import ElementQrels, QrelsRow

    rows = []
    for eid, answers in assessments.annotations.items():
        page, cands = pages.pages[eid], assessments.candidates[eid]
        votes: dict[int, int] = {}
        for a in answers:
            if a.has_long:
                node = pages.node(eid, cands, a.long)
                votes[node] = votes.get(node, 0) + 1
        for node in {int(n) for n in page.candidate_node if n >= 0} | set(votes):
            grade = votes.get(node, 0)
            rel = grade / len(answers) if share and answers else float(grade)
            rows.append(QrelsRow(eid, eid, page.tree.xpath(node), rel))
    return ElementQrels.from_rows(rows, assessments.source)


def short_answer_qrels(assessments: NQAssessments, pages: NQPages):
    """Short answers as span judgments in characters of the pages' texts, each span graded by the annotators who
    marked it (the rest of an annotated page judged not relevant)."""
    from .spans import _assessments

    spans: dict[tuple[str, int, int], int] = {}
    for eid, answers in assessments.annotations.items():
        for a in answers:
            for s in a.short:
                if not s.is_null:
                    key = (eid, *pages.chars(eid, s))
                    spans[key] = spans.get(key, 0) + 1
    rows = [(eid, eid, a, b, float(grade), None, k) for k, ((eid, a, b), grade) in enumerate(spans.items(), 1)]
    answered = {r[0] for r in rows}
    for eid in assessments.annotations:  # a page without short answers: judged, none of it relevant
        if eid not in answered and pages.pages[eid].text:
            rows.append((eid, eid, 0, len(pages.pages[eid].text), 0.0, None, len(rows) + 1))
    texts = {eid: pages.pages[eid].text for eid in assessments.annotations}
    return _assessments(rows, texts, assessments.source or "", whole_documents=True)


def prediction_run(predictions: NQPredictions, assessments: NQAssessments, pages: NQPages):
    """A prediction's long answers as an element run: one result per example that gives one."""
    from ..core.run import Run, RunRow

    rows = []
    for eid, answer in predictions.answers.items():
        if answer.has_long and eid in pages.pages:
            node = pages.node(eid, assessments.candidates[eid], answer.long)
            rows.append(RunRow(eid, eid, 1, answer.long_score, pages.pages[eid].tree.xpath(node)))
    return Run.from_rows(rows, predictions.name, predictions.source)


def _candidate(docno: str, candidates: tuple[Span, ...], path: str, line: int | None) -> Span:
    """The span a run line's document field names: a candidate's index after the last ``-`` (or alone), or bytes
    ``START:END``."""
    if ":" in docno:
        a, _, b = docno.partition(":")
        try:
            return Span(int(a), int(b))
        except ValueError:
            raise RunFormatError(f"expected bytes START:END, got {docno!r}", path, line) from None
    tail = docno.rsplit("-", 1)[-1] if "-" in docno[1:] else docno
    if not tail.isdigit():
        raise RunFormatError(
            f"expected a candidate's index (EXAMPLE-INDEX) or bytes START:END, got {docno!r}", path, line
        )
    k = int(tail)
    if k >= len(candidates):
        raise RunFormatError(f"candidate {k} of a page of {len(candidates)} candidates", path, line)
    return candidates[k]


def ranked_candidates(path: str | os.PathLike, assessments: NQAssessments, pages: NQPages):
    """A TREC run of candidates as an element run over the examples' pages, and as NQ predictions: each example's
    first candidate its long answer (scored by its score); an example the run does not answer a null answer
    scored below every other."""
    from ..core.run import Run, RunRow
    from .runs import read_run

    plain = read_run(path)
    rows: list = []
    first: dict[str, tuple[int, Span, float]] = {}
    for result in plain:
        eid = result.topic
        if eid not in assessments.annotations:
            continue
        span = _candidate(result.docid, assessments.candidates[eid], str(path), None)
        node = pages.node(eid, assessments.candidates[eid], span)
        line = result.lines[0] if result.lines else None  # (its line in the run file, for messages)
        rows.append(RunRow(eid, eid, result.rank, result.score, pages.pages[eid].tree.xpath(node), line))
        if eid not in first or result.rank < first[eid][0]:
            first[eid] = (result.rank, span, result.score)
    run = Run.from_rows(rows, plain.name, str(path))
    floor = min((s for _, _, s in first.values()), default=0.0) - 1.0
    answers = {
        eid: Answer(first[eid][1], (), "none", first[eid][2], floor)
        if eid in first
        else Answer(long_score=floor, short_score=floor)
        for eid in assessments.annotations
    }
    return run, NQPredictions(answers, plain.name, str(path))
