"""Make the project's Natural Questions sample (tests/data/nq/sample/): pages written from Shakespeare's plays (the
public-domain texts of graphsr's Shakespeare sample) in NQ's original format, with nested tables and lists,
questions, five annotators each who disagree as NQ's do (the row, or the table around it), and the predictions of
two systems (nq_eval's JSON, and a ranked TREC run of candidates).

    python tools/make_nq_sample.py            # writes tests/data/nq/sample/

The figures ``nq_eval.py`` gives on it are recorded beside it (``nq_eval.json``), run outside this repository:

    python nq_eval.py --gold_path=tests/data/nq/sample/nq-dev-00.jsonl.gz \\
        --predictions_path=tests/data/nq/sample/predictions.json

and ``candidates.nq_eval.json`` the same of ``candidates.predictions.json`` (the ranked run's first candidates).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.nq_html import Node, annotation, el, example, simplified, write  # noqa: E402

PLAYS = ("hamlet", "macbeth", "lear", "julius-caesar")
OUT = ROOT / "tests" / "data" / "nq" / "sample"
#: Questions asked of each play.
QUESTIONS = 6


def _play(name: str):
    root = etree.parse(str(ROOT / "graphsr" / "data" / "samples" / "shakespeare" / "collection" / f"{name}.xml"))
    title = root.findtext("head/title").strip()
    acts = []
    for act in root.iter("act"):
        scenes = []
        for scene in act.iter("scene"):
            speeches = [
                (t.get("char"), " ".join(t.text.split())) for t in scene.iter("text") if t.get("char") and t.text
            ]
            scenes.append(speeches)
        acts.append(scenes)
    return title, acts


def _words(text: str, n: int) -> str:
    return " ".join(text.split()[:n])


def page(name: str):
    """The page of one play, and the nodes the questions point at."""
    title, acts = _play(name)
    first = acts[0][0]
    intro = el("p", f"{title} is a play by William Shakespeare. It opens with ", el("b", first[0][0]), " asking: ")
    intro.children.append(f"\u201c{_words(first[0][1], 8)}\u201d")
    header = el("tr", el("th", "Scene"), el("th", "First speaker"), el("th", "First words"))
    rows = []
    for k, speeches in enumerate(acts[0][:4]):
        if not speeches:
            continue
        cells = [el("td", f"{k + 1}"), el("td", speeches[0][0]), el("td", _words(speeches[0][1], 10))]
        if k == 0 and len(speeches) > 2:  # a table nested in a cell: who speaks next
            nested = el("table", el("tr", el("td", "then"), el("td", speeches[1][0])))
            nested.children.append(el("tr", el("td", "and"), el("td", speeches[2][0])))
            cells[2].children.append(nested)
        rows.append(el("tr", *cells))
    table = el("table", header, *rows, attrs='class="wikitable"')
    items = []
    for a, scenes in enumerate(acts):
        inner = el("ul", *(el("li", f"Scene {s + 1}: {len(sp)} speeches") for s, sp in enumerate(scenes)))
        items.append(el("li", f"Act {a + 1} has {len(scenes)} scenes", inner))
    acts_list = el("ul", *items)
    speeches = acts[0][1] if len(acts[0]) > 1 else acts[0][0]
    paragraphs = [el("p", el("b", who), f": {_words(text, 25)}") for who, text in speeches[:3]]
    facts = el("dl", el("dt", "Acts"), el("dd", f"{len(acts)}"), el("dt", "Scenes"))
    facts.children.append(el("dd", f"{sum(len(s) for s in acts)}"))
    body = Node(
        "body",
        [el("h1", title), intro, el("h2", "Act 1 at a glance"), table, el("h2", "Acts"), acts_list, *paragraphs, facts],
    )
    head = f"<title>{title}</title><script>var nq = '<p>not text</p>';</script>"
    return title, write(body, head), {"intro": intro, "table": table, "rows": rows, "acts": acts_list, "items": items}


def examples() -> list[dict]:
    out = []
    eid = 9000000000000000000
    for name in PLAYS:
        title, written, at = page(name)
        short = name.replace("-", " ")
        row = at["rows"][0]
        speaker = row.children[1].children[0]
        acts = at["items"]
        two = acts[1]
        scenes_in_two = two.children[0].split()[3]
        second = at["rows"][1].children[1].children[0]
        questions = [
            (
                f"who speaks first in {short} act 1 scene 1",
                [
                    annotation(written, row, [(row.children[1], speaker)], aid=1),
                    annotation(written, row, [(row.children[1], speaker)], aid=2),
                    annotation(written, row, [], aid=3),
                    annotation(written, at["table"], [(row.children[1], speaker)], aid=4),  # the table around it
                    annotation(written, at["intro"], [], aid=5),
                ],
            ),
            (
                f"how many scenes are in act 2 of {short}",
                [
                    annotation(written, two, [(two, scenes_in_two)], aid=1),
                    annotation(written, two, [(two, scenes_in_two)], aid=2),
                    annotation(written, two.children[1], [], aid=3),  # the list inside the item
                    annotation(written, at["acts"], [], aid=4),  # the list around it
                    annotation(written, None, aid=5),
                ],
            ),
            (
                f"is {short} a play by shakespeare",
                [
                    annotation(written, at["intro"], yes_no="YES", aid=1),
                    annotation(written, at["intro"], yes_no="YES", aid=2),
                    annotation(written, at["intro"], yes_no="YES", aid=3),
                    annotation(written, at["intro"], [(at["intro"], "William Shakespeare")], aid=4),
                    annotation(written, None, aid=5),
                ],
            ),
            (
                f"who composed the music for the first performance of {short}",
                [annotation(written, None, aid=k) for k in range(1, 5)] + [annotation(written, at["intro"], aid=5)],
            ),
            (  # every annotator the same row
                f"who speaks first in act 1 scene 2 of {short}",
                [annotation(written, at["rows"][1], [(at["rows"][1].children[1], second)], aid=k) for k in range(1, 6)],
            ),
            (  # every annotator the whole table
                f"who speaks first in each scene of act 1 of {short}",
                [annotation(written, at["table"], aid=k) for k in range(1, 6)],
            ),
        ]
        for question, marks in questions:
            eid += 1
            out.append(example(eid, question, title, written, marks))
    return out


def _tag(record: dict, k: int) -> str:
    c = record["long_answer_candidates"][k]
    return record["document_tokens"][c["start_token"]]["token"].lower().strip("<>")


def _nested(record: dict, k: int, tag: str, inside: bool) -> list[int]:
    """The candidates of ``tag`` inside candidate ``k`` (``inside``), or holding it, in document order."""
    cands = record["long_answer_candidates"]

    def holds(a: dict, b: dict) -> bool:
        return a["start_byte"] <= b["start_byte"] and b["end_byte"] <= a["end_byte"]

    return [
        i
        for i, c in enumerate(cands)
        if i != k and (holds(cands[k], c) if inside else holds(c, cands[k])) and _tag(record, i) == tag
    ]


def _inside(record: dict, outer: int, tag: str, skip: int = 0) -> int:
    """The first candidate of ``tag`` inside candidate ``outer`` (``skip``: after that many)."""
    return _nested(record, outer, tag, True)[skip]


def _around(record: dict, inner: int, tag: str) -> int:
    """The innermost candidate of ``tag`` holding candidate ``inner``."""
    return _nested(record, inner, tag, False)[-1]


def predictions(records: list[dict]) -> dict:
    """A system that answers each kind of question its own way: the gold row, or the table nested in one of its
    cells (no annotator's); the gold item, or a scene's item inside it (no annotator's); yes/no; an answer to the
    unanswerable on some pages.  Near misses are scored as high as hits, so that no threshold hides them."""
    preds = []
    for k, r in enumerate(records):
        cands = r["long_answer_candidates"]
        gold = [a for a in r["annotations"] if a["long_answer"]["candidate_index"] >= 0]
        kind, odd = k % QUESTIONS, (k // QUESTIONS) % 2
        p = {"example_id": r["example_id"]}
        p["long_answer_score"] = [2.0, 1.8, 1.0, 0.5, 1.9, 1.7][kind] - (k // QUESTIONS) * 0.1
        p["short_answers_score"] = p["long_answer_score"]
        chosen = gold[0]["long_answer"]["candidate_index"] if gold else -1
        if kind == 0:  # the row the annotators chose; on odd pages the table nested in its last cell
            idx = _inside(r, chosen, "table") if odd else chosen
            p["short_answers"] = gold[0]["short_answers"]
        elif kind == 1:  # the item the annotators chose; on odd pages a scene's item inside it
            idx = _inside(r, chosen, "li") if odd else chosen
            p["short_answers"] = [] if odd else gold[0]["short_answers"]
        elif kind == 2:
            idx = chosen
            p["yes_no_answer"] = "YES"
        elif kind == 3:  # unanswerable: some pages answered anyway
            idx = 0 if odd else -1
        elif kind == 4:  # the row every annotator chose; on odd pages the table around it (nobody's)
            idx = _around(r, chosen, "table") if odd else chosen
        else:  # the table every annotator chose; on odd pages its second row (nobody's)
            idx = _inside(r, chosen, "tr", 1) if odd else chosen
        if idx >= 0:
            c = cands[idx]
            p["long_answer"] = {key: c[key] for key in ("start_byte", "end_byte", "start_token", "end_token")}
        preds.append(p)
    return {"predictions": preds}


def ranked_predictions(records: list[dict]) -> dict:
    """The ranked run's first candidates as nq_eval's predictions (what its NQ figures are)."""
    preds = []
    for r in records:
        ranked = _ranking(r)
        c = r["long_answer_candidates"][ranked[0]]
        la = {key: c[key] for key in ("start_byte", "end_byte", "start_token", "end_token")}
        preds.append(
            {"example_id": r["example_id"], "long_answer": la, "long_answer_score": 9, "short_answers_score": 8}
        )
    return {"predictions": preds}


def _ranking(r: dict) -> list[int]:
    """The gold candidate's parent, then the gold candidate, then its neighbours."""
    cands = r["long_answer_candidates"]
    gold = [a["long_answer"]["candidate_index"] for a in r["annotations"] if a["long_answer"]["candidate_index"] >= 0]
    g = max(sorted(set(gold)), key=gold.count)
    around = [
        i
        for i, c in enumerate(cands)
        if c["start_byte"] <= cands[g]["start_byte"] and cands[g]["end_byte"] <= c["end_byte"] and i != g
    ]
    order = ([around[-1]] if around else []) + [g] + [i for i in (g + 1, g - 1) if 0 <= i < len(cands)]
    return list(dict.fromkeys(order))


def ranked_run(records: list[dict]) -> str:
    """A TREC run of candidates, ``EXAMPLE-INDEX`` as ir_datasets names them (:func:`_ranking`'s order)."""
    lines = []
    for r in records:
        for rank, i in enumerate(_ranking(r), 1):
            lines.append(f"{r['example_id']} Q0 {r['example_id']}-{i} {rank} {10 - rank} structure-blind")
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    records = examples()
    with gzip.GzipFile(OUT / "nq-dev-00.jsonl.gz", "wb", mtime=0) as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in records).encode())
    with gzip.GzipFile(OUT / "simplified-nq-dev.jsonl.gz", "wb", mtime=0) as fh:
        fh.write("".join(json.dumps(simplified(r)) + "\n" for r in records).encode())
    (OUT / "predictions.json").write_text(json.dumps(predictions(records), indent=1) + "\n")
    (OUT / "candidates.run").write_text(ranked_run(records))
    (OUT / "candidates.predictions.json").write_text(json.dumps(ranked_predictions(records), indent=1) + "\n")
    print(f"{len(records)} examples in {OUT}")


if __name__ == "__main__":
    main()
