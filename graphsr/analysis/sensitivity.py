"""How much the navigation model matters: the same runs under several models, and how the system rankings
agree between the models (Kendall's tau-b of every pair, a matrix and a heat map).

SR measures vary with the SR model -- summary kinds x edge weights, or
``none``; ESR measures vary with the navigation learned from a route log
over each partition (elements, a summary kind) and with the depth prior
(``depth4``).  PRUM takes them all: ``structural`` (Eq 9), ``none``, each
SR model (``nav=model``), the depth prior and each route model
(``nav=routes``) -- route-learned against structural navigation in one
matrix.  The collection is read once for all the models.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GraphsrInputError

__all__ = ["SR_MODELS", "Sensitivity", "model_sensitivity"]

SR_MODELS = tuple(f"{k}:{w}" for k in ("p*", "p*|c", "c", "tag") for w in ("extent", "length", "uniform")) + ("none",)
ROUTE_NAVS = ("elements", "p*", "p*|c", "c", "tag")


@dataclass
class Sensitivity:
    measure: str
    models: list
    scores: "object"  # ScoreTable: measure "M [model]"
    means: "object"  # runs x models
    tau: "object"  # models x models, Kendall tau-b between the system rankings

    def text(self) -> str:
        lines = [f"{self.measure}: mean per run (rows) under each model (columns)"]
        lines.append(self.means.to_string(float_format=lambda v: f"{v:.4f}"))
        lines.append("")
        lines.append("Kendall tau-b between the system rankings of the models")
        lines.append(self.tau.to_string(float_format=lambda v: f"{v:.3f}"))
        return "\n".join(lines) + "\n"


def model_sensitivity(
    qrels, runs, measure, collection, models=None, routes=None, effort: str = "count", progress: bool = False
) -> Sensitivity:
    """Score ``runs`` with ``measure`` under each model and compare the system rankings."""
    from ..evaluation.collection import load_collection, navigation_for
    from ..evaluation.entry import evaluate
    from ..measures.parse import parse_measure
    from ..measures.provider import ScoringContext, provider_of
    from ..navigation import parse_model_spec
    from .agreement import kendall_matrix
    from .scores import ScoreTable

    if len(runs) < 3:
        raise GraphsrInputError(
            f"model sensitivity compares the rankings of runs: give at least 3 runs, got "
            f"{len(runs)} (two runs agree or disagree by one sign, a tau of +-1)"
        )
    m = parse_measure(measure)
    needs = provider_of(m).needs({"element"}, [m])
    route_based = "routes" in needs
    prum = m.FAMILY == "prum"
    route_models = ["depth4"] + ([f"routes:{n}" for n in ROUTE_NAVS] if routes else [])
    if models is None:
        models = ["structural", *SR_MODELS, *route_models] if prum else route_models if route_based else list(SR_MODELS)
    if not prum and "structural" in models:
        raise GraphsrInputError("the structural model (PRUM Eq 9) is PRUM's; give PRUM or MAPRUM")
    touched = qrels.docids().union(*(r.docids() for r in runs))
    log = None
    if routes:
        from ..io.routes import read_routes

        log = read_routes(routes)
        touched |= log.docids()
    kinds = set()
    for spec in models:
        if spec.startswith("routes:"):
            if log is None:
                raise GraphsrInputError(
                    f"model {spec}: learning navigation from routes needs a route log (--routes LOG; routes= in Python)"
                )
            nav = spec.split(":", 1)[1]
            if nav not in ROUTE_NAVS:
                raise GraphsrInputError(f"model {spec}: routes are learned over {', '.join(ROUTE_NAVS)}")
            if nav != "elements":
                kinds.add(nav)
        elif spec not in ("depth4", "structural"):
            s = parse_model_spec(spec)
            if s.summary != "none":
                kinds.add(s.summary)
    kinds.add(next(iter(kinds), "tag"))
    loaded = load_collection(collection, sorted(kinds), keep=touched, progress=progress)
    size = loaded.num_elements
    from ..io.progress import progress_bar

    frames = []
    bar = progress_bar(len(models), "models", progress, "model")
    for spec in models:
        bar.update(1)
        scored = m
        if spec == "structural":
            ctx = ScoringContext(loaded.documents, None, spec, None, size)
            scored = m(nav="structural")
        elif spec == "depth4":
            from ..navigation.from_routes import depth4_prior

            ctx = ScoringContext(loaded.documents, None, spec, depth4_prior(loaded.documents), size)
        elif spec.startswith("routes:"):
            from ..navigation.from_routes import route_model

            nav = spec.split(":", 1)[1]
            partition = nav if nav == "elements" else loaded.summaries[nav]
            ctx = ScoringContext(
                loaded.documents, None, spec, route_model(log, loaded.documents, partition, effort), size
            )
        else:
            seen_of = navigation_for(spec, loaded).seen_of
            ctx = ScoringContext(loaded.documents, seen_of, spec, None, size)
        if prum and spec != "structural":
            scored = m(
                nav="routes"
                if spec == "depth4" or spec.startswith("routes:")
                else "none"
                if spec == "none"
                else "model"
            )
        frame = evaluate(qrels, runs, [scored], ctx, all_topics=False).to_frame(include_all=True)
        frame["measure"] = f"{m} [{spec}]"
        frames.append(ScoreTable(frame))
    bar.close()
    table = ScoreTable.concat(frames)
    means = table.means()
    means.columns = list(models)
    return Sensitivity(str(m), list(models), table, means, kendall_matrix(means))
