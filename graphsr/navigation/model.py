"""Navigation models for Structural Relevance (CIKM'08 Eq 2, 7).

SR needs, for two distinct nodes e, f, the probability ``p(e;f)`` that e is
seen while visiting f (Eq 2):

* ``p(e;f) = 1`` if e = f;
* ``p(e;f) = 0`` if e and f are in different documents;
* otherwise ``p(e;f) = 1 - pi(S(e))`` (Eq 7), where ``pi`` is the steady
  state of the navigation chain over summary nodes and S(e) is e's part.

A model therefore reduces to one number per summary node, the *seen
probability* ``q(S) = 1 - pi(S)``; :class:`NoNavigation` is the model with
``q = 0`` (the user never browses), under which SRP@k is P@k.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ModelSpecError
from ..summaries.kinds import KINDS, glob_hint
from ..summaries.summary import Summary
from .steady_state import reversible_steady_state, stationary_distribution
from .weights import WEIGHT_SCHEMES, weight_matrix

__all__ = ["ModelSpec", "parse_model_spec", "SteadyStateModel", "NoNavigation", "build_sr_model"]


@dataclass(frozen=True)
class ModelSpec:
    """A navigation model as the CLI names it: ``SUMMARY:WEIGHT`` or ``none``."""

    summary: str  # a summary kind or 'none'
    weight: str | None = None

    def __str__(self) -> str:
        return "none" if self.summary == "none" else f"{self.summary}:{self.weight}"


def parse_model_spec(text: str) -> ModelSpec:
    """Parse ``SUMMARY:WEIGHT`` (e.g. ``p*|c:length``) or ``none``.

    Raises
    ------
    ModelSpecError
        Naming the known summaries and weights.

    Examples
    --------
    >>> parse_model_spec("p*|c:length")
    ModelSpec(summary='p*|c', weight='length')
    >>> str(parse_model_spec("none"))
    'none'
    """
    if text.strip() == "none":
        return ModelSpec("none")
    summary, sep, weight = text.strip().rpartition(":")
    expected = (
        f"expected SUMMARY:WEIGHT with SUMMARY one of {', '.join(KINDS)} and WEIGHT one of "
        f"{', '.join(WEIGHT_SCHEMES)}, or 'none'"
    )
    if not sep:
        raise ModelSpecError(f"model {text!r}: {expected}")
    if summary not in KINDS:
        raise ModelSpecError(f"model {text!r}: unknown summary {summary!r}; {expected}{glob_hint(summary)}")
    if weight not in WEIGHT_SCHEMES:
        raise ModelSpecError(f"model {text!r}: unknown weight {weight!r}; {expected}")
    return ModelSpec(summary, weight)


class NoNavigation:
    """No browsing: ``p(e;f) = 0`` for e != f (SRP@k reduces to P@k)."""

    name = "none"

    def seen_probability(self, sids: np.ndarray) -> np.ndarray:
        return np.zeros(len(sids))

    def __repr__(self) -> str:
        return "NoNavigation()"


@dataclass(eq=False)
class SteadyStateModel:
    """SR navigation from a steady state over summary nodes (Eq 7).

    Attributes
    ----------
    pi : ndarray
        Steady-state probability per SID.
    name : str
        E.g. ``p*:extent``.
    summary : Summary, optional
        The summary whose SIDs index ``pi``.
    """

    pi: np.ndarray
    name: str = "custom"
    summary: Summary | None = field(default=None, repr=False)

    def seen_probability(self, sids: np.ndarray) -> np.ndarray:
        """``p(e;f) = 1 - pi(S(e))`` for e != f in one document (Eq 7)."""
        sids = np.asarray(sids, dtype=np.int64)
        if len(sids) and (sids.min() < 0 or sids.max() >= len(self.pi)):
            raise ValueError("summary node id out of range for this model")
        return 1.0 - self.pi[sids]


def build_sr_model(summary: Summary, weight: str = "extent", solver: str = "eq8") -> SteadyStateModel:
    """Steady-state SR model of a summary with a weight scheme.

    Parameters
    ----------
    summary : Summary
    weight : {'extent', 'length', 'uniform'}
    solver : {'eq8', 'general'}
        ``eq8``: Eq 8 on the symmetric weights (default, as the paper);
        ``general``: the stationary distribution of the row-stochastic chain
        (:func:`~graphsr.navigation.stationary_distribution`), which differs
        from Eq 8 only on disconnected summaries.
    """
    w = weight_matrix(summary, weight)
    if solver == "eq8":
        pi = reversible_steady_state(w)
    elif solver == "general":
        pi = stationary_distribution(w)
    else:
        raise ValueError(f"unknown solver {solver!r}; expected 'eq8' or 'general'")
    return SteadyStateModel(pi, f"{summary.kind.name}:{weight}", summary)
