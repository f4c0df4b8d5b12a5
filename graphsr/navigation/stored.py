"""Navigation models kept in a graph store: build from a stored summary, save, reload by name."""

from __future__ import annotations

from ..store.base import GraphStore
from ..store.services import model_record, save_model, stored_summary
from .from_routes import aggregated_weights, check_effort
from .model import ModelSpec, SteadyStateModel, build_sr_model, parse_model_spec
from .weights import weight_matrix

__all__ = ["build_stored_model", "load_stored_model", "build_stored_route_model", "load_stored_route_model"]


def build_stored_model(
    store: GraphStore, collection: str, spec: ModelSpec | str, name: str | None = None, solver: str = "eq8"
) -> SteadyStateModel:
    """Build the SR model of a stored summary and store it (weights and pi) under ``name``.

    The default name is ``COLLECTION/SUMMARY:WEIGHT``.
    """
    spec = parse_model_spec(spec) if isinstance(spec, str) else spec
    summary = stored_summary(store, collection, spec.summary)
    model = build_sr_model(summary, spec.weight, solver=solver)
    name = name or f"{collection}/{spec}"
    w = weight_matrix(summary, spec.weight).tocoo()
    save_model(
        store,
        name,
        collection,
        spec.summary,
        model.pi,
        weight=spec.weight,
        solver=solver,
        params={"spec": str(spec)},
        weights=(w.row, w.col, w.data),
    )
    model.name = name
    return model


def load_stored_model(store: GraphStore, name: str, record: dict | None = None) -> SteadyStateModel:
    """A stored model as a :class:`SteadyStateModel` (with its summary rebuilt from the store); ``record``: its
    :func:`~graphsr.store.services.model_record` where the caller read it already."""
    rec = model_record(store, name) if record is None else record
    if rec["kind"] == "elements":
        from ..errors import GraphsrInputError

        raise GraphsrInputError(
            f"model {name!r} is an elementary route model: it gives the ESR measures their "
            "navigation (--routes-model), not SR's steady state"
        )
    return SteadyStateModel(rec["pi"], name, rec["summary"])


def build_stored_route_model(
    store: GraphStore, collection: str, study: str, kind: str, name: str | None = None, effort: str = "count"
) -> str:
    """Aggregate a stored study's steps per pair of states (in the database) and store the model.

    ``kind`` is a stored summary's kind (states = its nodes) or ``'elements'``
    (one state per element).  A summary model keeps the step weights
    (``WEIGHT`` edges) and the stationary distribution of the learned chain
    (``PI``; general solver).  An elementary model keeps its parameters only:
    copying every element pair's weight would duplicate the study, so loading
    it aggregates the study's steps in the database again (a study loaded
    again later changes the model).  Returns the model's name (default
    ``COLLECTION/routes:STUDY:KIND:EFFORT``).
    """
    from ..store.services import transitions
    from .steady_state import stationary_distribution

    check_effort(effort)
    if kind == "elements":  # one state per element: the weights stay the study's steps, aggregated on load
        from ..store.services import save_element_model

        t = transitions(store, collection, study)
        if len(t["src"]) == 0:
            from ..errors import UnknownNodeError

            raise UnknownNodeError(f"study {study!r} of collection {collection!r} has no steps between stored elements")
        aggregated_weights(t, effort, f"study {study!r}")  # refuses untimed steps now, not when scoring
        name = name or f"{collection}/routes:{study}:elements:{effort}"
        save_element_model(
            store, name, collection, weight=effort, source=f"routes:{study}", params={"study": study, "effort": effort}
        )
        return name
    summary = stored_summary(store, collection, kind)
    t = transitions(store, collection, study, kind=kind)
    if len(t["src"]) == 0:
        from ..errors import UnknownNodeError

        raise UnknownNodeError(f"study {study!r} of collection {collection!r} has no steps between stored elements")
    weight = aggregated_weights(t, effort, f"study {study!r}")
    import scipy.sparse as sp

    w = sp.coo_matrix((weight, (t["src"], t["dst"])), shape=(len(summary), len(summary)))
    pi = stationary_distribution(w)
    name = name or f"{collection}/routes:{study}:{kind}:{effort}"
    save_model(
        store,
        name,
        collection,
        kind,
        pi,
        weight=effort,
        solver="general",
        source=f"routes:{study}",
        params={"study": study, "effort": effort},
        weights=(t["src"], t["dst"], weight),
    )
    return name


def load_stored_route_model(store: GraphStore, name: str, documents):
    """A stored route model as a RouteModel over ``documents`` (for the ESR measures)."""
    from .from_routes import summary_route_model

    rec = model_record(store, name)
    if not str(rec.get("source", "")).startswith("routes:"):
        from ..errors import GraphsrInputError

        raise GraphsrInputError(f"model {name!r} was not learned from routes (source {rec.get('source')!r})")
    if rec["kind"] == "elements":
        from ..store.services import transitions
        from .from_routes import element_route_model

        t = transitions(store, rec["collection"], rec["params"]["study"])
        weight = aggregated_weights(t, rec["weight"], f"study {rec['params']['study']!r}")
        return element_route_model(t["docid"], t["src_index"], t["dst_index"], weight, documents, rec["weight"])
    src, dst, val = rec["weights"]
    return summary_route_model(rec["summary"], src, dst, val, documents, rec["weight"])


def _read_stored_model(name: str, given) -> SteadyStateModel:
    """A stored model by its name, from the store ``given.collection`` holds (a :class:`GraphStore`)."""
    return load_stored_model(given.collection, name)


def _declare() -> None:
    from ..io import formats

    if not any(f.role == formats.MODEL for f in formats.FORMATS):
        formats.register(
            formats.InputFormat(
                "name",
                formats.MODEL,
                "SteadyStateModel",
                "a model's name in the graph store (graphsr store models)",
                lambda p: True,
                _read_stored_model,
                "the store",
            )
        )


_declare()
