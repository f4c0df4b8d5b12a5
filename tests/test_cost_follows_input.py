"""What a measure computes follows the run, not its parameters: every measure of every family, at a cut-off (and
every integer parameter that counts ranks, articles or characters) of a billion and of 10**30, scores a small run
within a few seconds and a bounded memory -- or refuses in one line -- never an allocation or a loop as long as
the number.  Values past the run's end equal those at its end where the measure's formula says so.

The cases run in a child process under an address-space limit (:data:`MEMORY`), each under an alarm
(:data:`BOUND` seconds): a hang or a runaway allocation fails the test rather than the machine.
"""

from __future__ import annotations

import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: Seconds one case may take (a 2-result run answers in milliseconds; this only catches a loop as long as k).
BOUND = 20
#: The child's address space.
MEMORY = 4 << 30
HUGE = (10**9, 10**30)

DIVERSITY_QRELS = "1 1 d1 1\n1 2 d2 1\n1 2 d3 2\n2 1 d1 0\n2 3 d4 1\n"
PLAIN_QRELS = "1 0 d1 1\n1 0 d2 2\n1 0 d3 0\n2 0 d4 1\n"
DOC_RUN = "1 Q0 d1 1 2 r\n1 Q0 d9 2 1 r\n2 Q0 d4 1 3 r\n"


def _trials(entry: dict, big: int) -> list[dict]:
    """The keyword sets to try: the cut-off at ``big``, and each integer parameter ranging to infinity at ``big``
    (with a task that takes it)."""
    base = {}
    for p in entry["parameters"]:
        if p["bracket"] or (p["at"] and entry["at"] != "cutoff"):
            base[p["name"]] = 0.5
    if entry["cutoff"] == "required" and entry["at"] == "cutoff":
        base["cutoff"] = 5
    out = []
    if entry["cutoff"] != "none" and entry["at"] == "cutoff":
        out.append({**base, "cutoff": big})
    for p in entry["parameters"]:
        if p["type"] == "int" and not p["bracket"] and (p["range"] or "").endswith("inf)"):
            bare = {k: v for k, v in base.items() if k == "cutoff"}  # (PRUM takes r or its bracket x)
            out += [{**base, p["name"]: big}, {**bare, p["name"]: big}]
            if p["name"] == "irr":  # (gP's irr belongs to the task t2i)
                out.append({**base, p["name"]: big, "task": "t2i"})
    return out


def _child(workdir: str) -> None:
    """Score every trial; print one JSON line per case: measure, input, outcome, seconds."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from graphsr.cli.measures_cmd import declarations
    from graphsr.core.qrels import ElementQrels, QrelsRow
    from graphsr.data import sample
    from graphsr.errors import GraphsrInputError, MeasureNameError, RunRuleError
    from graphsr.evaluation import element_context, evaluate
    from graphsr.io import read_element_qrels, read_run
    from graphsr.measures import registry
    from graphsr.measures.fol.convert import passage_qrels, passage_run

    s = sample("mobydick")
    qrels = read_element_qrels(s["qrels"])
    runs = [read_run(p, name=p.stem) for p in s["runs"][:2]]
    ctx = element_context(
        qrels.docids().union(*(r.docids() for r in runs)),
        measures=["SRP@5", "ESRP@5", "MAiP", "PRUM[0.5]", "xCG@5", "P@5"],
        collection=s["collection"],
        model="p*:extent",
        nav="depth4",
    )
    graded = ElementQrels.from_rows(
        [QrelsRow(t, d, x, 0.0, None, (3, 3) if v >= 1 else (1, 2) if v > 0 else (0, 0)) for t, d, x, v in qrels]
    )
    w = Path(workdir)
    (w / "div.txt").write_text(DIVERSITY_QRELS)
    (w / "plain.txt").write_text(PLAIN_QRELS)
    (w / "doc.run").write_text(DOC_RUN)
    inputs = {
        "element": (qrels, graded, runs),
        "passage": (passage_qrels(qrels, ctx.documents), None, [passage_run(r, ctx.documents) for r in runs]),
        "documents": (read_element_qrels(w / "plain.txt"), None, [read_run(w / "doc.run")]),
        "subtopics": (read_element_qrels(w / "div.txt"), None, [read_run(w / "doc.run")]),
    }

    class Hung(Exception):
        pass

    def alarm(*_):
        raise Hung()

    signal.signal(signal.SIGALRM, alarm)
    for big in HUGE:
        for entry in declarations():
            for kw in _trials(entry, big):
                try:
                    m = registry()[entry["name"]](**kw).validate()
                except MeasureNameError:
                    continue  # a combination the measure refuses as a whole (one line: its own tests)
                for kind, (q, q_graded, rs) in inputs.items():
                    if m.GRADES and q_graded is not None:
                        q = q_graded
                    t0 = time.perf_counter()
                    signal.alarm(BOUND)
                    try:
                        evaluate(q, rs, [m], ctx, lenient=True)
                        outcome = "scored"
                    except (GraphsrInputError, RunRuleError) as exc:
                        outcome = "refused" if "\n" not in str(exc) else f"refused in lines: {exc}"
                    except Hung:
                        outcome = "hung"
                    except MemoryError:
                        outcome = "out of memory"
                    except Exception as exc:  # a crash: reported by the test
                        outcome = f"{type(exc).__name__}: {exc}"
                    finally:
                        signal.alarm(0)
                    print(json.dumps([str(m), kind, outcome, time.perf_counter() - t0]), flush=True)


@pytest.mark.slow
def test_huge_cut_offs_and_counts_cost_what_the_run_holds(tmp_path):
    done = subprocess.run(
        [sys.executable, __file__, str(tmp_path)], capture_output=True, text=True, timeout=1800, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    cases = [json.loads(line) for line in done.stdout.splitlines()]
    bad = [c for c in cases if c[2] not in ("scored", "refused")]
    assert not bad, bad[:20]
    scored = {(m.split("@")[0].split("(")[0], kind) for m, kind, outcome, _ in cases if outcome == "scored"}
    families_scored = {kind for _, kind in scored}
    assert families_scored == {"element", "passage", "documents", "subtopics"}, families_scored
    for name in ("alpha_nDCG", "alpha_DCG", "ERR_IA", "P", "nDCG", "ESRP", "SRP", "gP", "ChromaP", "budgetP", "xCG"):
        assert any(n == name for n, _ in scored), name


def test_past_the_run_values_are_those_at_its_end_or_divided_by_k(tmp_path):
    """At a cut-off past every result, a measure that counts what was read reads the rankings' ends, and one that
    divides by k divides by that k (P_IA@10**30 is 1e-30 of a hit, not a hit over the run's length)."""
    import numpy as np

    from graphsr import evaluate
    from graphsr.io import read_element_qrels, read_run

    (tmp_path / "div.txt").write_text(DIVERSITY_QRELS)
    (tmp_path / "doc.run").write_text(DOC_RUN)
    q, run = read_element_qrels(tmp_path / "div.txt"), read_run(tmp_path / "doc.run")
    big = 10**30
    names = ["alpha_nDCG", "nERR_IA", "StRecall", "P_IA", "alpha_DCG", "ERR_IA"]

    def at(k):
        values = evaluate(q, [run], [f"{n}@{k}" for n in names]).runs[0].values
        return {str(m).split("@")[0]: v for m, v in values.items()}

    end, far = at(50), at(big)  # (past the run's and the ideal ranking's ends)
    for n in ("alpha_nDCG", "nERR_IA", "StRecall"):  # no normaliser growing with k: their ends
        np.testing.assert_allclose(far[n], end[n], rtol=1e-12)  # (ndeval divides both by the normaliser)
    np.testing.assert_allclose(far["P_IA"], end["P_IA"] * 50 / 1e30, rtol=1e-12)
    for n in ("alpha_DCG", "ERR_IA"):  # the "ideal ideal" normaliser grows on (alpha 0.5: it stops growing)
        assert (far[n] <= end[n]).all() and (far[n] > 0).any()


def test_the_normaliser_past_a_million_ranks_agrees_with_the_running_sum(monkeypatch):
    """ndeval's "ideal ideal" sum, read past the ranks summed term by term through the Euler-Maclaurin formula,
    agrees with the term-by-term running sum (which carries its own rounding of about 1e-9 over millions of
    terms); below the bound it is that running sum, bit for bit."""
    import numpy as np

    from graphsr.measures.diversity import kernels

    def running(actual, alpha, kind, k):
        i = np.arange(k, dtype=float)
        gain = np.multiply.accumulate(np.r_[float(actual), np.full(k - 1, 1.0 - alpha)])
        weight = np.log(2.0) / np.log(i + 2.0) if kind == "dcg" else 1.0 / (i + 1.0)
        return np.cumsum(gain * weight)

    for alpha in (0.0, 1e-7, 1e-5, 0.5, 1.0):
        for kind in ("dcg", "err"):
            whole = running(3, alpha, kind, 1 << 22)
            ks = [1, 2, 20, 1 << 16, (1 << 16) + 1, 3_000_000, 1 << 22]
            monkeypatch.setattr(kernels, "EXACT_RANKS", 1 << 30)
            assert kernels.ideal_ideal(3, alpha, kind, ks).tolist() == [whole[k - 1] for k in ks]
            monkeypatch.setattr(kernels, "EXACT_RANKS", 1 << 16)
            np.testing.assert_allclose(kernels.ideal_ideal(3, alpha, kind, ks), whole[np.array(ks) - 1], rtol=1e-9)
            assert math.isfinite(kernels.ideal_ideal(3, alpha, kind, [10**30])[0])


if __name__ == "__main__":
    os.environ.setdefault("GRAPHSR_STORE", f"local:{sys.argv[1]}/store")
    _child(sys.argv[1])
