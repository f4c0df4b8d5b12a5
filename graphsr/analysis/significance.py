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

Corrections over the pairs of runs of each measure (so that a measure's
letters do not change with the other measures compared beside it): ``holm``
(step-down, family-wise error) and ``bh`` (Benjamini-Hochberg, false
discovery rate), as adjusted p-values; ``tukey`` (the randomised Tukey HSD,
:mod:`graphsr.analysis.intervals`) controls the family of a measure's pairs
itself.  Each pair also gets its difference of means, confidence interval,
effect size and wins/ties/losses.

>>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
[0.03, 0.06, 0.06, 0.02]
>>> bh([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
[0.02, 0.04, 0.04, 0.02]
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..errors import GraphsrInputError

__all__ = ["TESTS", "CORRECTIONS", "paired_test", "holm", "bh", "adjust", "Comparison", "compare_runs", "run_letter"]

TESTS = ("t", "randomization", "bootstrap", "tukey", "ppi", "lmm")
CORRECTIONS = ("holm", "bh", "none")
_BLOCK = 1000
#: The samples a randomization or bootstrap test draws, at least and at most: with fewer than 100 a p-value
#: cannot fall below 0.01 and a bootstrap interval's bounds rest on a handful of draws (with 1, the interval has
#: no width); past 10 million the draws take hours and gigabytes for a precision no comparison needs.
SAMPLES = (100, 10_000_000)


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
    if test not in TESTS or test in ("tukey", "ppi", "lmm"):
        raise GraphsrInputError(f"test must be t, randomization or bootstrap, got {test!r}")
    if len(a) != len(b) or len(a) < 2:
        raise GraphsrInputError(f"a paired test needs at least 2 topics scored for both runs, got {len(a)}")
    d = a - b
    if np.allclose(d, 0.0):
        return 1.0
    if test == "t":
        p = _ttest_rel(a, b)
        return 1.0 if np.isnan(p) else p
    means = _resampled_means(d, test, samples, seed, threads)
    hits = int(np.count_nonzero(np.abs(means) >= abs(d.mean()) - 1e-12))
    return (hits + 1) / (samples + 1)


def _ttest_rel(a: np.ndarray, b: np.ndarray) -> float:
    """``scipy.stats.ttest_rel(a, b).pvalue``, computed as it computes it (the same operations, so the same bits:
    tested) without its argument handling, which took 0.65 ms a pair: a two-sided p from Student's t."""
    from scipy import special

    d = a - b
    n = len(d)
    mean = np.mean(d)
    var = np.mean((d - np.mean(d, keepdims=True)) ** 2) * (float(n) / (n - 1))
    with np.errstate(divide="ignore", invalid="ignore"):  # nearly constant differences: the p-value stands
        t = np.divide(mean, np.sqrt(var / n))
        return float(2 * special.stdtr(float(n - 1), -np.abs(t)))


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
    #: What a fit warned of (the mixed model's statsmodels warnings, by measure), stated with the family.
    warnings: list[str] = field(default_factory=list)

    def family_note(self) -> str:
        """The test, the correction and its family, as the tables state them (and what a fit warned of)."""
        note = _family_note(self.test, self.correction, self.pairs, self.alpha)
        return note + "".join(f"; {w}" for w in self.warnings)

    def wins(self, measure: str, run: str) -> list[int]:
        """The (0-based) positions of the runs ``run`` beats significantly under ``measure``."""
        out = []
        rows = self.pairs[(self.pairs["measure"] == measure) & self.pairs["significant"]]
        for _, r in rows.iterrows():
            if r["run_a"] == run and r["diff"] > 0:
                out.append(self.runs.index(r["run_b"]))
            elif r["run_b"] == run and r["diff"] < 0:
                out.append(self.runs.index(r["run_a"]))
        return sorted(out)

    def pairs_table(self, digits: int = 4) -> str:
        """Every pair as a readable text table: the difference of means, its interval, the effect size,
        wins/ties/losses and the p-values."""
        anova, ppi = self.test == "tukey", self.test == "ppi"
        head = [
            "measure",
            "run a",
            "run b",
            "diff",
            f"interval ({self.pairs['ci_method'].iloc[0]})" if len(self.pairs) else "interval",
            "lambda" if ppi else "effect",
            "W/T/L",
            "p",
            "p adjusted",
        ] + (["p (ANOVA HSD)"] if anova else [])
        rows = [
            [
                r["measure"],
                r["run_a"],
                r["run_b"],
                f"{r['diff']:+.{digits}f}",
                f"[{r['ci_low']:+.{digits}f}, {r['ci_high']:+.{digits}f}]",
                f"{r['ppi_lambda']:.3f}" if ppi else f"{r['effect_size']:+.2f}",
                f"{r['wins']}/{r['ties']}/{r['losses']}",
                f"{r['p']:.{digits}f}",
                f"{r['p_adjusted']:.{digits}f}" + (" *" if r["significant"] else ""),
            ]
            + ([f"{r['p_anova']:.{digits}f}"] if anova else [])
            for _, r in self.pairs.iterrows()
        ]
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        left = 3  # measure and runs left-aligned, numbers right-aligned
        lines = [
            "  ".join(h.ljust(w) if k < left else h.rjust(w) for k, (h, w) in enumerate(zip(head, widths))).rstrip()
        ]
        lines += [
            "  ".join(c.ljust(w) if k < left else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows
        ]
        return "\n".join(lines) + f"\n{self.family_note()}; * significant\n"

    def table(self, fmt: str = "text", digits: int = 4) -> str:
        """runs x measures, each mean followed by the letters of the runs it beats significantly (the layout ranx's
        report tables use)."""
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
            lines += [
                "| " + " | ".join([letter, run] + [v + (f"<sup>{s}</sup>" if s else "") for v, s in cells]) + " |"
                for letter, run, cells in rows
            ]
            return "\n".join(lines) + f"\n\n{note}\n"
        if fmt == "latex":
            cols = "ll" + "r" * len(self.measures)
            esc = lambda t: t.replace("_", r"\_").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")
            lines = [
                rf"\begin{{tabular}}{{{cols}}}",
                r"\toprule",
                " & ".join(esc(h) for h in header) + r" \\",
                r"\midrule",
            ]
            lines += [
                " & ".join([letter, esc(run)] + [v + (f"$^{{{s}}}$" if s else "") for v, s in cells]) + r" \\"
                for letter, run, cells in rows
            ]
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
            columns.append(
                [m.rjust(vw) + tail("")] + [cells[j][0].rjust(vw) + tail(cells[j][1]) for _, _, cells in rows]
            )
        first = [[h] + [str(r[i]) for r in rows] for i, h in enumerate(header[:2])]
        left = [max(map(len, col)) for col in first]
        lines = [
            "  ".join([first[0][i].ljust(left[0]), first[1][i].ljust(left[1]), *(c[i] for c in columns)]).rstrip()
            for i in range(len(rows) + 1)
        ]
        return "\n".join(lines) + f"\n{note}\n"


def _family_note(test: str, correction: str, pairs, alpha: float) -> str:
    per = pairs.groupby("measure").size() if len(pairs) else []
    counts = sorted(set(int(n) for n in per))
    n = "/".join(map(str, counts)) if counts else "0"
    if test == "tukey":
        return f"randomised Tukey HSD over the {n} pairs of each measure (it controls their family), alpha {alpha:g}"
    if test == "lmm":
        return (
            f"linear mixed model (a random intercept per topic), Wald tests, {correction} correction over the {n} "
            f"pairs of each measure, alpha {alpha:g}"
        )
    if test == "ppi":
        people = "/".join(map(str, sorted(set(int(k) for k in pairs["topics"])))) if len(pairs) else "0"
        model = "/".join(map(str, sorted(set(int(k) for k in pairs["ppi_unlabelled"])))) if len(pairs) else "0"
        return (
            f"prediction-powered z test ({people} topics judged by people, {model} by the model only), "
            f"{correction} correction over the {n} pairs of each measure, alpha {alpha:g}; means prediction-powered"
        )
    return f"{test} test, {correction} correction over the {n} pairs of each measure, alpha {alpha:g}"


def _effects(
    a: np.ndarray, b: np.ndarray, test: str, confidence: float, interval: str, samples: int, seed: int, threads: int
) -> dict:
    """The difference of means of one pair, its interval, effect size and wins/ties/losses."""
    from .intervals import bootstrap_interval, effect_size, t_interval, wins_ties_losses

    d = a - b
    if test == "bootstrap":
        low, high = bootstrap_interval(d, confidence, interval, samples, seed, threads)
        method = f"bootstrap {interval}"
    else:
        low, high = t_interval(d, confidence)
        method = "t"
    w, t, losses = wins_ties_losses(a, b)
    return {
        "diff": float(d.mean()),
        "ci_low": low,
        "ci_high": high,
        "ci_method": method,
        "effect_size": effect_size(d),
        "wins": w,
        "ties": t,
        "losses": losses,
    }


def _ppi_row(measure: str, people, model, a: str, b: str, confidence: float, lam: float | None) -> dict:
    """One pair's prediction-powered row (people's and the model's topics x runs tables of ``measure``)."""
    from .intervals import wins_ties_losses
    from .ppi import pair_estimates

    est_a, est_b, diff = pair_estimates(people, model, a, b, confidence, lam)
    both = people[[a, b]].dropna()
    w, t, losses = wins_ties_losses(both[a].to_numpy(float), both[b].to_numpy(float))
    return {
        "measure": measure,
        "run_a": a,
        "run_b": b,
        "topics": diff.labelled,
        "mean_a": est_a.mean,
        "mean_b": est_b.mean,
        "diff": diff.mean,
        "ci_low": diff.low,
        "ci_high": diff.high,
        "ci_method": "ppi",
        "effect_size": np.nan,
        "wins": w,
        "ties": t,
        "losses": losses,
        "p": diff.p,
        "p_anova": np.nan,
        "ppi_lambda": diff.lam,
        "ppi_unlabelled": diff.unlabelled,
    }


def _tukey_rows(
    measure: str, table, runs: list[str], confidence: float, samples: int, seed: int, threads: int
) -> list[dict]:
    """Every pair of ``runs`` under Tukey's HSD on the topics they all share."""
    from .intervals import tukey_anova, tukey_randomized, wins_ties_losses

    common = table[runs].dropna()
    if len(common) < 2:
        raise GraphsrInputError(
            f"{measure}: Tukey's HSD compares runs on the topics they all share; these runs share {len(common)}"
        )
    x = common.to_numpy()
    p = tukey_randomized(x, samples, seed, threads)
    hsd = tukey_anova(x, confidence)
    rows = []
    for i, j in itertools.combinations(range(len(runs)), 2):
        w, t, losses = wins_ties_losses(x[:, i], x[:, j])
        rows.append(
            {
                "measure": measure,
                "run_a": runs[i],
                "run_b": runs[j],
                "topics": len(x),
                "mean_a": x[:, i].mean(),
                "mean_b": x[:, j].mean(),
                "diff": float(x[:, i].mean() - x[:, j].mean()),
                "ci_low": float(hsd["low"][i, j]),
                "ci_high": float(hsd["high"][i, j]),
                "ci_method": "Tukey HSD (two-way ANOVA)",
                "effect_size": float(hsd["effect"][i, j]),
                "wins": w,
                "ties": t,
                "losses": losses,
                "p": float(p[i, j]),
                "p_anova": float(hsd["p"][i, j]),
            }
        )
    return rows


def run_letter(k: int) -> str:
    """The letter naming run ``k`` (0-based) in comparison tables: a .. z, aa, ab, ..."""
    s = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        s = chr(ord("a") + r) + s
    return s


#: The columns of :attr:`Comparison.pairs`.
PAIR_COLUMNS = [
    "measure",
    "run_a",
    "run_b",
    "topics",
    "mean_a",
    "mean_b",
    "diff",
    "ci_low",
    "ci_high",
    "ci_method",
    "effect_size",
    "wins",
    "ties",
    "losses",
    "p",
    "p_anova",
    "ppi_lambda",
    "ppi_unlabelled",
]


def compare_runs(
    scores,
    measures: list[str] | None = None,
    runs: list[str] | None = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    samples: int = 10000,
    seed: int = 0,
    threads: int = 1,
    progress: bool = False,
    confidence: float = 0.95,
    interval: str = "bca",
    baseline: str | None = None,
    unpaired: str = "refuse",
    model_scores=None,
    lam: float | None = None,
    systems: dict[str, list[str]] | None = None,
) -> Comparison:
    """Test every pair of runs under every measure of a :class:`~graphsr.analysis.scores.ScoreTable` (with a
    ``baseline``, every run against it), on the topics both runs have, and correct over each measure's pairs.

    Each pair also gets the difference of its means, its confidence interval at ``confidence`` (the t interval
    for ``t`` and ``randomization``; the bootstrap ``interval``, ``bca`` or ``percentile``, for ``bootstrap``),
    the effect size d_z and its wins/ties/losses (:mod:`graphsr.analysis.intervals`).  ``tukey``: the randomised
    Tukey HSD over the runs of a measure, on the topics they all share, with the two-way ANOVA's HSD beside it
    (``p_anova``, its simultaneous interval, its effect size); it controls the family itself, so no correction is
    applied on top.  ``ppi``: ``scores`` are people's scores and ``model_scores`` (a score table of the same runs
    and measures) a model's, of those topics and others; each run's mean, each pair's difference, its interval
    and its p-value are prediction-powered (:mod:`graphsr.analysis.ppi`; ``lam``: the power-tuning weight, PPI++'s
    choice when None), ``topics`` counts the topics people judged, and the wins, ties and losses are theirs.

    ``systems`` (``{name: [run, ...]}``: :mod:`graphsr.analysis.systems`): runs of one system (seeds, folds) are
    compared as that system, by their per-topic means, under every test; ``lmm`` fits a linear mixed model to
    every run's scores instead (a random intercept per topic).  ``runs`` and ``baseline`` then name systems.

    Two runs sharing fewer than 2 topics cannot be paired: ``unpaired="refuse"`` (the default) raises, naming
    them and their topics; ``"skip"`` leaves such pairs out (the report, which compares runs within each set of
    topics, asks for it)."""
    import pandas as pd

    from .intervals import INTERVALS

    measures = measures or scores.measures
    by_run = scores
    if systems is not None or test == "lmm":
        from .systems import complete_systems, system_table

        if test == "ppi":
            raise GraphsrInputError("the ppi test compares runs, not systems of several runs")
        systems = complete_systems(systems or {}, scores.runs)
        scores = system_table(scores, systems, measures)
    runs = runs or scores.runs
    if systems is not None:
        unknown = [r for r in runs if r not in systems]
        if unknown:
            raise GraphsrInputError(f"{', '.join(unknown)}: not a system (systems: {', '.join(systems)})")
    if len(runs) < 2:
        raise GraphsrInputError("comparing runs needs at least two runs")
    if unpaired not in ("refuse", "skip"):
        raise GraphsrInputError(f"unpaired must be refuse or skip, got {unpaired!r}")
    if (
        isinstance(samples, bool)
        or not isinstance(samples, (int, np.integer))
        or not SAMPLES[0] <= samples <= SAMPLES[1]
    ):
        raise GraphsrInputError(f"samples must be an integer in [{SAMPLES[0]}, {SAMPLES[1]}], got {samples!r}")
    if test not in TESTS:
        raise GraphsrInputError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if interval not in INTERVALS[1:]:
        raise GraphsrInputError(f"the bootstrap interval is percentile or bca, got {interval!r}")
    if baseline is not None and baseline not in runs:
        raise GraphsrInputError(f"baseline {baseline}: not among the runs compared ({', '.join(runs)})")
    if baseline is not None and test == "tukey":
        raise GraphsrInputError("Tukey's HSD compares every pair of runs; it takes no baseline")
    if (test == "ppi") != (model_scores is not None):
        raise GraphsrInputError(
            "the ppi test needs the model's scores beside people's (--model-scores)"
            if test == "ppi"
            else "the model's scores are read for the ppi test only"
        )
    from ..io.progress import progress_bar

    couples = (
        [(r, baseline) for r in runs if r != baseline]
        if baseline is not None
        else list(itertools.combinations(runs, 2))
    )
    rows = []
    bar = progress_bar(len(measures) * len(couples), "pairs tested", progress, "pair")
    unpairable: list[tuple[str, str, str, int, int, int]] = []
    fit_warnings: list[str] = []
    for m in measures:
        table = scores.per_topic(m, runs)
        values = table.to_numpy(dtype=float)  # (numpy per pair: pandas' indexing took 7 ms a pair)
        column = {r: k for k, r in enumerate(table.columns)}
        scored = ~np.isnan(values)
        if test == "tukey":
            rows += _tukey_rows(m, table, runs, confidence, samples, seed, threads)
            bar.update(len(couples))
            continue
        if test == "lmm":
            from .systems import mixed_model_rows

            got, problems = mixed_model_rows(by_run, systems, m, couples, confidence)
            rows += got
            fit_warnings += [f"{m}: statsmodels warned: {w}" for w in problems]
            bar.update(len(couples))
            continue
        if test == "ppi":
            model_table = model_scores.per_topic(m, runs)
            for a, b in couples:
                bar.update(1)
                rows.append(_ppi_row(m, table, model_table, a, b, confidence, lam))
            continue
        for a, b in couples:
            bar.update(1)
            ia, ib = column[a], column[b]
            both = scored[:, ia] & scored[:, ib]
            n = int(both.sum())
            if n < 2:  # runs of different topic sets (e.g. different collections): no pairing
                unpairable.append((m, a, b, n, int(scored[:, ia].sum()), int(scored[:, ib].sum())))
                continue
            xa, xb = values[both, ia], values[both, ib]
            p = paired_test(xa, xb, test, samples, seed, threads)
            rows.append(
                {
                    "measure": m,
                    "run_a": a,
                    "run_b": b,
                    "topics": n,
                    "mean_a": xa.mean(),
                    "mean_b": xb.mean(),
                    **_effects(xa, xb, test, confidence, interval, samples, seed, threads),
                    "p": p,
                    "p_anova": np.nan,
                }
            )
    bar.close()
    if unpairable and unpaired == "refuse":
        m, a, b, n, na, nb = unpairable[0]
        more = f" (and {len(unpairable) - 1} more pairs)" if len(unpairable) > 1 else ""
        raise GraphsrInputError(
            f"runs {a!r} and {b!r} share {n} topic{'' if n == 1 else 's'} under {m} ({a!r} has "
            f"{na}, {b!r} {nb}){more}: a paired test needs at least 2 topics both runs have; "
            "compare runs of the same topics (choose them with --run)"
        )
    pairs = pd.DataFrame(rows, columns=PAIR_COLUMNS)
    # the correction's family: the pairs of one measure, so that a measure's letters do not depend on which
    # other measures are compared beside it (Tukey's HSD controls the family itself)
    family = "none" if test == "tukey" else correction
    pairs["p_adjusted"] = (
        pairs.groupby("measure", sort=False)["p"].transform(lambda p: adjust(p.to_numpy(), family))
        if len(pairs)
        else []
    )
    pairs["significant"] = pairs["p_adjusted"] < alpha
    if test == "tukey":
        correction = "none (Tukey's HSD controls the family)"
    if test == "ppi":  # each run's prediction-powered mean
        from .ppi import table_estimates

        means = pd.DataFrame(
            {
                m: pd.Series(
                    [
                        table_estimates(
                            scores.per_topic(m, runs), model_scores.per_topic(m, runs), r, confidence, lam
                        ).mean
                        for r in runs
                    ],
                    index=runs,
                )
                for m in measures
            }
        )
    else:
        means = pd.DataFrame({m: scores.means(m).reindex(runs) for m in measures})
    return Comparison(list(runs), list(measures), means, pairs, test, correction, alpha, fit_warnings)
