"""Judges that fill holes: any ``judge(query, text) -> grade`` callable, a cache so that nothing is judged twice,
and the judge graphsr ships, a lexical one.

:func:`fill` takes hole records (:mod:`graphsr.evaluation.holes`: each a query's text and a unit's text) and
gives them a grade and the judge that gave it, asking the judge only for a (query, text) it has not judged
before: the :class:`JudgmentCache` keeps every grade by judge, query and text, in memory or in a JSON lines file
kept across runs.

:func:`lexical` is deterministic and needs no model: the share of the query's distinct terms (lower-cased
letters and digits, stop words left out) that occur in the text gives grade 2 from :data:`LEXICAL_GRADES` [0],
1 from [1], else 0.  Its judge label is ``model:lexical@1``: it stands for a model judge, and is one in how
graphsr counts it.  It is there to be run and tested; judge with a model of your choice for a paper.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from typing import Callable, Iterable, Iterator

from ..core.judges import parse_judge
from ..errors import GraphsrInputError

__all__ = ["lexical", "LEXICAL_JUDGE", "LEXICAL_GRADES", "JudgmentCache", "fill", "judge_label"]

#: The lexical judge's label, and its grade thresholds: the share of query terms in the text for grade 2 and 1.
LEXICAL_JUDGE = "model:lexical@1"
LEXICAL_GRADES = (0.75, 0.4)
_TERM = re.compile(r"[^\W_]+", re.UNICODE)
#: Words too common to say anything of relevance (English: most test collections' queries).
STOP_WORDS = frozenset(
    "a an and are as at be but by did do does for from had has have how i if in into is it its of on or s so "
    "than that the their then there these they this to was were what when where which who whom why will with "
    "you your".split()
)


def _terms(text: str) -> set[str]:
    return {t for t in _TERM.findall(text.casefold()) if t not in STOP_WORDS}


def lexical(query: str, text: str) -> int:
    """The lexical judge's grade of ``text`` for ``query``: 2, 1 or 0 (see the module docstring).

    >>> lexical("capital of France", "Paris is the capital of France."), lexical("capital of France", "Lyon")
    (2, 0)
    """
    wanted = _terms(query)
    if not wanted:
        return 0
    share = len(wanted & _terms(text)) / len(wanted)
    return 2 if share >= LEXICAL_GRADES[0] else 1 if share >= LEXICAL_GRADES[1] else 0


lexical.judge = LEXICAL_JUDGE  # type: ignore[attr-defined]


def judge_label(judge: Callable, name: str | None = None) -> str:
    """The label a callable judge's grades carry: ``name``, else its ``judge`` attribute, else
    ``model:<its __name__>``."""
    label = name or getattr(judge, "judge", None) or f"model:{getattr(judge, '__name__', 'judge')}"
    return parse_judge(label)


def _key(judge: str, query: str, text: str) -> str:
    return hashlib.sha256(f"{judge}\0{query}\0{text}".encode("utf-8")).hexdigest()


class JudgmentCache:
    """Grades by (judge, query, text): in memory, or kept in a JSON lines file (``path``) that later runs read,
    one ``{"judge", "key", "grade"}`` record a line, each new grade appended as it is given (so that an
    interrupted fill keeps what it judged)."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = None if path is None else os.fspath(path)
        self.grades: dict[str, float] = {}
        self.asked = 0  # (the judge's calls through this cache)
        if self.path is not None and os.path.exists(self.path):
            if not os.path.isfile(self.path):
                raise GraphsrInputError(f"{self.path}: the judgment cache must be a file")
            with open(self.path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        rec = json.loads(line)
                        self.grades[rec["key"]] = _grade(rec["grade"], f"{self.path}:{n}")
                    except (ValueError, KeyError, TypeError) as exc:
                        raise GraphsrInputError(f"{self.path}:{n}: not a judgment cache record ({exc})") from None

    def grade(self, judge: Callable, label: str, query: str, text: str) -> float:
        """The grade of ``text`` for ``query`` by ``judge`` (``label``), asked of the judge once."""
        key = _key(label, query, text)
        if key not in self.grades:
            self.asked += 1
            self.grades[key] = value = _grade(judge(query, text), f"judge {label}")
            if self.path is not None:
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"judge": label, "key": key, "grade": value}) + "\n")
        return self.grades[key]


def _grade(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise GraphsrInputError(f"{where}: a grade is a finite number, got {value!r}")
    return float(value)


def fill(
    holes: Iterable[dict], judge: Callable = lexical, cache: JudgmentCache | None = None, name: str | None = None
) -> Iterator[dict]:
    """Each hole record with ``relevance`` (the judge's grade) and ``judge`` (its label) added, asking ``judge``
    only what ``cache`` has not seen."""
    label = judge_label(judge, name)
    cache = cache if cache is not None else JudgmentCache()
    for hole in holes:
        query, text = hole.get("query"), hole.get("text")
        if not isinstance(query, str) or not isinstance(text, str):
            raise GraphsrInputError(
                f"hole {hole.get('query_id')!r}/{hole.get('doc_id')!r}: a hole needs its query and text to be judged"
            )
        grade = cache.grade(judge, label, query, text)
        yield {**hole, "relevance": int(grade) if float(grade).is_integer() else grade, "judge": label}
