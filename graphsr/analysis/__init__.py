"""Analysis of evaluation results: score tables, rank agreement, significance tests, pictures.

Names load on first use (pandas, scipy and matplotlib only when needed).
"""

from __future__ import annotations

from .._lazy import lazy_namespace

_LAZY = {
    "interpolated_precision_curves": "plots",
    "plot_interpolated_precision": "plots",
    "plot_generalized_precision": "plots",
    "plot_measures": "plots",
    "ScoreTable": "scores",
    "Agreement": "agreement",
    "rank_agreement": "agreement",
    "tau_ap": "agreement",
    "paired_test": "significance",
    "holm": "significance",
    "bh": "significance",
    "compare_runs": "significance",
    "Comparison": "significance",
}

__getattr__, __dir__, __all__ = lazy_namespace(__name__, _LAZY)
