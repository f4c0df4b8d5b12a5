"""Record trec_eval's own output on random qrels and runs, as test data for ``graphsr trec_eval``.

Needs a trec_eval binary built from its public source (usnistgov/trec_eval, tag v9.0.8, or v10.0 with
``--version 10.0``), outside this repository; the suite only reads what this writes
(tests/data/trec_eval/recorded.json.gz, recorded10.json.gz), so CI needs no trec_eval.

    python tools/record_trec_eval.py --binary /path/to/trec_eval [--cases 40] [--seed 2026] [--version 10.0]

For 10.0 the cases also hold comment lines (in judgments at the start of a line, now and then two in a row or
one last; in runs after white space), runs read from standard input (``-``), and option sets for rbp,
rbp_resid and unj, with and without parameters, and -c (which 10.0 scores topics the run lacks under).

Each case: 1-7 topics (ids of 1-4 digits, so that byte order and numeric order differ), judgments -2..4
with unjudged and negative grades (in some cases by several judgment groups, for -R qrels_jg; read as plain
qrels they judge a document twice), runs shorter or longer than the relevant set, topics on one side only,
scores drawn from few values (ties, and ties only in single precision), document names that tie-break;
then trec_eval under option sets that reach every measure and option (parameters, -c, -M, -J, -l, -N, -n,
-Z, -D).  Every output, exit status and stderr is kept, errors included.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import tempfile
from pathlib import Path

OPTION_SETS = [
    [],
    ["-q"],
    ["-c"],
    ["-m", "all_trec"],
    ["-q", "-m", "all_trec"],
    ["-c", "-m", "all_trec"],
    ["-c", "-q", "-m", "all_trec"],
    ["-m", "official"],
    ["-l2", "-m", "all_trec"],
    ["-l", "0", "-m", "all_trec"],
    ["-l-1", "-q", "-m", "all_trec"],
    ["-J", "-q", "-m", "all_trec"],
    ["-M", "5", "-q", "-m", "all_trec"],
    ["-M3", "-J", "-m", "all_trec"],
    ["-n", "-q", "-m", "all_trec"],
    ["-N", "100", "-m", "all_trec"],
    ["-q", "-m", "P.1,3,7", "-m", "recall.2,5", "-m", "map_cut.3", "-m", "ndcg_cut.2,4", "-m", "success.2"],
    ["-q", "-m", "iprec_at_recall.0.05,0.5,0.95", "-m", "Rprec_mult.0.5,1.5", "-m", "11pt_avg.0.0,0.5,1.0"],
    ["-q", "-m", "ndcg.0=1,1=0.5,2=3", "-m", "ndcg_rel.1=2", "-m", "Rndcg.2=1,3=5", "-m", "G.1=1,2=4"],
    ["-q", "-N", "1000", "-m", "utility.2,-1,-0.5,0", "-m", "set_F.0.25", "-m", "relstring.4"],
    ["-q", "-c", "-m", "gm_map", "-m", "gm_bpref", "-m", "infAP", "-m", "bpref"],
    ["-m", "set", "-q"],
    ["-q", "-m", "relative_P.2,50", "-m", "binG", "-m", "G", "-m", "Rndcg"],
    ["--query_eval_wanted", "--measure=ndcg_cut.1,3", "--Max_retrieved_per_topic=4", "--complete_rel_info_wanted"],
    ["-q", "-m", "yaap", "-m", "map"],
    ["-R", "qrels_jg", "-q", "-m", "qrels_jg"],
    ["-R", "qrels_jg", "-c", "-J", "-m", "map_avgjg", "-m", "P_avgjg.1,3", "-m", "Rprec_mult_avgjg.0.5,1.5"],
    ["-R", "qrels_jg", "-m", "official"],
    ["-m", "map_avgjg"],
]


#: trec_eval 10.0's additions (STDIN: the run given as ``-``, on standard input).
TEN_SETS = [
    ["-q", "-m", "rbp", "-m", "rbp_resid", "-m", "unj"],
    ["-c", "-q", "-m", "rbp", "-m", "rbp_resid", "-m", "unj"],
    ["-q", "-m", "rbp.p=0.5,2=0.5", "-m", "rbp_resid.p=0.8", "-m", "unj.1,3,30"],
    ["-q", "-m", "rbp.p=0.95,0=-1,1=2,3=1", "-m", "rbp.p=0.7,1=3,4=0"],
    ["-q", "-J", "-m", "rbp", "-m", "unj"],
    ["-q", "-c", "-m", "rbp_resid.p=0.5", "-m", "utility.1,-1,0,0", "-m", "relstring.3", "-m", "utility"],
    ["-q", "-m", "official", "STDIN"],
    ["-c", "-m", "all_trec", "STDIN"],
    ["-c", "-q", "-M", "3", "-m", "all_trec"],
    ["-q", "-m", "iprec_at_recall.0.05,0.25,0.5,0.75", "-m", "11pt_avg.0.05,0.5,0.95"],
]


PREFS_SETS = [
    ["-R", "prefs", "-q", "-m", "all_prefs"],
    ["-R", "prefs", "-c", "-m", "prefs"],
    ["-R", "prefs", "-M", "5", "-q", "-m", "all_prefs"],
    ["-R", "prefs", "-m", "map"],
]


def _comment(rng: random.Random, lines: list[str], judgments: bool) -> list[str]:
    """``lines`` with comment lines among them: in judgments at the start of a line (now and then two in a row,
    or one last), in runs after white space too."""
    out = list(lines)
    for _ in range(rng.randint(1, 3)):
        text = rng.choice(["# a comment", "#", "#1 0 D00 1", "# x y z w"])
        if not judgments and rng.random() < 0.5:
            text = rng.choice([" ", "\t", "  "]) + text
        out.insert(rng.randint(0, len(out)), text)
    if judgments and rng.random() < 0.15:
        at = rng.randint(0, len(out))
        out[at:at] = ["# one", "# two"]
    if judgments and rng.random() < 0.1:
        out.append("# last")
    return out


def case(rng: random.Random, comments: bool = False) -> tuple[str, str, list[str]]:
    topics = sorted(
        {
            str(rng.choice([rng.randint(1, 9), rng.randint(10, 99), rng.randint(100, 9999)]))
            for _ in range(rng.randint(1, 7))
        }
    )
    qrels, run = [], []
    names = [f"D{k:02d}" for k in rng.sample(range(100), 60)] + [f"doc-{c}" for c in "aAbB"]
    judged_topics = [t for t in topics if rng.random() < 0.85] or topics[:1]
    run_topics = [t for t in topics if rng.random() < 0.85 or t in judged_topics[:1]]
    grouped = rng.random() < 0.4  # judgment groups in the second field (-R qrels_jg), one document in several
    for t in judged_topics:
        for group in rng.sample(["u1", "u2", "U3", "a"], rng.randint(1, 3)) if grouped else ["0"]:
            docs = rng.sample(names, rng.randint(1, 30))
            grades = [rng.choice([-2, -1, 0, 0, 0, 1, 1, 2, 3, 4]) for _ in docs]
            if all(g < 0 for g in grades):
                grades[0] = rng.choice([0, 1, 2])
            qrels += [f"{t} {group} {d} {g}" for d, g in zip(docs, grades)]
    scores = [1.0, 2.5, 0.5, 3.0, 16777217.0, 16777216.0, -1.25, 1e-7]
    for t in run_topics:
        docs = rng.sample(names, rng.randint(1, 25))
        run_id = rng.choice(["sysA", "sysB"])
        for k, d in enumerate(docs):
            s = rng.choice(scores) if rng.random() < 0.6 else round(rng.uniform(-5, 5), rng.randint(0, 3))
            run.append(f"{t} Q0 {d} {k + 1} {s} {run_id}")
    if rng.random() < 0.08:  # a document retrieved twice for a topic (trec_eval stops on it)
        run.append(run[rng.randrange(len(run))].replace(" Q0 ", " Q0 ", 1))
    rng.shuffle(qrels)
    rng.shuffle(run)
    if comments and rng.random() < 0.7:
        qrels, run = _comment(rng, qrels, True), _comment(rng, run, False)
    z = [
        f"{t} {m} {rng.uniform(0, 0.5):.3f} {rng.choice([0, 0.1, 0.25])}"
        for t in topics
        for m in ("map", "P_5", "P_10", "num_ret", "gm_map", "recip_rank")
        if rng.random() < 0.8
    ]
    prefs, qprefs = [], []  # preferences (-R prefs), and qrels read as preferences (-R qrels_prefs)
    for t in judged_topics:
        for group in rng.sample(["g1", "g2", "G3"], rng.randint(1, 3)):
            zero = {d: rng.random() < 0.3 for d in names}  # (a document 0 in one sub-group is 0 in all of them)
            for sub in range(rng.choice([1, 1, 2, 3])):
                for d in rng.sample(names, rng.randint(2, 8)):
                    prefs.append(f"{t} {group} s{sub} {d} {0.0 if zero[d] else rng.choice([1.0, 2.0, 3.5])}")
            qprefs += [f"{t} {group} {d} {rng.choice([0, 0, 1, 2, 3])}" for d in rng.sample(names, rng.randint(1, 12))]
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n", z, "\n".join(prefs) + "\n", "\n".join(qprefs) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--version", choices=["9.0.8", "10.0"], default="9.0.8")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    ten = a.version == "10.0"
    if a.out is None:
        a.out = (
            Path(__file__).parents[1] / "tests/data/trec_eval" / ("recorded10.json.gz" if ten else "recorded.json.gz")
        )
    rng = random.Random(a.seed)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.cases):
            qrels, run, z, prefs, qprefs = case(rng, comments=ten)
            files = {"qrels": qrels, "run": run, "zscores": "\n".join(z) + "\n", "prefs": prefs, "qrels_prefs": qprefs}
            for name, text in files.items():
                Path(tmp, name).write_text(text)
            first = next(line.split()[0] for line in run.splitlines() if line.split() and line.split()[0][0] != "#")
            sets = (
                OPTION_SETS
                + (TEN_SETS if ten else [])
                + [["-q", "-Z", "ZSCORES", "-m", "official"], ["-q", "-D", f"0.{first}", "-m", "all_trec"]]
            )
            sets = (
                [(s, "qrels") for s in sets]
                + [(s, "prefs") for s in PREFS_SETS]
                + [(["-R", "qrels_prefs", *s[2:]], "qrels_prefs") for s in PREFS_SETS]
            )
            results = []
            for args, judged in sets:
                argv = [str(Path(tmp, "zscores")) if x == "ZSCORES" else x for x in args if x != "STDIN"]
                stdin = "STDIN" in args
                p = subprocess.run(
                    [a.binary, *argv, str(Path(tmp, judged)), "-" if stdin else str(Path(tmp, "run"))],
                    capture_output=True,
                    text=True,
                    input=run if stdin else None,
                )
                results.append(
                    {"args": args, "judged": judged, "exit": p.returncode, "stdout": p.stdout, "stderr": p.stderr}
                )
            out.append({**files, "results": results})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(a.out, "wt") as fh:
        made = "10.0 (reports 10.0-rc3)" if ten else "9.0.8 (reports 9.0.7)"
        json.dump({"trec_eval": made, "seed": a.seed, "cases": out}, fh)
    print(f"{a.out}: {len(out)} cases x {len(out[0]['results'])} option sets")


if __name__ == "__main__":
    main()
