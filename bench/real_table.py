"""Side-by-side table of bench_real.py runs (their --json files), one column group per collection.

python bench/real_table.py help.json music-svg.json prose.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(paths: list[str]) -> None:
    runs = [json.loads(Path(p).read_text()) for p in paths]
    names = [r.get("name") or Path(r["collection"]).stem for r in runs]
    steps: list[str] = []
    for r in runs:
        steps += [row["step"] for row in r["rows"] if row["step"] not in steps]
    head = (
        "| step | "
        + " | ".join(f"{n}: wall | {n}: CPU | {n}: peak RSS | {n}: server CPU | {n}: rate" for n in names)
        + " |"
    )
    print(head)
    print("|---|" + "---|" * (5 * len(runs)))
    for step in steps:
        cells = []
        for r in runs:
            row = next((x for x in r["rows"] if x["step"] == step), None)
            if row is None:
                cells += ["", "", "", "", ""]
                continue
            cpu = row.get("server_cpu")
            cells += [
                f"{row['seconds']:.2f} s",
                "" if row.get("cpu") is None else f"{row['cpu']:.1f} s",
                f"{row['peak_mb']:,} MB",
                "" if cpu is None else f"{cpu:.1f} s",
                row["rate"],
            ]
        print("| " + step.replace("|", "\\|") + " | " + " | ".join(cells) + " |")
    for n, r in zip(names, runs):
        load = r.get("load")
        if load:
            print(
                f"\n{n}: machine load (1, 5, 15 min) before {load['before']}, after {load['after']}, "
                f"{load['cpus']} CPUs"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
