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

__all__ = ["interpolated_precision_curves", "plot_interpolated_precision"]

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
    by_level: dict[int, object] = {}
    for m in results.measures:  # iP on the 0.01 grid, of whichever task comes first
        if m.NAME == "iP" and abs(m["x"] * 100 - round(m["x"] * 100)) < 1e-9:
            by_level.setdefault(round(m["x"] * 100), m)
    missing = [j for j in range(101) if j not in by_level]
    if missing:
        raise GraphsrInputError(f"an interpolated precision curve needs iP[0.00] .. iP[1.00]; missing "
                                f"iP[{missing[0] / 100:.2f}]")
    return LEVELS.copy(), {r.name: np.array([r.mean(by_level[j]) for j in range(101)]) for r in results}


def plot_interpolated_precision(results, path: str | os.PathLike, title: str | None = None) -> None:
    """Draw each run's interpolated precision-recall curve into ``path`` (PNG, PDF or SVG by extension).

    Raises
    ------
    GraphsrInputError
        Without matplotlib (``pip install graphsr[plot]``), or without the curve measures.
    """
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in (".png", ".pdf", ".svg"):
        raise GraphsrInputError(f"{path}: plots are written as .png, .pdf or .svg, got {ext or 'no extension'!r}")
    levels, curves = interpolated_precision_curves(results)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GraphsrInputError("plots need matplotlib: pip install 'graphsr[plot]'") from None
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    try:
        for name, curve in curves.items():
            mean = float(curve.mean())
            ax.plot(levels, curve, drawstyle="steps-post", label=f"{os.path.basename(name)} (MAiP {mean:.4f})")
        ax.set_xlabel("recall (characters)")
        ax.set_ylabel("interpolated precision")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.set_title(title or "Interpolated precision, mean over topics")
        ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
