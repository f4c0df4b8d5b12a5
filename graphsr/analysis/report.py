"""One self-contained static HTML page of a score table: sortable tables and embedded plots, no network.

``graphsr report scores.parquet -o report.html`` writes it (and, on request,
every figure as a PNG, SVG or PDF file beside it).  The page holds:

* a table of contents, and the runs' key (one for the whole page);
* one section per set of runs scored on the same topics (:func:`topic_sets`:
  runs of different collections are never ranked, plotted or tested
  together), each with
* the runs' aggregates for every measure with their confidence intervals
  (sortable);
* figures: per measure family, the runs' aggregates with their intervals and
  the first measure per topic; measures across their cut-offs,
  precision-recall curves where ``iP[x]`` levels are present, a
  rank-agreement scatter and the agreement heat map;
* the significance comparison (paired t-test, Holm over each measure's pairs,
  as ``graphsr compare``; letters mark the runs each run beats) and every
  pair's difference, interval, effect size and wins/ties/losses.

Every figure's text is checked as drawn (:func:`~.figures.layout_problems`:
nothing past the figure's edges, no two texts overlapping); what a check finds
is kept in :attr:`Report.layout`.
"""

from __future__ import annotations

import base64
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import GraphsrInputError
from ..io.atomic import atomic_write, output_directory
from .scores import ScoreTable
from .figures import (
    agreement_figure,
    agreement_matrix_figure,
    curve_families,
    curve_figure,
    cutoff_families,
    cutoff_figure,
    esr_curve_figure,
    family_means_figure,
    figure_bytes,
    fixed_labels,
    layout_problems,
    measure_families,
    per_topic_figure,
    rank_change_figure,
    run_labels,
    summary_figure,
)

__all__ = ["Report", "build_report", "write_report", "topic_groups", "topic_sets", "Section"]


@dataclass
class _Cell:
    text: str
    sort: object
    sup: str = ""


@dataclass
class _Table:
    id: str
    title: str
    header: list
    rows: list
    left: int = 1
    note: str = ""


@dataclass
class Section:
    """The part of the page about one set of runs scored on the same topics."""

    id: str
    title: str
    runs: list
    topics: int
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)  # (id, caption, {format: bytes})
    details: list = field(default_factory=list)  # tables after the figures: significance and pairs


@dataclass
class Report:
    """What the page shows: the runs' key (``head``), then a :class:`Section` per set of runs scored on the same
    topics, then what the scores rest on (``tail``: their provenance); ``tables``, ``figures`` and ``details``
    list every section's, in order."""

    title: str
    source: str
    runs: list
    measures: list
    topics: int
    head: list = field(default_factory=list)
    tail: list = field(default_factory=list)  # after the sections: the provenance of the scores
    sections: list = field(default_factory=list)
    views: list = field(default_factory=list)  # (file beside the page, what it shows): interactive summary views
    layout: dict = field(default_factory=dict)  # figure id -> what its text check found (empty: no flaw)

    @property
    def tables(self) -> list:
        return self.head + [t for s in self.sections for t in s.tables]

    @property
    def figures(self) -> list:
        return [f for s in self.sections for f in s.figures]

    @property
    def details(self) -> list:
        return [t for s in self.sections for t in s.details]


def _figures(scores, max_measures: int):
    measures = scores.measures[:max_measures]
    out = []
    for k, (name, members) in enumerate(measure_families(measures).items()):  # one pair of figures per family
        out.append(
            (
                f"means-{k}",
                f"{name}: each run's aggregate, with its confidence interval",
                lambda ms=members: family_means_figure(scores, ms),
            )
        )
        out.append((f"topics-{k}", f"{members[0]} per topic and run", lambda m=members[0]: per_topic_figure(scores, m)))
    for k, base in enumerate(cutoff_families(scores)):
        out.append((f"cutoff-{k}", f"{base}@k across cut-offs", lambda b=base: cutoff_figure(scores, b)))
    for k, name in enumerate(curve_families(scores)):
        out.append(
            (f"curve-{k}", f"{name}: interpolated precision-recall curves", lambda n=name: curve_figure(scores, n))
        )
    out.append(("esr-curve", "ESRP against ESRR over the cut-offs", lambda: esr_curve_figure(scores)))
    families = list(cutoff_families(scores))
    if len(families) >= 2:
        fa, fb = families[0], families[1]
        out.append(
            (
                "rank-change",
                f"relative change in rank across cut-offs: {fa} vs {fb} (SR paper 7.2)",
                lambda: rank_change_figure(scores, fa, fb),
            )
        )
    if len(measures) >= 2 and len(scores.runs) >= 2:
        a, b = measures[0], measures[1]
        out.append(("agreement", f"{a} vs {b}: the runs' aggregates", lambda: agreement_figure(scores, a, b)))
    if len(measures) >= 2 and len(scores.runs) >= 3:
        out.append(
            (
                "agreement-matrix",
                "rank agreement between measures (Kendall tau-b)",
                lambda: agreement_matrix_figure(scores, measures),
            )
        )
    return out


def _components(runs: list, joined) -> list[list[str]]:
    parent = {r: r for r in runs}

    def root(r):
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    for a, b in itertools.combinations(runs, 2):
        if joined(a, b):
            parent[root(a)] = root(b)
    groups: dict = {}
    for r in runs:
        groups.setdefault(root(r), []).append(r)
    return list(groups.values())


def topic_sets(scores) -> list[list[str]]:
    """The runs in sets scored on the same topics, each set in the table's order: two runs are in one set when at
    least half of the topics either has are common to both (a run that misses a few topics stays with its
    collection's runs; runs of two collections whose topic ids happen to meet do not join)."""
    frame = scores.frame[scores.frame["topic"] != "all"]
    topics = {r: set(frame.loc[frame["run"] == r, "topic"]) for r in scores.runs}

    def joined(a, b):
        common = len(topics[a] & topics[b])
        return common >= 1 and 2 * common >= len(topics[a] | topics[b])

    return _components(scores.runs, joined)


def topic_groups(scores) -> list[list[str]]:
    """The runs in sets that share topics: two runs that have at least two topics in common are in one set (runs
    of different collections, scored on different topics, are compared apart), each set in the table's order."""
    frame = scores.frame[scores.frame["topic"] != "all"]
    topics = {r: set(frame.loc[frame["run"] == r, "topic"]) for r in scores.runs}
    return _components(scores.runs, lambda a, b: len(topics[a] & topics[b]) >= 2)


def build_report(
    scores,
    title: str = "graphsr report",
    source: str = "",
    max_measures: int = 40,
    progress: bool = False,
    formats: tuple[str, ...] = ("png",),
    summary=None,
    confidence: float = 0.95,
    model_scores=None,
    lam: float | None = None,
) -> Report:
    """Tables and figures (rendered in ``formats``; PNG is what the page embeds) of a
    :class:`~graphsr.analysis.scores.ScoreTable`; ``summary``: ``(Summary, pi, model name)`` adds the summary
    graph with pi on its nodes.

    One key names the runs for the whole page (their names when they fit a figure, else R1, R2, ... in the
    table's order), in the first table.  Each set of runs that share topics gets its significance table and its
    table of pairs (difference, confidence interval, effect size, wins/ties/losses, adjusted p-value).

    ``model_scores``: the same runs scored against a model's judgments (a score table of the topics people judged
    in ``scores`` and others): each mean is then given with its prediction-powered estimate and interval, and runs
    are compared by the prediction-powered test (:mod:`graphsr.analysis.ppi`; ``lam``: its weight, PPI++'s
    choice when None)."""
    from ..io.progress import progress_bar

    if scores.frame.empty:
        raise GraphsrInputError("the score table is empty: nothing to report")
    runs, measures = scores.runs, scores.measures
    topics = scores.frame.loc[scores.frame["topic"] != "all", "topic"].nunique()
    report = Report(title, source, runs, measures, topics)
    labels, key = run_labels(runs)
    frame = scores.frame[scores.frame["topic"] != "all"]
    sets = topic_sets(scores)
    where = {r: k for k, group in enumerate(sets) for r in group}
    report.head.append(
        _Table(
            "runs",
            "Runs",
            ["key", "run", "topics"] + (["section"] if len(sets) > 1 else []),
            [
                [_Cell(labels[r], k), _Cell(r, r), _Cell(str(frame.loc[frame["run"] == r, "topic"].nunique()), 0)]
                + ([_Cell(str(where[r] + 1), where[r])] if len(sets) > 1 else [])
                for k, r in enumerate(runs)
            ],
            left=2,
            note="every figure and table names the runs by these keys"
            + ("; runs are compared only within their section (the same topics)" if len(sets) > 1 else ""),
        )
    )
    records = scores.provenance + (model_scores.provenance if model_scores is not None else [])
    if records:
        report.tail.append(_provenance_table(records))
    formats = tuple(dict.fromkeys(("png", *formats)))
    for fmt in formats:
        if fmt not in ("png", "svg", "pdf"):
            raise GraphsrInputError(f"figures are png, svg or pdf, got {fmt!r}")
    plans = []
    for k, group in enumerate(sets):
        sub = ScoreTable(scores.frame[scores.frame["run"].isin(group)]) if len(sets) > 1 else scores
        sub_model = (
            ScoreTable(model_scores.frame[model_scores.frame["run"].isin(group)])
            if model_scores is not None and len(sets) > 1
            else model_scores
        )
        prefix = f"set{k + 1}-" if len(sets) > 1 else ""
        n = sub.frame.loc[sub.frame["topic"] != "all", "topic"].nunique()
        heading = (
            f"Section {k + 1}: {len(group)} run{'s' if len(group) > 1 else ''} on {n} topic{'s' if n != 1 else ''} "
            f"({', '.join(labels[r] for r in group[:8])}{', ...' if len(group) > 8 else ''})"
            if len(sets) > 1
            else ""
        )
        section = Section(prefix.rstrip("-") or "all", heading, group, n)
        report.sections.append(section)
        _tables(section, sub, labels, prefix, confidence, max_measures, len(sets) > 1, (sub_model, lam))
        specs = [(prefix + fid, caption, draw) for fid, caption, draw in _figures(sub, max_measures)]
        if summary is not None and k == 0:  # (Summary, pi, model name): one figure, in the first section
            s, pi, name = summary
            specs.append(
                (
                    "summary",
                    f"the {s.kind.name} summary of the collection, pi under {name}",
                    lambda: summary_figure(s, pi, title=f"{s.kind.name} summary, pi under {name}"),
                )
            )
        plans.append((section, specs))
    bar = progress_bar(sum(len(specs) for _, specs in plans), "figures", progress, "figure")
    with fixed_labels(labels):
        for section, specs in plans:
            for fid, caption, draw in specs:
                fig = draw()
                bar.update(1)
                if fig is not None:
                    report.layout[fid] = layout_problems(fig)
                    section.figures.append(
                        (fid, caption, {fmt: figure_bytes(fig, fmt, close=fmt == formats[-1]) for fmt in formats})
                    )
    bar.close()
    return report


def _provenance_table(records: list[dict]) -> _Table:
    """What the scores rest on: each evaluation's inputs (role, path, digest, who judged, a run's ir_metadata
    tag), with graphsr's version and when it ran."""
    rows = []
    for k, record in enumerate(records):
        for item in record.get("inputs", []):
            digest = item.get("sha256") or item.get("listing_sha256") or ""
            tag = ""
            if item.get("ir_metadata"):
                from ..io.ir_metadata import IrMetadata

                import yaml

                fields = yaml.safe_load(item["ir_metadata"]) or {}
                tag = str(IrMetadata(item["ir_metadata"], fields).tag or "ir_metadata")
            rows.append(
                [
                    _Cell(str(k + 1), k),
                    _Cell(f"{record.get('graphsr', '?')}, {record.get('created', '?')}", record.get("created", "")),
                    _Cell(item.get("role", ""), item.get("role", "")),
                    _Cell(item.get("path", ""), item.get("path", "")),
                    _Cell(digest[:16], digest),
                    _Cell(item.get("judge", ""), item.get("judge", "")),
                    _Cell(tag, tag),
                ]
            )
    return _Table(
        "provenance",
        "Provenance",
        ["#", "graphsr, when", "input", "path", "SHA-256 (first 16)", "judged by", "ir_metadata tag"],
        rows,
        left=7,
        note="each evaluation whose scores the page shows, with the digests of its inputs (a directory: of its "
        "listing; a collection or corpus file: its size and time, not its content) and who judged its judgments",
    )


def _tables(
    section: Section,
    scores,
    labels: dict,
    prefix: str,
    confidence: float,
    max_measures: int,
    named: bool,
    ppi: tuple = (None, None),
):
    """The section's aggregates (its runs' means with their intervals), and the significance and pairs tables
    of each group of its runs that share at least two topics; ``ppi``: (the model's score table, or None, and
    the power-tuning weight)."""
    from .intervals import mean_interval, measure_bounds
    from .ppi import table_estimates
    from .significance import compare_runs, run_letter

    model_scores, lam = ppi
    model_topics: dict = {}

    runs, measures = scores.runs, scores.measures
    means = scores.means()
    bounds = {m: measure_bounds(m) for m in measures}
    per_topic: dict = {}  # (each measure's topics x runs table, pivoted once)

    def mean_cell(r, m):
        v = float(means.loc[r, m])
        if v != v:
            return _Cell("-", -np.inf)
        if m not in per_topic:
            per_topic[m] = scores.per_topic(m)
        values = per_topic[m][r].dropna().to_numpy(dtype=float)
        if model_scores is not None:
            if m not in model_topics:
                model_topics[m] = model_scores.per_topic(m)
            est = table_estimates(per_topic[m], model_topics[m], r, confidence, lam)
            return _Cell(f"{v:.4f} ppi {est.mean:.4f} [{est.low:.3f}, {est.high:.3f}]", est.mean)
        if len(values) >= 2 and np.ptp(values) > 0:
            lo, hi = mean_interval(values, confidence, bounds[m])
            return _Cell(f"{v:.4f} [{lo:.3f}, {hi:.3f}]", v)
        return _Cell(f"{v:.4f}", v)

    section.tables.append(
        _Table(
            f"{prefix}means",
            "Aggregates" + (f" ({section.title.split(':')[0]})" if named else ""),
            ["run", *measures],
            [[_Cell(labels[r], r)] + [mean_cell(r, m) for m in measures] for r in runs],
            note=(
                f"each run's mean over the topics people judged, then its prediction-powered estimate (PPI++) with "
                f"its {confidence:.0%} interval, from those topics and the topics only the model judged"
                if model_scores is not None
                else f"each run's mean over its topics, with its {confidence:.0%} interval: bootstrap BCa for a "
                "measure bounded to a range (within it), t for an unbounded one"
            ),
        )
    )
    groups = [g for g in topic_groups(scores) if len(g) >= 2]
    if len(runs) >= 2 and not groups:
        section.tables[-1].note += "; no significance test: the runs share fewer than two topics"
    for gk, group in enumerate(groups):
        c = compare_runs(
            scores,
            measures[:max_measures],
            group,
            test="t" if model_scores is None else "ppi",
            correction="holm",
            confidence=confidence,
            unpaired="skip",
            model_scores=model_scores,
            lam=lam,
        )
        suffix = f" (runs {', '.join(labels[r] for r in group)})" if named or len(groups) > 1 else ""
        letters = [run_letter(k) for k in range(len(group))]
        rows = []
        for k, r in enumerate(group):
            row = [_Cell(letters[k], k), _Cell(labels[r], r)]
            for m in c.measures:
                v = float(c.means.loc[r, m])
                row.append(_Cell(f"{v:.4f}", v, "".join(letters[j] for j in c.wins(m, r))))
            rows.append(row)
        section.details.append(
            _Table(
                f"{prefix}significance-{gk}",
                "Significance" + suffix,
                ["#", "run", *c.measures],
                rows,
                left=2,
                note=f"{c.family_note()} (on the topics both runs have); a letter marks a run beaten significantly",
            )
        )
        pairs = []
        for _, p in c.pairs.iterrows():
            pairs.append(
                [
                    _Cell(p["measure"], p["measure"]),
                    _Cell(f"{labels[p['run_a']]} - {labels[p['run_b']]}", p["run_a"]),
                    _Cell(f"{p['diff']:+.4f}", p["diff"]),
                    _Cell(f"[{p['ci_low']:+.4f}, {p['ci_high']:+.4f}]", p["ci_low"]),
                    _Cell(f"{p['ppi_lambda']:.3f}", p["ppi_lambda"])
                    if model_scores is not None
                    else _Cell(f"{p['effect_size']:+.2f}", p["effect_size"]),
                    _Cell(f"{p['wins']}/{p['ties']}/{p['losses']}", p["wins"] - p["losses"]),
                    _Cell(f"{p['p_adjusted']:.4f}", p["p_adjusted"]),
                ]
            )
        section.details.append(
            _Table(
                f"{prefix}pairs-{gk}",
                "Pairs" + suffix,
                [
                    "measure",
                    "pair",
                    "difference",
                    f"{confidence:.0%} interval",
                    "effect (d_z)" if model_scores is None else "lambda",
                    "wins/ties/losses",
                    "p (Holm)",
                ],
                pairs,
                left=2,
                note=(
                    "difference of means over the topics both runs have, its t interval, "
                    "Cohen's d_z, the topics where the first run scores above/equal to/below "
                    "the second"
                    if model_scores is None
                    else "prediction-powered difference of means (PPI++, over the topics people judged and those "
                    "only the model judged), its interval, the power-tuning weight lambda, the topics people judged "
                    "where the first run scores above/equal to/below the second, and the z test's p-value"
                ),
            )
        )


def write_report(
    report: Report, path: str | os.PathLike, figures_dir: str | os.PathLike | None = None, figure_format: str = "png"
) -> Path:
    """Write the page (atomically) and, with ``figures_dir``, each figure as a file (in ``figure_format``,
    which :func:`build_report` must have rendered); returns the page's path."""
    from .._extras import need

    jinja2 = need("jinja2", "writing the HTML report")

    from .. import __version__

    path = Path(path)
    sections = []
    for section in report.sections:
        rendered = []
        for fid, caption, data in section.figures:
            if figures_dir is not None:
                if figure_format not in data:
                    raise GraphsrInputError(f"the figures were not rendered as {figure_format}")
                out = output_directory(figures_dir, "the figures")
                with atomic_write(out / f"{fid}.{figure_format}", "the figure", binary=True) as fh:
                    fh.write(data[figure_format])
            rendered.append({"id": fid, "caption": caption, "png": base64.b64encode(data["png"]).decode("ascii")})
        sections.append({**vars(section), "figures": rendered})
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("graphsr.analysis", "templates"), autoescape=jinja2.select_autoescape(["html"])
    )
    html = env.get_template("report.html").render(
        title=report.title,
        source=report.source,
        runs=report.runs,
        measures=report.measures,
        topics=report.topics,
        head=report.head,
        tail=report.tail,
        sections=sections,
        tables=report.tables,
        details=report.details,
        figures=report.figures,
        views=report.views,
        version=__version__,
    )
    with atomic_write(path, "the report") as fh:
        fh.write(html)
    return path
