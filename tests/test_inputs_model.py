"""One model of an evaluation's inputs: the same assessments and runs, in every format graphsr reads, give the same
values through every command (eval, coverage, view, fidelity) and the API; what the options say is checked before
anything large is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli, write

TEXTS = {
    "a": ("<doc><p>alpha beta gamma </p><p>delta epsilon zeta </p><p>eta theta iota</p></doc>"),
    "b": ("<doc><p>one two three </p><p>four five six </p></doc>"),
}
#: relevant spans (query 1), and a run's results (query 1), in characters of the documents' texts
RELEVANT = [("a", 17, 36), ("b", 0, 14)]
RESULTS = [("a", 17, 31, 3.0), ("b", 14, 28, 2.0), ("a", 0, 17, 1.0)]
MEASURES = ["MAiP", "iP[0.01]", "ChromaIoU@3", "ChromaP@2"]


def _text(xml: str) -> str:
    from lxml import etree

    return "".join(etree.fromstring(xml).itertext())


@pytest.fixture
def case(tmp_path: Path) -> dict:
    coll = tmp_path / "coll"
    for d, xml in TEXTS.items():
        write(coll / f"{d}.xml", xml)
    texts = {d: _text(x) for d, x in TEXTS.items()}
    out = {"collection": coll, "dir": tmp_path}
    rows = [{"query_id": "1", "doc_id": d, "start": s, "end": e, "relevance": 1} for d, s, e in RELEVANT]
    out["spans.jsonl"] = write(tmp_path / "spans.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    out["spans.csv"] = write(
        tmp_path / "spans.csv",
        "query_id,doc_id,start,end,relevance\n" + "".join(f"1,{d},{s},{e},1\n" for d, s, e in RELEVANT),
    )
    out["fol"] = write(
        tmp_path / "fol.qrels",
        "".join(f"1 Q0 {d} {e - s} {len(texts[d])} {s} {s}:{e - s}\n" for d, s, e in RELEVANT),
    )
    judged = [(f"J{k}", d, s, e) for k, (d, s, e) in enumerate(RELEVANT)]
    retrieved = [(f"R{k}", d, s, e) for k, (d, s, e, _) in enumerate(RESULTS)]
    out["map"] = write(
        tmp_path / "map.jsonl",
        "".join(
            json.dumps({"chunk_id": c, "doc_id": d, "start": s, "end": e}) + "\n" for c, d, s, e in judged + retrieved
        ),
    )
    out["chunk qrels"] = write(tmp_path / "chunks.qrels", "".join(f"1 0 {c} 1\n" for c, _, _, _ in judged))
    out["run.jsonl"] = write(
        tmp_path / "run.jsonl",
        "".join(
            json.dumps({"query_id": "1", "doc_id": d, "start": s, "end": e, "score": v, "run_id": "r"}) + "\n"
            for d, s, e, v in RESULTS
        ),
    )
    out["fol run"] = write(
        tmp_path / "fol.run",
        "".join(f"1 Q0 {d} {k} {v} r {s} {e - s}\n" for k, (d, s, e, v) in enumerate(RESULTS, 1)),
    )
    out["chunk run"] = write(
        tmp_path / "chunks.run",
        "".join(f"1 Q0 R{k} {k + 1} {v} r\n" for k, (_, _, _, v) in enumerate(RESULTS)),
    )
    return out


QRELS = ["spans.jsonl", "spans.csv", "fol", "chunk qrels"]
RUNS = ["run.jsonl", "fol run", "chunk run"]


def _needs_map(case, *names) -> list:
    return ["--chunks", case["map"]] if any(n.startswith("chunk") for n in names) else []


def _values(out: str) -> dict:
    return {(f[0], f[1]): float(f[2]) for f in (line.split("\t") for line in out.splitlines()) if f[0] != "runid"}


def test_every_format_gives_the_same_values_through_eval_and_the_api(case, capsys):
    from graphsr.evaluation.inputs import Inputs, evaluate

    seen = {}
    for q in QRELS:
        for r in RUNS:
            argv = ["eval", case[q], case[r], "--collection", case["collection"], "-q", *_needs_map(case, q, r)]
            for m in MEASURES:
                argv += ["-m", m]
            code, out, err = run_cli(capsys, *argv)
            assert code == 0, (q, r, err)
            seen[q, r] = _values(out)
            chunks = case["map"] if (q.startswith("chunk") or r.startswith("chunk")) else None
            done = evaluate(Inputs(case[q], [case[r]], collection=case["collection"], chunks=chunks), MEASURES)
            api = {
                (str(m), t): v
                for m in done.results.measures
                for t, v in zip(done.results.runs[0].topics, done.results.runs[0].values[m])
            }
            assert {k: v for k, v in seen[q, r].items() if k[1] != "all"} == pytest.approx(api, abs=5e-7)
    first = next(iter(seen.values()))
    assert len(seen) == len(QRELS) * len(RUNS)
    for key, values in seen.items():
        assert values == first, key


def test_every_format_is_placed_alike_on_the_summary_by_coverage_and_view(case, capsys):
    tables, views = {}, {}
    for q in QRELS:
        for r in RUNS:
            extra = _needs_map(case, q, r)
            code, out, err = run_cli(
                capsys, "coverage", case[q], case[r], "--collection", case["collection"], "--format", "csv", *extra
            )
            assert code == 0, (q, r, err)
            tables[q, r] = out.replace(str(case[r]), "RUN")
            target = case["dir"] / f"view-{len(views)}.json"
            code, _, err = run_cli(
                capsys, "view", case["collection"], "--qrels", case[q], "--run", case[r], "-o", target, *extra
            )
            assert code == 0, (q, r, err)
            data = json.loads(target.read_text())
            views[q, r] = ([n["relevant"] for n in data["nodes"]], list(data["counts"].values()))
    assert len(set(tables.values())) == 1
    assert len({json.dumps(v) for v in views.values()}) == 1
    relevant, counts = next(iter(views.values()))
    assert sum(relevant) > 0 and any(any(v) for c in counts for v in (c.values() if isinstance(c, dict) else [c]))


def test_view_takes_span_judgments_and_span_runs(case, capsys):
    code, _, err = run_cli(
        capsys,
        "view",
        case["collection"],
        "--qrels",
        case["spans.jsonl"],
        "--run",
        case["run.jsonl"],
        "-o",
        case["dir"] / "v.html",
    )
    assert code == 0, err
    assert (case["dir"] / "v.html").stat().st_size > 1000


def test_the_options_are_checked_before_the_collection_is_read(case, capsys, tmp_path):
    broken = tmp_path / "broken"
    write(broken / "x.xml", "<doc><unclosed></doc>")  # (reading it fails; the options are refused first)
    code, _, err = run_cli(
        capsys, "eval", case["spans.jsonl"], case["run.jsonl"], "--collection", broken, "-m", "ESRP@10"
    )
    assert code == 2 and "need navigation learned from route steps" in err and "x.xml" not in err
    code, _, err = run_cli(
        capsys, "eval", case["spans.jsonl"], case["run.jsonl"], "--collection", broken, "-m", "nosuch"
    )
    assert code == 2 and "unknown measure" in err and "x.xml" not in err


def test_fidelity_takes_every_format_alike(case, capsys):
    outs = set()
    for q, r in (("spans.jsonl", "run.jsonl"), ("fol", "fol run"), ("chunk qrels", "chunk run")):
        code, out, err = run_cli(
            capsys,
            "fidelity",
            case[r],
            "--qrels",
            case[q],
            "--collection",
            case["collection"],
            "-m",
            "SRP@2",
            *_needs_map(case, q, r),
        )
        assert code == 0, (q, r, err)
        outs.add(out.replace(str(case[r]), "RUN"))
    assert len(outs) == 1


def test_the_figure_and_the_unjudged_share_come_from_the_evaluation_s_one_pass(case, capsys, monkeypatch):
    """--plot's curves and the share of unjudged characters are scored with the measures asked, not again."""
    pytest.importorskip("matplotlib")
    import graphsr.evaluation.entry as entry

    calls = []
    real = entry.evaluate

    def counted(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(entry, "evaluate", counted)
    out = case["dir"] / "curve.png"
    code, _, err = run_cli(
        capsys,
        "eval",
        case["spans.jsonl"],
        case["run.jsonl"],
        "--collection",
        case["collection"],
        "-m",
        "MAiP",
        "--plot",
        out,
    )
    assert code == 0, err
    assert len(calls) == 1 and out.read_bytes()[:4] == b"\x89PNG"
    assert "of the characters it retrieved were never judged" in err
