"""Scoring runs: resolve runs and assessments against a collection, compute measures, report."""

from .evaluate import LoadedCollection, evaluate, load_collection, navigation_for
from .fol_evaluate import evaluate_passages, passage_inputs
from .resolve import Diagnostics, check_qrels, ranked_nodes, topic_sort_key
from .results import Results, RunResult

Evaluation = Results

__all__ = ["LoadedCollection", "evaluate", "load_collection", "navigation_for", "Diagnostics", "check_qrels",
           "ranked_nodes", "topic_sort_key", "Results", "RunResult", "Evaluation",
           "evaluate_passages", "passage_inputs"]
