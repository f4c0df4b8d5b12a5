"""What scoring element runs needs besides runs and assessments: documents and navigation.

:func:`element_context` chooses, from what a user gives and what the
requested measures' providers need, where the documents and the navigation
models come from -- a collection read in memory with a ``SUMMARY:WEIGHT``
model, or a model stored in the graph store (documents from ``collection``
if given, else from the store) -- and the ESR navigation (a route log learned
over the collection, a stored route model, or the depth prior).  The command
line only passes its options through.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..errors import GraphsrInputError
from ..measures.base import Measure
from ..measures.parse import parse_measures
from ..measures.provider import ELEMENT, ScoringContext, provider_of, worded

__all__ = ["ScoringContext", "element_context", "check_sources"]


def check_sources(
    measures: Sequence[Measure | str],
    collection=None,
    model: str | None = None,
    store: str | None = None,
    use_store: bool | None = None,
    routes=None,
    routes_model: str | None = None,
    nav: str = "elements",
    wording: Mapping[str, str] | None = None,
) -> tuple[set, bool, bool]:
    """Whether the sources given fit the element measures asked for, before anything is read (the keywords of
    :func:`element_context`): what the measures need, whether the model is a stored one, and whether ESR's
    navigation is the depth prior.

    Raises
    ------
    GraphsrInputError
        When what is given does not fit together (with what to give instead).
    """

    def say(name: str) -> str:
        return worded(wording, f"option:{name}")

    ms = parse_measures(list(measures))
    needs = set().union(*(provider_of(m).needs({ELEMENT}, [m]) for m in ms))
    needs_routes = "routes" in needs
    stored = (store is not None or collection is None) if use_store is None else use_store
    if stored and not model and store is None and use_store is None and "navigation" not in needs:
        raise GraphsrInputError(
            f"element runs are scored against their documents' element trees: give "
            f"{say('collection')} (the XML collection), or a stored model ({say('store')} with "
            f"{say('model')}) whose collection's elements are stored"
        )
    if stored and not model:
        raise GraphsrInputError(
            f"a stored model needs {say('model')} (the stored models are listed by 'graphsr "
            f"store models'); for a model built in memory give {say('collection')} and "
            f"{say('model_spec')}"
        )
    prior = nav == "depth4" and not (routes or routes_model)
    if needs_routes and not (routes or routes_model or prior):
        raise GraphsrInputError(
            f"ESR measures (and PRUM with nav=routes) need navigation learned from route "
            f"steps: give {say('routes')} (with {say('collection')}) or {say('routes_model')} "
            "(a stored model)"
        )
    if routes and stored:
        raise GraphsrInputError(f"{say('routes')} learns navigation from a log over {say('collection')}; give it")
    return needs, stored, prior


def element_context(
    docids: set[str],
    *,
    measures: Sequence[Measure | str] = (),
    collection=None,
    model: str | None = None,
    store: str | None = None,
    use_store: bool | None = None,
    routes: str | None = None,
    routes_model: str | None = None,
    nav: str = "elements",
    effort: str = "count",
    progress: bool = False,
    workers: int = 1,
    wording: Mapping[str, str] | None = None,
    known: Mapping | None = None,
) -> ScoringContext:
    """Documents and navigation for element runs naming ``docids``.

    Parameters
    ----------
    docids : set of str
        The documents the runs and assessments name.
    measures : sequence of Measure or str
        The measures to score: what their providers need decides what is
        built (no summary when none needs SR navigation; ESR navigation only
        when some measure needs it).
    collection : path-like, optional
        The XML collection.
    model : str, optional
        ``SUMMARY:WEIGHT`` (in memory) or the name of a stored model.
    store : str, optional
        The store's URL ('' or None: the default store).
    use_store : bool, optional
        Take the model from the store (default: when ``store`` is given or
        there is no ``collection``).
    routes, routes_model, nav, effort
        ESR navigation: a route log learned over ``collection`` with states
        ``nav`` and step weights ``effort``, or a stored route model; with
        neither, ``nav='depth4'`` is the depth prior.
    wording : mapping, optional
        How messages name the options (keys of :data:`~graphsr.measures.provider.PYTHON_WORDING`; None: as a
        Python caller gives them).
    known : mapping, optional
        Trees of documents of ``collection`` read already, by document id (the documents span judgments were
        read against): not read again.

    Raises
    ------
    GraphsrInputError
        When what is given does not fit together (with what to give instead).
    """

    needs, stored, prior = check_sources(
        measures, collection, model, store, use_store, routes, routes_model, nav, wording
    )

    log = None
    touched = set(docids)
    if routes:
        from ..io.routes import read_routes

        log = read_routes(routes)
        touched |= log.docids()
    loaded = None
    if stored:
        assert model is not None  # (check_sources refuses a stored model without its name)
        documents, seen_of, model_name, num_elements = _stored(
            store, model, touched, collection, needs, progress, known
        )
    else:
        loaded, documents, seen_of, model_name = _in_memory(
            collection, model, touched, needs, log, nav, progress, workers, known
        )
        num_elements = loaded.num_elements
    route_model = _routes(documents, store, routes_model, log, loaded, nav, effort, prior)
    return ScoringContext(documents, seen_of, model_name, route_model, num_elements)


def _stored(store, model: str, touched: set, collection, needs: set, progress: bool, known=None):
    """Documents, SR navigation, the model's name and the collection's size from a stored model."""
    from ..evaluation.stored import stored_navigation
    from ..store import open_store

    num_elements = None
    with open_store(store or None, create=False) as s:
        documents, seen_of, model_name = stored_navigation(s, model, touched, collection, progress, known=known)
        if "size" in needs:
            from ..navigation.stored import load_stored_model

            summary = load_stored_model(s, model).summary
            assert summary is not None  # (a stored model is over a stored summary)
            num_elements = summary.num_elements
    return documents, seen_of, model_name, num_elements


def _in_memory(collection, model, touched: set, needs: set, log, nav: str, progress: bool, workers: int, known=None):
    """The collection read (only the summaries the measures and the route log need), its documents, SR
    navigation and the model's name."""
    from ..navigation import parse_model_spec
    from ..summaries.kinds import partition_kind
    from .collection import load_collection, navigation_for

    spec = parse_model_spec(model or "p*:extent")
    navigation = "navigation" in needs or model is not None
    kinds = [spec.summary] if navigation and spec.summary != "none" else []
    if log is not None and nav not in ("elements", "depth4"):
        kinds.append(partition_kind(nav).name)
    if "size" in needs and not kinds:
        kinds.append("tag")  # the cheapest summary counts the collection's elements
    loaded = load_collection(collection, kinds, keep=touched, progress=progress, workers=workers, known=known)
    seen_of = navigation_for(spec, loaded).seen_of if navigation else None
    return loaded, loaded.documents, seen_of, str(spec) if navigation else ""


def _routes(documents, store, routes_model, log, loaded, nav: str, effort: str, prior: bool):
    """ESR's navigation: a stored route model, one learned from the log, the depth prior, or None."""
    if routes_model:
        from ..navigation.stored import load_stored_route_model
        from ..store import open_store

        with open_store(store or None, create=False) as s:
            return load_stored_route_model(s, routes_model, documents)
    if log is not None:
        from ..navigation.from_routes import route_model as learn

        assert loaded is not None  # (a route log is learned over a collection read here: check_sources)
        partition = nav if nav in ("elements", "depth4") else loaded.summaries[nav]
        return learn(log, documents, partition, effort)
    if prior:
        from ..navigation.from_routes import depth4_prior

        return depth4_prior(documents)
    return None
