r"""Is one run better than another?  Paired tests over topics, corrections over many pairs, comparison tables.

Two runs are compared on the topics both have, through the per-topic
differences :math:`d_t = a_t - b_t` of one measure:

* ``t``: the paired t-test (``scipy.stats.ttest_rel``);
* ``randomization``: the paired randomization (permutation) test -- each
  difference's sign flipped at random, ``samples`` times; two-sided p-value
  :math:`(1 + \#\{|\bar d^*| \ge |\bar d|\}) / (1 + samples)`;
* ``bootstrap``: the paired bootstrap test -- the differences shifted to mean
  0 and resampled with replacement; the same two-sided p-value.

Random draws come in fixed blocks of 1000 samples, block ``k`` from the
``k``-th child of ``numpy.random.SeedSequence(seed)``, so a seed gives the
same p-values whatever the number of threads that draw the blocks.

Corrections over the pairs of runs of each measure (the family ranx
corrects over: a measure's letters do not change with the other measures
compared beside it): ``holm`` (step-down, family-wise error) and ``bh``
(Benjamini-Hochberg, false discovery rate), as adjusted p-values.

>>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
[0.03, 0.06, 0.06, 0.02]
>>> bh([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
[0.02, 0.04, 0.04, 0.02]
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..errors import GraphsrInputError

__all__ = ["TESTS", "CORRECTIONS", "paired_test", "holm", "bh", "adjust", "Comparison", "compare_runs", "run_letter"]

TESTS = ("t", "randomization", "bootstrap")
CORRECTIONS = ("holm", "bh", "none")
_BLOCK = 1000


def _blocks(samples: int, seed: int) -> list[tuple[np.random.SeedSequence, int]]:
    children = np.random.SeedSequence(seed).spawn((samples + _BLOCK - 1) // _BLOCK)
    return [(child, min(_BLOCK, samples - k * _BLOCK)) for k, child in enumerate(children)]


def _resampled_means(d: np.ndarray, kind: str, samples: int, seed: int, threads: int) -> np.ndarray:
    n = len(d)

    def block(args) -> np.ndarray:
        child, size = args
        rng = np.random.default_rng(child)
        if kind == "randomization":
            signs = rng.integers(0, 2, size=(size, n), dtype=np.int8) * 2 - 1
            return (signs * d).mean(axis=1)
        centred = d - d.mean()
        return centred[rng.integers(0, n, size=(size, n))].mean(axis=1)

    jobs = _blocks(samples, seed)
    if threads > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(threads) as pool:
            parts = list(pool.map(block, jobs))
    else:
        parts = [block(j) for j in jobs]
    return np.concatenate(parts)


def paired_test(a, b, test: str = "t", samples: int = 10000, seed: int = 0, threads: int = 1) -> float:
    """Two-sided p-value that paired per-topic scores ``a`` and ``b`` differ in mean."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if test not in TESTS:
        raise GraphsrInputError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if len(a) != len(b) or len(a) < 2:
        raise GraphsrInputError(f"a paired test needs at least 2 topics scored for both runs, got {len(a)}")
    d = a - b
    if np.allclose(d, 0.0):
        return 1.0
    if test == "t":
        import warnings

        from scipy import stats

        with warnings.catch_warnings():  # nearly constant differences: scipy warns, the p-value stands
            warnings.simplefilter("ignore", RuntimeWarning)
            p = float(stats.ttest_rel(a, b).pvalue)
        return 1.0 if np.isnan(p) else p
    means = _resampled_means(d, test, samples, seed, threads)
    hits = int(np.count_nonzero(np.abs(means) >= abs(d.mean()) - 1e-12))
    return (hits + 1) / (samples + 1)


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def bh(p) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values."""
    p = np.asarray(p, dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, m + 1)
    adj = np.minimum.accumulate(ranked[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def adjust(p, correction: str) -> np.ndarray:
    if correction not in CORRECTIONS:
        raise GraphsrInputError(f"correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    return {"holm": holm, "bh": bh, "none": lambda x: np.asarray(x, dtype=float)}[correction](p)


@dataclass
class Comparison:
    """Every pair of runs under every measure: means, p-values (adjusted), and who wins significantly."""

    runs: list[str]
    measures: list[str]
    means: "object"  # runs x measures DataFrame
    pairs: "object"  # DataFrame: measure, run_a, run_b, mean_a, mean_b, p, p_adjusted, significant
    test: str
    correction: str
    alpha: float

    def family_note(self) -> str:
        """The test, the correction and its family, as the tables state them."""
        return _family_note(self.test, self.correction, self.pairs, self.alpha)

    def wins(self, measure: str, run: str) -> list[int]:
        """The (0-based) positions of the runs ``run`` beats significantly under ``measure``."""
        out = []
        rows = self.pairs[(self.pairs["measure"] == measure) & self.pairs["significant"]]
        for _, r in rows.iterrows():
            if r["run_a"] == run and r["mean_a"] > r["mean_b"]:
                out.append(self.runs.index(r["run_b"]))
            elif r["run_b"] == run and r["mean_b"] > r["mean_a"]:
                out.append(self.runs.index(r["run_a"]))
        return sorted(out)

    def table(self, fmt: str = "text", digits: int = 4) -> str:
        """runs x measures, each mean followed by the letters of the runs it beats significantly (as ranx)."""
        letters = [run_letter(k) for k in range(len(self.runs))]
        header = ["#", "run", *self.measures]
        rows = []
        for k, run in enumerate(self.runs):
            cells = []
            for m in self.measures:
                v = self.means.loc[run, m]
                sup = "".join(letters[j] for j in self.wins(m, run))
                cells.append((f"{v:.{digits}f}", sup))
            rows.append((letters[k], run, cells))
        note = f"{self.family_note()}; letters: runs beaten significantly"
        if fmt == "markdown":
            lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            lines += ["| " + " | ".join([letter, run] + [v + (f"<sup>{s}</sup>" if s else "") for v, s in cells])
                      + " |" for letter, run, cells in rows]
            return "\n".join(lines) + f"\n\n{note}\n"
        if fmt == "latex":
            cols = "ll" + "r" * len(self.measures)
            esc = (lambda t: t.replace("_", r"\_").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#"))
            lines = [rf"\begin{{tabular}}{{{cols}}}", r"\toprule",
                     " & ".join(esc(h) for h in header) + r" \\", r"\midrule"]
            lines += [" & ".join([letter, esc(run)] + [v + (f"$^{{{s}}}$" if s else "") for v, s in cells])
                      + r" \\" for letter, run, cells in rows]
            lines += [r"\bottomrule", r"\end{tabular}", f"% {note}"]
            return "\n".join(lines) + "\n"
        if fmt != "text":
            raise GraphsrInputError(f"format must be text, markdown or latex, got {fmt!r}")
        # each measure's column: the means right-aligned (their decimal points in line), then the letters
        columns = []
        for j, m in enumerate(self.measures):
            vw = max([len(m)] + [len(cells[j][0]) for _, _, cells in rows])
            lw = max(len(cells[j][1]) for _, _, cells in rows)
            tail = (lambda s: " " + s.ljust(lw)) if lw else (lambda s: "")
            columns.append([m.rjust(vw) + tail("")] + [cells[j][0].rjust(vw) + tail(cells[j][1])
                                                       for _, _, cells in rows])
        first = [[h] + [str(r[i]) for r in rows] for i, h in enumerate(header[:2])]
        left = [max(map(len, col)) for col in first]
        lines = ["  ".join([first[0][i].ljust(left[0]), first[1][i].ljust(left[1]), *(c[i] for c in columns)])
                 .rstrip() for i in range(len(rows) + 1)]
        return "\n".join(lines) + f"\n{note}\n"


def _family_note(test: str, correction: str, pairs, alpha: float) -> str:
    per = pairs.groupby("measure").size() if len(pairs) else []
    counts = sorted(set(int(n) for n in per))
    n = "/".join(map(str, counts)) if counts else "0"
    return f"{test} test, {correction} correction over the {n} pairs of each measure, alpha {alpha:g}"


def run_letter(k: int) -> str:
    """The letter naming run ``k`` (0-based) in comparison tables: a .. z, aa, ab, ..."""
    s = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def compare_runs(scores, measures: list[str] | None = None, runs: list[str] | None = None, test: str = "t",
                 correction: str = "holm", alpha: float = 0.05, samples: int = 10000, seed: int = 0,
                 threads: int = 1, progress: bool = False) -> Comparison:
    """Test every pair of runs under every measure of a :class:`~graphsr.analysis.scores.ScoreTable`, on the
    topics both runs have, and correct over each measure's pairs."""
    import pandas as pd

    measures = measures or scores.measures
    runs = runs or scores.runs
    if len(runs) < 2:
        raise GraphsrInputError("comparing runs needs at least two runs")
    from ..io.progress import progress_bar

    rows = []
    bar = progress_bar(len(measures) * len(runs) * (len(runs) - 1) // 2, "pairs tested", progress, "pair")
    for m in measures:
        table = scores.per_topic(m, runs)
        for a, b in itertools.combinations(runs, 2):
            bar.update(1)
            both = table[[a, b]].dropna()
            if len(both) < 2:  # runs of different topic sets (e.g. different collections): not compared
                continue
            p = paired_test(both[a].to_numpy(), both[b].to_numpy(), test, samples, seed, threads)
            rows.append({"measure": m, "run_a": a, "run_b": b, "topics": len(both), "mean_a": both[a].mean(),
                         "mean_b": both[b].mean(), "p": p})
    bar.close()
    pairs = pd.DataFrame(rows, columns=["measure", "run_a", "run_b", "topics", "mean_a", "mean_b", "p"])
    # the correction's family: the pairs of one measure (as ranx corrects), so that a measure's letters do not
    # depend on which other measures are compared beside it
    pairs["p_adjusted"] = pairs.groupby("measure", sort=False)["p"].transform(
        lambda p: adjust(p.to_numpy(), correction)) if len(pairs) else []
    pairs["significant"] = pairs["p_adjusted"] < alpha
    means = pd.DataFrame({m: scores.means(m).reindex(runs) for m in measures})
    return Comparison(list(runs), list(measures), means, pairs, test, correction, alpha)
