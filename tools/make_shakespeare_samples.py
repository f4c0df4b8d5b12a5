"""Generate the Shakespeare sample topics, assessments and runs shipped with graphsr.

Deterministic; run from the repository root:

    python tools/make_shakespeare_samples.py

Writes graphsr/data/samples/shakespeare/{topics.txt,qrels.txt,runs/*.run}.

Assessments (synthetic, for demonstration): a speech (a <text> element of a
scene) is relevant to a topic when it contains one of the topic's words; the
relevance of any element is the fraction of its characters that lie in
relevant speeches (INEX-style highlighting: relevant speeches get 1, their
scenes, acts and plays the highlighted share).  Only elements with a
positive value are listed.

Runs: five simple term-count systems of different granularity, each
searching for the topic's first word only (so they miss some relevant
speeches): focused speeches, whole scenes, whole plays, scene trees
(a scene with its best speeches as one result) and a "thorough" run that
returns each speech followed by its scene (overlap, hence redundancy).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from graphsr.core.document import canonical_xpath

ROOT = Path(__file__).resolve().parents[1] / "graphsr" / "data" / "samples" / "shakespeare"
TOPICS = {
    "1": ["ghost", "spirit", "apparition"],
    "2": ["crown", "throne", "sceptre"],
    "3": ["blood", "bloody", "murder"],
    "4": ["witch", "witches", "prophecy"],
    "5": ["honour", "honor", "valour"],
}
WORD = re.compile(r"[a-z]+")


def text_len(el) -> int:
    return len("".join(el.itertext()))


def main() -> None:
    plays = []
    for f in sorted((ROOT / "collection").glob("*.xml")):
        tree = etree.parse(str(f))
        plays.append((f.stem, tree))
    qrels, runs = [], {k: [] for k in ("speeches", "scenes", "plays", "scene-trees", "thorough")}
    for topic, words in TOPICS.items():
        primary = words[0]
        rel_chars = {}  # (docid, xpath) -> highlighted chars
        lengths = {}
        speech_hits, scene_hits, play_hits = [], {}, {}
        for docid, tree in plays:
            for sp in tree.getroot().iter("text"):
                if sp.getparent().tag != "scene":
                    continue
                toks = WORD.findall("".join(sp.itertext()).lower())
                if any(t in words for t in toks):
                    n = text_len(sp)
                    el = sp
                    while el is not None:
                        key = (docid, canonical_xpath(tree.getpath(el)))
                        rel_chars[key] = rel_chars.get(key, 0) + n
                        lengths[key] = text_len(el)
                        el = el.getparent()
                tf = toks.count(primary)
                if tf:
                    xp = canonical_xpath(tree.getpath(sp))
                    scene = sp.getparent()
                    sxp = canonical_xpath(tree.getpath(scene))
                    speech_hits.append((tf, docid, xp, sxp))
                    s = scene_hits.setdefault((docid, sxp), [0, []])
                    s[0] += tf
                    s[1].append((tf, xp))
                    play_hits[docid] = play_hits.get(docid, 0) + tf
        for (docid, xp), n in sorted(rel_chars.items()):
            qrels.append(f"{topic} Q0 {docid} {xp} {round(n / lengths[(docid, xp)], 4):g}")
        speech_hits.sort(key=lambda h: (-h[0], h[1], h[2]))
        for rank, (tf, docid, xp, _) in enumerate(speech_hits[:100], 1):
            runs["speeches"].append(f"{topic} Q0 {docid} {rank} {tf} speeches {xp}")
        scenes = sorted(scene_hits.items(), key=lambda kv: (-kv[1][0], kv[0]))
        for rank, ((docid, sxp), (tf, _)) in enumerate(scenes[:50], 1):
            runs["scenes"].append(f"{topic} Q0 {docid} {rank} {tf} scenes {sxp}")
        for rank, (docid, tf) in enumerate(sorted(play_hits.items(), key=lambda kv: (-kv[1], kv[0])), 1):
            runs["plays"].append(f"{topic} Q0 {docid} {rank} {tf} plays /play[1]")
        for rank, ((docid, sxp), (tf, sp)) in enumerate(scenes[:50], 1):
            runs["scene-trees"].append(f"{topic} Q0 {docid} {rank} {tf} scene-trees {sxp}")
            for _, xp in sorted(sp, key=lambda h: (-h[0], h[1]))[:3]:
                runs["scene-trees"].append(f"{topic} Q0 {docid} {rank} {tf} scene-trees {xp}")
        rank, used = 0, set()
        for tf, docid, xp, sxp in speech_hits[:50]:
            for node in (xp, sxp):
                if (docid, node) not in used:
                    used.add((docid, node))
                    rank += 1
                    runs["thorough"].append(f"{topic} Q0 {docid} {rank} {tf} thorough {node}")
    (ROOT / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (ROOT / "topics.txt").write_text("".join(f"{t}\t{' '.join(w)}\n" for t, w in TOPICS.items()))
    (ROOT / "runs").mkdir(exist_ok=True)
    for name, lines in runs.items():
        (ROOT / "runs" / f"{name}.run").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
