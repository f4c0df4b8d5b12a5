"""trec_eval 9.0.8's measures of one topic, computed as trec_eval computes them.

Each measure declares its kernel (:mod:`graphsr.measures.trec_eval.declared`, :mod:`graphsr.measures.flat`).
Every function takes a :class:`Ranked` topic -- the relevance of each retrieved document in rank order
(``-1``: not in the qrels, ``-2``: in the qrels with a negative grade), the number of judged documents at
each grade, the relevance level (``-l``) -- and the measure's parameters, and returns its values.  Sums are
formed in rank order, one term at a time, and divisions happen where trec_eval divides, so that the printed
four decimals are trec_eval's (a different order of additions can move the last bit, and with it a rounding).
A division by zero gives NaN, as trec_eval's C does (and prints as ``-nan``).

Written from trec_eval's documented definitions and checked against its output (tests/data/trec_eval); the
measures' definitions are in ``graphsr trec_eval -h -m MEASURE``.
"""

from __future__ import annotations

import functools
import math
from ..._records import record

import numpy as np

from ..base import GM_FLOOR

__all__ = ["Ranked", "NOT_IN_POOL", "UNJUDGED", "MIN_GEO_MEAN", "grade_counts"]

#: A retrieved document the qrels do not name.
NOT_IN_POOL = -1
#: A retrieved document the qrels name with a negative grade ("in the pool, not judged").
UNJUDGED = -2
#: The floor of a value whose logarithm a geometric mean takes.
MIN_GEO_MEAN = GM_FLOOR  # (declared once, in graphsr.measures.base)
_INFAP_EPSILON = 0.00001
_NAN = -math.nan  # C's 0.0 / 0.0 on this hardware: a NaN with its sign bit set


def _div(a: float, b: float) -> float:
    if b == 0:
        if a == 0 or a != a:
            return _NAN
        return math.copysign(math.inf, a) if b == 0.0 and math.copysign(1, b) > 0 else -math.copysign(math.inf, a)
    return a / b


def grade_counts(grades) -> tuple[np.ndarray, np.ndarray]:
    """The distinct grades of a topic's judged documents (grade >= 0), ascending, and how many documents have
    each: coded by rank among the grades present, never an array sized by a grade's value (a grade of 10**12
    costs what a grade of 2 does)."""
    g = np.asarray(grades, dtype=np.int64)
    g = g[g >= 0]
    if not len(g):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    values, counts = np.unique(g, return_counts=True)
    return values, counts.astype(np.int64)


#: Up to this largest grade, the gains of ndcg and its kin are ordered among every grade from 0 as trec_eval
#: orders them (its comparison truncates differences of gains to integers, so with fractional gains the grades
#: no document has can move the others); past it, among the grades present only (the same order wherever
#: the gains' differences are whole numbers or at least 1).
DENSE_GRADES = 4096


@record
class Ranked:
    """One topic as trec_eval's measures see it."""

    rel: np.ndarray  # grade of each retrieved document in rank order (NOT_IN_POOL, UNJUDGED)
    grades: np.ndarray  # the distinct grades (>= 0) of the topic's judged documents, ascending
    counts: np.ndarray  # how many judged documents have each of ``grades``
    level: int  # grades at or above it are relevant (-l)
    num_docs: int = 0  # documents in the collection (-N)
    rounds: bool = False  # recall levels to counts as trec_eval 10.0 (lround(x R)), not 9.0.8 ((long) (x R + 0.9))

    def __post_init__(self):
        self.list = self.rel.tolist()
        self.num_ret = len(self.list)
        self.grade_list = self.grades.tolist()
        self.count_list = self.counts.tolist()
        self.num_rel = sum(n for g, n in zip(self.grade_list, self.count_list) if g >= self.level)
        judged = self.rel >= 0
        self.num_rel_ret = int(np.count_nonzero(judged & (self.rel >= self.level)))
        self.num_nonpool = int(np.count_nonzero(self.rel == NOT_IN_POOL))
        self.num_unjudged = int(np.count_nonzero(self.rel == UNJUDGED))
        present = [g for g, n in zip(self.grade_list, self.count_list) if n]
        self.num_rel_levels = present[-1] + 1 if present else 0  # trec_eval's: one past the largest grade
        self.is_rel = (self.rel >= self.level).tolist()

    def count(self, grade: int) -> int:
        """How many judged documents have ``grade``."""
        i = int(np.searchsorted(self.grades, grade))
        return self.count_list[i] if i < len(self.grade_list) and self.grade_list[i] == grade else 0

    @functools.cached_property
    def found(self) -> list[int]:
        """Relevant documents among the first k, for k = 0 .. num_ret."""
        return [0] + np.cumsum(self.rel >= self.level).tolist()


# -- counts ------------------------------------------------------------------------------------------------


def num_q(t: Ranked, p) -> list[float]:
    return [1.0]


def num_ret(t: Ranked, p) -> list[float]:
    return [float(t.num_ret)]


def num_rel(t: Ranked, p) -> list[float]:
    return [float(t.num_rel)]


def num_rel_ret(t: Ranked, p) -> list[float]:
    return [float(t.num_rel_ret)]


def num_nonrel_judged_ret(t: Ranked, p) -> list[float]:
    return [float(t.num_ret - t.num_nonpool - t.num_unjudged - t.num_rel_ret)]


# -- precision and recall ------------------------------------------------------------------------------------


def _ap_sum(t: Ranked, upto: int | None = None) -> tuple[float, int]:
    s, k = 0.0, 0
    for i, r in enumerate(t.is_rel[:upto]):
        if r:
            k += 1
            s += k / (i + 1)
    return s, k


def ap(t: Ranked, p) -> list[float]:
    s, k = _ap_sum(t)
    return [s / t.num_rel if k else 0.0]


def gm_ap(t: Ranked, p) -> list[float]:
    s, k = _ap_sum(t)
    if k:
        s = s / t.num_rel
    return [math.log(max(s, MIN_GEO_MEAN))]


def rprec(t: Ranked, p) -> list[float]:
    n = min(t.num_ret, t.num_rel)
    return [t.found[n] / t.num_rel if n else 0.0]


def recip_rank(t: Ranked, p) -> list[float]:
    for i, r in enumerate(t.is_rel):
        if r:
            return [1.0 / (i + 1)]
    return [0.0]


def precision(t: Ranked, cutoffs) -> list[float]:
    return [t.found[min(c, t.num_ret)] / c for c in cutoffs]


def recall(t: Ranked, cutoffs) -> list[float]:
    if t.num_rel == 0:
        return [0.0] * len(cutoffs)
    return [t.found[min(c, t.num_ret)] / t.num_rel for c in cutoffs]


def relative_precision(t: Ranked, cutoffs) -> list[float]:
    if t.num_rel == 0:
        return [0.0] * len(cutoffs)
    return [t.found[min(c, t.num_ret)] / min(c, t.num_rel) for c in cutoffs]


def success(t: Ranked, cutoffs) -> list[float]:
    return [1.0 if t.found[min(c, t.num_ret)] else 0.0 for c in cutoffs]


def ap_cut(t: Ranked, cutoffs) -> list[float]:
    if t.num_rel == 0:
        return [0.0] * len(cutoffs)
    return [_ap_sum(t, c)[0] / t.num_rel for c in cutoffs]


def _lround(x: float) -> int:
    """C's ``lround``: the nearest whole number, halves away from zero (``floor(x + 0.5)`` errs just below
    a half)."""
    whole = math.floor(x)
    up = x - whole >= 0.5 if x >= 0 else x - whole > 0.5
    return int(whole) + up


def _interpolated(t: Ranked, percents, each) -> None:
    """Interpolated precision (the best precision at or after a rank) where recall reaches each of
    ``percents`` of the relevant documents (as a count: ``int(p R + 0.9)``; trec_eval 10.0: ``lround(p R)``),
    walking the ranking from its end; ``each(k, value)`` gets cut-off ``k``'s value."""
    if t.rounds:
        cuts = [_lround(x * t.num_rel) for x in percents]
    else:
        cuts = [int(x * t.num_rel + 0.9) for x in percents]
    k = len(cuts) - 1
    while k >= 0 and cuts[k] > t.num_rel_ret:
        k -= 1
    best = _div(float(t.num_rel_ret), float(t.num_ret))
    left = t.num_rel_ret
    i = t.num_ret
    while i > 0 and left > 0:
        here = left / i
        if best < here:
            best = here
        if t.is_rel[i - 1]:
            while k >= 0 and left == cuts[k]:
                each(k, best)
                k -= 1
            left -= 1
        i -= 1
    while k >= 0:
        each(k, best)
        k -= 1


def iprec_at_recall(t: Ranked, percents) -> list[float]:
    out = [0.0] * len(percents)
    _interpolated(t, percents, out.__setitem__)
    return out


def eleven_point(t: Ranked, percents) -> list[float]:
    total = [0.0]

    def add(k, v):
        total[0] += v

    _interpolated(t, percents, add)
    return [total[0] / len(percents)]


def rprec_mult(t: Ranked, percents) -> list[float]:
    out = [0.0] * len(percents)
    cuts = [int(x * t.num_rel + 0.9) for x in percents]
    k = len(cuts) - 1
    while k >= 0 and cuts[k] > t.num_ret:
        out[k] = _div(float(t.num_rel_ret), float(cuts[k]))
        k -= 1
    left = t.num_rel_ret
    i = t.num_ret
    while i > 0 and left > 0:
        here = left / i
        while k >= 0 and i == cuts[k]:
            out[k] = here
            k -= 1
        if t.is_rel[i - 1]:
            left -= 1
        i -= 1
    return out


# -- judged-only measures --------------------------------------------------------------------------------------


def _bpref(t: Ranked) -> float:
    num_nonrel = sum(n for g, n in zip(t.grade_list, t.count_list) if g < t.level)
    nonrel = rel = 0
    total = 0.0
    for r in t.list:
        if r == NOT_IN_POOL or r == UNJUDGED:
            continue
        if 0 <= r < t.level:
            nonrel += 1
        else:
            rel += 1
            if nonrel > 0:
                total += 1.0 - _div(float(min(nonrel, t.num_rel)), float(min(num_nonrel, t.num_rel)))
            else:
                total += 1.0
    return total / t.num_rel if t.num_rel else total


def bpref(t: Ranked, p) -> list[float]:
    return [_bpref(t)]


def gm_bpref(t: Ranked, p) -> list[float]:
    return [math.log(max(_bpref(t), MIN_GEO_MEAN))]


def infap(t: Ranked, p) -> list[float]:
    nonrel = rel = unjudged = 0
    total = 0.0
    for j, r in enumerate(t.list):
        if r == NOT_IN_POOL:
            continue
        if r == UNJUDGED:
            unjudged += 1
            continue
        if 0 <= r < t.level:
            nonrel += 1
            continue
        rel += 1
        if j == 0:
            total += 1.0
        else:
            fj = float(j)
            total += 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel - 1 + nonrel + unjudged) / fj) * (
                (rel - 1 + _INFAP_EPSILON) / (rel - 1 + nonrel + 2 * _INFAP_EPSILON)
            )
    return [total / t.num_rel if t.num_rel else total]


# -- sets ------------------------------------------------------------------------------------------------------


def set_p(t: Ranked, p) -> list[float]:
    return [t.num_rel_ret / t.num_ret if t.num_ret else 0.0]


def set_relative_p(t: Ranked, p) -> list[float]:
    return [t.num_rel_ret / min(t.num_ret, t.num_rel) if t.num_ret and t.num_rel else 0.0]


def set_recall(t: Ranked, p) -> list[float]:
    return [t.num_rel_ret / t.num_rel if t.num_rel else 0.0]


def set_map(t: Ranked, p) -> list[float]:
    if not (t.num_ret and t.num_rel):
        return [0.0]
    return [(float(t.num_rel_ret) * float(t.num_rel_ret)) / (float(t.num_ret) * float(t.num_rel))]


def set_f(t: Ranked, params) -> list[float]:
    if not t.num_rel_ret:
        return [0.0]
    p_, r_ = t.num_rel_ret / t.num_ret, t.num_rel_ret / t.num_rel
    x = params[0]
    return [_div((x + 1.0) * p_ * r_, x * p_ + r_)]


def utility(t: Ranked, c) -> list[float]:
    return [
        c[0] * t.num_rel_ret
        + c[1] * (t.num_ret - t.num_rel_ret)
        + c[2] * (t.num_rel - t.num_rel_ret)
        + c[3] * (t.num_docs + t.num_rel_ret - t.num_ret - t.num_rel)
    ]


def relstring(t: Ranked, params) -> str:
    n = max(min(int(params[0]), t.num_ret), 0)

    def char(r):
        if r > 9:
            return ">"
        if r >= 0:
            return chr(48 + r)
        return "-" if r == NOT_IN_POOL else "." if r == UNJUDGED else "<"

    return "".join(map(char, t.list[:n]))


# -- gains -----------------------------------------------------------------------------------------------------


def _gains(t: Ranked, pairs) -> list[list]:
    """``[grade, gain, documents at that grade]`` sorted by gain, lowest first: a pair ``grade=gain`` given
    sets a grade's gain, every other grade judged gains itself; ordered as trec_eval orders them (its
    comparison truncates the difference of two gains to an integer)."""
    from ...io.cnumbers import c_atol

    gains = [[c_atol(name) or 0, value, 0, True] for name, value in pairs]
    dense = t.num_rel_levels <= DENSE_GRADES
    every = range(t.num_rel_levels) if dense else [g for g in t.grade_list if g < t.num_rel_levels]
    for g in every:
        n = t.count(g)
        for entry in gains:
            if entry[0] == g:
                entry[2] = n
                break
        else:
            gains.append([g, float(g), n, False])
    ordered = sorted(gains, key=functools.cmp_to_key(lambda a, b: int(a[1] - b[1])))
    # a grade no document has, and no pair names, gains nothing and is never ranked: it only took part in the order
    return [entry[:3] for entry in ordered if entry[2] or entry[3]]


def _gain_of(gains, r) -> float:
    for g, value, _ in gains:
        if g == r:
            return value
    return 0.0


class _Ideal:
    """The ideal ranking's gains, rank after rank: the highest gain for as many ranks as documents have it,
    then the next (grades with no document skipped)."""

    def __init__(self, gains):
        self.gains, self.level, self.count = gains, len(gains) - 1, 0
        self.gain = gains[-1][1] if gains else 0.0

    def step(self) -> float:
        self.count += 1
        while self.level >= 0 and self.count > self.gains[self.level][2]:
            self.count = 1
            self.level -= 1
            self.gain = self.gains[self.level][1] if self.level >= 0 else 0.0
        return self.gain


def ndcg(t: Ranked, pairs) -> list[float]:
    gains = _gains(t, pairs)
    ideal = _Ideal(gains)
    dcg = idcg = 0.0
    i = 0
    while i < t.num_ret and ideal.gain > 0.0:
        g = _gain_of(gains, t.list[i])
        if g != 0:
            dcg += g / math.log2(i + 2)
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    while i < t.num_ret:
        g = _gain_of(gains, t.list[i])
        if g != 0:
            dcg += g / math.log2(i + 2)
        i += 1
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    return [dcg / idcg if idcg > 0.0 else 0.0]


def ndcg_rel(t: Ranked, pairs) -> list[float]:
    gains = _gains(t, pairs)
    ideal = _Ideal(gains)
    dcg = idcg = total = 0.0
    found = rels = 0
    i = 0
    while i < t.num_ret and ideal.gain > 0.0:
        g = _gain_of(gains, t.list[i])
        if g != 0:
            dcg += g / math.log2(i + 2)
        if ideal.step() > 0.0:
            rels += 1
            idcg += ideal.gain / math.log2(i + 2)
        if g > 0:
            total += _div(dcg, idcg)
            found += 1
        i += 1
    while i < t.num_ret:
        g = _gain_of(gains, t.list[i])
        if g != 0:
            dcg += g / math.log2(i + 2)
        if g > 0:
            total += _div(dcg, idcg)
            found += 1
        i += 1
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            rels += 1
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    total += _div(float(rels - found) * dcg, idcg)
    return [_div(total, float(rels)) if total > 0.0 else 0.0]


def rndcg(t: Ranked, pairs) -> list[float]:
    gains = _gains(t, pairs)
    if t.num_rel == 0:
        return [0.0]
    ideal = _Ideal(gains)
    before = ideal.gain
    dcg = idcg = total = 0.0
    changes = 0
    i = 0
    while i < t.num_ret and ideal.gain > 0.0:
        g = _gain_of(gains, t.list[i])
        ideal.step()
        if before != ideal.gain:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            before = ideal.gain
        if g != 0:
            dcg += g / math.log2(i + 2)
        if ideal.gain > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    if i < t.num_ret:
        while i < t.num_ret:
            g = _gain_of(gains, t.list[i])
            if g != 0:
                dcg += g / math.log2(i + 2)
            i += 1
        if idcg > 0.0:
            total += dcg / idcg
            changes += 1
    while ideal.gain > 0.0:
        ideal.step()
        if before != ideal.gain:
            if idcg > 0.0:
                total += dcg / idcg
                changes += 1
            before = ideal.gain
        if ideal.gain > 0.0:
            idcg += ideal.gain / math.log2(i + 2)
        i += 1
    return [_div(total, float(changes))]


def g_measure(t: Ranked, pairs) -> list[float]:
    gains = _gains(t, pairs)
    ideal = _Ideal(gains)
    got = best = cost = value = 0.0
    i = 0
    while i < t.num_ret and ideal.gain > 0.0:
        g = _gain_of(gains, t.list[i])
        got += g
        ideal.step()
        if ideal.gain > 0.0:
            best += ideal.gain
        cost += ideal.gain if ideal.gain >= 1.0 else 1.0
        if g != 0:
            value += g / math.log2(2 + cost - got)
        i += 1
    while i < t.num_ret:
        g = _gain_of(gains, t.list[i])
        got += g
        cost += 1.0
        if g != 0:
            value += g / math.log2(2 + cost - got)
        i += 1
    while ideal.gain > 0.0:
        if ideal.step() > 0.0:
            best += ideal.gain
        i += 1
    return [value / best if best > 0.0 else 0.0]


def bin_g(t: Ranked, p) -> list[float]:
    total, k = 0.0, 0
    for i, r in enumerate(t.is_rel):
        if r:
            k += 1
            total += 1.0 / math.log2(3 + i - k)
    return [total / t.num_rel if k else 0.0]


def ndcg_cut(t: Ranked, cutoffs) -> list[float]:
    """nDCG at each cut-off, with the grades themselves as gains (parameters of gains are not read) and the
    ideal ranking from the judged grades above 0."""
    out = []
    dcg = 0.0
    k = 0
    for i, r in enumerate(t.list):
        if i == cutoffs[k]:
            out.append(dcg)
            k += 1
            if k == len(cutoffs):
                break
        if r > 0:
            dcg += float(r) / math.log2(i + 2)
    while len(out) < len(cutoffs):
        out.append(dcg)
    # the ideal ranking: the positive grades some document has, highest first, each as often as documents have it
    ideal = [(g, n) for g, n in zip(reversed(t.grade_list), reversed(t.count_list)) if g > 0 and n]
    at, count = 0, 0
    idcg = 0.0
    k = 0
    i = 0
    while True:
        count += 1
        while at < len(ideal) and count > ideal[at][1]:
            at += 1
            count = 1
        if at == len(ideal):
            break
        level = ideal[at][0]
        if i == cutoffs[k]:
            if idcg > 0.0:
                out[k] /= idcg
            k += 1
            if k == len(cutoffs):
                return out
        idcg += float(level) / math.log2(i + 2)
        i += 1
    while k < len(cutoffs):
        if idcg > 0.0:
            out[k] /= idcg
        k += 1
    return out


def yaap(t: Ranked, p) -> list[float]:
    s, _ = _ap_sum(t)
    return [math.log((1.0 + s) / (1.0 + float(t.num_rel) - s))]


# -- trec_eval 10.0's additions -------------------------------------------------------------------------------


def _persistence(pairs) -> float:
    return next((v for name, v in reversed(pairs) if name == "p"), 0.9)


def rbp(t: Ranked, pairs) -> list[float]:
    """Rank-biased precision (Moffat and Zobel 2008) as trec_eval 10.0 computes it: (1 - p) times the sum of
    gain_i p^(i-1), each grade's gain its value or the one given (``grade=gain``); when a gain lies outside
    [0, 1] every gain is rescaled by (gain - lo) / (hi - lo), lo and hi the smallest and largest gain with 0
    (trec_eval leaves its running minimum and maximum uninitialised; its build behaves as if they started at
    0, which is this rule).  Unjudged and unpooled documents gain 0."""
    from ...io.cnumbers import c_atol

    p = _persistence(pairs)
    given = [(c_atol(name), v) for name, v in pairs if name != "p"]
    gains = list(given)
    named = {g for g, _ in given}
    levels = t.num_rel_levels
    if levels <= DENSE_GRADES:
        gains += [(g, float(g)) for g in range(levels) if g not in named]
    else:  # the grades present, and the extremes of the levels no pair names (all that bounds and ranking need)
        lo = next(g for g in range(levels) if g not in named)
        hi = next(g for g in range(levels - 1, -1, -1) if g not in named)
        gains += [(g, float(g)) for g in sorted({lo, hi, *t.grade_list}) if 0 <= g < levels and g not in named]
    ordered = sorted(gains, key=functools.cmp_to_key(lambda a, b: int(a[1] - b[1])))  # trec_eval's qsort
    lo = min([0.0] + [v for _, v in ordered])
    hi = max([0.0] + [v for _, v in ordered])
    if lo < 0 or hi > 1:
        ordered = [(g, (v - lo) / (hi - lo)) for g, v in ordered]
    gain_of: dict = {}
    for g, v in ordered:
        gain_of.setdefault(g, v)
    total, weight = 0.0, 1.0
    for r in t.list:
        gain = gain_of.get(r, 0.0)
        if gain != 0:
            total += gain * weight
        weight *= p
    return [(1.0 - p) * total]


def rbp_resid(t: Ranked, pairs) -> list[float]:
    """RBP's residual as trec_eval 10.0 computes it: p^n (the ranks past the n retrieved) plus (1 - p) times
    the sum of p^(i-1) over the unjudged and unpooled documents; 0 when none is retrieved."""
    p = _persistence(pairs)
    total, weight, unjudged = 0.0, 1.0, 0
    for r in t.list:
        if r < 0:
            unjudged += 1
            total += weight
        weight *= p
    return [weight + (1 - p) * total if unjudged else 0.0]


def unjudged(t: Ranked, cutoffs) -> list[float]:
    """trec_eval 10.0's unj_k: unjudged and unpooled documents among the first k, over k."""
    seen = [0] + np.cumsum(t.rel < 0).tolist()
    return [seen[min(c, t.num_ret)] / c for c in cutoffs]
