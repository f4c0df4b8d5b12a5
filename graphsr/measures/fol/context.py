r"""In-context passage measures: Relevant in Context, T2I and Best in Context (inex-rules §2, §3.3).

Articles are ranked by their first appearance (each run of consecutive results
of one article is an article rank; the official tool refuses interleaved
articles).  Each retrieved article ``a_r`` at rank ``r`` gets a score ``S_r``:

* **RiC** -- the F-measure of its retrieved characters (the union of its
  passages) against its highlighted ones (Kamps et al.; ``beta``: see
  :mod:`graphsr.measures.fol.params` for INEX 2007-2010's default, 1 in the
  INEX 2006 definition)

  .. math:: F_\beta = \frac{(1 + \beta^2) P R}{\beta^2 P + R};

* **T2I** (tolerance to irrelevance, inex-rules §2) -- a reader goes through the
  article's retrieved passages in document order, then through the rest of
  the article in document order, and stops when ``T`` non-highlighted
  characters have been read (``T`` = ``irr``):
  ``S = rel / (rel + min(irr_read, T))``, the precision of what was read (0 if
  nothing was read).  With ``T = 0`` the score is 1 if the first passage read
  starts strictly inside a highlighted passage, else 0 (inex-rules §2);

* **BiC** -- with ``n`` characters, ``(n - |BEP - offset|)/n``
  for the article's result, 0 beyond ``n`` characters or if not relevant.

Non-relevant and unjudged articles score 0.  Then, with ``N_rel`` the
topic's relevant articles,

.. math:: gP[r] = \frac{1}{r} \sum_{i \le r} S_i, \qquad
          gR[r] = \frac{|\{i \le r : a_i\ \text{relevant}\}|}{N_{rel}}, \qquad
          AgP = \frac{1}{N_{rel}} \sum_{r:\ a_r\ \text{relevant}} gP[r],

``gP[k]``/``gR[k]`` for a topic with ``n < k`` article ranks are ``gP[n]``,
``gR[n]`` (the tool's rule; ``beyond="zero"`` instead divides by ``k``, as if
ranks past ``n`` scored 0), and the 11-point curve ``ircl_prn`` keeps, per
bucket ``floor(10 gR[r])``, the best ``gP[r]``, interpolated from above.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inputs import SPAN, PassageInputs, covered, highlighted, irrelevant_position
from .params import BEP_DISTANCE, BETA, IRR
from .rules import article_blocks

__all__ = ["ArticleRanking", "article_ranking", "generalized"]


@dataclass
class ArticleRanking:
    """Retrieved articles in rank order with their scores, and per-topic counts."""

    topic: np.ndarray  # topic of each article rank
    position: np.ndarray  # 0-based article rank within its topic
    score: np.ndarray  # S in [0, 1]
    relevant: np.ndarray  # the article has highlighted text
    counts: tuple  # per topic, in the order of the official tool's counts (graphsr.measures.fol.measures.COUNTS)
    extra_results: int  # BiC: results after an article's first (lenient only)


def _union(x: PassageInputs, starts: np.ndarray, ends: np.ndarray):
    """Disjoint retrieved segments of each article rank: (article, start, end), sorted."""
    article_of = np.repeat(np.arange(len(starts), dtype=np.int64), ends - starts)
    key = article_of * SPAN + x.res_start  # (article, start) in one integer: one sort (equal keys in any order)
    order = np.argsort(key)
    a = article_of[order]
    s = key[order]
    e = a * SPAN + np.maximum(x.res_end[order], x.res_start[order])
    if len(s) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    run_end = np.maximum.accumulate(e)
    seg = np.ones(len(s), dtype=bool)
    seg[1:] = (a[1:] != a[:-1]) | (s[1:] > run_end[:-1])
    seg_article = a[seg]
    seg_start = s[seg] - seg_article * SPAN
    seg_end = np.maximum.reduceat(e, np.flatnonzero(seg)) - seg_article * SPAN
    return seg_article, seg_start, seg_end


def _ric(x, row, seg_article, hl, retrieved, beta):
    m = len(row)
    found = np.bincount(seg_article, weights=hl, minlength=m).astype(float)
    total = np.where(row >= 0, x.row_rel_chars[np.maximum(row, 0)], 0).astype(float)
    p = np.divide(found, retrieved, out=np.zeros(m), where=retrieved > 0)
    r = np.divide(found, total, out=np.zeros(m), where=total > 0)
    b2 = beta * beta
    den = b2 * p + r
    return np.divide((1 + b2) * p * r, den, out=np.zeros(m), where=(den > 0) & (found > 0))


def _t2i(x, row, relevant, seg_article, seg_start, seg_end, tolerance: int) -> np.ndarray:
    """T2I scores (inex-rules §2) of the article ranks."""
    m = len(row)
    score = np.zeros(m)
    keep = relevant[seg_article]
    sa, ss, se = seg_article[keep], seg_start[keep], seg_end[keep]
    if len(sa) == 0:
        return score
    length = x.row_doc_len[row[sa]]
    if tolerance == 0:  # the tool's check fires on an empty lead-in: 1 iff reading starts inside a highlight
        first = np.r_[True, sa[1:] != sa[:-1]]
        a = sa[first]
        g = row[a] * SPAN + ss[first]
        gs, lengths, _ = x.pass_tables
        k = np.searchsorted(gs, g, side="right") - 1
        j = np.maximum(k, 0)
        score[a] = ((k >= 0) & (gs[j] < g) & (g < gs[j] + lengths[j])).astype(float)
        return score
    # the reading sequence: retrieved segments, then the gaps of [0, L) they leave, each in document order
    first = np.r_[True, sa[1:] != sa[:-1]]
    last = np.r_[sa[1:] != sa[:-1], True]
    prev_end = np.where(first, 0, np.r_[0, se[:-1]])
    gap_a = np.concatenate([sa, sa[last]])
    gap_s = np.concatenate([prev_end, se[last]])
    gap_e = np.concatenate([np.minimum(ss, length), length[last]])
    ok = gap_e > gap_s
    piece_a = np.concatenate([sa, gap_a[ok]])
    piece_s = np.concatenate([ss, gap_s[ok]])
    piece_e = np.concatenate([se, gap_e[ok]])
    phase = np.concatenate([np.zeros(len(sa), np.int64), np.ones(int(ok.sum()), np.int64)])
    order = np.lexsort((piece_s, phase, piece_a))
    piece_a, piece_s, piece_e = piece_a[order], piece_s[order], piece_e[order]
    prow = row[piece_a]
    rel = highlighted(x, prow, piece_s, piece_e)
    irr = (piece_e - piece_s) - rel
    counts = np.bincount(piece_a, minlength=m)
    first_piece = np.cumsum(counts) - counts
    cum_irr = np.cumsum(irr)
    irr_before = cum_irr - irr - np.concatenate([[0], cum_irr])[first_piece[piece_a]]
    cum_rel = np.cumsum(rel)
    rel_before = cum_rel - rel - np.concatenate([[0], cum_rel])[first_piece[piece_a]]
    stops = (irr_before < tolerance) & (irr_before + irr >= tolerance)  # the piece where irr reaches T
    total_rel = np.bincount(piece_a, weights=rel, minlength=m)
    total_irr = np.bincount(piece_a, weights=irr, minlength=m)
    read_rel = total_rel.copy()
    read_irr = np.minimum(total_irr, tolerance).astype(float)
    if stops.any():
        k = np.flatnonzero(stops)
        need = tolerance - irr_before[k]
        g0 = prow[k] * SPAN + piece_s[k]
        stop = irrelevant_position(x, g0 - covered(x, g0) + need)  # just after the T-th irrelevant character
        rel_in = covered(x, stop) - covered(x, g0)
        read_rel[piece_a[k]] = rel_before[k] + rel_in
    den = read_rel + read_irr
    score[:] = np.divide(read_rel, den, out=np.zeros(m), where=den > 0)
    return score


def article_ranking(
    x: PassageInputs,
    task: str = "ric",
    beta: float = BETA.default,
    irr: int = IRR.default,
    n: float = BEP_DISTANCE.default,
    lenient: bool = False,
) -> ArticleRanking:
    """Score each article rank for ``task`` (``ric``, ``t2i`` or ``bic``) and count per topic.

    Interleaving, overlap and repeated BiC results are checked by the caller
    (:func:`graphsr.measures.fol.rules.first_violation`); here an article rank
    is a run of consecutive results, its retrieved text the union of its
    passages, and BiC reads its first result.
    """
    T = len(x.topics)
    starts, ends = article_blocks(x)
    topic = x.res_topic[starts]
    counts_t = np.bincount(topic, minlength=T)
    position = np.arange(len(starts)) - (np.cumsum(counts_t) - counts_t)[topic]
    row = x.res_row[starts]
    relevant = x.relevant_row[starts]
    m = len(starts)
    if task == "bic":
        bep = x.row_bep[np.maximum(row, 0)] if m else np.zeros(0, np.int64)
        dist = np.abs(bep - x.res_start[starts]).astype(float)
        score = np.where(relevant & (bep >= 0) & (dist <= n), (n - dist) / n, 0.0)
        ret_size = rel_ret_size = np.zeros(T)
    else:
        seg_article, seg_start, seg_end = _union(x, starts, ends)
        hl = highlighted(x, row[seg_article], seg_start, seg_end).astype(float)
        retrieved = np.bincount(seg_article, weights=(seg_end - seg_start).astype(float), minlength=m)
        if task == "ric":
            score = _ric(x, row, seg_article, hl, retrieved, beta)
        else:
            score = _t2i(x, row, relevant, seg_article, seg_start, seg_end, int(irr))
        ret_size = np.bincount(topic, weights=retrieved, minlength=T)
        rel_ret_size = np.bincount(topic[seg_article] if m else np.zeros(0, np.int64), weights=hl, minlength=T)
    counts = (  # (in the order of the official tool's counts, graphsr.measures.fol.measures.COUNTS)
        counts_t.astype(float),
        x.topic_rel_articles.astype(float),
        np.bincount(topic[relevant], minlength=T).astype(float),
        np.asarray(ret_size, dtype=float),
        x.topic_rel_chars.astype(float),
        np.asarray(rel_ret_size, dtype=float),
    )
    extra = int(len(x.res_group) - m) if task == "bic" else 0
    return ArticleRanking(topic, position, score, relevant, counts, extra)


def generalized(
    ranking: ArticleRanking,
    rel_articles: np.ndarray,
    cutoffs: list[int],
    beyond: str = "last",
    agp_cutoff: int | None = None,
) -> dict:
    """``gP``/``gR`` at each cut-off (article ranks), ``AgP`` (over the first ``agp_cutoff`` ranks if
    given) and the 11-point interpolated curve per topic.

    Returns
    -------
    dict
        ``{"precision": (T, K), "recall": (T, K), "average": (T,), "ircl": (T, 11)}``: gP and gR at each
        cut-off, AgP, and the interpolated gP at 11 recall levels.
    """
    T = len(rel_articles)
    nrel = rel_articles.astype(float)
    counts = np.bincount(ranking.topic, minlength=T)
    first = np.cumsum(counts) - counts
    # running sums restarted at each topic, each summed from its topic's first article (as the tool adds
    # them up, so the last digits agree too)
    cum_score = np.empty(len(ranking.score))
    for a, b in zip(first.tolist(), (first + counts).tolist()):
        if b > a:
            cum_score[a:b] = np.cumsum(ranking.score[a:b])
    found_here = np.cumsum(ranking.relevant) - np.concatenate([[0], np.cumsum(ranking.relevant)])[first[ranking.topic]]
    # ranks are read up to the longest ranking (a cut-off past it reads the same articles), k divides as it is
    longest = int(counts.max()) if T else 0
    ks = np.array([min(k, longest) for k in cutoffs], dtype=np.int64)
    upto = first[:, None] + np.minimum(ks[None, :], counts[:, None]) - 1  # the last article counted
    has = counts[:, None] > 0
    at = np.maximum(upto, 0)
    total = np.where(has, cum_score[at] if len(cum_score) else 0.0, 0.0)
    found = np.where(has, found_here[at] if len(found_here) else 0, 0).astype(float)
    if beyond == "last":
        g_p = np.divide(total, np.minimum(ks[None, :], counts[:, None]), out=np.zeros(total.shape), where=has)
    else:
        g_p = total / np.array([float(k) for k in cutoffs])[None, :]
    g_r = np.divide(found, nrel[:, None], out=np.zeros_like(found), where=nrel[:, None] > 0)
    # gP and gR at every rank
    gp_here = cum_score / (ranking.position + 1)
    gr_here = np.divide(found_here, nrel[ranking.topic], out=np.zeros(len(found_here)), where=nrel[ranking.topic] > 0)
    counted = (
        ranking.relevant if agp_cutoff is None else ranking.relevant & (ranking.position < min(agp_cutoff, longest))
    )
    agp_sum = np.bincount(ranking.topic, weights=np.where(counted, gp_here, 0.0), minlength=T)
    agp = np.divide(agp_sum, nrel, out=np.zeros(T), where=nrel > 0)
    best = np.zeros((T, 11))
    bucket = np.minimum(np.floor(gr_here * 10.0).astype(np.int64), 10)
    np.maximum.at(best, (ranking.topic, bucket), gp_here)
    ircl = np.maximum.accumulate(best[:, ::-1], axis=1)[:, ::-1]
    return {"precision": g_p, "recall": g_r, "average": agp, "ircl": ircl}
