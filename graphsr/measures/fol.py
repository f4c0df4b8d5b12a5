r"""The official INEX passage measures (2007-2010), vectorised over a whole run.

Focused task (HiXEval; ESR paper Eq 15-17): down the ranking, precision and
recall in characters,

.. math:: P[r] = \frac{\sum_{i \le r} rel(p_i)}{\sum_{i \le r} |p_i|}, \qquad
          R[r] = \frac{\sum_{i \le r} rel(p_i)}{Trel(q)},

with ``rel(p)`` the highlighted characters inside passage ``p``.  As the
official tool (inex_eval) does: each rank's recall falls in the level bucket
``floor(100 R)``; each bucket keeps the best precision reached in it; the
interpolated precision at level ``j / 100`` is the best precision of the
buckets ``>= j``; ``iP[x]`` reads that curve (an ``x`` off the 0.01 grid takes
``max{P[r] : R[r] >= x}``) and ``MAiP`` is the mean of the 101 levels.
A passage overlapping a passage kept earlier in the ranking (same topic and
article) is an "impossible recall point": it is skipped -- it adds neither
characters nor a point -- and counted.

Relevant in Context (Kamps et al., ``ric-generalized-precision``): an
article's score is the F-measure of the characters retrieved in it (the
union of its passages) against its highlighted ones,

.. math:: F_\beta = \frac{(1 + \beta^2) P R}{\beta^2 P + R}

(``beta`` = 0.25 in INEX 2007-2010 and the official tool; 1 in the INEX
2006 definition).  Best in Context: an article's score is
``(n - |BEP - entry|) / n`` for a distance up to ``n`` characters (default
500), else 0, where the entry point is the offset of the article's first
result.  For both, with article ranks ``r`` (order of first appearance):

.. math:: gP[r] = \frac{\sum_{i \le r} s(a_i)}{r}, \qquad
          gR[r] = \frac{|\{i \le r : a_i\ \text{relevant}\}|}{Nrel(q)}, \qquad
          AgP = \frac{\sum_{r : a_r\ \text{relevant}} gP[r]}{Nrel(q)},

and MAgP is the mean of AgP.  A topic without highlighted text scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PassageInputs", "highlighted", "focused_curve", "interpolated_precision", "article_scores",
           "generalized"]

_SPAN = np.int64(1) << 40  # global coordinate: row * _SPAN + offset


@dataclass(eq=False)
class PassageInputs:
    """One passage run aligned with FOL assessments.

    Results are ordered by topic, then rank.  ``res_group`` numbers the
    (topic, article) pairs of the run; ``res_row`` is the assessment row of
    the result's article (-1 if not judged).

    Parameters
    ----------
    topics : list of str
        The evaluated topics; ``res_topic`` and the per-topic arrays index it.
    res_topic, res_group, res_row, res_start, res_end : arrays of int, shape (N,)
    row_rel_chars, row_bep : arrays of int, shape (J,)
        Highlighted characters and best entry point (-1: none) per assessment row.
    pass_row, pass_start, pass_end : arrays of int, shape (P,)
        Highlighted passages, sorted by (row, start), disjoint.
    topic_rel_chars, topic_rel_articles : arrays of int, shape (T,)
        Highlighted characters and relevant articles of each topic.
    """

    topics: list
    res_topic: np.ndarray
    res_group: np.ndarray
    res_row: np.ndarray
    res_start: np.ndarray
    res_end: np.ndarray
    row_rel_chars: np.ndarray
    row_bep: np.ndarray
    pass_row: np.ndarray
    pass_start: np.ndarray
    pass_end: np.ndarray
    topic_rel_chars: np.ndarray
    topic_rel_articles: np.ndarray


def highlighted(x: PassageInputs, row: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Highlighted characters within ``[start, end)`` of assessment rows ``row`` (0 where ``row < 0``).

    Examples
    --------
    >>> x = PassageInputs([], *[np.zeros(0, int)] * 5, np.array([30]), np.array([10]), np.array([0, 0]),
    ...                   np.array([10, 60]), np.array([20, 80]), np.zeros(1, int), np.zeros(1, int))
    >>> highlighted(x, np.array([0, 0, -1]), np.array([0, 15, 0]), np.array([100, 65, 100])).tolist()
    [30, 10, 0]
    """
    row, start, end = (np.asarray(a, dtype=np.int64) for a in (row, start, end))
    if len(x.pass_row) == 0 or len(row) == 0:
        return np.zeros(len(row), dtype=np.int64)
    gs = x.pass_row * _SPAN + x.pass_start
    lengths = x.pass_end - x.pass_start
    before = np.concatenate([[0], np.cumsum(lengths)])  # characters of the passages before each one

    def covered(y: np.ndarray) -> np.ndarray:  # highlighted characters at global coordinates < y
        i = np.searchsorted(gs, y, side="right") - 1
        inside = np.clip(y - gs[np.maximum(i, 0)], 0, lengths[np.maximum(i, 0)])
        return np.where(i >= 0, before[np.maximum(i, 0)] + inside, 0)

    base = np.maximum(row, 0) * _SPAN
    end = np.maximum(end, start)
    return np.where(row >= 0, covered(base + end) - covered(base + start), 0)


def _overlapping_earlier(x: PassageInputs) -> np.ndarray:
    """Results overlapping a result of the same topic and article kept earlier in the ranking."""
    n = len(x.res_group)
    skip = np.zeros(n, dtype=bool)
    if n < 2:
        return skip
    # groups whose passages overlap at all: sorted by start, a start before the running end
    order = np.lexsort((x.res_start, x.res_group))
    g = x.res_group[order]
    gs, ge = g * _SPAN + x.res_start[order], g * _SPAN + np.maximum(x.res_end[order], x.res_start[order])
    run_end = np.maximum.accumulate(ge)
    nonempty = ge > gs
    clash = np.zeros(n, dtype=bool)
    clash[1:] = (g[1:] == g[:-1]) & (gs[1:] < run_end[:-1]) & nonempty[1:]
    suspects = np.unique(g[clash])
    if len(suspects) == 0:
        return skip
    members = np.flatnonzero(np.isin(x.res_group, suspects))  # in rank order (results are)
    members = members[np.argsort(x.res_group[members], kind="stable")]  # by group, rank order within
    g = x.res_group[members]
    sizes = np.diff(np.flatnonzero(np.r_[True, g[1:] != g[:-1], True]))
    if int((sizes * (sizes - 1) // 2).sum()) > 20_000_000:  # huge overlapping groups: walk them
        return _walk_overlaps(x, members, skip)
    # every pair (earlier i, later j) of a group whose passages overlap
    within = np.arange(len(members)) - np.repeat(np.cumsum(sizes) - sizes, sizes)  # position in the group
    pj = np.repeat(np.arange(len(members)), within)
    pi = pj - (np.arange(len(pj)) - np.repeat(np.cumsum(within) - within, within)) - 1
    a, b = x.res_start[members], np.maximum(x.res_end[members], x.res_start[members])
    hit = np.maximum(a[pi], a[pj]) < np.minimum(b[pi], b[pj])
    pi, pj = pi[hit], pj[hit]
    # j is skipped iff it overlaps an earlier kept i: a fixed point reached in at most (longest chain) steps
    skipped = np.zeros(len(members), dtype=bool)
    for _ in range(int(sizes.max()) + 1):
        now = np.zeros(len(members), dtype=bool)
        now[pj[~skipped[pi]]] = True
        if np.array_equal(now, skipped):
            break
        skipped = now
    skip[members[skipped]] = True
    return skip


def _walk_overlaps(x: PassageInputs, members: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """The sequential rule of :func:`_overlapping_earlier`, for very large overlapping groups."""
    kept: dict[int, list[tuple[int, int]]] = {}
    for i in np.sort(members).tolist():
        a, b = int(x.res_start[i]), int(x.res_end[i])
        spans = kept.setdefault(int(x.res_group[i]), [])
        if any(max(a, s) < min(b, e) for s, e in spans):
            skip[i] = True
        else:
            spans.append((a, b))
    return skip


@dataclass
class FocusedCurve:
    """Per-topic interpolated precision at the 101 recall levels, and the raw points."""

    levels: np.ndarray      # (T, 101) interpolated precision at j / 100
    topic: np.ndarray       # topic of each kept result
    precision: np.ndarray   # P[r] after each kept result
    recall: np.ndarray      # R[r] after each kept result
    impossible: int         # results skipped as impossible recall points


def focused_curve(x: PassageInputs) -> FocusedCurve:
    """Character precision/recall down each topic's ranking and the official interpolated curve."""
    T = len(x.topics)
    skip = _overlapping_earlier(x)
    keep = ~skip
    topic = x.res_topic[keep]
    rel = highlighted(x, x.res_row[keep], x.res_start[keep], x.res_end[keep]).astype(float)
    size = np.maximum(x.res_end[keep] - x.res_start[keep], 0).astype(float)
    # cumulative sums restarted at each topic
    counts = np.bincount(topic, minlength=T)
    first = np.cumsum(counts) - counts
    cr, cs = np.cumsum(rel), np.cumsum(size)
    base_r = np.concatenate([[0.0], cr])[first[topic]]
    base_s = np.concatenate([[0.0], cs])[first[topic]]
    cum_rel, cum_size = cr - base_r, cs - base_s
    precision = np.divide(cum_rel, cum_size, out=np.zeros_like(cum_rel), where=cum_size > 0)
    trel = x.topic_rel_chars[topic].astype(float)
    recall = np.divide(cum_rel, trel, out=np.zeros_like(cum_rel), where=trel > 0)
    bucket = np.minimum(np.floor(recall * 100.0).astype(np.int64), 100)
    best = np.zeros((T, 101))
    judged = trel > 0
    np.maximum.at(best, (topic[judged], bucket[judged]), precision[judged])
    levels = np.maximum.accumulate(best[:, ::-1], axis=1)[:, ::-1]
    return FocusedCurve(levels, topic, precision, recall, int(skip.sum()))


def interpolated_precision(curve: FocusedCurve, x: float, T: int) -> np.ndarray:
    """``iP[x]`` per topic: the curve at ``x`` on the 0.01 grid, else ``max{P[r] : R[r] >= x}``."""
    j = round(x * 100)
    if abs(x * 100 - j) < 1e-9 and 0 <= j <= 100:
        return curve.levels[:, j].copy()
    out = np.zeros(T)
    ok = curve.recall >= x
    np.maximum.at(out, curve.topic[ok], curve.precision[ok])
    return out


@dataclass
class ArticleRanking:
    """Articles of each topic in rank order with their scores (RiC or BiC)."""

    topic: np.ndarray      # topic of each retrieved article
    position: np.ndarray   # 0-based article rank within its topic
    score: np.ndarray      # s(a) in [0, 1]
    relevant: np.ndarray   # article judged relevant (has highlighted text)
    extra_results: int     # BiC: results after an article's first (not used)


def _articles(x: PassageInputs):
    """Group results into articles (order of first appearance), rejecting interleaved articles."""
    n = len(x.res_group)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = x.res_group[1:] != x.res_group[:-1]
    starts = np.flatnonzero(new)  # first result of each contiguous block
    groups = x.res_group[starts]
    _, first_block, inverse = np.unique(groups, return_index=True, return_inverse=True)
    returns = np.flatnonzero(first_block[inverse.ravel()] < np.arange(len(groups)))  # blocks of an earlier article
    if len(returns):
        raise InterleavedArticles(int(starts[returns[0]]))
    return starts, np.append(starts[1:], n)


class InterleavedArticles(ValueError):
    """A run lists results of an article, then another article's, then the first's again."""

    def __init__(self, result: int):
        self.result = result
        super().__init__(f"result {result} returns to an article ranked earlier")


def article_scores(x: PassageInputs, task: str = "ric", beta: float = 0.25, n: float = 500.0) -> ArticleRanking:
    """Score each retrieved article (RiC F-measure or BiC entry-point distance).

    Raises
    ------
    InterleavedArticles
        If an article's results are not consecutive in its topic's ranking.
    """
    starts, ends = _articles(x)
    topic = x.res_topic[starts]
    counts = np.bincount(topic, minlength=len(x.topics))
    position = np.arange(len(starts)) - (np.cumsum(counts) - counts)[topic]
    row = x.res_row[starts]
    relevant = (row >= 0) & (x.row_rel_chars[np.maximum(row, 0)] > 0)
    if task == "bic":
        bep = x.row_bep[np.maximum(row, 0)]
        dist = np.abs(bep - x.res_start[starts]).astype(float)
        score = np.where(relevant & (bep >= 0) & (dist <= n), (n - dist) / n, 0.0)
        return ArticleRanking(topic, position, score, relevant, int(len(x.res_group) - len(starts)))
    # RiC: the union of each article's passages, then F_beta of its characters
    article_of = np.repeat(np.arange(len(starts)), ends - starts)
    order = np.lexsort((x.res_start, article_of))
    a = article_of[order]
    s = a * _SPAN + x.res_start[order]
    e = a * _SPAN + np.maximum(x.res_end[order], x.res_start[order])
    run_end = np.maximum.accumulate(e)
    seg = np.ones(len(s), dtype=bool)
    seg[1:] = (a[1:] != a[:-1]) | (s[1:] > run_end[:-1])  # a new disjoint segment of retrieved text
    seg_start = s[seg]
    seg_end = np.maximum.reduceat(e, np.flatnonzero(seg))
    seg_article = a[seg]
    retrieved = np.bincount(seg_article, weights=(seg_end - seg_start).astype(float),
                            minlength=len(starts)).astype(float)
    local_start = seg_start - seg_article * _SPAN
    local_end = seg_end - seg_article * _SPAN
    hl = highlighted(x, row[seg_article], local_start, local_end)
    found = np.bincount(seg_article, weights=hl.astype(float), minlength=len(starts)).astype(float)
    total = np.where(row >= 0, x.row_rel_chars[np.maximum(row, 0)], 0).astype(float)
    p = np.divide(found, retrieved, out=np.zeros_like(found), where=retrieved > 0)
    r = np.divide(found, total, out=np.zeros_like(found), where=total > 0)
    b2 = beta * beta
    den = b2 * p + r
    score = np.divide((1 + b2) * p * r, den, out=np.zeros_like(p), where=(den > 0) & (found > 0))
    return ArticleRanking(topic, position, score, relevant, 0)


def generalized(ranking: ArticleRanking, rel_articles: np.ndarray, cutoffs: list[int],
                agp_cutoff: int | None = None) -> dict:
    """``gP``/``gR`` at each cut-off (article ranks) and ``AgP`` per topic (over the first
    ``agp_cutoff`` articles if given).

    Returns
    -------
    dict
        ``{"gP": (T, K), "gR": (T, K), "AgP": (T,)}``.
    """
    T = len(rel_articles)
    nrel = rel_articles.astype(float)
    counts = np.bincount(ranking.topic, minlength=T)
    first = np.cumsum(counts) - counts
    cs = np.concatenate([[0.0], np.cumsum(ranking.score)])
    cr = np.concatenate([[0.0], np.cumsum(ranking.relevant.astype(float))])
    ks = np.asarray(cutoffs, dtype=np.int64)
    upto = first[:, None] + np.minimum(ks[None, :], counts[:, None])  # index after the last article counted
    g_p = (cs[upto] - cs[first][:, None]) / ks[None, :]
    found = cr[upto] - cr[first][:, None]
    g_r = np.divide(found, nrel[:, None], out=np.zeros_like(found), where=nrel[:, None] > 0)
    # AgP: gP at the ranks of relevant articles
    cum_here = cs[1:] - cs[first[ranking.topic]]  # sum of scores down to each article
    gp_here = cum_here / (ranking.position + 1)
    counted = ranking.relevant if agp_cutoff is None else ranking.relevant & (ranking.position < agp_cutoff)
    agp_sum = np.bincount(ranking.topic, weights=np.where(counted, gp_here, 0.0), minlength=T)
    agp = np.divide(agp_sum, nrel, out=np.zeros(T), where=nrel > 0)
    return {"gP": g_p, "gR": g_r, "AgP": agp}
