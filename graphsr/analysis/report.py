"""One self-contained static HTML page of a score table: sortable tables and embedded plots, no network.

``graphsr report scores.parquet -o report.html`` writes it (and, on request,
every figure as a PNG, SVG or PDF file beside it).  The page holds:

* the runs' aggregates for every measure (sortable);
* the significance comparison (paired t-test, Holm over each measure's pairs,
  as ``graphsr compare``; letters mark the runs each run beats);
* Kendall's tau-b between the system rankings of every pair of measures;
* figures: each measure's aggregates and per-topic values, measures across
  their cut-offs, precision-recall curves where ``iP[x]`` levels are
  present, a rank-agreement scatter and the agreement heat map.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GraphsrInputError
from ..io.atomic import atomic_write, output_directory
from .figures import (agreement_figure, agreement_matrix_figure, curve_families, curve_figure, cutoff_families,
                      cutoff_figure, esr_curve_figure, figure_bytes, means_figure, per_topic_figure,
                      rank_change_figure, summary_figure)

__all__ = ["Report", "build_report", "write_report"]


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
class Report:
    """What the page shows: tables, and figures as (id, caption, {format: bytes}) triples."""

    title: str
    source: str
    runs: list
    measures: list
    topics: int
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)


def _figures(scores, max_measures: int):
    measures = scores.measures[:max_measures]
    out = []
    for k, m in enumerate(measures):
        out.append((f"means-{k}", f"{m}: each run's aggregate", lambda m=m: means_figure(scores, m)))
        out.append((f"topics-{k}", f"{m} per topic and run", lambda m=m: per_topic_figure(scores, m)))
    for k, base in enumerate(cutoff_families(scores)):
        out.append((f"cutoff-{k}", f"{base}@k across cut-offs", lambda b=base: cutoff_figure(scores, b)))
    for k, name in enumerate(curve_families(scores)):
        out.append((f"curve-{k}", f"{name}: interpolated precision-recall curves", lambda n=name: curve_figure(scores, n)))
    out.append(("esr-curve", "ESRP against ESRR over the cut-offs", lambda: esr_curve_figure(scores)))
    families = list(cutoff_families(scores))
    if len(families) >= 2:
        fa, fb = families[0], families[1]
        out.append(("rank-change", f"relative change in rank across cut-offs: {fa} vs {fb} (SR paper 7.2)",
                    lambda: rank_change_figure(scores, fa, fb)))
    if len(measures) >= 2 and len(scores.runs) >= 2:
        a, b = measures[0], measures[1]
        out.append(("agreement", f"{a} vs {b}: the runs' aggregates", lambda: agreement_figure(scores, a, b)))
    if len(measures) >= 2 and len(scores.runs) >= 3:
        out.append(("agreement-matrix", "rank agreement between measures (Kendall tau-b)",
                    lambda: agreement_matrix_figure(scores, measures)))
    return out


def build_report(scores, title: str = "graphsr report", source: str = "", max_measures: int = 40,
                 progress: bool = False, formats: tuple[str, ...] = ("png",), summary=None) -> Report:
    """Tables and figures (rendered in ``formats``; PNG is what the page embeds) of a
    :class:`~graphsr.analysis.scores.ScoreTable`; ``summary``: ``(Summary, pi, model name)`` adds the summary
    graph with pi on its nodes."""
    from ..io.progress import progress_bar
    from .significance import compare_runs, run_letter

    if scores.frame.empty:
        raise GraphsrInputError("the score table is empty: nothing to report")
    runs, measures = scores.runs, scores.measures
    topics = scores.frame.loc[scores.frame["topic"] != "all", "topic"].nunique()
    report = Report(title, source, runs, measures, topics)
    means = scores.means()
    report.tables.append(_Table("means", "Aggregates", ["run", *measures],
                                [[_Cell(r, r)] + [_Cell(f"{means.loc[r, m]:.4f}", float(means.loc[r, m]))
                                                  for m in measures] for r in runs]))
    if len(runs) >= 2:
        c = compare_runs(scores, measures[:max_measures], test="t", correction="holm")
        letters = [run_letter(k) for k in range(len(runs))]
        rows = []
        for k, r in enumerate(runs):
            row = [_Cell(letters[k], k), _Cell(r, r)]
            for m in c.measures:
                v = float(c.means.loc[r, m])
                row.append(_Cell(f"{v:.4f}", v, "".join(letters[j] for j in c.wins(m, r))))
            rows.append(row)
        report.tables.append(_Table("significance", "Significance", ["#", "run", *c.measures], rows, left=2,
                                    note=f"{c.family_note()} (on the topics both runs have); a letter marks a run "
                                         "beaten significantly"))
    specs = _figures(scores, max_measures)
    if summary is not None:  # (Summary, pi, model name)
        s, pi, name = summary
        specs.append(("summary", f"the {s.kind.name} summary of the collection, pi under {name}",
                      lambda: summary_figure(s, pi, title=f"{s.kind.name} summary, pi under {name}")))
    bar = progress_bar(len(specs), "figures", progress, "figure")
    formats = tuple(dict.fromkeys(("png", *formats)))
    for fmt in formats:
        if fmt not in ("png", "svg", "pdf"):
            raise GraphsrInputError(f"figures are png, svg or pdf, got {fmt!r}")
    for fid, caption, draw in specs:
        fig = draw()
        bar.update(1)
        if fig is not None:
            report.figures.append((fid, caption, {fmt: figure_bytes(fig, fmt, close=fmt == formats[-1])
                                                  for fmt in formats}))
    bar.close()
    return report


def write_report(report: Report, path: str | os.PathLike, figures_dir: str | os.PathLike | None = None,
                 figure_format: str = "png") -> Path:
    """Write the page (atomically) and, with ``figures_dir``, each figure as a file (in ``figure_format``,
    which :func:`build_report` must have rendered); returns the page's path."""
    from .._extras import need

    jinja2 = need("jinja2", "writing the HTML report")

    from .. import __version__

    path = Path(path)
    rendered = []
    for fid, caption, data in report.figures:
        if figures_dir is not None:
            if figure_format not in data:
                raise GraphsrInputError(f"the figures were not rendered as {figure_format}")
            out = output_directory(figures_dir, "the figures")
            with atomic_write(out / f"{fid}.{figure_format}", "the figure", binary=True) as fh:
                fh.write(data[figure_format])
        rendered.append({"id": fid, "caption": caption, "png": base64.b64encode(data["png"]).decode("ascii")})
    env = jinja2.Environment(loader=jinja2.PackageLoader("graphsr.analysis", "templates"),
                             autoescape=jinja2.select_autoescape(["html"]))
    html = env.get_template("report.html").render(title=report.title, source=report.source, runs=report.runs,
                                                  measures=report.measures, topics=report.topics,
                                                  tables=report.tables, figures=rendered, version=__version__)
    with atomic_write(path, "the report") as fh:
        fh.write(html)
    return path

