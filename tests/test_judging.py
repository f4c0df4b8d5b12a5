"""Judgments from people and models: judges named in qrels (a fifth field) and span judgments (a judge column),
holes exported, filled by the lexical judge graphsr ships (through a cache: nothing judged twice) and merged back;
the merged judgments score runs as the same judgments without judges do, and each result says which share of
its judged results rests on a model's judgments."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

import graphsr
from graphsr.core.judges import is_judge, judge_kind, parse_judge
from graphsr.errors import GraphsrInputError
from graphsr.evaluation.judging import JudgmentCache, fill, lexical
from graphsr.io.qrels import read_element_qrels

WORDS = "apple banana cherry delta echo fox golf hotel india juliet kilo lima mike".split()


def graphsr_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "graphsr", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def collection(root, seed: int, docs: int = 40, topics: int = 6):
    """A corpus of word documents, queries, document qrels judging some of them, a run of 20 each; a chunk map of
    overlapping 120-character chunks, chunk qrels and a chunk run."""
    rng = random.Random(seed)
    texts = {f"d{d}": " ".join(rng.choice(WORDS) for _ in range(rng.randint(30, 90))) for d in range(docs)}
    with open(root / "corpus.jsonl", "w") as fh:
        for d, t in texts.items():
            fh.write(json.dumps({"doc_id": d, "text": t}) + "\n")
    (root / "queries.tsv").write_text(
        "".join(f"{t}\t{rng.choice(WORDS)} {rng.choice(WORDS)}\n" for t in range(1, topics + 1))
    )
    names = list(texts)
    with open(root / "qrels", "w") as fh:
        for t in range(1, topics + 1):
            for d in rng.sample(names, 8):
                fh.write(f"{t} 0 {d} {rng.choice([0, 1, 2])}\n")
    with open(root / "run", "w") as fh:
        for t in range(1, topics + 1):
            for k, d in enumerate(rng.sample(names, 20)):
                fh.write(f"{t} Q0 {d} {k + 1} {20 - k} sys\n")
    chunks = []
    with open(root / "chunks.jsonl", "w") as fh:
        for d, text in texts.items():
            for k, s in enumerate(range(0, len(text), 90)):
                chunks.append(f"{d}#{k}")
                fh.write(
                    json.dumps({"chunk_id": f"{d}#{k}", "doc_id": d, "start": s, "end": min(len(text), s + 120)}) + "\n"
                )
    with open(root / "cqrels", "w") as fh:
        for t in range(1, topics + 1):
            for c in rng.sample(chunks, 10):
                fh.write(f"{t} 0 {c} {rng.choice([0, 1, 2])}\n")
    with open(root / "crun", "w") as fh:
        for t in range(1, topics + 1):
            for k, c in enumerate(rng.sample(chunks, 15)):
                fh.write(f"{t} Q0 {c} {k + 1} {15 - k} csys\n")
    return texts


def per_topic(cwd, qrels, run, *extra):
    out = graphsr_cli("eval", qrels, run, *extra, "-q", "--format", "json", cwd=cwd)
    assert out.returncode == 0, out.stderr
    return {(r["measure"], r["topic"]): r["value"] for r in json.loads(out.stdout)}


def test_judges_are_words_of_three_kinds():
    assert [judge_kind(j) for j in ("person", "model", "model:gpt-4o@2024-08-06", "checked:umbrela")] == [
        "person",
        "model",
        "model",
        "checked",
    ]
    for word in ("2", "0.5", "Q0", "people", "model:", "checked", "model:a b", "/article[1]"):
        assert not is_judge(word), word
    with pytest.raises(GraphsrInputError, match="a judge is"):
        parse_judge("llm")


def test_judged_qrels_read_as_the_same_judgments_without_judges(tmp_path):
    lines = ["1 0 a 2 person", "1 0 b 0 model:x@1", "1 0 c 1", "2 0 a 1 checked:umbrela", "2 0 d 0 model"]
    (tmp_path / "judged").write_text("\n".join(lines) + "\n")
    (tmp_path / "plain").write_text("\n".join(" ".join(x.split()[:4]) for x in lines) + "\n")
    judged, plain = read_element_qrels(tmp_path / "judged"), read_element_qrels(tmp_path / "plain")
    assert judged.judgments == plain.judgments
    model = read_element_qrels(tmp_path / "judged", keep=("model",))
    assert {(t, d) for t, j in model.judgments.items() for d, _ in j} == {("1", "b"), ("2", "d")}
    people = read_element_qrels(tmp_path / "judged", keep=("person", "checked"))
    assert {(t, d) for t, j in people.judgments.items() for d, _ in j} == {("1", "a"), ("1", "c"), ("2", "a")}
    (tmp_path / "bad").write_text("1 0 a 2 person\n1 0 b 1 llm\n")
    with pytest.raises(GraphsrInputError, match=r"bad:2: .*judge"):
        read_element_qrels(tmp_path / "bad")


def test_lexical_judge_is_deterministic_and_grades_by_query_terms():
    assert lexical("the capital of France", "France's capital is Paris") == 2  # (France's: france, s)
    assert lexical("capital of France", "the capital") == 1
    assert lexical("capital of France", "Lyon") == 0
    assert lexical("of the", "anything") == 0  # (no term left)
    assert all(lexical("apple kilo", t) == lexical("apple kilo", t) for t in ("kilo apple", "apple", ""))


def test_the_cache_asks_each_query_and_text_once_and_keeps_grades_across_runs(tmp_path):
    calls = []

    def judge(query, text):
        calls.append((query, text))
        return len(text) % 3

    judge.judge = "model:counting@1"
    holes = [{"query_id": "1", "doc_id": f"d{k % 4}", "query": "q", "text": f"text {k % 4}", "kind": "document"}
             for k in range(12)]  # fmt: skip
    cache = JudgmentCache(tmp_path / "cache.jsonl")
    first = list(fill(holes, judge, cache))
    assert len(calls) == 4 and cache.asked == 4
    assert {r["judge"] for r in first} == {"model:counting@1"}
    again = list(fill(holes, judge, JudgmentCache(tmp_path / "cache.jsonl")))
    assert len(calls) == 4 and again == first  # (read back from the file: not asked again)

    def broken(query, text):
        return float("nan")

    with pytest.raises(GraphsrInputError, match="finite number"):
        list(fill(holes[:1], broken))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_documents_exported_filled_and_merged_score_as_the_same_judgments_without_judges(tmp_path, seed):
    collection(tmp_path, seed)
    cli = lambda *a: graphsr_cli(*a, cwd=tmp_path)  # noqa: E731
    got = cli("judge", "export", "qrels", "run", "--queries", "queries.tsv", "--collection", "corpus.jsonl",
              "--depth", "10", "-o", "holes.jsonl")  # fmt: skip
    assert got.returncode == 0, got.stderr
    holes = [json.loads(x) for x in (tmp_path / "holes.jsonl").read_text().splitlines()]
    judged = {tuple(x.split()[:3:2]) for x in (tmp_path / "qrels").read_text().splitlines()}
    runs = {}
    for x in (tmp_path / "run").read_text().splitlines():
        f = x.split()
        runs.setdefault(f[0], []).append(f[2])
    want = [(t, d) for t in runs for d in runs[t][:10] if (t, d) not in judged]
    assert [(h["query_id"], h["doc_id"]) for h in holes] == want  # every unjudged document of the first 10, once
    texts = {
        json.loads(x)["doc_id"]: json.loads(x)["text"] for x in (tmp_path / "corpus.jsonl").read_text().splitlines()
    }
    assert all(h["text"] == texts[h["doc_id"]] and h["kind"] == "document" for h in holes)
    assert cli("judge", "fill", "holes.jsonl", "--cache", "c.jsonl", "-o", "filled.jsonl").returncode == 0
    assert cli("judge", "import", "qrels", "filled.jsonl", "-o", "merged").returncode == 0
    merged = (tmp_path / "merged").read_text().splitlines()
    assert len(merged) == len(judged) + len(holes)
    (tmp_path / "plain").write_text("".join(" ".join(x.split()[:4]) + "\n" for x in merged))
    measures = ("-m", "P@10", "-m", "nDCG@10", "-m", "AP", "-m", "Judged@10")
    a = per_topic(tmp_path, "merged", "run", *measures)
    b = per_topic(tmp_path, "plain", "run", *measures)
    assert {k: v for k, v in a.items() if not k[0].startswith("judged_by_model")} == b
    # the share resting on the model: of the first 10, the holes
    for t in runs:
        filled = sum(1 for h in holes if h["query_id"] == t)
        assert a["judged_by_model@10", t] == pytest.approx(filled / 10)
    assert a["Judged@10", "all"] == 1.0


def test_chunk_holes_are_characters_no_judgment_covers_and_merge_as_spans(tmp_path):
    collection(tmp_path, 5)
    cli = lambda *a: graphsr_cli(*a, cwd=tmp_path)  # noqa: E731
    got = cli("judge", "export", "cqrels", "crun", "--chunks", "chunks.jsonl", "--queries", "queries.tsv",
              "--collection", "corpus.jsonl", "--depth", "8", "-o", "holes.jsonl")  # fmt: skip
    assert got.returncode == 0, got.stderr
    holes = [json.loads(x) for x in (tmp_path / "holes.jsonl").read_text().splitlines()]
    assert holes and all(h["kind"] == "span" and h["start"] < h["end"] for h in holes)
    # no character twice, none judged already
    cmap = {json.loads(x)["chunk_id"]: json.loads(x) for x in (tmp_path / "chunks.jsonl").read_text().splitlines()}
    judged: dict = {}
    for x in (tmp_path / "cqrels").read_text().splitlines():
        t, _, c, _ = x.split()
        judged.setdefault((t, cmap[c]["doc_id"]), set()).update(range(cmap[c]["start"], cmap[c]["end"]))
    seen: dict = {}
    for h in holes:
        chars = set(range(h["start"], h["end"]))
        key = (h["query_id"], h["doc_id"])
        assert not chars & judged.get(key, set())
        assert not chars & seen.get(key, set())
        seen.setdefault(key, set()).update(chars)
    assert cli("judge", "fill", "holes.jsonl", "-o", "filled.jsonl").returncode == 0
    assert (
        cli("judge", "import", "cqrels", "filled.jsonl", "--chunks", "chunks.jsonl", "-o", "merged.jsonl").returncode
        == 0
    )
    merged = [json.loads(x) for x in (tmp_path / "merged.jsonl").read_text().splitlines()]
    with open(tmp_path / "plain.jsonl", "w") as fh:
        for r in merged:
            fh.write(json.dumps({k: v for k, v in r.items() if k != "judge"}) + "\n")
    measures = ("--chunks", "chunks.jsonl", "--collection", "corpus.jsonl", "-m", "ChromaIoU@8", "-m", "budgetP@300",
                "-m", "MAiP(task=thorough)", "-m", "unjudged_chars@8")  # fmt: skip
    a = per_topic(tmp_path, "merged.jsonl", "crun", *measures)
    b = per_topic(tmp_path, "plain.jsonl", "crun", *measures)
    assert {k: v for k, v in a.items() if not k[0].startswith("judged_by_model")} == b
    assert b["unjudged_chars@8", "all"] == 0.0  # (every hole of the first 8 filled)
    # the chunk qrels' own scores equal those of their spans (the merge writes chunk judgments as spans)
    orig = [r for r in merged if r["judge"] == "person"]
    with open(tmp_path / "orig.jsonl", "w") as fh:
        for r in orig:
            fh.write(json.dumps({k: v for k, v in r.items() if k != "judge"}) + "\n")
    assert per_topic(tmp_path, "orig.jsonl", "crun", *measures) == per_topic(tmp_path, "cqrels", "crun", *measures)
    # a filled span over judged text is refused
    judged_span = orig[0]
    (tmp_path / "twice.jsonl").write_text(json.dumps({**judged_span, "kind": "span", "judge": "model:x"}) + "\n")
    refused = cli("judge", "import", "cqrels", "twice.jsonl", "--chunks", "chunks.jsonl", "-o", "m2.jsonl")
    assert refused.returncode == 2 and "judged already" in refused.stderr


def test_the_share_of_characters_judged_by_a_model(tmp_path):
    text = "x" * 1000
    (tmp_path / "corpus.jsonl").write_text(json.dumps({"doc_id": "a", "text": text}) + "\n")
    spans = [
        {"query_id": "1", "doc_id": "a", "start": 0, "end": 100, "relevance": 1, "judge": "person"},
        {"query_id": "1", "doc_id": "a", "start": 100, "end": 400, "relevance": 0, "judge": "model:m"},
    ]
    (tmp_path / "spans.jsonl").write_text("".join(json.dumps(s) + "\n" for s in spans))
    (tmp_path / "run.jsonl").write_text(
        json.dumps({"query_id": "1", "doc_id": "a", "start": 0, "end": 500, "score": 1}) + "\n"
    )
    got = per_topic(tmp_path, "spans.jsonl", "run.jsonl", "--collection", "corpus.jsonl", "-m", "unjudged_chars")
    assert got["unjudged_chars", "1"] == pytest.approx(0.2)
    assert got["judged_by_model", "1"] == pytest.approx(300 / 500)  # of the 500 characters read, 300


def test_a_whole_file_can_be_a_model_s_and_plain_files_get_no_share(tmp_path):
    collection(tmp_path, 7)
    plain = graphsr_cli("eval", "qrels", "run", "-m", "P@5", cwd=tmp_path)
    assert "judged_by_model" not in plain.stdout
    whole = per_topic(tmp_path, "qrels", "run", "-m", "Judged@5", "--qrels-judge", "model:bm25-llm")
    assert whole["judged_by_model@5", "all"] == whole["Judged@5", "all"] > 0  # (all a model's: all judged)


def test_judge_holes_in_one_call(tmp_path):
    collection(tmp_path, 9)
    asked = []

    def judge(query, text):
        asked.append((query, text))
        return lexical(query, text)

    counts = graphsr.judge_holes(
        tmp_path / "qrels", tmp_path / "run", tmp_path / "queries.tsv", tmp_path / "corpus.jsonl", judge,
        tmp_path / "merged", depth=5, cache=tmp_path / "cache.jsonl", name="model:lexical-wrapped@1",
    )  # fmt: skip
    assert counts["asked"] == len(set(asked)) == len(asked) <= counts["holes"]
    assert counts["written"] == 6 * 8 + counts["holes"]
    assert "model:lexical-wrapped@1" in (tmp_path / "merged").read_text()
    again = graphsr.judge_holes(
        tmp_path / "qrels", tmp_path / "run", tmp_path / "queries.tsv", tmp_path / "corpus.jsonl", judge,
        tmp_path / "merged2", depth=5, cache=tmp_path / "cache.jsonl", name="model:lexical-wrapped@1",
    )  # fmt: skip
    assert again["asked"] == 0 and (tmp_path / "merged2").read_text() == (tmp_path / "merged").read_text()
    assert np.isfinite(counts["holes"])


def test_judges_survive_a_store_round_trip(tmp_path):
    """Element judgments naming their judges (a sixth field), loaded into the local store: each ASSESSES
    relationship keeps its judge, and what the store gives back is what was read."""
    from graphsr.data import sample
    from graphsr.store import open_store, store_assessments, store_collection

    moby = sample("mobydick")
    lines = [x for x in moby["qrels"].read_text().splitlines() if x.strip() and not x.startswith("#")]
    judges = ["person", "model:lexical@1", "checked:umbrela"]
    judged = tmp_path / "judged.qrels"
    judged.write_text("".join(f"{x} {judges[k % 3]}\n" for k, x in enumerate(lines)))
    qrels = read_element_qrels(judged)
    plain = read_element_qrels(moby["qrels"])
    assert qrels.judgments == plain.judgments and len(qrels.judges) == len(lines)
    with open_store(f"local:{tmp_path / 'store'}") as s:
        store_collection(s, moby["collection"], "m", kinds=["p*"], elements="all")
        store_assessments(s, qrels, "m", "judged.qrels")
        store_assessments(s, plain, "m", "plain.qrels")
        rows = s.run("qrels_judgments", id="Q/m/judged.qrels")
        keys = {r["key"]: r for r in s.run("qrels_judgments", id="Q/m/plain.qrels")}
        assert {r["judge"] for r in s.run("qrels_judgments", id="Q/m/plain.qrels")} == {None}  # (a person's)
        store_assessments(s, qrels, "m", "judged.qrels")  # the same again: nothing changes
        [held] = s.run("qrels_provenance", id="Q/m/judged.qrels")
        [plain_held] = s.run("qrels_provenance", id="Q/m/plain.qrels")
    import hashlib

    assert held["graphsr"] == graphsr.__version__
    assert held["source_sha256"] == hashlib.sha256(judged.read_bytes()).hexdigest()
    assert sorted(held["judges"]) == sorted(judges)
    assert plain_held["judges"] == ["person"] or plain_held["judges"] is None
    assert len(rows) == len(lines)
    from collections import Counter

    assert Counter(r["judge"] for r in rows) == Counter(qrels.judges.values())
    by_topic_rel = Counter((r["topic"], r["rel"], r["judge"]) for r in rows)
    want = Counter((t, rel, qrels.judges[(t, d, x)]) for t, d, x, rel in qrels)
    assert by_topic_rel == want
    assert all(keys[r["key"]]["rel"] == r["rel"] for r in rows)
    model_only = read_element_qrels(judged, keep=("model",))
    assert sum(1 for _ in model_only) == sum(1 for j in qrels.judges.values() if j.startswith("model"))


def test_an_element_run_s_holes_are_the_characters_its_elements_hold(tmp_path):
    """An element run against span judgments: its elements become the characters they hold, the holes are the
    characters no span judged, and the judgments merged back score the run as the same spans without judges."""
    from graphsr.data import sample

    s = sample("shakespeare")
    spans = [
        {"query_id": "1", "doc_id": "hamlet", "start": 1000, "end": 3000, "relevance": 1},
        {"query_id": "1", "doc_id": "hamlet", "start": 5000, "end": 5200, "relevance": 0},
        {"query_id": "2", "doc_id": "richard2", "start": 120500, "end": 121000, "relevance": 2},
    ]
    (tmp_path / "spans.jsonl").write_text("".join(json.dumps(x) + "\n" for x in spans))
    (tmp_path / "q.tsv").write_text("1\tghost spirit apparition\n2\tcrown throne sceptre\n")
    run, collection = s["runs"][0].parent / "scenes.run", s["collection"]
    cli = lambda *a: graphsr_cli(*a, cwd=tmp_path)  # noqa: E731
    got = cli("judge", "export", "spans.jsonl", run, "--queries", "q.tsv", "--collection", collection,
              "--depth", "3", "-o", "holes.jsonl")  # fmt: skip
    assert got.returncode == 0, got.stderr
    holes = [json.loads(x) for x in (tmp_path / "holes.jsonl").read_text().splitlines()]
    hamlet = sorted((h["start"], h["end"]) for h in holes if h["query_id"] == "1" and h["doc_id"] == "hamlet")
    assert (1000, 3000) not in hamlet and all(e <= 1000 or s >= 3000 for s, e in hamlet)  # (none over judged text)
    assert any(e == 1000 for _, e in hamlet) and any(s == 3000 for s, _ in hamlet)  # (cut at the judged span)
    assert cli("judge", "fill", "holes.jsonl", "-o", "filled.jsonl").returncode == 0
    assert cli("judge", "import", "spans.jsonl", "filled.jsonl", "-o", "merged.jsonl").returncode == 0
    merged = [json.loads(x) for x in (tmp_path / "merged.jsonl").read_text().splitlines()]
    with open(tmp_path / "plain.jsonl", "w") as fh:
        for r in merged:
            fh.write(json.dumps({k: v for k, v in r.items() if k != "judge"}) + "\n")
    measures = ("--collection", collection, "-m", "MAiP(task=thorough)", "-m", "unjudged_chars@3")
    a = per_topic(tmp_path, "merged.jsonl", run, *measures)
    b = per_topic(tmp_path, "plain.jsonl", run, *measures)
    assert {k: v for k, v in a.items() if not k[0].startswith("judged_by_model")} == b
    assert b["unjudged_chars@3", "1"] == 0.0 and 0 < a["judged_by_model@3", "1"] < 1


def test_two_judgments_files_merge_into_one_each_naming_its_judge(tmp_path):
    """People's judgments and a model's file of the same topics and more: people's kept where both judge (each
    of the model's left out counted), the model's added elsewhere, each line naming its judge."""
    (tmp_path / "people").write_text("1 0 a 2\n1 0 b 0\n2 0 a 1\n")
    (tmp_path / "llm").write_text("1 0 a 0\n1 0 c 1\n2 0 a 1\n2 0 d 2\n3 0 a 1\n")
    out = graphsr_cli("judge", "merge", "people", "llm", "--other-judge", "model:umbrela@1", "-o", "merged",
                      cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "2 judgment(s)" in out.stderr
    assert (tmp_path / "merged").read_text().splitlines() == [
        "1 0 a 2 person",
        "1 0 b 0 person",
        "2 0 a 1 person",
        "1 0 c 1 model:umbrela@1",
        "2 0 d 2 model:umbrela@1",
        "3 0 a 1 model:umbrela@1",
    ]
    (tmp_path / "twice").write_text("1 0 c 1\n1 0 c 0\n")
    refused = graphsr_cli("judge", "merge", "people", "twice", "--other-judge", "model", "-o", "m2", cwd=tmp_path)
    assert refused.returncode == 2 and "twice" in refused.stderr and not (tmp_path / "m2").exists()


def test_evaluate_in_python_tells_the_share_too(tmp_path):
    from graphsr.evaluation.inputs import Inputs, evaluate

    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0 model:m\n2 0 a 1 model:m\n")
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n1 Q0 c 3 0 r\n2 Q0 a 1 1 r\n")
    done = evaluate(Inputs(tmp_path / "qrels", [tmp_path / "run"]), ["P@2"])
    values = {str(m): v.tolist() for m, v in done.results.runs[0].values.items()}
    assert values["judged_by_model@2"] == [0.5, 1.0] and values["judged_by_model"] == [1 / 3, 1.0]
    plain = tmp_path / "plain"
    plain.write_text("1 0 a 1\n1 0 b 0\n2 0 a 1\n")
    assert [str(m) for m in evaluate(Inputs(plain, [tmp_path / "run"]), ["P@2"]).results.runs[0].values] == ["P@2"]
