"""Navigation models kept in a graph store: build from a stored summary, save, reload by name."""

from __future__ import annotations

from ..store.base import GraphStore
from ..store.services import model_record, save_model, stored_summary
from .model import ModelSpec, SteadyStateModel, build_sr_model, parse_model_spec
from .weights import weight_matrix

__all__ = ["build_stored_model", "load_stored_model"]


def build_stored_model(store: GraphStore, collection: str, spec: ModelSpec | str, name: str | None = None,
                       solver: str = "eq8") -> SteadyStateModel:
    """Build the SR model of a stored summary and store it (weights and pi) under ``name``.

    The default name is ``COLLECTION/SUMMARY:WEIGHT``.
    """
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    summary = stored_summary(store, collection, spec.summary)
    model = build_sr_model(summary, spec.weight, solver=solver)
    name = name or f"{collection}/{spec}"
    w = weight_matrix(summary, spec.weight).tocoo()
    save_model(store, name, collection, spec.summary, model.pi, weight=spec.weight, solver=solver,
               params={"spec": str(spec)}, weights=(w.row, w.col, w.data))
    model.name = name
    return model


def load_stored_model(store: GraphStore, name: str) -> SteadyStateModel:
    """A stored model as a :class:`SteadyStateModel` (with its summary rebuilt from the store)."""
    rec = model_record(store, name)
    return SteadyStateModel(rec["pi"], name, rec["summary"])
