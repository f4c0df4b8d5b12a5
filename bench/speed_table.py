"""The README's speed tables, from the benches' JSON outputs (nothing is typed in by hand).

    python bench/bench_api.py --repeat 5 --json bench/_results/api.json
    python bench/bench_api.py --repeat 5 --names distinct --big 0 --json bench/_results/api-distinct.json
    python bench/bench_esr.py --json bench/_results/esr.json
    python bench/bench_fol.py --repeat 9 --json bench/_results/fol.json
    python bench/speed_table.py bench/_results

prints Markdown tables: plain TREC evaluation beside ir_measures, pytrec_eval (ranx when installed, and the trec_eval
binary when bench_api.py was given one with --trec-eval) -- with
both name shapes measured (one vocabulary shared by every topic, each topic's own names), each row gives the shape
where graphsr does worse beside the other tool, and names it --, ESR beside
pytrec_eval, and the passage commands beside the official INEX tool's times as measured on a machine of this kind
(the tool is not installed here: those figures are quoted, not measured, and the table says so).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: The official INEX tool (inex_eval.jar, JVM start included), measured when the speed issue was filed on a
#: machine like this one: one focused run, and ten runs in one command.
JAR_SECONDS = {"one": 0.28, "ten": 0.79}


def _load(folder: Path, name: str) -> dict | None:
    path = folder / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def _worse(shapes: list[dict], ours, theirs) -> tuple[dict, float, float]:
    """The shape (a bench_api result) where graphsr's time is the larger share of the other tool's."""
    return max(((a, ours(a), theirs(a)) for a in shapes), key=lambda x: x[1] / x[2])


def _shape(a: dict, shapes: list[dict]) -> str:
    return f" ({a.get('names', 'shared')} names)" if len(shapes) > 1 else ""


def api_table(shapes: list[dict]) -> str:
    """The rows of the plain TREC comparison; with several name shapes, each row the shape graphsr does worse on."""
    rows = ["| work | graphsr | the other tool | ratio |", "|---|---|---|---|"]
    a, g, i = _worse(shapes, lambda a: a["graphsr eval"]["median_s"], lambda a: a["ir_measures (command)"]["median_s"])
    rows.append(
        f"| `graphsr eval QRELS RUN` / `ir_measures QRELS RUN` (whole processes){_shape(a, shapes)} | "
        f"{g:.2f} s | {i:.2f} s | {i / g:.1f}x as fast |"
    )
    if all("trec_eval (C binary)" in a for a in shapes):  # (bench_api.py --trec-eval PATH)
        a, g, t = _worse(
            shapes, lambda a: a["graphsr eval"]["median_s"], lambda a: a["trec_eval (C binary)"]["median_s"]
        )
        rows.append(
            f"| `graphsr eval QRELS RUN` / the trec_eval 9.0.8 binary, built outside the repository "
            f"(whole processes){_shape(a, shapes)} | {g:.2f} s | {t:.2f} s | {g / t:.2f}x its time |"
        )
    a, g, i = _worse(shapes, lambda a: a["graphsr"]["median_s"], lambda a: a["ir_measures"]["median_s"])
    rows.append(
        f"| script: `calc_aggregate` on DataFrames read by pandas{_shape(a, shapes)} | {g:.2f} s | {i:.2f} s | "
        f"{i / g:.1f}x as fast |"
    )
    for name in ("graphsr.calc_aggregate (dicts)", "graphsr.calc_aggregate (DataFrames)"):
        a, g, ref = _worse(
            shapes, lambda a: a["in_process_s"][name], lambda a: a["in_process_s"]["pytrec_eval (dicts)"]
        )
        rows.append(
            f"| in one process: {name} / pytrec_eval (dicts){_shape(a, shapes)} | {g * 1000:.0f} ms | "
            f"{ref * 1000:.0f} ms | {g / ref:.2f}x its time |"
        )
        for other in ("ir_measures.calc_aggregate (DataFrames)", "ranx (dicts)", "ranx evaluate (Qrels, Run built)"):
            if name.endswith("(dicts)") and other in a["in_process_s"]:
                rows.append(
                    f"| in one process: {other}{_shape(a, shapes)} | | {a['in_process_s'][other] * 1000:.0f} ms | |"
                )
    a = next((a for a in shapes if a.get("big")), shapes[0])
    big = a.get("big")
    if big:
        g, i, size = big["graphsr eval"], big["ir_measures (command)"], big["run_bytes"]
        rows.append(
            f"| {big['lines']:,} lines ({size / 2**20:.0f} MB run file), command line | {g['seconds']:.2f} s, "
            f"{g['peak_bytes'] / 2**20:.0f} MB peak ({g['peak_bytes'] / size:.1f}x the file) | "
            f"{i['seconds']:.2f} s, {i['peak_bytes'] / 2**20:.0f} MB ({i['peak_bytes'] / size:.1f}x) | "
            f"{i['seconds'] / g['seconds']:.1f}x as fast |"
        )
        scaling = big.get("scaling") or []
        if len(scaling) > 1:  # the time each further line costs, between the sizes timed
            steps = [(s1 - s0) / (n1 - n0) * 1e6 for (n0, s0), (n1, s1) in zip(scaling, scaling[1:])]
            sizes = ", ".join(f"{n / 1e6:g}M: {t:.2f} s" for n, t in scaling)
            rows.append(
                f"| `graphsr eval` by run size ({sizes}) | "
                f"{', '.join(f'+{x:.2f} s' for x in steps)} per further million lines | | linear |"
            )
    return "\n".join(rows)


def esr_table(e: dict) -> str:
    g, t = e["graphsr_seconds"], e["pytrec_eval_seconds"]
    return "\n".join(
        [
            "| work | graphsr | pytrec_eval | ratio |",
            "|---|---|---|---|",
            f"| ESR, 50 runs x 100 topics x 1,500 element results, 7 measures / map + P@10 on 50 runs x "
            f"100 topics x 1,000 documents | {g:.2f} s | {t:.2f} s | {g / t:.2f}x its time |",
        ]
    )


def fol_table(f: dict) -> str:
    rows = ["| command (whole process) | graphsr, median (best) | official tool, quoted | ratio |", "|---|---|---|---|"]
    for name, fig in f["commands"].items():
        quoted, ratio = "", ""
        if name == "eval, 1 focused run":
            quoted, ratio = f"{JAR_SECONDS['one']:.2f} s", f"{JAR_SECONDS['one'] / fig['median']:.1f}x as fast"
        elif name.startswith("eval, 10 focused"):
            quoted, ratio = f"{JAR_SECONDS['ten']:.2f} s", f"{JAR_SECONDS['ten'] / fig['median']:.1f}x as fast"
        rows.append(f"| `{name}` | {fig['median']:.3f} s ({fig['best']:.3f} s) | {quoted} | {ratio} |")
    return "\n".join(rows)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "_results")
    for name, render in (("api", api_table), ("esr", esr_table), ("fol", fol_table)):
        got = _load(folder, name)
        if name == "api" and got is not None:
            got = [got] + [json.loads(p.read_text()) for p in sorted(folder.glob("api-*.json"))]
        if got is None:
            print(f"({folder / name}.json missing: run bench_{name}.py --json first)\n")
            continue
        print(render(got) + "\n")


if __name__ == "__main__":
    main()
