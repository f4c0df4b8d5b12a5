"""The Python API and the command line against ir_measures, as users meet them: whole fresh processes
(imports included) computing P@10, R@100, AP and nDCG@10 on a TREC-like qrels and run --

* Python: TSV files read into DataFrames, ``graphsr.calc_aggregate`` vs ``ir_measures.calc_aggregate``,
  plus graphsr's SRP@10 (no navigation) run *inside* ir_measures;
* command line: TREC files (4-field qrels, 6-field run), ``graphsr eval`` vs ``ir_measures QRELS RUN``;

with the values checked equal.

    python bench/bench_api.py [--topics 200] [--depth 1000] [--repeat 3] [--big 2000] [--json FILE]

Then, in one process with inputs already in memory, each tool beside pytrec_eval (ranx too when installed);
and a 2,000 x 1,000-line run on the command line, graphsr and ir_measures, with each command's peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

MEASURES = ["P@10", "R@100", "AP", "nDCG@10"]

GRAPHSR = """
import sys, pandas as pd, graphsr
q = pd.read_csv(sys.argv[1], sep="\\t", dtype={"query_id": str, "doc_id": str})
r = pd.read_csv(sys.argv[2], sep="\\t", dtype={"query_id": str, "doc_id": str})
res = graphsr.calc_aggregate(%r, q, r)
print(repr({str(m): v for m, v in res.items()}))
"""

IR_MEASURES = """
import sys, pandas as pd, ir_measures
q = pd.read_csv(sys.argv[1], sep="\\t", dtype={"query_id": str, "doc_id": str})
r = pd.read_csv(sys.argv[2], sep="\\t", dtype={"query_id": str, "doc_id": str})
res = ir_measures.calc_aggregate([ir_measures.parse_measure(m) for m in %r], q, r)
print(repr({str(m): v for m, v in res.items()}))
"""

INSIDE = """
import sys, pandas as pd, ir_measures, graphsr
q = pd.read_csv(sys.argv[1], sep="\\t", dtype={"query_id": str, "doc_id": str})
r = pd.read_csv(sys.argv[2], sep="\\t", dtype={"query_id": str, "doc_id": str})
q["relevance"] = q["relevance"].clip(upper=1)
res = ir_measures.calc_aggregate([graphsr.parse_measure("SRP@10"), ir_measures.P @ 10], q, r)
print(repr({str(m): v for m, v in res.items()}))
"""


def write_trec(qp: Path, rp: Path) -> tuple[Path, Path]:
    q, r = pd.read_csv(qp, sep="\t", dtype=str), pd.read_csv(rp, sep="\t", dtype=str)
    tq, tr = qp.with_suffix(".qrels"), rp.with_suffix(".trec")
    tq.write_text("".join(f"{a} 0 {b} {c}\n" for a, b, c in q.itertuples(index=False)))
    tr.write_text("".join(f"{a} Q0 {b} 1 {c} bm25\n" for a, b, c in r.itertuples(index=False)))
    return tq, tr


def user_env() -> dict:
    """The environment a user runs commands in: bytecode caches written and read (a sandbox may turn them off
    with PYTHONDONTWRITEBYTECODE, which makes every start-up compile every module again)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed_cli(cmd: list[str]) -> tuple[float, dict]:
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True, env=user_env())
    seconds = time.perf_counter() - t
    values = {}
    for line in proc.stdout.splitlines():
        f = line.split("\t")
        if len(f) == 3 and f[1] == "all" and f[0] not in ("runid", "num_q"):
            values[f[0].strip()] = float(f[2])  # (trec_eval pads the measure's name)
        elif len(f) == 2:  # ir_measures: measure<TAB>value
            values[f[0]] = float(f[1])
    return seconds, values


def write_data(folder: Path, topics: int, depth: int, seed: int = 0, names: str = "shared") -> tuple[Path, Path]:
    """``names``: ``shared`` -- every topic's documents from one vocabulary of 50,000 names; ``distinct`` -- each
    topic's from names of its own (``WSJ007-00042``), as real TREC runs retrieve mostly different documents per
    topic from a large collection (200 topics: 600,000 names)."""
    rng = np.random.default_rng(seed)
    shared = np.array([f"d{i:06d}" for i in range(50_000)])
    q, r = [], []
    for t in range(topics):
        docs = shared if names == "shared" else np.array([f"WSJ{t:03d}-{i:05d}" for i in range(3000)])
        judged = rng.choice(docs, size=300, replace=False)
        rel = rng.integers(0, 4, size=300) * (rng.random(300) < 0.3)
        q.append(pd.DataFrame({"query_id": str(t), "doc_id": judged, "relevance": rel}))
        ranked = np.concatenate([rng.choice(judged, 100, replace=False), rng.choice(docs, depth - 100, replace=False)])
        ranked = pd.unique(ranked)
        r.append(pd.DataFrame({"query_id": str(t), "doc_id": ranked, "score": rng.integers(0, 500, len(ranked))}))
    qp, rp = folder / "qrels.tsv", folder / "run.tsv"
    pd.concat(q).to_csv(qp, sep="\t", index=False)
    pd.concat(r).to_csv(rp, sep="\t", index=False)
    return qp, rp


def timed(code: str, qp: Path, rp: Path) -> tuple[float, dict]:
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code, str(qp), str(rp)], capture_output=True, text=True, check=True, env=user_env()
    )
    return time.perf_counter() - t, eval(proc.stdout)


TREC_NAMES = {"P@10": "P_10", "R@100": "recall_100", "AP": "map", "nDCG@10": "ndcg_cut_10"}


def in_process(qp: Path, rp: Path, repeat: int) -> dict[str, list[float]]:
    """Each tool scoring inputs already in memory (dicts for pytrec_eval, ranx and graphsr; DataFrames for
    ir_measures and graphsr), evaluator or objects built inside the timing, values checked equal."""
    import graphsr
    import ir_measures
    import pytrec_eval

    qdf = pd.read_csv(qp, sep="\t", dtype={"query_id": str, "doc_id": str})
    rdf = pd.read_csv(rp, sep="\t", dtype={"query_id": str, "doc_id": str})
    qd: dict = {}
    for q, d, v in qdf.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(v)
    rd: dict = {}
    for q, d, v in rdf.itertuples(index=False):
        rd.setdefault(q, {})[d] = float(v)
    irm = [ir_measures.parse_measure(m) for m in MEASURES]

    def trec():
        per = pytrec_eval.RelevanceEvaluator(qd, set(TREC_NAMES.values())).evaluate(rd)
        return {m: statistics.fmean(v[t] for v in per.values()) for m, t in TREC_NAMES.items()}

    tools = {
        "pytrec_eval (dicts)": trec,
        "ir_measures.calc_aggregate (DataFrames)": lambda: {
            str(k): v for k, v in ir_measures.calc_aggregate(irm, qdf, rdf).items()
        },
        "graphsr.calc_aggregate (dicts)": lambda: {
            str(k): v for k, v in graphsr.calc_aggregate(MEASURES, qd, rd).items()
        },
        "graphsr.calc_aggregate (DataFrames)": lambda: {
            str(k): v for k, v in graphsr.calc_aggregate(MEASURES, qdf, rdf).items()
        },
    }
    try:
        import ranx

        ranx_names = ["precision@10", "recall@100", "map", "ndcg@10"]

        def with_ranx():
            got = ranx.evaluate(ranx.Qrels(qd), ranx.Run(rd), ranx_names)
            return dict(zip(MEASURES, got.values()))

        built = ranx.Qrels(qd), ranx.Run(rd)  # ranx's own objects made outside the timing: its evaluate alone

        def ranx_built():
            return dict(zip(MEASURES, ranx.evaluate(*built, ranx_names).values()))

        tools["ranx (dicts)"] = with_ranx
        tools["ranx evaluate (Qrels, Run built)"] = ranx_built
    except ImportError:
        pass
    times: dict[str, list[float]] = {name: [] for name in tools}
    values = {}
    # ranx's compiled kernels leave worker threads spinning on the second core: it is timed last, on its own,
    # so that the others' figures are not its noise
    for group in ([n for n in tools if not n.startswith("ranx")], [n for n in tools if n.startswith("ranx")]):
        for _ in range(repeat + 1):  # the first round warms caches and imports (and ranx's compiler); not timed
            for name in group:
                t = time.perf_counter()
                values[name] = tools[name]()
                times[name].append(time.perf_counter() - t)
    reference = values["pytrec_eval (dicts)"]
    for name, got in values.items():
        if name.startswith("ranx"):
            continue  # ranx's nDCG uses its own gains
        for m in MEASURES:
            assert abs(got[m] - reference[m]) < 1e-9, (name, m, got[m], reference[m])
    return {name: v[1:] for name, v in times.items()}


def write_big(folder: Path, topics: int, depth: int, seed: int = 0) -> tuple[Path, Path]:
    """A TREC run of ``topics`` x ``depth`` lines (scores with 6 decimals, 200,000 documents) and qrels of 100
    documents a topic, written in one pass."""
    rng = np.random.default_rng(seed)
    run, qrels = folder / "big.run", folder / "big.qrels"
    with open(run, "w") as r, open(qrels, "w") as q:
        for t in range(topics):
            docs = rng.choice(200_000, depth, replace=False)
            r.write("".join(f"{t} Q0 d{d} 0 {s:.6f} bm25\n" for d, s in zip(docs, rng.random(depth))))
            q.write(
                "".join(
                    f"{t} 0 d{d} {g}\n" for d, g in zip(rng.choice(docs, 100, replace=False), rng.integers(0, 3, 100))
                )
            )
    return qrels, run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument(
        "--names",
        choices=["shared", "distinct"],
        default="shared",
        help="documents named from one vocabulary for all topics, or each topic's own (default shared)",
    )
    ap.add_argument(
        "--trec-eval",
        metavar="PATH",
        help="a trec_eval binary built outside the repository: its command is timed beside graphsr eval",
    )
    ap.add_argument(
        "--big",
        type=int,
        default=2000,
        metavar="TOPICS",
        help="also time TOPICS x 1000 lines on the command line, with peak memory (0: skip)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        qp, rp = write_data(Path(tmp), args.topics, args.depth, names=args.names)
        times = {"graphsr": [], "ir_measures": [], "SRP@10 inside ir_measures": []}
        for _ in range(args.repeat):  # interleaved, so drift hits both alike
            for name, code in (
                ("graphsr", GRAPHSR % MEASURES),
                ("ir_measures", IR_MEASURES % MEASURES),
                ("SRP@10 inside ir_measures", INSIDE),
            ):
                seconds, values = timed(code, qp, rp)
                times[name].append(seconds)
                if name == "graphsr":
                    ours = values
                elif name == "ir_measures":
                    theirs = values
                else:
                    assert abs(values["SRP@10"] - values["P@10"]) < 1e-12, values
        for m in MEASURES:
            assert abs(ours[m] - theirs[m]) < 1e-9, (m, ours[m], theirs[m])
        tq, tr = write_trec(qp, rp)
        bindir = Path(sys.executable).parent
        cli = {
            "graphsr eval": [
                str(bindir / "graphsr"),
                "eval",
                str(tq),
                str(tr),
                *(a for m in MEASURES for a in ("-m", m)),
            ],
            "ir_measures (command)": [
                str(bindir / "ir_measures"),
                str(tq),
                str(tr),
                " ".join(MEASURES),
                "--places",
                "6",
            ],
        }
        if args.trec_eval:
            cli["trec_eval (C binary)"] = [
                args.trec_eval,
                *(
                    a
                    for m in TREC_NAMES.values()
                    for a in ("-m", m[::-1].replace("_", ".", 1)[::-1] if m != "map" else m)
                ),
                str(tq),
                str(tr),
            ]
        for name in cli:
            times[name] = []
        for _ in range(args.repeat):
            got = {}
            for name, cmd in cli.items():
                seconds, got[name] = timed_cli(cmd)
                times[name].append(seconds)
            for m in MEASURES:  # both print 6 digits
                assert abs(got["graphsr eval"][m] - got["ir_measures (command)"][m]) <= 1.5e-6, (m, got)
            if args.trec_eval:  # trec_eval prints 4
                for m, t in TREC_NAMES.items():
                    assert abs(got["graphsr eval"][m] - got["trec_eval (C binary)"][t]) <= 5e-5, (m, got)
        inside = in_process(qp, rp, args.repeat)
        big = {}
        if args.big:

            def peak_run(cmd):  # one command per process, so that each peak is that command's own
                code = (
                    "import resource, subprocess, sys, time; t = time.perf_counter(); "
                    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
                    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
                )
                got = subprocess.run(
                    [sys.executable, "-c", code, *cmd], capture_output=True, text=True, check=True, env=user_env()
                ).stdout.split()
                return float(got[0]), int(got[1]) * 1024

            def graphsr_cmd(q, r):
                return [str(bindir / "graphsr"), "eval", str(q), str(r), *(a for m in MEASURES for a in ("-m", m))]

            scaling = []  # graphsr eval on a quarter, a half and the whole of the topics: the time per line
            for part in (args.big // 4, args.big // 2):
                folder = Path(tmp) / f"part{part}"
                folder.mkdir()
                pq, pr = write_big(folder, part, 1000)
                scaling.append((part * 1000, min(peak_run(graphsr_cmd(pq, pr))[0] for _ in range(args.repeat))))
            bq, br = write_big(Path(tmp), args.big, 1000)
            size = br.stat().st_size
            for name, cmd in (
                ("graphsr eval", graphsr_cmd(bq, br)),
                ("ir_measures (command)", [str(bindir / "ir_measures"), str(bq), str(br), " ".join(MEASURES)]),
            ):
                big[name] = peak_run(cmd)
            scaling.append(
                (
                    args.big * 1000,
                    min([big["graphsr eval"][0]] + [peak_run(graphsr_cmd(bq, br))[0] for _ in range(args.repeat - 1)]),
                )
            )
            big["_lines"], big["_size"], big["_scaling"] = args.big * 1000, size, scaling
    out = {
        "topics": args.topics,
        "depth": args.depth,
        "names": args.names,
        "values": ours,
        **{name: {"median_s": statistics.median(v), "runs_s": [round(x, 3) for x in v]} for name, v in times.items()},
    }
    print(
        f"{args.topics} topics x {args.depth} results, {', '.join(MEASURES)} (values equal to ir_measures; "
        "whole processes, medians)"
    )
    for name, v in times.items():
        print(f"  {name:<28} median {statistics.median(v):.2f} s  ({', '.join(f'{x:.2f}' for x in v)})")
    whole = statistics.median(times["ir_measures (command)"]) / statistics.median(times["graphsr eval"])
    python = statistics.median(times["ir_measures"]) / statistics.median(times["graphsr"])
    print(
        f"  graphsr eval is {whole:.2f}x as fast as the ir_measures command; graphsr.calc_aggregate "
        f"{python:.2f}x as fast as ir_measures.calc_aggregate (whole processes)"
    )
    if "trec_eval (C binary)" in times:
        print(
            f"  graphsr eval takes {statistics.median(times['graphsr eval']) / statistics.median(times['trec_eval (C binary)']):.2f}x "
            "the trec_eval binary's time"
        )
    print("in one process, inputs already in memory (medians):")
    for name, v in inside.items():
        print(f"  {name:<42} {statistics.median(v) * 1000:7.1f} ms")
    ref = statistics.median(inside["pytrec_eval (dicts)"])
    for name in ("graphsr.calc_aggregate (dicts)", "graphsr.calc_aggregate (DataFrames)"):
        print(f"  {name} takes {statistics.median(inside[name]) / ref:.2f}x pytrec_eval's time")
    out["in_process_s"] = {name: statistics.median(v) for name, v in inside.items()}
    if big:
        lines, size, scaling = big.pop("_lines"), big.pop("_size"), big.pop("_scaling")
        print(f"{lines:,} lines ({size / 2**20:.0f} MB run file) on the command line:")
        for name, (seconds, peak) in big.items():
            print(
                f"  {name:<28} {seconds:6.2f} s, peak memory {peak / 2**20:5.0f} MB ({peak / size:.1f}x the run file)"
            )
        print("  graphsr eval by size (best of the repeats; the step between sizes, per million lines):")
        for (n0, s0), (n1, s1) in zip([(0, None)] + scaling, scaling):
            step = "" if s0 is None else f"   +{(s1 - s0) / (n1 - n0) * 1e6:.2f} s per million lines"
            print(f"    {n1:>9,} lines {s1:6.2f} s{step}")
        out["big"] = {
            "lines": lines,
            "run_bytes": size,
            "scaling": scaling,
            **{k: {"seconds": v[0], "peak_bytes": v[1]} for k, v in big.items()},
        }
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
