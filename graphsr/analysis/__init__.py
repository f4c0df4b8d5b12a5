"""Analysis of evaluation results: pictures (and, later, comparisons of systems)."""

from .plots import interpolated_precision_curves, plot_interpolated_precision

__all__ = ["interpolated_precision_curves", "plot_interpolated_precision"]
