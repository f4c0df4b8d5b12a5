"""Holes judged by UMBRELA (the open reproduction of Bing's LLM relevance assessor, whose judgments TREC RAG 2024's
assessors post-edited): its batch requests written from the holes, and its judgments read back onto them.

UMBRELA's batch input is JSON lines, one request a query::

    {"query": {"qid": "q1", "text": "..."}, "candidates": [{"docid": "d7", "doc": {"segment": "..."}}, ...]}

and its output one record a (query, candidate) pair, in the requests' order, each with the query's and the
passage's text, its ``judgment`` (0 to 3), the ``model`` and, in its newer versions, ``result_status`` (0 where the
model's answer could not be parsed and the judgment fell back to 0).  The records name no ids, so
:func:`read_judgments` pairs them with the holes by position, as :func:`requests` ordered them (holes grouped by
query, each query where it first occurs), and checks that each record's query and passage are the hole's own.
A fallback judgment (``result_status`` 0) is no judgment: its hole stays unfilled, and is counted.
"""

from __future__ import annotations

import os
from typing import Iterable

from ..core.judges import parse_judge
from ..errors import GraphsrInputError

__all__ = ["requests", "read_judgments", "GRADES"]

#: UMBRELA's grades.
GRADES = (0, 1, 2, 3)


def _grouped(holes: Iterable[dict]) -> list[tuple[str, list[dict]]]:
    """The holes by query, each query where it first occurs, each query's holes in their order."""
    groups: dict[str, list[dict]] = {}
    for hole in holes:
        groups.setdefault(str(hole["query_id"]), []).append(hole)
    return list(groups.items())


def requests(holes: Iterable[dict]) -> list[dict]:
    """UMBRELA's batch requests of ``holes``: one a query, a candidate a hole (its document id and its text)."""
    return [
        {
            "query": {"qid": qid, "text": group[0]["query"]},
            "candidates": [{"docid": str(h["doc_id"]), "doc": {"segment": h["text"]}} for h in group],
        }
        for qid, group in _grouped(holes)
    ]


def read_judgments(path: str | os.PathLike, holes: list[dict], name: str | None = None) -> tuple[list[dict], int]:
    """The holes UMBRELA judged in ``path`` (its output for :func:`requests` of ``holes``), each with ``relevance``
    and ``judge`` added, and the number left unfilled because UMBRELA's judgment fell back to 0.

    ``name``: the judge to record (``model:NAME``); by default ``model:umbrela@MODEL``, MODEL the ``model`` the
    records name (one for all)."""
    from .holes import json_lines

    ordered = [h for _, group in _grouped(holes) for h in group]
    records: list[tuple[int, dict]] = []
    for n, rec in json_lines(path, "UMBRELA's judgments"):
        if not isinstance(rec, dict):
            raise GraphsrInputError(f"{path}:{n}: not a JSON object")
        records.append((n, rec))
    if len(records) != len(ordered):
        raise GraphsrInputError(
            f"{path}: {len(records)} judgments for {len(ordered)} holes: UMBRELA's output must be the judgments of "
            "the requests graphsr judge export --umbrela wrote for these holes, all of them, in order"
        )
    if name is None:
        models = {rec.get("model") for _, rec in records}
        if len(models) != 1 or not isinstance(next(iter(models)), str):
            raise GraphsrInputError(
                f"{path}: the judgments name {len(models)} models ({', '.join(sorted(map(repr, models))[:3])}): "
                "say which judge they are with --name model:NAME"
            )
        name = f"model:umbrela@{next(iter(models))}"
    try:
        label = parse_judge(name)
    except GraphsrInputError as exc:
        raise GraphsrInputError(f"{exc}: give the judge's name with --name model:NAME") from None
    filled, fallbacks = [], 0
    for (n, rec), hole in zip(records, ordered):
        for field, own in (("query", hole["query"]), ("passage", hole["text"])):
            if rec.get(field) != own:
                raise GraphsrInputError(
                    f"{path}:{n}: the {field} judged is not hole {n}'s ({hole['query_id']}, {hole['doc_id']}): "
                    "UMBRELA's output must follow the requests' order"
                )
        grade, status = rec.get("judgment"), rec.get("result_status", 1)
        if isinstance(grade, bool) or grade not in GRADES:
            raise GraphsrInputError(f"{path}:{n}: UMBRELA's judgment is one of 0, 1, 2, 3, got {grade!r}")
        if isinstance(status, bool) or status not in (0, 1):
            raise GraphsrInputError(f"{path}:{n}: result_status is 0 or 1, got {status!r}")
        if status == 0:  # (the model's answer was not understood: the 0 is UMBRELA's fallback, not a judgment)
            fallbacks += 1
            continue
        filled.append({**hole, "relevance": int(grade), "judge": label})
    return filled, fallbacks
