"""trec_eval 9.0.8's preference measures of one topic (``-R prefs``, ``-R qrels_prefs``), as trec_eval counts them.

Preferences come in judgment groups (JGs), each of sub-groups (JSGs); within a JSG, a document with a higher
``rel_level`` is preferred to one with a lower level.  A JG of one JSG keeps its preferences as equivalence
classes of equal level (every pair of classes ordered); a JG of several keeps a preference matrix, closed under
transitivity.  Each judged document gets an internal rank: the judged documents the run retrieves first, in
the run's order (score descending, ties by document name *ascending*, as trec_eval's preference code orders
them), then the others in name order.  A preference ``a > b`` is *fulfilled* when ``a`` comes first; it is
counted as *retrieved* (both retrieved), *implied* (one retrieved) or *not occurring* (neither), and the
measures are ratios of these counts, per JG or over the topic (``prefs_pair``: over document pairs, from the
counts summed over the JGs).

Written from trec_eval's documented definitions and checked against its output (tests/data/trec_eval).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["PrefsError", "TopicPrefs", "topic_prefs"]


class PrefsError(Exception):
    """Preferences trec_eval cannot count: ``trec_line`` its message."""

    def __init__(self, message: str, trec_line: str):
        super().__init__(message)
        self.message, self.trec_line = message, trec_line


@dataclass
class _Group:
    """One judgment group: its counts, and what the R-nonrel measures recount from (its classes, or its matrix
    and levels)."""

    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    poss_not: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    classes: list = field(default_factory=list)  # [(level, [internal ranks ascending])], levels descending
    pool: list = field(default_factory=list)  # the ranks of the topic's class groups from this one's last class on
    matrix: np.ndarray | None = None
    levels: np.ndarray | None = None  # per internal rank: its level in this group (-1: not judged in it)


@dataclass
class TopicPrefs:
    groups: list
    num_judged: int
    num_judged_ret: int
    counts: np.ndarray  # counts[i, j]: groups preferring internal rank i to j


def topic_prefs(docs, lines, max_docs: int | None, single: bool = True) -> TopicPrefs:
    """The preference counts of one topic: ``docs`` its retrieved ``(docno, score)`` (scores compared in single
    precision, as trec_eval 9.0.8 does; ``single=False``: double, as 10.0), ``lines`` its ``(jg, jsg, level,
    docno)`` judgments.

    Raises
    ------
    PrefsError
        For a document retrieved twice (after ``max_docs``), judged at two levels in one sub-group, judged 0 and
        above 0 in one group, or preferences that contradict each other.
    """
    ranked = sorted(docs, key=lambda d: (-float(np.float32(d[1]) if single else d[1]), d[0]))
    if max_docs is not None:
        ranked = ranked[: max(max_docs, 0)]
    names = sorted(d for d, _ in ranked)
    for a, b in zip(names, names[1:]):
        if a == b:
            raise PrefsError(
                f"document {a.decode(errors='replace')} is retrieved twice",
                f"trec_eval.form_prefs_counts: duplicate docs {a.decode(errors='replace')}",
            )
    judged = {d for _, _, _, d in lines}
    rank: dict = {}
    for d, _ in ranked:
        if d in judged:
            rank[d] = len(rank)
    njr = len(rank)
    for d in sorted(judged - rank.keys()):
        rank[d] = len(rank)
    n = len(rank)
    order = sorted(((jg, jsg, -level, rank[d], level, d) for jg, jsg, level, d in lines))
    counts = np.zeros((n, n), dtype=np.int64)
    groups = []
    pool: list = []  # every class group's ranks, one group after another (trec_eval keeps them so)
    starts: dict = {}
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and order[end][0] == order[start][0]:
            end += 1
        part = order[start:end]
        if len({p[1] for p in part}) > 1:
            groups.append(_matrix_group(part, n, njr, counts))
        else:
            groups.append(_class_group(part, njr, counts))
            g = groups[-1]
            starts[len(groups) - 1] = len(pool) + sum(len(r) for _, r in g.classes[:-1])
            pool += [r for _, ranks in g.classes for r in ranks]
        start = end
    for k, at in starts.items():  # (read past a group's last class, as trec_eval reads its pool)
        groups[k].pool = pool[at:]
    return TopicPrefs(groups, n, njr, counts)


def _class_group(part, njr: int, counts: np.ndarray) -> _Group:
    g = _Group()
    for _, _, _, r, level, _ in part:
        if g.classes and g.classes[-1][0] == level:
            g.classes[-1][1].append(r)
        else:
            g.classes.append((level, [r]))
    for k, (level, ranks) in enumerate(g.classes):
        got = sum(1 for r in ranks if r < njr)
        if level > 0.0:
            g.num_rel_ret += got
            g.num_rel += len(ranks)
        else:
            g.num_nonrel_ret += got
            g.num_nonrel += len(ranks)
        for _, lower in g.classes[k + 1 :]:
            for r1 in ranks:
                for r2 in lower:
                    counts[r1, r2] += 1
                    if r1 == r2:
                        raise PrefsError(
                            "a document is judged at two levels in one sub-group",
                            f"trec_eval.form_prefs_counts: Internal docid {r1} occurs with different "
                            "rel_level in same jsg",
                        )
                    if r1 < r2:
                        if r2 < njr:
                            g.ful_ret += 1
                        elif r1 < njr:
                            g.ful_imp += 1
                        else:
                            g.poss_not += 1
                    elif r1 < njr:
                        g.poss_ret += 1
                    elif r2 < njr:
                        g.poss_imp += 1
                    else:
                        g.poss_not += 1
    g.poss_ret += g.ful_ret
    g.poss_imp += g.ful_imp
    return g


def _matrix_group(part, n: int, njr: int, counts: np.ndarray) -> _Group:
    g = _Group()
    levels = np.full(n, -1.0)
    a = np.zeros((n, n), dtype=bool)
    for i, (_, jsg, _, r, level, d) in enumerate(part):
        if (levels[r] > 0.0 and level == 0.0) or (levels[r] == 0.0 and level > 0.0):
            name = d.decode(errors="replace")
            raise PrefsError(
                f"document {name} is judged 0 and above 0 in one group",
                f"trec_eval.form_prefs_counts: doc '{name}' has both 0 and non-0 rel_level assigned",
            )
        levels[r] = level
        j = i + 1
        while j < len(part) and part[j][1] == jsg and part[j][4] == level:
            j += 1
        while j < len(part) and part[j][1] == jsg:
            a[r, part[j][3]] = True
            j += 1
    np.fill_diagonal(a, True)
    for k in range(n):  # transitive closure
        a |= a[:, k : k + 1] & a[k : k + 1, :]
    np.fill_diagonal(a, False)
    if (a & a.T).any():
        i, j = (int(x) for x in np.argwhere(a & a.T)[0])
        raise PrefsError(
            "the preferences of a judgment group contradict each other",
            f"trec_eval.form_prefs_counts: Pref inconsistency found\n      internal rank {i} and "
            f"internal rank {j} are conflicted",
        )
    ret = levels[:njr]
    g.num_rel_ret, g.num_nonrel_ret = int((ret > 0.0).sum()), int((ret == 0.0).sum())
    g.num_rel, g.num_nonrel = int((levels > 0.0).sum()), int((levels == 0.0).sum())
    counts += a
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    g.poss_ret = int((a[:njr, :njr] & ~upper[:njr, :njr]).sum())
    g.ful_ret = int((a[:njr, :njr] & upper[:njr, :njr]).sum())
    g.ful_imp = int(a[:njr, njr:].sum())
    g.poss_imp = int(a[njr:, :njr].sum())
    g.poss_not = int(a[njr:, njr:].sum())
    g.poss_ret += g.ful_ret
    g.poss_imp += g.ful_imp
    g.matrix, g.levels = a, levels
    return g


def _div(a: float, b: float) -> float:
    return a / b if b else (-np.nan if a == 0 else np.copysign(np.inf, a))


def _ratio(t: TopicPrefs, ful, poss) -> list[float]:
    f = sum(ful(g) for g in t.groups)
    p = sum(poss(g) for g in t.groups)
    return [f / p if p else 0.0]


def _per_group(t: TopicPrefs, ratio) -> list[float]:
    total = 0.0
    for g in t.groups:
        total += ratio(g)
    return [total / len(t.groups) if total > 0.0 else 0.0]


def _pairs(t: TopicPrefs, regions: str) -> list[float]:
    c, njr, n = t.counts, t.num_judged_ret, t.num_judged
    terms: list[float] = []
    pairs = 0
    blocks = [(0, njr, lambda i: (i + 1, njr))]
    if regions in ("imp", "all"):
        blocks.append((0, njr, lambda i: (njr, n)))
    for lo, hi, cols in blocks:
        for i in range(lo, hi):
            a, b = cols(i)
            if b <= a:
                continue
            fwd, back = c[i, a:b], c[a:b, i]
            some = (fwd > 0) | (back > 0)
            pairs += int(some.sum())
            terms += (fwd[some] / (fwd[some] + back[some])).tolist()
    if regions == "all":
        rest = c[njr:, njr:]
        pairs += int(np.triu((rest > 0) | (rest.T > 0), 1).sum())
    total = 0.0
    for x in terms:  # one term at a time, in trec_eval's order
        total += x
    return [total / pairs if pairs else 0.0]


def _recount(g: _Group, njr: int, retrieved_only: bool) -> tuple[int, int]:
    """The counts of a group whose non-relevant documents outnumber its relevant ones, keeping only as many
    non-relevant documents as there are relevant ones (``retrieved_only``: among the retrieved)."""
    ful = poss = 0
    keep = g.num_rel_ret if retrieved_only else g.num_rel
    if g.classes:
        last = g.pool[:keep]  # the last class's first ranks (trec_eval reads on past it, into the next group's)
        for k, (_, ranks) in enumerate(g.classes):
            for _, lower in g.classes[k + 1 : len(g.classes) - 1]:
                for r1 in _prefix(ranks, njr, retrieved_only):
                    for r2 in _prefix(lower, njr, retrieved_only):
                        if r1 < r2 and (retrieved_only or r1 < njr):
                            ful += 1
                        else:
                            poss += 1
        for _, ranks in g.classes:
            for r1 in _prefix(ranks, njr, retrieved_only):
                for r2 in _prefix(last, njr, retrieved_only):
                    if r1 < r2 and (retrieved_only or r1 < njr):
                        ful += 1
                    else:
                        poss += 1
        return ful, poss + ful
    a, levels = g.matrix, g.levels
    n = len(levels)
    seen = 0
    cut = n
    for i in range(njr if retrieved_only else n):
        if levels[i] == 0.0:
            seen += 1
            if seen == g.num_rel + 1:
                cut = i
                break
    else:
        cut = njr if retrieved_only else n
    alive = ~((np.arange(n) >= cut) & (levels == 0.0))
    m = a & alive[:, None] & alive[None, :]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    poss += int((m[:njr, :njr] & ~upper[:njr, :njr]).sum())
    ful += int((m[:njr, :njr] & upper[:njr, :njr]).sum())
    if not retrieved_only:
        ful += int(m[:njr, njr:].sum())
        poss += int(m[njr:, :njr].sum()) + int(m[njr:, njr:].sum())
    return ful, poss + ful


def _prefix(ranks, njr: int, retrieved_only: bool):
    """A class's ranks, stopping at the first unretrieved one when only retrieved documents count."""
    if not retrieved_only:
        return ranks
    out = []
    for r in ranks:
        if r >= njr:
            break
        out.append(r)
    return out


def _rnonrel(t: TopicPrefs, retrieved_only: bool) -> list[float]:
    total = 0.0
    for g in t.groups:
        r, n = (g.num_rel_ret, g.num_nonrel_ret) if retrieved_only else (g.num_rel, g.num_nonrel)
        if r >= n:
            if retrieved_only:
                ful = g.ful_ret + g.num_rel_ret * (r - n)
                poss = g.poss_ret + g.num_rel * (r - n)
            else:
                ful = g.ful_ret + g.ful_imp + g.num_rel_ret * (r - n)
                poss = g.poss_ret + g.poss_imp + g.poss_not + g.num_rel * (r - n)
        else:
            ful, poss = _recount(g, t.num_judged_ret, retrieved_only)
        total += _div(float(ful), float(poss))
    return [total / len(t.groups) if total > 0.0 else 0.0]


# The preference measures: one topic's values from its :class:`TopicPrefs` (each declared, with its trec_eval
# name, in graphsr.measures.trec_eval.declared).


def possible(t: TopicPrefs) -> list[float]:
    return [float(sum(g.poss_ret + g.poss_imp + g.poss_not for g in t.groups))]


def fulfilled(t: TopicPrefs) -> list[float]:
    return [float(sum(g.ful_ret + g.ful_imp for g in t.groups))]


def fulfilled_retrieved(t: TopicPrefs) -> list[float]:
    return [float(sum(g.ful_ret for g in t.groups))]


def simple(t: TopicPrefs) -> list[float]:
    return _ratio(t, lambda g: g.ful_ret + g.ful_imp, lambda g: g.poss_ret + g.poss_imp + g.poss_not)


def pair(t: TopicPrefs) -> list[float]:
    return _pairs(t, "all")


def per_group(t: TopicPrefs) -> list[float]:
    return _per_group(t, lambda g: _div_or_0(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.poss_not))


def per_group_rnonrel(t: TopicPrefs) -> list[float]:
    return _rnonrel(t, False)


def simple_retrieved(t: TopicPrefs) -> list[float]:
    return _ratio(t, lambda g: g.ful_ret, lambda g: g.poss_ret)


def pair_retrieved(t: TopicPrefs) -> list[float]:
    return _pairs(t, "ret")


def per_group_retrieved(t: TopicPrefs) -> list[float]:
    return _per_group(t, lambda g: _div_or_0(g.ful_ret, g.poss_ret))


def per_group_rnonrel_retrieved(t: TopicPrefs) -> list[float]:
    return _rnonrel(t, True)


def simple_implied(t: TopicPrefs) -> list[float]:
    return _ratio(t, lambda g: g.ful_ret + g.ful_imp, lambda g: g.poss_ret + g.poss_imp)


def pair_implied(t: TopicPrefs) -> list[float]:
    return _pairs(t, "imp")


def per_group_implied(t: TopicPrefs) -> list[float]:
    return _per_group(t, lambda g: _div_or_0(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp))


def _div_or_0(a: int, b: int) -> float:
    """``a / b`` where ``b`` is not 0 (a group that adds nothing otherwise)."""
    return a / b if b else 0.0
