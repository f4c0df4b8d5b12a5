"""Figures of a score table (matplotlib, drawn off-screen); each says in its title what it averages.

Every function takes a :class:`~graphsr.analysis.scores.ScoreTable` and
returns a matplotlib Figure, or None when the table has nothing to draw
(e.g. no measure at several cut-offs).  :func:`figure_bytes` renders one as
PNG, SVG or PDF.
"""

from __future__ import annotations

import io

import numpy as np

from .figure_layout import DPI, PAGE_PX, _fit, _place_labels, _wrap_texts, layout_problems, text_colour
from .scores import curve_families, cutoff_families

#: The widest a figure is drawn (inches): as wide as the report's page shows one, so that none is shown smaller.
PAGE_IN = PAGE_PX / DPI

__all__ = [
    "means_figure",
    "family_means_figure",
    "per_topic_figure",
    "cutoff_figure",
    "curve_figure",
    "agreement_figure",
    "agreement_matrix_figure",
    "figure_bytes",
    "cutoff_families",
    "curve_families",
    "summary_figure",
    "esr_curve_figure",
    "rank_change_figure",
    "coverage_figure",
    "fixed_labels",
    "measure_families",
    "layout_problems",
    "text_colour",
]


def _plt():
    from .._extras import need

    matplotlib = need("matplotlib", "drawing figures")
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def _short(run: str) -> str:
    """A run file's name without its directories and suffix; other run names as they are."""
    for suffix in (".run.gz", ".run", ".txt", ".gz"):
        if run.endswith(suffix):
            return run.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(suffix)
    return run


#: Run labels longer than this become R1, R2, ... with a key under the figure.
MAX_LABEL = 18


#: Labels every figure uses while set (:func:`fixed_labels`): one key for a whole report.
_FIXED: list = []


class fixed_labels:
    """``with fixed_labels(labels):`` every figure drawn inside labels the runs as ``labels`` (run -> label)
    and writes no key under itself (the page that shows the figures names the runs once)."""

    def __init__(self, labels: dict):
        self.labels = labels

    def __enter__(self):
        _FIXED.append(self.labels)
        return self

    def __exit__(self, *exc):
        _FIXED.pop()


def run_labels(runs) -> tuple[dict, str | None]:
    """Each run's label in a figure (its name, a run file's without directories and suffix) and the key under
    the figure: when a name is longer than :data:`MAX_LABEL`, the runs are labelled R1, R2, ... and the key
    names them (inside :class:`fixed_labels`, its labels and no key).

    >>> run_labels(["bm25", "dir/lm.run"])
    ({'bm25': 'bm25', 'dir/lm.run': 'lm'}, None)
    >>> run_labels(["bm25", "a-very-long-run-identifier-2010"])[1]
    'R1 = bm25; R2 = a-very-long-run-identifier-2010'
    """
    if _FIXED:
        return {r: _FIXED[-1].get(r, _short(str(r))) for r in runs}, None
    short = {r: _short(str(r)) for r in runs}
    if max(map(len, short.values()), default=0) <= MAX_LABEL:
        return short, None
    codes = {r: f"R{k + 1}" for k, r in enumerate(short)}
    return codes, "; ".join(f"{codes[r]} = {short[r]}" for r in short)


#: Points between an axes' top and its title.
TITLE_PAD = 11


def _finish(fig, key: str | None = None, legend=None) -> None:
    """Lay the figure out: ``legend`` (an axes) gets its legend outside the plotting area, on the right, so it
    never covers data; ``key`` (of :func:`run_labels`) is written under the figure; every title, axis label and
    the key are wrapped to the room they have (:func:`_wrap_texts`)."""
    from matplotlib.ticker import ScalarFormatter

    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):  # values as they are: an offset ("1e-5+5.1e-1") collides with the labels
            formatter = axis.get_major_formatter()
            if isinstance(formatter, ScalarFormatter):
                formatter.set_useOffset(False)
        if ax.get_title():  # (clear of the top tick label, which stands half above the axes, under a wide title)
            ax.set_title(ax.get_title(), fontsize=ax.title.get_fontsize(), pad=TITLE_PAD)
    if legend is not None:
        legend.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    note = fig.text(0.01, 0.01, "runs: " + key, fontsize=6, va="bottom", ha="left") if key else None
    for _ in range(3):
        bottom = 0.0
        if note is not None:
            renderer = fig.canvas.get_renderer()
            _fit(note, fig.bbox.width - 2 * note.get_window_extent(renderer).x0)
            bottom = min(0.6, (note.get_window_extent(renderer).y1 + 6) / fig.bbox.height)
        fig.tight_layout(rect=(0, bottom, 1, 1))
        if not _wrap_texts(fig):
            break
    else:
        fig.tight_layout(rect=(0, bottom, 1, 1))


def _topics_note(scores, measure: str) -> str:
    table = scores.per_topic(measure)
    counts = table.notna().sum(axis=0)
    if counts.nunique() == 1:
        return f"mean over {int(counts.iloc[0])} topics"
    return f"mean over {int(counts.min())}-{int(counts.max())} topics (runs answer different topics)"


def means_figure(scores, measure: str):
    """Each run's aggregate of ``measure``, best first."""
    plt = _plt()
    means = scores.means(measure).sort_values(ascending=False)
    labels, key = run_labels(means.index)
    fig, ax = plt.subplots(figsize=(7, 1 + 0.35 * len(means)))
    ax.barh([labels[r] for r in means.index][::-1], means.to_numpy()[::-1], color="#4477aa")
    ax.set_xlabel(measure)
    ax.set_title(f"{measure}, {_topics_note(scores, measure)}", fontsize=10)
    _finish(fig, key)
    return fig


def measure_families(measures) -> dict[str, list[str]]:
    """Measures grouped by the name before their cut-off or parameters (``SRP@5``, ``SRP@10`` -> ``SRP``), in
    order of first appearance.

    >>> measure_families(["SRP@5", "P@10", "SRP@10", "MAiP(task=thorough)", "iP[0.00](task=thorough)"])
    {'SRP': ['SRP@5', 'SRP@10'], 'P': ['P@10'], 'MAiP': ['MAiP(task=thorough)'], 'iP': ['iP[0.00](task=thorough)']}
    """
    import re

    out: dict[str, list[str]] = {}
    for m in measures:
        out.setdefault(re.match(r"[^@(\[]*", m).group(0) or m, []).append(m)
    return out


#: The most measures of a family one figure draws (the others are in the report's tables, and the title says so).
FAMILY_SHOWN = 8


def family_means_figure(scores, measures: list[str], confidence: float = 0.95):
    """Each run's aggregate of each of ``measures`` (one family), with the interval of the mean over the topics
    as an error bar (:func:`~graphsr.analysis.intervals.mean_interval`: within a bounded measure's range); runs
    in the table's order, as every figure of a report orders them."""
    from .intervals import mean_interval, measure_bounds

    plt = _plt()
    runs = scores.runs
    labels, key = run_labels(runs)
    total, measures = len(measures), measures[:FAMILY_SHOWN]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.3 * len(runs) * len(measures) ** 0.5))
    height = 0.8 / len(measures)
    y = np.arange(len(runs))[::-1]
    most = max(int(scores.per_topic(m, runs).notna().sum().max()) for m in measures)
    for k, m in enumerate(measures):
        table = scores.per_topic(m, runs)
        means = np.array([table[r].mean() for r in runs], dtype=float)
        bounds = measure_bounds(m)
        low, high = [], []
        for r, mean in zip(runs, means):
            v = table[r].dropna().to_numpy(dtype=float)
            lo, hi = mean_interval(v, confidence, bounds) if len(v) >= 2 and np.ptp(v) > 0 else (mean, mean)
            low.append(mean - lo)
            high.append(hi - mean)
        ax.barh(
            y + 0.4 - (k + 0.5) * height,
            means,
            height,
            xerr=[low, high] if most >= 2 else None,  # (one topic: no interval to draw)
            capsize=2,
            label=m,
            error_kw={"elinewidth": 0.8},
        )
    ax.set_yticks(y, [labels[r] for r in runs], fontsize=8)
    ax.set_xlabel(" / ".join(measures) if len(measures) <= 3 else f"{len(measures)} measures")
    shown = f"{len(measures)} of {total} measures (the others in the tables): " if total > len(measures) else ""
    what = (
        f"each run's aggregate with its {confidence:.0%} interval over the topics"
        if most >= 2
        else "each run's score on its one topic (no interval over one topic)"
    )
    ax.set_title(
        f"{shown}{', '.join(measures[:3])}{', ...' if len(measures) > 3 else ''}: {what}",
        fontsize=9,
    )
    _finish(fig, key, legend=ax if len(measures) > 1 else None)
    return fig


def per_topic_figure(scores, measure: str):
    """``measure`` per topic and run: grouped bars (topics across, one bar per run) when there are at most 200
    bars, else a heat map (topics across, runs down)."""
    plt = _plt()
    table = scores.per_topic(measure)
    labels, key = run_labels(table.columns)
    if table.size <= 200:
        fig, ax = plt.subplots(figsize=(min(PAGE_IN, 3 + 0.12 * table.size), 4))
        width = 0.8 / len(table.columns)
        x = np.arange(len(table))
        for k, run in enumerate(table.columns):
            values = table[run].to_numpy(dtype=float)
            at = x + k * width - 0.4 + width / 2
            bars = ax.bar(at, values, width, label=labels[run])
            zero = values == 0  # (a bar of height 0 is not seen: a mark at 0 says the run scored 0 there)
            if zero.any():
                ax.scatter(at[zero], values[zero], marker="_", s=60, color=bars.patches[0].get_facecolor(), zorder=3)
        ax.set_xticks(x, list(table.index), fontsize=7, rotation=90 if len(table) > 15 else 0)
        ax.set_xlabel("topic")
        ax.set_ylabel(measure)
        ax.set_title(
            f"{measure} per topic ({len(table)} topics; a dash at 0: scored 0; nothing: topic not answered)",
            fontsize=10,
        )
        _finish(fig, key, legend=ax)
        return fig
    fig, ax = plt.subplots(figsize=(min(PAGE_IN, 3 + 0.25 * len(table)), 1 + 0.35 * len(table.columns)))
    im = ax.imshow(table.T.to_numpy(dtype=float), aspect="auto", cmap="viridis")
    ax.set_yticks(range(len(table.columns)), [labels[r] for r in table.columns], fontsize=8)
    step = max(1, len(table) // 30)
    ax.set_xticks(range(0, len(table), step), list(table.index)[::step], fontsize=7, rotation=90)
    ax.set_xlabel("topic")
    ax.set_title(f"{measure} per topic ({len(table)} topics; blank: topic not answered)", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.03)
    _finish(fig, key)
    return fig


def cutoff_figure(scores, base: str):
    """A measure's aggregate at each of its cut-offs, one line per run."""
    family = cutoff_families(scores).get(base)
    if not family:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 4))
    ks = [k for k, _ in family]
    labels, key = run_labels(scores.runs)
    for run in scores.runs:
        ax.plot(ks, [scores.means(m).get(run, np.nan) for _, m in family], marker="o", label=labels[run])
    ax.set_xscale("log" if ks[-1] / ks[0] >= 20 else "linear")
    ax.set_xlabel("cut-off k")
    ax.set_ylabel(f"{base}@k")
    ax.set_title(f"{base}@k by cut-off, {_topics_note(scores, family[0][1])}", fontsize=10)
    _finish(fig, key, legend=ax)
    return fig


def curve_figure(scores, name: str):
    """An interpolated precision-recall curve per run (``iP[x]`` at each level x)."""
    family = curve_families(scores).get(name)
    if not family:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    xs = [x for x, _ in family]
    labels, key = run_labels(scores.runs)
    for run in scores.runs:
        ax.plot(xs, [scores.means(m).get(run, np.nan) for _, m in family], label=labels[run])
    ax.set_xlabel("recall")
    ax.set_ylabel("interpolated precision")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{name}: precision-recall, {_topics_note(scores, family[0][1])}", fontsize=10)
    _finish(fig, key, legend=ax)
    return fig


def agreement_figure(scores, a: str, b: str):
    """The runs' aggregates under two measures, with their rank agreement."""
    from .agreement import rank_agreement

    plt = _plt()
    x, y = scores.means(a), scores.means(b)
    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.scatter(x.to_numpy(), y.reindex(x.index).to_numpy(), color="#aa3377", s=16)
    labels, key = run_labels(x.index)
    ax.margins(0.12)
    ax.set_xlabel(a)
    ax.set_ylabel(b)
    title = f"{a} vs {b} ({len(x)} runs)"
    if len(x) >= 3:
        ag = rank_agreement(x, y)
        title += f"\nKendall tau-b {ag.tau_b:.3f} (p {ag.tau_p:.2g}), tau_AP {ag.tau_ap:.3f}"
    ax.set_title(title, fontsize=10)
    _finish(fig, key)
    points = [(x[r], y.get(r, np.nan)) for r in x.index]
    left_off = _place_labels(ax, points, [labels[r] for r in x.index])
    if left_off:  # (crowded points: their labels would overlap; the tables name every run's aggregates)
        ax.set_xlabel(f"{a}   ({left_off} crowded point{'s' if left_off > 1 else ''} unlabelled)")
    return fig


def agreement_matrix_figure(scores, measures: list[str] | None = None):
    """Kendall's tau-b between the system rankings of every pair of measures (a heat map)."""
    from .agreement import kendall_matrix

    measures = measures or scores.measures
    if len(measures) < 2 or len(scores.runs) < 3:
        return None
    plt = _plt()
    n = len(measures)
    tau = kendall_matrix(scores.means()[measures]).to_numpy()
    names = [_middle(m, 32) for m in measures]
    label = 0.07 * max(map(len, names))  # (inches of the longest tick label at 7 points)
    # within the page's width (the page would show a wider figure smaller, its numbers too small to read): a cell
    # of 0.45 in holds a number at 7 points; where the cells come out narrower the numbers are left to the
    # agreement table (graphsr agree), and the colours say it
    cell = min(0.45, (PAGE_IN - 1.6 - label) / n)
    fig, ax = plt.subplots(figsize=(max(4.5, 1.6 + label + cell * n), max(3.5, 1.0 + label + 0.9 * cell * n)))
    im = ax.imshow(np.nan_to_num(tau), vmin=-1, vmax=1, cmap="RdBu")
    ax.set_xticks(range(n), names, rotation=90, fontsize=7)  # (upright boxes: slanted ones would overlap)
    ax.set_yticks(range(n), names, fontsize=7)
    numbers = cell >= 0.38
    for i in range(n if numbers else 0):
        for j in range(n):  # black or white on each cell, whichever reads (WCAG AA: a contrast of 4.5 or more)
            colour, _ = text_colour(im.cmap(im.norm(np.nan_to_num(tau[i, j]))))
            text = "-" if np.isnan(tau[i, j]) else f"{tau[i, j]:.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
    note = "" if numbers else f"; {n} measures: the values are in graphsr agree's table"
    fig.suptitle(f"Kendall tau-b between system rankings ({len(scores.runs)} runs{note})", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.04)
    _finish(fig)
    return fig


def _middle(text: str, width: int) -> str:
    """``text`` cut in the middle to ``width`` characters when longer.

    >>> _middle("SRP@5 [p*|c:extent, a long label of a model]", 24)
    'SRP@5 [p*|c:…of a model]'
    """
    if len(text) <= width:
        return text
    return text[: width // 2] + "…" + text[-(width - width // 2 - 1) :]


def figure_bytes(fig, fmt: str = "png", close: bool = True) -> bytes:
    """The figure rendered as ``png``, ``svg`` or ``pdf`` bytes (closed afterwards unless ``close=False``)."""
    plt = _plt()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=DPI)
    if close:
        plt.close(fig)
    return buf.getvalue()


def summary_figure(summary, pi, max_nodes: int = 60, title: str | None = None):
    """The summary graph with each node coloured by its steady-state probability pi (and sized by its extent);
    a large summary shows its ``max_nodes`` most probable nodes (and the edges among them)."""
    import networkx as nx

    plt = _plt()
    g = summary.graph()
    pi = np.asarray(pi, dtype=float)
    keep = sorted(range(len(pi)), key=lambda s: -pi[s])[:max_nodes]
    g = g.subgraph(keep).copy()
    depth = {s: summary.label(s).count("/") for s in g.nodes}
    layers: dict[int, list[int]] = {}
    for s in sorted(g.nodes, key=lambda s: summary.label(s)):
        layers.setdefault(depth[s], []).append(s)
    pos = {s: (k - (len(nodes) - 1) / 2, -d) for d, nodes in layers.items() for k, s in enumerate(nodes)}
    fig, ax = plt.subplots(
        figsize=(min(PAGE_IN, 3 + 0.35 * max(len(v) for v in layers.values())), 1.5 + 1.1 * len(layers))
    )
    sizes = np.array([g.nodes[s]["extent_size"] for s in g.nodes], dtype=float)
    nx.draw_networkx_edges(g, pos, ax=ax, alpha=0.3)
    nodes = nx.draw_networkx_nodes(
        g,
        pos,
        ax=ax,
        node_color=[pi[s] for s in g.nodes],
        cmap="plasma",
        node_size=60 + 600 * np.sqrt(sizes / max(sizes.max(), 1)),
    )
    fig.colorbar(nodes, ax=ax, fraction=0.03, label="pi (steady state)")
    shown = "" if len(g) == len(pi) else f", the {len(g)} most probable of {len(pi)} nodes"
    ax.set_title(title or f"{summary.kind.name} summary: pi on its nodes, size ~ extent{shown}", fontsize=10)
    ax.axis("off")
    ax.margins(0.08)
    _finish(fig)
    order = sorted(g.nodes, key=lambda s: -pi[s])  # (the most probable labelled first)
    left_off = _place_labels(ax, [pos[s] for s in order], [summary.label(s).rsplit("/", 1)[-1][:14] for s in order], 6)
    if left_off:
        ax.set_title(f"{ax.get_title()} ({left_off} crowded node{'s' if left_off > 1 else ''} unlabelled)", fontsize=10)
        _finish(fig)
    return fig


def esr_curve_figure(scores):
    """ESRP@k against ESRR@k (precision against recall over cut-offs), one line per run."""
    from ..measures.esr import ESRP, ESRR

    families = cutoff_families(scores)
    p, r = dict(families.get(ESRP.NAME, [])), dict(families.get(ESRR.NAME, []))
    ks = sorted(set(p) & set(r))
    if len(ks) < 3:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    labels, key = run_labels(scores.runs)
    for run in scores.runs:
        ax.plot(
            [scores.means(r[k]).get(run, np.nan) for k in ks],
            [scores.means(p[k]).get(run, np.nan) for k in ks],
            marker=".",
            label=labels[run],
        )
    ax.set_xlabel("ESRR@k")
    ax.set_ylabel("ESRP@k")
    ax.set_title(f"ESRP vs ESRR over k = {ks[0]}..{ks[-1]}, {_topics_note(scores, p[ks[0]])}", fontsize=10)
    _finish(fig, key, legend=ax)
    return fig


def rank_change_figure(scores, a: str, b: str):
    """Each run's rank (1 = best) across the common cut-offs of two measures, side by side."""
    from .agreement import rank_change

    try:
        rc = rank_change(scores, a, b)
    except Exception:
        return None
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(9, 4), sharey=True)
    labels, key = run_labels(list(dict.fromkeys(rc.ranks["run"])))
    for ax, col, name in ((axes[0], "rank_a", a), (axes[1], "rank_b", b)):
        for run, group in rc.ranks.groupby("run", sort=False):
            ax.plot(group["cutoff"], group[col], marker="o", label=labels[run])
        ax.set_xlabel("cut-off k")
        ax.set_title(f"rank under {name}@k", fontsize=10)
    axes[0].set_ylabel("rank (1 = best)")
    axes[0].invert_yaxis()
    r = "n/a (no rank changes)" if np.isnan(rc.r) else f"{rc.r:.3f} (p {rc.p:.2g})"
    fig.suptitle(f"relative change in rank across cut-offs: Pearson r {r}", fontsize=10)
    _finish(fig, key, legend=axes[1])
    return fig


def coverage_figure(table, kind: str):
    """Relevant retrieved over relevant, per partition (rows) and run (columns), from
    :func:`graphsr.analysis.partitions.coverage`'s table."""
    plt = _plt()
    share = table.assign(share=table["relevant_retrieved"] / table["relevant"].where(table["relevant"] > 0))
    grid = share.pivot_table(index="sid", columns="run", values="share", aggfunc="first")
    grid = grid.loc[sorted(grid.index, key=lambda sid: int(str(sid).lstrip("Ss")))]  # S1, S2, ..., S10: not as text
    keys = dict(zip(table["sid"], table["key"])) if "key" in table.columns else {}
    rows = [_row_label(sid, keys.get(sid)) for sid in grid.index]
    labels, key = run_labels(list(grid.columns))
    fig, ax = plt.subplots(figsize=(min(PAGE_IN, 3.5 + 1.2 * len(grid.columns)), 1.2 + 0.3 * len(grid)))
    im = ax.imshow(grid.to_numpy(dtype=float), aspect="auto", vmin=0, vmax=1, cmap="viridis")
    ax.set_yticks(range(len(grid)), rows, fontsize=7)
    ax.set_xticks(range(len(grid.columns)), [labels[c] for c in grid.columns], rotation=45, ha="right", fontsize=7)
    ax.set_title(f"relevant retrieved / relevant, per {kind} partition (blank: none relevant)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.04)
    _finish(fig, key)
    return fig


def _row_label(sid, key: str | None, width: int = 40) -> str:
    """A partition's SID and key, the key cut in the middle when long.

    >>> _row_label("S3", "/play/head/title")
    'S3  /play/head/title'
    >>> len(_row_label("S9", "/a" * 40))
    44
    """
    if not key:
        return str(sid)
    if len(key) > width:
        key = key[: width // 2 - 1] + "…" + key[-(width // 2) :]
    return f"{sid}  {key}"
