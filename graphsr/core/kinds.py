"""What an input is: the one answer to "plain TREC documents, elements, trees or passages?".

Every assessments and run type declares its kind (``kind``), read from its columns where the type holds
several (a :class:`~graphsr.core.run.Run` read from a TREC document file, or from an element file whose
every line names ``/doc[1]``, is plain documents); nothing else re-derives it.

* ``documents``: plain TREC documents, each scored as one element (TREC qrels and runs, DataFrames and dicts
  without an ``xpath`` column);
* ``elements``: element runs, one node per result, and element assessments;
* ``trees``: element runs with tree results (several nodes at one rank);
* ``passages``: passage (FOL) runs and assessments;
* ``answers``: Natural Questions' annotations and predictions (long and short answers per example), which the
  NQ measures score and the others read as the elements and spans they name.
"""

from __future__ import annotations

__all__ = ["DOCUMENTS", "ELEMENTS", "TREES", "PASSAGES", "ANSWERS", "KINDS", "kind_of", "is_plain"]

DOCUMENTS, ELEMENTS, TREES, PASSAGES, ANSWERS = "documents", "elements", "trees", "passages", "answers"
KINDS = (DOCUMENTS, ELEMENTS, TREES, PASSAGES, ANSWERS)


def kind_of(obj) -> str | None:
    """The kind an assessments or run object declares, or None for anything else."""
    kind = getattr(type(obj), "kind", None)
    return obj.kind if kind is not None else None


def is_plain(obj) -> bool:
    """Whether ``obj`` is plain TREC documents."""
    return kind_of(obj) == DOCUMENTS
