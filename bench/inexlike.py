"""Generate an INEX-Wikipedia-like XML collection (seeded, deterministic).

One article per file, ``article/name``, ``article/bdy/sec/st``, ``sec/p``,
``sec/ss1/{st,p}``, ``ss1/ss2/p`` with inline ``link``, ``emph`` and
``collectionlink`` elements, Zipf-distributed words, and log-normal article
sizes with a mean near the INEX 2009 Wikipedia collection's (50.7 GB over
2.67 M articles: about 19 KB per article).  Files go into numbered
sub-directories of 1000 articles, as in the INEX distribution.

    python bench/inexlike.py OUT_DIR SIZE_MB [--seed N]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
from pathlib import Path

SYLLABLES = ["ka", "lo", "ri", "an", "te", "mu", "so", "ve", "ni", "da", "qu", "el", "or", "is", "po", "ha"]


def vocabulary(rng: random.Random, size: int = 20000) -> tuple[list[str], list[float]]:
    words = ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(size)]
    weights = [1.0 / (rank + 1) for rank in range(size)]  # Zipf, s = 1
    return words, weights


class Writer:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.words, weights = vocabulary(self.rng)
        self.cum = list(itertools.accumulate(weights))

    def text(self, n: int) -> str:
        return " ".join(self.rng.choices(self.words, cum_weights=self.cum, k=n))

    def para(self) -> str:
        r = self.rng
        parts = [self.text(r.randint(15, 60))]
        for _ in range(r.randint(0, 4)):
            kind = r.random()
            if kind < 0.5:
                parts.append(
                    f'<link xlink:type="simple" xlink:href="../{r.randint(1, 9999)}.xml">'
                    f"{self.text(r.randint(1, 3))}</link>"
                )
            elif kind < 0.8:
                parts.append(f"<emph2>{self.text(r.randint(1, 4))}</emph2>")
            else:
                parts.append(
                    f'<collectionlink xlink:href="{r.randint(1, 99999)}.xml">'
                    f"{self.text(r.randint(1, 3))}</collectionlink>"
                )
            parts.append(self.text(r.randint(5, 40)))
        return "<p>" + " ".join(parts) + "</p>"

    def article(self, docid: int) -> str:
        r = self.rng
        target = min(400_000, int(r.lognormvariate(9.4, 0.8)))  # bytes; mean ~ 16-19 KB
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>\n',
            f'<article xmlns:xlink="http://www.w3.org/1999/xlink"><name id="{docid}">{self.text(3)}</name><bdy>',
        ]
        size = 0
        while size < target:
            sec = [f"<sec><st>{self.text(r.randint(1, 5))}</st>"]
            for _ in range(r.randint(1, 4)):
                sec.append(self.para())
            for _ in range(r.choice([0, 0, 1, 2, 3])):
                sec.append(f"<ss1><st>{self.text(r.randint(1, 4))}</st>")
                sec.extend(self.para() for _ in range(r.randint(1, 3)))
                if r.random() < 0.2:
                    sec.append(f"<ss2><st>{self.text(2)}</st>{self.para()}</ss2>")
                sec.append("</ss1>")
            sec.append("</sec>")
            chunk = "".join(sec)
            size += len(chunk)
            out.append(chunk)
        out.append("</bdy></article>\n")
        return "".join(out)


def generate(out: str | os.PathLike, size_mb: float, seed: int = 2009) -> tuple[int, int]:
    """Write articles until ``size_mb`` megabytes; returns (articles, bytes)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    w = Writer(seed)
    total, n = 0, 0
    while total < size_mb * 1e6:
        d = out / f"{n // 1000:04d}"
        d.mkdir(exist_ok=True)
        data = w.article(n).encode("utf-8")
        (d / f"{n}.xml").write_bytes(data)
        total += len(data)
        n += 1
    (out / "MANIFEST").write_text(f"articles {n}\nbytes {total}\nseed {seed}\n")
    return n, total


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("size_mb", type=float)
    ap.add_argument("--seed", type=int, default=2009)
    a = ap.parse_args()
    print(*generate(a.out, a.size_mb, a.seed))
