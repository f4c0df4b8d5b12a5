r"""How far two measures (or one measure under two navigation models) agree on the ranking of systems.

Systems are ranked by their mean scores (the ``all`` values of a score
table).  For two score vectors over the same runs:

* Kendall's :math:`\tau_a = (n_c - n_d) / \binom{n}{2}` and :math:`\tau_b`
  (ties corrected; ``scipy.stats.kendalltau``), with scipy's p-value (the
  test of independence; for untied scores :math:`\tau_a = \tau_b`);
* Spearman's :math:`\rho` (``scipy.stats.spearmanr``) and its p-value;
* :math:`\tau_{AP}` (Yilmaz, Aslam and Robertson, SIGIR 2008), which weighs
  swaps near the top more:

  .. math:: \tau_{AP} = \frac{2}{N-1} \sum_{i=2}^{N} \frac{C(i)}{i-1} - 1

  where the systems are ordered by the second measure and :math:`C(i)` is
  the number of systems above rank ``i`` that the first measure also ranks
  above the system at rank ``i``.  It is not symmetric: the first measure is
  the reference.  It needs strict orders: with tied scores in either vector
  it is NaN, with a warning (breaking ties by any rule -- run names, say --
  would make the value depend on that rule);
* :math:`\tau_{AP,b}` (Urbano and Marrero, ICTIR 2017), the AP correlation
  for rankings with ties on both sides: the mean of the two directions, each
  :math:`\frac{2}{N'} \sum_i \frac{c_i}{p_i} - 1` over the ``N'`` systems
  below the top tie group of the second ranking, with :math:`p_i` the
  systems strictly above ``i`` there and :math:`c_i` those of them the first
  ranking also puts strictly above ``i``.  Without ties it is the mean of
  :math:`\tau_{AP}` both ways; NaN when both rankings are all tied.

Each p-value is a permutation test -- exact over all orders for up to 8
systems, else ``samples`` random orders from ``seed``: the share of orders
whose absolute value is at least the observed one.

>>> import numpy as np
>>> round(tau_ap([4, 3, 2, 1], [4, 3, 1, 2]), 4)  # the last two swapped: 2/3 (1 + 1 + 2/3) - 1
0.7778
>>> round(tau_ap([4, 3, 2, 1], [3, 4, 2, 1]), 4)  # the first two swapped: more costly
0.3333
>>> round(tau_ap_b([4, 3, 2, 1], [4, 3, 1, 2]), 4), tau_ap([4, 3, 2, 2], [4, 3, 2, 1])
(0.7778, nan)
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._numpy import distinct

from ..errors import GraphsrInputError

__all__ = [
    "Agreement",
    "tau_ap",
    "tau_ap_b",
    "tau_ap_pvalue",
    "tau_ap_b_pvalue",
    "kendall_tau_a",
    "rank_agreement",
    "kendall_matrix",
    "RankChange",
    "rank_change",
]


def _has_ties(x: np.ndarray) -> bool:
    return len(distinct(x)) < len(x)


def tau_ap(reference, other) -> float:
    """:math:`\\tau_{AP}` of the ranking by ``other`` against the ranking by ``reference`` (higher is better);
    NaN when either has tied scores (see :func:`tau_ap_b`)."""
    ref, oth = np.asarray(reference, dtype=float), np.asarray(other, dtype=float)
    n = len(ref)
    if n < 2:
        raise GraphsrInputError("tau_AP needs at least two systems")
    if _has_ties(ref) or _has_ties(oth):
        return float("nan")
    position = np.empty(n, dtype=np.int64)
    position[np.argsort(-ref, kind="stable")] = np.arange(n)
    return _tau_ap_positions(position[np.argsort(-oth, kind="stable")])


def _tau_ap_b_half(x: np.ndarray, y: np.ndarray) -> float:
    """Urbano and Marrero's tau_AP,b in one direction: the systems walked in ``y``'s order."""
    above_y = y[None, :] > y[:, None]  # [i, j]: j strictly above i in y
    above_x = x[None, :] > x[:, None]  # [i, j]: j strictly above i in x
    p = above_y.sum(axis=1)
    c = (above_y & above_x).sum(axis=1)
    below_top = p > 0
    if not below_top.any():
        return float("nan")
    return float(2.0 / below_top.sum() * np.sum(c[below_top] / p[below_top]) - 1.0)


def tau_ap_b(reference, other) -> float:
    """:math:`\\tau_{AP,b}` (Urbano and Marrero 2017) between two score vectors (higher is better), ties
    allowed on both sides; NaN when both are all tied."""
    x, y = np.asarray(reference, dtype=float), np.asarray(other, dtype=float)
    if len(x) < 2:
        raise GraphsrInputError("tau_AP_b needs at least two systems")
    a, b = _tau_ap_b_half(x, y), _tau_ap_b_half(y, x)
    return float((a + b) / 2) if a == a and b == b else float("nan")


def tau_ap_b_pvalue(reference, other, samples: int = 10000, seed: int = 0) -> float:
    """Two-sided permutation p-value of :func:`tau_ap_b` (``other``'s scores permuted over the systems; exact
    for up to 8 systems; NaN for NaN)."""
    x, y = np.asarray(reference, dtype=float), np.asarray(other, dtype=float)
    observed = tau_ap_b(x, y)
    if observed != observed:
        return float("nan")
    n = len(x)
    if n <= 8:
        values = np.array([tau_ap_b(x, y[list(p)]) for p in itertools.permutations(range(n))])
        return float(np.mean(np.abs(values) >= abs(observed) - 1e-12))
    rng = np.random.default_rng(seed)
    hits = sum(abs(tau_ap_b(x, rng.permutation(y))) >= abs(observed) - 1e-12 for _ in range(samples))
    return (hits + 1) / (samples + 1)


def _tau_ap_positions(ref_pos: np.ndarray) -> float:
    """tau_AP given, for the systems in the other order, their positions in the reference order."""
    n = len(ref_pos)
    total = 0.0
    for i in range(1, n):
        total += np.count_nonzero(ref_pos[:i] < ref_pos[i]) / i
    return float(2.0 * total / (n - 1) - 1.0)


def tau_ap_pvalue(observed: float, n: int, samples: int = 10000, seed: int = 0) -> float:
    """Two-sided permutation p-value of ``observed`` for ``n`` systems (exact for n <= 8; NaN for NaN)."""
    if observed != observed:
        return float("nan")
    if n <= 8:
        values = [_tau_ap_positions(np.array(p)) for p in itertools.permutations(range(n))]
        return float(np.mean(np.abs(values) >= abs(observed) - 1e-12))
    rng = np.random.default_rng(seed)
    hits = sum(abs(_tau_ap_positions(rng.permutation(n))) >= abs(observed) - 1e-12 for _ in range(samples))
    return (hits + 1) / (samples + 1)


def kendall_tau_a(x, y) -> float:
    """:math:`(n_c - n_d) / \\binom{n}{2}` (pairs tied in either vector count as neither)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(x)
    i, j = np.triu_indices(n, 1)
    s = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
    return float(s.sum() / (n * (n - 1) / 2))


@dataclass
class Agreement:
    """Rank agreement of two score vectors over the same systems."""

    systems: list[str]
    tau: float
    tau_b: float
    tau_p: float
    rho: float
    rho_p: float
    tau_ap: float
    tau_ap_p: float
    tau_ap_b: float = float("nan")
    tau_ap_b_p: float = float("nan")
    warnings: list = field(default_factory=list)

    def rows(self) -> list[tuple[str, float, float]]:
        return [
            ("Kendall tau", self.tau, self.tau_p),
            ("Kendall tau-b", self.tau_b, self.tau_p),
            ("Spearman rho", self.rho, self.rho_p),
            ("tau_AP", self.tau_ap, self.tau_ap_p),
            ("tau_AP_b", self.tau_ap_b, self.tau_ap_b_p),
        ]

    def text(self) -> str:
        lines = [f"{len(self.systems)} systems", f"{'statistic':<15}{'value':>9}{'p-value':>10}"]
        lines += [f"{name:<15}{v:>9.4f}{p:>10.4g}" for name, v, p in self.rows()]
        return "\n".join(lines) + "\n"


def rank_agreement(reference, other, samples: int = 10000, seed: int = 0) -> Agreement:
    """The agreement of two pandas Series of mean scores indexed by system (their common systems)."""
    from scipy import stats

    common = [s for s in reference.index if s in set(other.index)]
    if len(common) < 3:
        raise GraphsrInputError(f"rank agreement needs at least 3 systems scored by both, got {len(common)}")
    x = reference.loc[common].to_numpy(dtype=float)
    y = other.loc[common].to_numpy(dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant vector: scipy warns, and gives NaN
        tb = stats.kendalltau(x, y)
        rho = stats.spearmanr(x, y)
    tap = tau_ap(x, y)
    notes = []
    if tap != tap:
        notes.append(
            "tau_AP is undefined with tied mean scores (it needs strict orders, and breaking ties by any "
            "rule would make it depend on that rule): NaN; tau_AP_b (Urbano and Marrero 2017) takes ties"
        )
    return Agreement(
        list(map(str, common)),
        kendall_tau_a(x, y),
        float(tb.statistic),
        float(tb.pvalue),
        float(rho.statistic),
        float(rho.pvalue),
        tap,
        tau_ap_pvalue(tap, len(common), samples, seed),
        tau_ap_b(x, y),
        tau_ap_b_pvalue(x, y, samples, seed),
        notes,
    )


@dataclass
class RankChange:
    """How two measures move each system's rank across cut-offs (SR paper §7.2, Table 3(B))."""

    a: str
    b: str
    cutoffs: list
    ranks: "object"  # DataFrame: run, cutoff, rank under a, rank under b
    changes: "object"  # DataFrame: run, from, to, change under a, change under b
    r: float
    p: float

    def text(self) -> str:
        lines = [
            f"relative change in rank across cut-offs {', '.join(map(str, self.cutoffs))}: {self.a} vs {self.b}",
            f"{'run':<30}{'k':>10}{'d rank ' + self.a:>16}{'d rank ' + self.b:>16}",
        ]
        for _, row in self.changes.iterrows():
            lines.append(
                f"{str(row['run'])[-30:]:<30}{str(row['from']) + '>' + str(row['to']):>10}"
                f"{row['change_a']:>16.0f}{row['change_b']:>16.0f}"
            )
        lines.append(f"Pearson r {self.r:.4f}, p = {self.p:.3g}")
        return "\n".join(lines) + "\n"


def rank_change(scores, a: str, b: str, cutoffs: list[int] | None = None) -> RankChange:
    """Each system's rank (1 = best) under ``a@k`` and ``b@k`` at every cut-off both measures have, the
    change of rank between consecutive cut-offs, and Pearson's r (with its p-value) between the changes
    under the two measures -- whether they move systems the same way, if not by the same amount."""
    import pandas as pd
    from scipy import stats

    from .scores import cutoff_families

    families = cutoff_families(scores)
    fa, fb = dict((k, m) for k, m in families.get(a, [])), dict((k, m) for k, m in families.get(b, []))
    common = sorted(set(fa) & set(fb) if cutoffs is None else set(cutoffs))
    missing = [f"{x}@{k}" for k in common for x, f in ((a, fa), (b, fb)) if k not in f]
    if missing or len(common) < 2:
        raise GraphsrInputError(
            f"the relative change in rank needs {a}@k and {b}@k at two or more common "
            f"cut-offs" + (f"; missing {', '.join(missing)}" if missing else "")
        )
    rows = []
    for k in common:
        ra = scores.means(fa[k]).rank(ascending=False, method="average")
        rb = scores.means(fb[k]).rank(ascending=False, method="average")
        rows += [{"run": run, "cutoff": k, "rank_a": ra[run], "rank_b": rb.get(run, np.nan)} for run in ra.index]
    ranks = pd.DataFrame(rows)
    changes = []
    for run, group in ranks.groupby("run", sort=False):
        g = group.set_index("cutoff")
        for k0, k1 in zip(common, common[1:]):
            changes.append(
                {
                    "run": run,
                    "from": k0,
                    "to": k1,
                    "change_a": g.loc[k1, "rank_a"] - g.loc[k0, "rank_a"],
                    "change_b": g.loc[k1, "rank_b"] - g.loc[k0, "rank_b"],
                }
            )
    changes = pd.DataFrame(changes)
    if changes["change_a"].nunique() < 2 or changes["change_b"].nunique() < 2:
        r, p = float("nan"), float("nan")  # no change under one measure: no correlation to measure
    else:
        res = stats.pearsonr(changes["change_a"], changes["change_b"])
        r, p = float(res.statistic), float(res.pvalue)
    return RankChange(a, b, common, ranks, changes, r, p)


def kendall_matrix(means):
    """Kendall's tau-b between the system rankings of every pair of columns of a runs x columns DataFrame
    (a columns x columns DataFrame, 1 on the diagonal)."""
    import pandas as pd
    from scipy import stats

    n = means.shape[1]
    tau = np.ones((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            tau[i, j] = tau[j, i] = stats.kendalltau(means.iloc[:, i], means.iloc[:, j]).statistic
    return pd.DataFrame(tau, index=means.columns, columns=means.columns)
