"""Plots of evaluation results (matplotlib, imported only when a plot is drawn).

>>> import numpy as np
>>> from graphsr.evaluation.results import Results, RunResult
>>> from graphsr.measures import parse_measure
>>> ms = [parse_measure(f"iP[{j / 100:.2f}]") for j in range(101)]
>>> res = Results([RunResult("r", ["1"], {m: np.array([1.0 - j / 100]) for j, m in enumerate(ms)})], ms)
>>> levels, curves = interpolated_precision_curves(res)
>>> float(curves["r"][50])
0.5
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import GraphsrInputError

__all__ = [
    "interpolated_precision_curves",
    "plot_interpolated_precision",
    "plot_generalized_precision",
    "check_plot_path",
    "plot_measures",
]

LEVELS = np.linspace(0.0, 1.0, 101)


def interpolated_precision_curves(results) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The 101-point interpolated precision curve of each run, averaged over its topics.

    Parameters
    ----------
    results : Results
        With the measures ``iP[0.00]`` .. ``iP[1.00]`` (e.g. from
        :data:`graphsr.measures.fol.IP_CURVE`).

    Returns
    -------
    levels : ndarray of shape (101,)
    curves : dict of run name to ndarray of shape (101,)
    """
    from ..measures.fol import iP

    by_level: dict[int, object] = {}
    for m in results.measures:  # iP on the 0.01 grid, of whichever task comes first
        if type(m) is type(iP) and abs(m["x"] * 100 - round(m["x"] * 100)) < 1e-9:
            by_level.setdefault(round(m["x"] * 100), m)
    missing = [j for j in range(101) if j not in by_level]
    if missing:
        raise GraphsrInputError(
            f"an interpolated precision curve needs iP[0.00] .. iP[1.00]; missing iP[{missing[0] / 100:.2f}]"
        )
    return LEVELS.copy(), {r.name: np.array([r.mean(by_level[j]) for j in range(101)]) for r in results}


def check_plot_path(path) -> None:
    """Raise GraphsrInputError unless ``path`` names a .png, .pdf or .svg file."""
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".png", ".pdf", ".svg"):
        raise GraphsrInputError(f"{path}: plots are written as .png, .pdf or .svg, got {ext or 'no extension'!r}")
    from .._extras import need

    need("matplotlib", f"drawing {path}")  # before the work, not after


def _label(short: str, headline, run) -> str:
    n = len(run.topics)
    if headline is None:
        return f"{short} ({n} topics)"
    return f"{short} ({headline} {run.mean(headline):.4f}, {n} topics)"


def _topics_title(results) -> str:
    counts = sorted({len(r.topics) for r in results})
    if len(counts) == 1:
        return f"mean over {counts[0]} topics"
    return f"each run's mean over its topics ({counts[0]}-{counts[-1]}: runs answer different topics)"


def _labels(results):
    """Each run's label (its name, or R1, R2, ... with a key under the figure when names are long)."""
    from .figures import run_labels

    return run_labels([r.name for r in results])


def _save(fig, path, key: str | None = None, legend=None) -> None:
    """Lay out (the legend outside the data, the key of long run names under the figure) and write."""
    from .figures import _finish, _plt

    try:
        _finish(fig, key, legend)
        fig.savefig(path)
    except OSError as exc:
        raise GraphsrInputError(f"{path}: cannot write the plot ({exc.strerror or exc})") from None
    finally:
        _plt().close(fig)


def plot_interpolated_precision(results, path: str | os.PathLike, title: str | None = None, headline=None) -> None:
    """Draw each run's interpolated precision-recall curve (``iP[0.00]`` .. ``iP[1.00]``) into ``path`` (PNG,
    PDF or SVG by extension), each run labelled with ``headline`` (e.g. MAiP) and its number of topics.

    Raises
    ------
    GraphsrInputError
        Without the curve measures.
    """
    from .figures import _plt

    check_plot_path(path)
    levels, curves = interpolated_precision_curves(results)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4.4))
    labels, key = _labels(results)
    for run in results:
        ax.plot(levels, curves[run.name], drawstyle="steps-post", label=_label(labels[run.name], headline, run))
    ax.set_xlabel("recall (characters)")
    ax.set_ylabel("interpolated precision")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(title or f"Interpolated precision, {_topics_title(results)}", fontsize=10)
    _save(fig, path, key, legend=ax)


def plot_generalized_precision(results, path: str | os.PathLike, task: str, headline=None) -> None:
    """Draw each run's generalized precision gP@k over article ranks k (the in-context tasks' curve) into
    ``path``, each run labelled with ``headline`` (e.g. MAgP) and its number of topics."""
    from .figures import _plt

    check_plot_path(path)
    from ..measures.fol import gP

    curve = sorted(
        (m for m in results.measures if type(m) is type(gP) and m.cutoff is not None), key=lambda m: m.cutoff
    )
    if len(curve) < 2:
        raise GraphsrInputError("a generalized precision curve needs gP@k at several k")
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4.4))
    ks = [m.cutoff for m in curve]
    labels, key = _labels(results)
    for run in results:
        ax.plot(ks, [run.mean(m) for m in curve], label=_label(labels[run.name], headline, run))
    ax.set_xlabel("article rank k")
    ax.set_ylabel("generalized precision gP@k")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(f"Generalized precision ({task}), {_topics_title(results)}", fontsize=10)
    _save(fig, path, key, legend=ax)


def plot_measures(results, path: str | os.PathLike) -> None:
    """Element runs: the first measure requested at several cut-offs as a curve over k, else the first
    measure's mean per run as bars; titled with what it averages."""
    from .figures import _plt

    check_plot_path(path)
    plt = _plt()
    families: dict[str, list] = {}
    for m in results.measures:
        if m.cutoff is not None:
            families.setdefault(str(m).rsplit("@", 1)[0], []).append(m)
    family = next((sorted(v, key=lambda m: m.cutoff) for v in families.values() if len(v) >= 2), None)
    fig, ax = plt.subplots(figsize=(8, 4.4))
    labels, key = _labels(results)
    legend = None
    if family is not None:
        ks = [m.cutoff for m in family]
        for run in results:
            ax.plot(ks, [run.mean(m) for m in family], marker="o", label=_label(labels[run.name], None, run))
        ax.set_xlabel("cut-off k")
        ax.set_ylabel(str(family[0]).rsplit("@", 1)[0] + "@k")
        legend = ax
        what = str(family[0]).rsplit("@", 1)[0] + "@k"
    else:
        m = results.measures[0]
        ax.barh([labels[r.name] for r in results][::-1], [r.mean(m) for r in results][::-1])
        ax.set_xlabel(str(m))
        what = str(m)
    ax.grid(alpha=0.3)
    ax.set_title(f"{what}, {_topics_title(results)}", fontsize=10)
    _save(fig, path, key, legend)
