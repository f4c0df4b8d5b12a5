"""An independent, literal PRUM (PRUM paper Eq 5-8, 11, 14, 16-18), recomputed from scratch at every rank.

Slow on purpose: the Poisson-binomial distributions (Eq 7/11) and the
leave-one-out ones (Appendix A.2) are built by the plain recursion over all
ideal elements for every rank, the way the paper writes them.  Also: a
Monte-Carlo simulation of the user model and an exhaustive enumeration of
navigation outcomes, to check where the formula is exact and where its
Hypothesis 2.3 makes it an approximation.
"""

from __future__ import annotations

import itertools

import numpy as np


def poisson_binomial(ps) -> np.ndarray:
    f = np.zeros(len(ps) + 1)
    f[0] = 1.0
    for p in ps:
        f[1:] = f[1:] * (1 - p) + f[:-1] * p
        f[0] *= 1 - p
    return f


def prum_reference(links: list[dict[int, float]], t: int, u: int) -> list[float]:
    """PRUM at r = 1..t; ``links[i][x]`` = P(y_{i+1} -> x) for ideal x in 0..t-1."""
    o = len(links)
    seen = [np.zeros(t)]  # P(x in S_i), i = 0..o
    for row in links:
        p = seen[-1].copy()
        for x, w in row.items():
            p[x] = 1 - (1 - p[x]) * (1 - w)
        seen.append(p)
    F = [poisson_binomial(p) for p in seen]  # Eq 11
    out = []
    leave_one_out: dict[tuple[int, int], np.ndarray] = {}  # (i, x): F_{i-1} over the others (the same for every r, s)
    for r in range(1, t + 1):
        a = c = 0.0
        for i in range(1, o + 1):
            for s in range(r):
                prev = F[i - 1][s]
                c += prev
                if prev == 0:
                    continue
                keep = 1.0
                for x in range(t):
                    dp = seen[i][x] - seen[i - 1][x]
                    if dp <= 0:
                        continue
                    if (i, x) not in leave_one_out:
                        leave_one_out[i, x] = poisson_binomial([seen[i - 1][y] for y in range(t) if y != x])
                    others = leave_one_out[i, x]
                    loo = others[s] if s < len(others) else 0.0  # P(F_{i-1}=s | x unseen)
                    keep *= 1 - dp * loo / prev
                a += prev * (1 - keep)  # Eq 8, 17
        b = sum(F[o][s] * (r - s) for s in range(r))  # Eq 18
        d = sum(F[o][s] * (r - s) * (1 + (u - (t - s)) / (t - s + 1)) for s in range(r))  # Eq 16
        out.append((a + b) / (c + d))
    return out


def raghavan(is_ideal: list[bool], t: int, u: int, r: int) -> float:
    """Raghavan's precision at r (PRUM Appendix B, the no-browsing case)."""
    found = 0
    for rank, ideal in enumerate(is_ideal, start=1):
        found += ideal
        if found == r:
            return r / rank
    o, e = len(is_ideal), found
    return r / (r + (o - e) + (r - e) * (u - (t - e)) / (t - e + 1))


def simulate(links: list[dict[int, float]], t: int, u: int, r: int, runs: int, rng) -> tuple[float, float]:
    """Monte-Carlo of PRUM's user model (Hypothesis 2.2: independent navigation events): the ratio of the
    mean number of consulted entries that lead to an unseen ideal element to the mean number consulted, and
    its standard error (delta method).  The unranked part is a random order of the other ``u`` elements,
    the unseen ideal ones among them, consulted without browsing."""
    cl = np.zeros(runs)
    cs = np.zeros(runs)
    for k in range(runs):
        seen: set[int] = set()
        consulted = leading = 0
        for row in links:
            if len(seen) >= r:
                break
            consulted += 1
            new = {x for x, w in row.items() if x not in seen and rng.random() < w}
            if new:
                leading += 1
                seen |= new
        if len(seen) < r:  # the unranked part: u elements, t - |seen| of them unseen ideal ones
            unseen = t - len(seen)
            order = rng.permutation(u) < unseen  # True marks an unseen ideal element
            need = r - len(seen)
            hits = np.flatnonzero(order)[need - 1]
            consulted += hits + 1
            leading += need
        cl[k], cs[k] = leading, consulted
    ratio = cl.mean() / cs.mean()
    cov = np.cov(cl, cs)
    var = (cov[0, 0] - 2 * ratio * cov[0, 1] + ratio**2 * cov[1, 1]) / (runs * cs.mean() ** 2)
    return ratio, float(np.sqrt(max(var, 0.0)))


def enumerate_exactly(links: list[dict[int, float]], t: int, r: int) -> float:
    """E[CL] / E[C] by enumerating every outcome of every uncertain navigation event (Hypothesis 2.2 only),
    for lists whose ranked part always reaches r ideal elements."""
    events = [(i, x, w) for i, row in enumerate(links) for x, w in row.items() if 0 < w < 1]
    e_cl = e_c = 0.0
    for outcome in itertools.product((False, True), repeat=len(events)):
        prob = 1.0
        happened = set()
        for (i, x, w), hit in zip(events, outcome):
            prob *= w if hit else 1 - w
            if hit:
                happened.add((i, x))
        seen: set[int] = set()
        consulted = leading = 0
        for i, row in enumerate(links):
            if len(seen) >= r:
                break
            consulted += 1
            new = {x for x, w in row.items() if x not in seen and (w == 1 or (i, x) in happened)}
            if new:
                leading += 1
                seen |= new
        assert len(seen) >= r, "enumerate_exactly needs lists that reach r in the ranked part"
        e_cl += prob * leading
        e_c += prob * consulted
    return e_cl / e_c
