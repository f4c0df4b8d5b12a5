"""Who judged a judgment: a person, a model, or a model whose judgment a person checked.

A judge is written as one word: ``person``; ``model`` or ``model:NAME`` (NAME an identifier of the model and
its version, e.g. ``model:gpt-4o@2024-08-06`` or ``model:lexical@1``); ``checked:NAME`` (the model NAME's
judgment, checked by a person, as NIST's assessors post-edited UMBRELA's for TREC RAG 2024).  Judgments files
say so in a column (a fifth field of TREC qrels, ``judge`` in span judgments), or a whole file is one judge's.

>>> parse_judge("model:gpt-4o@2024-08-06"), judge_kind("checked:umbrela"), judge_kind("person")
('model:gpt-4o@2024-08-06', 'checked', 'person')
>>> is_judge("2"), is_judge("model:"), is_judge("people")
(False, False, False)
"""

from __future__ import annotations

import re

from ..errors import GraphsrInputError

__all__ = ["PERSON", "KINDS", "is_judge", "parse_judge", "judge_kind", "from_model"]

PERSON = "person"
#: The kinds of judge: a person's judgment, a model's, a model's checked by a person.
KINDS = ("person", "model", "checked")
_JUDGE = re.compile(r"person|model(?::[^\s:]+(?::[^\s]+)?)?|checked:[^\s:]+(?::[^\s]+)?")


def is_judge(word: str) -> bool:
    """Whether ``word`` names a judge (see the module docstring)."""
    return _JUDGE.fullmatch(word) is not None


def parse_judge(word) -> str:
    """``word`` checked as a judge (one line refusing anything else)."""
    if not isinstance(word, str) or not is_judge(word):
        raise GraphsrInputError(
            f"a judge is person, model, model:NAME or checked:NAME (NAME the model and its version, no spaces), "
            f"got {word!r}"
        )
    return word


def judge_kind(judge: str) -> str:
    """``person``, ``model`` or ``checked``."""
    return judge.split(":", 1)[0]


def from_model(judge: str) -> bool:
    """Whether the judgment is a model's that no person checked."""
    return judge_kind(judge) == "model"
