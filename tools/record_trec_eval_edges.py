"""Record trec_eval 9.0.8 on the edge cases of issue 44, as test data for ``graphsr trec_eval``
(tests/data/trec_eval/edges.json; tests/test_trec_eval_edges.py reads it, so CI needs no trec_eval).

Needs a trec_eval binary built from its public source (usnistgov/trec_eval, tag v9.0.8), outside this
repository:

    python tools/record_trec_eval_edges.py --binary /path/to/trec_eval

Each case is a qrels text, a run text and the options; what is kept is trec_eval's exit status, stdout and
stderr, and how long it took and how much memory it held (``/usr/bin/time``), so that a reader sees what the
binary pays for a grade of 2**31.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

QRELS = "1 0 d1 1\n1 0 d2 2\n1 0 d3 0\n2 0 d1 1\n2 0 d4 3\n"
RUN = "1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n1 Q0 d3 3 1.0 r\n1 Q0 d5 4 0.5 r\n2 Q0 d4 1 1 r\n2 Q0 d1 2 0.5 r\n"


def grade(g: str) -> str:
    return f"1 0 d1 1\n1 0 d2 {g}\n1 0 d3 0\n2 0 d1 1\n2 0 d4 3\n"


CASES = [
    # numbers in -m parameters, read with atol/atof
    ("P.5 (a trailing space)", QRELS, RUN, ["-q", "-m", "P.5 "]),
    ("P.23.4", QRELS, RUN, ["-q", "-m", "P.23.4"]),
    ("ndcg_cut.10,20,23.4", QRELS, RUN, ["-q", "-m", "ndcg_cut.10,20,23.4"]),
    ("P.5x", QRELS, RUN, ["-q", "-m", "P.5x"]),
    ("recall.+3,07", QRELS, RUN, ["-q", "-m", "recall.+3,07"]),
    ("P.x", QRELS, RUN, ["-m", "P.x"]),
    ("ndcg.1=0.5x,2=3e0", QRELS, RUN, ["-q", "-m", "ndcg.1=0.5x,2=3e0"]),
    ("iprec_at_recall.0.5e0,.25", QRELS, RUN, ["-q", "-m", "iprec_at_recall.0.5e0,.25"]),
    ("-M 2x", QRELS, RUN, ["-q", "-M", "2x", "-m", "P.1,2"]),
    # numbers in the files
    ("a grade of 1.5", grade("1.5"), RUN, ["-q", "-m", "all_trec"]),
    ("a score of 2.5x", QRELS, RUN.replace("2.0 r", "2.5x r"), ["-q", "-m", "all_trec"]),
    (
        "infinite scores",
        QRELS,
        RUN.replace("2.0 r", "inf r").replace("0.5 r", "-Infinity r").replace("3.0 r", "INF r"),
        ["-q", "-m", "all_trec"],
    ),
    ("a grade of 100", grade("100"), RUN, ["-q", "-m", "all_trec"]),
    ("a grade of 1e8", grade("100000000"), RUN, []),
    ("a grade of 2**31", grade("2147483648"), RUN, []),  # (about a minute and 16 GB)
    ("a grade of 2**32", grade("4294967296"), RUN, []),
    ("a grade past a long", grade("99999999999999999999"), RUN, []),
    ("a grade past a long, all_trec", grade("99999999999999999999"), RUN, ["-q", "-m", "all_trec"]),
    ("a grade past a long in topic 2", "1 0 d1 1\n2 0 d4 99999999999999999999\n", RUN, ["-q"]),
    # ... which only the measures reading the qrels pay for (num_q and runid do not form the grades' array)
    ("a grade past a long, num_q", grade("99999999999999999999"), RUN, ["-m", "num_q"]),
    ("a grade past a long, num_q per topic", grade("99999999999999999999"), RUN, ["-q", "-m", "num_q"]),
    ("a grade past a long, num_q and P.1", grade("99999999999999999999"), RUN, ["-m", "num_q", "-m", "P.1"]),
    # the run
    ("a run of white space", QRELS, "   \n\n \t \n", []),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="trec_eval 9.0.8, built outside this repository")
    ap.add_argument("--out", default=str(Path(__file__).parents[1] / "tests" / "data" / "trec_eval" / "edges.json"))
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a case may take (default 300)")
    ap.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="record these cases only, keeping the others as the file holds them (cases whose outcome does not "
        "depend on the machine's memory)",
    )
    args = ap.parse_args()
    kept = {}
    if args.only:
        kept = {c["name"]: c for c in json.loads(Path(args.out).read_text())["cases"]}
        unknown = set(args.only) - {name for name, *_ in CASES}
        if unknown:
            ap.error(f"no such case: {', '.join(sorted(unknown))}")
    recorded = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, qrels, run, options in CASES:
            if args.only and name not in args.only:
                recorded.append(kept[name])
                continue
            q, r = Path(tmp, "qrels"), Path(tmp, "run")
            q.write_text(qrels)
            r.write_text(run)
            t0 = time.monotonic()
            done = subprocess.run(
                ["/usr/bin/time", "-f", "%M", args.binary, *options, str(q), str(r)],
                capture_output=True,
                timeout=args.timeout,
            )
            seconds = time.monotonic() - t0
            *stderr, peak = done.stderr.decode().rstrip("\n").split("\n")
            code = done.returncode
            if stderr and stderr[-1].startswith("Command "):  # /usr/bin/time's note of the status or signal
                note = stderr.pop()
                if "signal" in note:
                    code = -int(note.rsplit(" ", 1)[1])
            recorded.append(
                {
                    "name": name,
                    "qrels": qrels,
                    "run": run,
                    "args": options,
                    "exit": code,
                    "stdout": done.stdout.decode(),
                    "stderr": "\n".join(stderr),
                    "seconds": round(seconds, 2),
                    "peak_kb": int(peak),
                }
            )
            print(f"{name}: exit {code}, {seconds:.2f} s, {int(peak) // 1024} MB")
    from graphsr.io.trec_eval_input import _memory_and_swap

    memory = json.loads(Path(args.out).read_text())["memory_and_swap"] if args.only else _memory_and_swap()
    Path(args.out).write_text(
        json.dumps(
            {
                "trec_eval": "9.0.8 (usnistgov/trec_eval, tag v9.0.8)",
                "memory_and_swap": memory,
                "cases": recorded,
            },
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
