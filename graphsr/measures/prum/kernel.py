r"""PRUM, exactly as the PRUM paper's Eq 5-8 (Piwowarski, Gallinari and Dupret, TOIS 2007), for every recall value.

One topic: ideal elements :math:`x_1 .. x_t`, a ranked list of ``o`` entries,
and :math:`P(y_i \to x)`, the probability that the user who consults the
entry at rank ``i`` navigates to ideal element ``x``.

* Eq 6: :math:`P(x \in S_i) = 1 - \prod_{j \le i} (1 - P(y_j \to x))`.
* Eq 7: :math:`P(F_i = s)` is the Poisson-binomial distribution of these
  ``t`` probabilities -- kept exactly, rank after rank, in a product tree
  (a segment tree whose leaves are the Bernoulli factors ``[1 - p, p]`` and
  whose inner nodes are the convolutions of their children): only the
  elements rank ``i`` leads to change, and each change recomputes the
  ``log t`` products above its leaf.  No normal approximation, and no
  division: dividing a factor out of the whole distribution (deconvolution)
  amplifies rounding errors by ``1 / |1 - 2p|``, which compounds over long
  rankings; products of non-negative numbers do not.
* Eq 8: :math:`P(F_i > s | F_{i-1} = s) = 1 - \prod_x (1 - \Delta_x
  P(F_{i-1} = s | x \notin S_{i-1}) / P(F_{i-1} = s))` with
  :math:`\Delta_x = P(x \in S_i) - P(x \in S_{i-1})`; the leave-one-out
  distribution of ``x`` is the product of the siblings along its leaf's path
  to the root (``log t`` convolutions, never the ``t`` factors again),
  computed only for the elements whose probability rank ``i`` raises -- the
  others contribute a factor 1.
* Eq 5, with Eq 14, 16, 17, 18: for recall ``r`` (the user wants ``r`` ideal
  elements),

  .. math:: PRUM_r = \frac{\sum_{s<r} \sum_{i \le o} P(F_{i-1}=s) P(F_i>s|F_{i-1}=s)
             + \sum_{s<r} P(F_o=s)(r-s)}{\sum_{s<r}\sum_{i \le o} P(F_{i-1}=s)
             + \sum_{s<r} P(F_o=s)(r-s)\left(1+\frac{u-(t-s)}{t-s+1}\right)}

  where ``u`` is the number of elements of the collection outside the
  ranked list (the unranked part, scored by Cooper's expected search
  length; the PRUM paper's Example 2).  The sums over ``s < r`` are
  cumulative sums, so one pass over the ranking gives every ``r``.

Everything is float64 sums of products of non-negative numbers; the tests
compare with a from-scratch computation of the equations.
"""

from __future__ import annotations

import numpy as np

__all__ = ["prum_by_recall", "ProductTree"]


class ProductTree:
    """The Poisson-binomial distribution of ``t`` Bernoulli probabilities, updated one factor at a time.

    >>> tree = ProductTree(3)
    >>> tree.set(0, 0.5); tree.set(2, 1.0)
    >>> tree.pmf().tolist()
    [0.0, 0.5, 0.5, 0.0]
    >>> tree.without(2).tolist()  # leave-one-out: the distribution of the others
    [0.5, 0.5, 0.0]
    """

    def __init__(self, t: int):
        self.t = t
        size = 1
        while size < max(t, 1):
            size *= 2
        self.size = size
        one = np.ones(1)
        self.node: list[np.ndarray] = [one] * (2 * size)
        for leaf in range(t):
            self.node[size + leaf] = np.array([1.0, 0.0])
        for i in range(size - 1, 0, -1):
            self.node[i] = np.convolve(self.node[2 * i], self.node[2 * i + 1])

    def set(self, x: int, p: float) -> None:
        """Make element ``x``'s probability ``p``."""
        i = self.size + x
        self.node[i] = np.array([1.0 - p, p])
        i //= 2
        while i:
            self.node[i] = np.convolve(self.node[2 * i], self.node[2 * i + 1])
            i //= 2

    def pmf(self) -> np.ndarray:
        """``P(F = s)`` for ``s = 0 .. t``."""
        return self.node[1][: self.t + 1]

    def without(self, x: int) -> np.ndarray:
        """``P(F = s | x left out)`` for ``s = 0 .. t - 1``: the product of every factor but ``x``'s."""
        out = np.ones(1)
        i = self.size + x
        while i > 1:
            out = np.convolve(out, self.node[i ^ 1])
            i //= 2
        return out[: self.t]


def prum_by_recall(t: int, ptr: np.ndarray, ideal: np.ndarray, prob: np.ndarray, u: int) -> np.ndarray:
    """PRUM at recall ``r = 1 .. t`` for one topic.

    Parameters
    ----------
    t : int
        Number of ideal elements (``|I|``).
    ptr : array of int, shape (o + 1,)
        Entry ``i`` (rank ``i + 1``) leads to the ideal elements
        ``ideal[ptr[i]:ptr[i + 1]]`` with probabilities ``prob[...]``
        (:math:`P(y \to x) > 0`; an ideal element listed once per entry).
    ideal : array of int
        Ideal element numbers in ``0 .. t-1``.
    prob : array of float
        The navigation probabilities, in (0, 1].
    u : int
        Elements of the collection outside the ranked list.

    Returns
    -------
    array of float, shape (t,)
        ``out[r - 1]`` is PRUM at recall ``r``.

    Examples
    --------
    The PRUM paper's Fig 5: list (c, d, a, b), ideal a = 0, b = 1,
    P(c -> a) = P(c -> b) = P(d -> b) = 0.4, P(d -> a) = 0.6, nothing unranked:

    >>> ptr = np.array([0, 2, 4, 5, 6])
    >>> out = prum_by_recall(2, ptr, np.array([0, 1, 0, 1, 0, 1]), np.array([.4, .4, .6, .4, 1, 1]), 0)
    >>> np.round(out, 4).tolist()
    [0.6914, 0.6356]
    """
    o = len(ptr) - 1
    p = np.zeros(t)
    tree = ProductTree(t)
    f = tree.pmf()
    A = np.zeros(t + 1)  # sum over ranks of P(F_{i-1} = s) P(F_i > s | F_{i-1} = s)
    C = np.zeros(t + 1)  # sum over ranks of P(F_{i-1} = s)
    for i in range(o):
        C += f
        a, b = ptr[i], ptr[i + 1]
        if a == b:
            continue
        k = ideal[a:b]
        p_old = p[k]
        p_new = 1.0 - (1.0 - p_old) * (1.0 - prob[a:b])
        dp = p_new - p_old
        moved = dp > 0
        if not moved.all():
            k, p_old, p_new, dp = k[moved], p_old[moved], p_new[moved], dp[moved]
            if len(k) == 0:
                continue
        if len(k) == 1:
            A[:t] += dp[0] * tree.without(int(k[0]))
        else:
            keep = np.ones(t + 1)  # prod over moved x of (1 - Delta_x P(F = s | x unseen) / P(F = s))
            nz = f[:t] > 0
            for j in range(len(k)):
                ratio = np.zeros(t)
                ratio[nz] = np.minimum(dp[j] * tree.without(int(k[j]))[nz] / f[:t][nz], 1.0)
                keep[:t] *= 1.0 - ratio
            A += f * (1.0 - keep)
        for j in range(len(k)):
            tree.set(int(k[j]), float(p_new[j]))
        f = tree.pmf()
        p[k] = p_new
    s = np.arange(t, dtype=float)
    r = np.arange(1, t + 1, dtype=float)
    a_r = np.cumsum(A[:t])
    c_r = np.cumsum(C[:t])
    fo = f[:t]
    b_r = r * np.cumsum(fo) - np.cumsum(s * fo)
    h = fo * (1.0 + (u - (t - s)) / (t - s + 1.0))
    d_r = r * np.cumsum(h) - np.cumsum(s * h)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (a_r + b_r) / (c_r + d_r)
    return np.where(c_r + d_r > 0, out, 0.0)
