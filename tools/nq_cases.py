"""Generate Natural Questions annotations and predictions that reach the edges of ``nq_eval``'s rules, for the
differential test of graphsr's NQ measures (tests/test_nq_measures.py).

Each case is a few examples with nested long-answer candidates, one to five annotators, null answers, yes/no
answers, short answer sets, predictions given by bytes, by tokens, by both or by bytes that differ where the tokens
agree, ties in scores and negative scores.  ``--out FILE`` writes the cases as JSON: per case its examples (NQ's
original fields, without the page) and its prediction JSON; the official figures are added to that file by
running ``nq_eval.py`` on each case outside this repository (``--votes`` cases run with its threshold flags).

    python tools/nq_cases.py --out cases.json --cases 60 --seed 7
"""

from __future__ import annotations

import argparse
import json
import random


def _candidates(rng: random.Random) -> list[dict]:
    """Nested candidates: top-level blocks in order, some holding children (a table's rows, a list's items)."""
    out = []
    byte, token = rng.randint(0, 50), rng.randint(0, 5)
    for _ in range(rng.randint(1, 4)):
        width = rng.randint(4, 30)
        top = {"start_byte": byte, "end_byte": byte + 10 * width, "start_token": token, "end_token": token + width}
        top["top_level"] = True
        out.append(top)
        inner_t, inner_b = token + 1, byte + 10
        while rng.random() < 0.6 and inner_t + 3 < token + width - 1:
            w = rng.randint(2, 4)
            child = {"start_byte": inner_b, "end_byte": inner_b + 10 * w, "start_token": inner_t}
            child["end_token"] = inner_t + w
            child["top_level"] = False
            out.append(child)
            inner_t, inner_b = inner_t + w, inner_b + 10 * w
        byte, token = byte + 10 * width + rng.randint(0, 20), token + width + rng.randint(0, 3)
    return out


_NULL = {"start_byte": -1, "end_byte": -1, "start_token": -1, "end_token": -1}


def _span(c: dict) -> dict:
    return {k: c[k] for k in ("start_byte", "end_byte", "start_token", "end_token")}


def _short_in(rng: random.Random, c: dict) -> dict:
    """A token span inside candidate ``c``, with its bytes (10 a token)."""
    a = rng.randint(c["start_token"], c["end_token"] - 1)
    b = rng.randint(a + 1, min(c["end_token"], a + 3))
    sb = c["start_byte"] + 10 * (a - c["start_token"])
    return {"start_byte": sb, "end_byte": sb + 10 * (b - a), "start_token": a, "end_token": b}


def _annotation(rng: random.Random, cands: list[dict], favourite: int, shorts: list[dict]) -> dict:
    long, short, yes_no = dict(_NULL, candidate_index=-1), [], "NONE"
    if rng.random() < 0.75:
        k = favourite if rng.random() < 0.6 else rng.randrange(len(cands))
        long = dict(_span(cands[k]), candidate_index=k)
        r = rng.random()
        if r < 0.15:
            yes_no = rng.choice(["YES", "NO"])
        elif r < 0.7:
            short = [dict(s) for s in shorts] if rng.random() < 0.6 else [_short_in(rng, cands[k])]
    return {"annotation_id": rng.getrandbits(40), "long_answer": long, "short_answers": short, "yes_no_answer": yes_no}


def _as_given(rng: random.Random, span: dict) -> dict:
    """A predicted span written as systems write them: both offsets, bytes only, tokens only, or bytes that are
    off while the tokens are right."""
    r = rng.random()
    s = dict(span)
    if r < 0.15:
        s["start_token"] = s["end_token"] = -1
    elif r < 0.3:
        s["start_byte"] = s["end_byte"] = -1
    elif r < 0.4:
        s["start_byte"] += 1
        s["end_byte"] += 1
    return s


def _score(rng: random.Random, ties: bool) -> float:
    return rng.choice([0.0, 0.5, 1.0, 2.0, -1.0]) if ties else round(rng.uniform(-3, 10), 3)


def _prediction(rng: random.Random, eid: int, cands: list[dict], gold: list[dict], ties: bool) -> dict:
    pred: dict = {"example_id": eid}
    marked = [a for a in gold if a["long_answer"]["start_byte"] >= 0]
    r = rng.random()
    if r < 0.15:
        pass  # no long_answer key: a null long answer
    elif r < 0.25:
        pred["long_answer"] = dict(_NULL)
    elif r < 0.65 and marked:
        pred["long_answer"] = _as_given(rng, _span(rng.choice(marked)["long_answer"]))
    else:
        pred["long_answer"] = _as_given(rng, _span(rng.choice(cands)))
    r = rng.random()
    with_short = [a for a in gold if a["short_answers"]]
    if r < 0.15:
        pred["yes_no_answer"] = rng.choice(["YES", "no", "Yes", "NO"])
    elif r < 0.5 and with_short:
        pred["short_answers"] = [_as_given(rng, s) for s in rng.choice(with_short)["short_answers"]]
        if rng.random() < 0.2:
            pred["short_answers"].append(dict(_NULL))
        pred["yes_no_answer"] = rng.choice(["NONE", "none"])
    elif r < 0.7:
        pred["short_answers"] = [_short_in(rng, rng.choice(cands))]
    elif r < 0.8:
        pred["short_answers"] = []
    pred["long_answer_score"] = _score(rng, ties)
    pred["short_answers_score"] = _score(rng, ties)
    return pred


def case(seed: int) -> dict:
    """One case: its examples and predictions."""
    rng = random.Random(seed)
    n = rng.choice([1, 2, 3, 5, 8, 13, 21, 34])
    ties = rng.random() < 0.5
    annotators = rng.choice([1, 2, 3, 5, 5, 5])
    examples, predictions = [], []
    for k in range(n):
        eid = rng.randint(-(2**62), 2**62) if rng.random() < 0.8 else k
        cands = _candidates(rng)
        favourite = rng.randrange(len(cands))
        shorts = [_short_in(rng, cands[favourite]) for _ in range(rng.choice([1, 1, 2]))]
        gold = [_annotation(rng, cands, favourite, shorts) for _ in range(annotators)]
        examples.append(
            {
                "example_id": eid,
                "question_text": f"question {k}",
                "document_url": f"https://example.org/{k}",
                "document_html": "",
                "long_answer_candidates": cands,
                "annotations": gold,
            }
        )
        predictions.append(_prediction(rng, eid, cands, gold, ties))
    rng.shuffle(predictions)
    votes = rng.choice([2, 2, 2, 1, 3])
    return {"seed": seed, "votes": votes, "examples": examples, "predictions": {"predictions": predictions}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cases = [case(args.seed * 1000 + k) for k in range(args.cases)]
    with open(args.out, "w") as fh:
        json.dump(cases, fh)


if __name__ == "__main__":
    main()
