"""Navigation models: summary edge weights -> Markov chains -> steady state -> p(e;f)."""

from .model import ModelSpec, NoNavigation, SteadyStateModel, build_sr_model, parse_model_spec
from .steady_state import reversible_steady_state, row_stochastic, stationary_distribution
from .weights import WEIGHT_SCHEMES, weight_matrix

__all__ = [
    "ModelSpec",
    "NoNavigation",
    "SteadyStateModel",
    "build_sr_model",
    "parse_model_spec",
    "reversible_steady_state",
    "row_stochastic",
    "stationary_distribution",
    "WEIGHT_SCHEMES",
    "weight_matrix",
]
