"""The partition kinds of structural summaries (AxPRE, CIKM'08 section 5.2).

A summary partitions the elements of a collection; each part is a summary
node (SID).  The four kinds differ in two choices only, so one code path
serves them all:

========  ======================  ==========================
kind      what identifies a part  example key
========  ======================  ==========================
``p*``    incoming label path     ``/book/fm/d``
``p*|c``  label path + child set  ``/book/fm/d|{m,n}``
``c``     own label + child set   ``d|{m,n}``
``tag``   own label               ``d``
========  ======================  ==========================

The child set is the *set* of the labels of an element's children (order
and multiplicity ignored); a leaf has the empty set ``{}``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ModelSpecError

__all__ = ["PartitionKind", "KINDS", "partition_kind"]


@dataclass(frozen=True)
class PartitionKind:
    """How elements are grouped: by label path or own label, with or without child labels."""

    name: str
    by_path: bool
    by_children: bool

    def __str__(self) -> str:
        return self.name


KINDS: dict[str, PartitionKind] = {
    "p*": PartitionKind("p*", by_path=True, by_children=False),
    "p*|c": PartitionKind("p*|c", by_path=True, by_children=True),
    "c": PartitionKind("c", by_path=False, by_children=True),
    "tag": PartitionKind("tag", by_path=False, by_children=False),
}


def partition_kind(kind: str | PartitionKind) -> PartitionKind:
    """Look up a partition kind by name.

    Raises
    ------
    ModelSpecError
        For an unknown name (the message lists the known ones).

    Examples
    --------
    >>> partition_kind("p*|c")
    PartitionKind(name='p*|c', by_path=True, by_children=True)
    """
    if isinstance(kind, PartitionKind):
        return kind
    try:
        return KINDS[kind]
    except KeyError:
        raise ModelSpecError(
            f"unknown summary kind {kind!r}; expected one of {', '.join(KINDS)}{glob_hint(kind)}"
        ) from None


def glob_hint(text: str) -> str:
    """A hint when a kind looks like what a shell made of an unquoted ``p*`` (a file name starting with p)."""
    if text[:1] == "p" and text not in KINDS and "*" not in text:
        return " (did the shell expand an unquoted p* into a file name? quote it: 'p*', 'p*|c')"
    return ""
