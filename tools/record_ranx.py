"""Record ranx's dcg, dcg_burges and f1 on the random inputs of tests/test_more_flat_measures.py
(tests/data/ranx/values.json), so that the suite compares graphsr's DCG@k and F1@k with ranx's without compiling
ranx (numba compiles it on first use: 40 to 130 s of the suite).

    pip install 'ranx>=0.3.20,<0.4'
    python tools/record_ranx.py

The inputs are made from seeds by numpy's default generator, as the test makes them again.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    import ranx

    sys.path.insert(0, str(ROOT))
    from tests.test_more_flat_measures import DCG_SEEDS, RANX_NAMES, dcg_inputs

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "tests" / "data" / "ranx" / "values.json"))
    args = ap.parse_args()
    recorded = {}
    for seed in DCG_SEEDS:
        qrels, run = dcg_inputs(seed)
        rq, rr = ranx.Qrels(qrels), ranx.Run(run)
        for name in RANX_NAMES:
            values = ranx.evaluate(rq, rr, name, return_mean=False)
            recorded[f"{seed} {name}"] = {q: float(v) for q, v in zip(rq.keys(), values)}
    Path(args.out).write_text(
        json.dumps({"ranx": importlib.metadata.version("ranx"), "values": recorded}, indent=0) + "\n"
    )
    print(f"{len(recorded)} lists -> {args.out}")


if __name__ == "__main__":
    main()
