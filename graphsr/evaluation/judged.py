"""How much of a result rests on a model's judgments: for each run and topic, the share of what the run retrieved
whose judgment is a model's that no person checked (:mod:`graphsr.core.judges`).

* TREC document judgments: the share of the first k results judged by a model -- ``Judged@k`` against the
  model's judgments alone (``Judged@k`` against all of them says how much is judged at all);
* span and chunk judgments: the share of the characters read in the first k results judged by a model -- one
  minus ``unjudged_chars@k`` against the model's judgments alone.

Reported as ``judged_by_model`` (the whole ranking) and ``judged_by_model@k`` for each rank cut-off of the
measures asked for, beside them in every format and in a saved score table.
"""

from __future__ import annotations

import re
from .._records import replace
from typing import ClassVar

import numpy as np

from ..measures.base import Measure

__all__ = ["JudgedByModel", "names_model_judges", "add_judge_shares"]


class JudgedByModel(Measure):
    """The share of a run's results (or of the characters they hold) whose judgment is a model's: a statistic of
    the judgments an evaluation read, computed beside the measures (not a measure one asks for)."""

    NAME: ClassVar[str] = "judged_by_model"
    DESCRIPTION: ClassVar[str] = (
        "share of the first k results (span and chunk judgments: of the characters they hold) whose judgment is a "
        "model's that no person checked"
    )
    BOUNDS: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    EMPTY: ClassVar[float | None] = 0.0


#: A line ending in a model's judge (TREC, chunk and element qrels), a JSON record's judge that is a model, a
#: CSV field of one (a model's checked by a person counts as a person's here).
_MODEL_JUDGE = re.compile(
    rb"[ \t]model(?::\S+)?[ \t]*\r?$"
    rb'|"judge"\s*:\s*"model'
    rb"|(?:^|,)model(?::[^,\s]+)?[ \t]*(?:,|\r?$)",
    re.M,
)


def names_model_judges(path, judge: str = "person") -> bool:
    """Whether a judgments file holds a model's judgments that no person checked: the file's judge is a model, or
    some line names a model as its judge (read as bytes, without parsing the file)."""
    from ..core.judges import judge_kind

    if judge_kind(judge) == "model":
        return True
    import os

    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path):  # (in memory, a directory: none named)
        return False
    with open(path, "rb") as fh:
        data = fh.read()
    return b"model" in data and _MODEL_JUDGE.search(data) is not None


def _coverage_measures(kind: str, cutoffs: list[int]) -> list[Measure]:
    from ..core.kinds import PASSAGES

    if kind == PASSAGES:
        from ..measures.span.measures import unjudged_chars as base
    else:
        from ..measures.flat.measures import Judged as base
    return [base] + [base @ k for k in cutoffs]


def add_judge_shares(inputs, results, options, evaluate) -> None:
    """Add ``judged_by_model`` (and ``@k`` per cut-off of ``results``' measures) to each run of ``results``, the
    evaluation of ``inputs`` (whose judgments name their judges); nothing where no judgment is a model's.
    ``evaluate``: the evaluation's own function (inputs, measures, options), to score the model's judgments alone."""
    from ..core.kinds import PASSAGES
    from ..measures.parse import Requested

    if not names_model_judges(inputs.qrels, inputs.qrels_judge):
        return
    kind = inputs.kind()
    cutoffs = sorted({m.cutoff for m in results.measures if getattr(m, "cutoff", None) and m.CUTOFF_UNIT == "results"})
    cover = _coverage_measures(kind, cutoffs)
    quiet = replace(options, progress=False)
    model = evaluate(replace(inputs, judges=("model",)), cover, quiet)
    for failed in model.errors:
        raise failed
    shares = [JudgedByModel()] + [JudgedByModel(cutoff=k) for k in cutoffs]
    for run, model_run in zip(results.runs, model.results.runs, strict=True):
        where = {t: k for k, t in enumerate(model_run.topics)}
        for measure, share in zip(cover, shares):
            run.values[share] = np.array([_judged(model_run, measure, where, t, kind == PASSAGES) for t in run.topics])
    for share in shares:
        results.measures.append(share)
        if results.requests is not None:
            results.requests.append(Requested(str(share), share))


def _judged(run, measure, where: dict, topic: str, characters: bool) -> float:
    """The share judged of what ``run`` retrieved for ``topic`` (0 where the topic was not scored)."""
    k = where.get(topic)
    if k is None:
        return 0.0
    value = float(run.values[measure][k])
    return 1.0 - value if characters else value
