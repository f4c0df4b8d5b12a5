r"""Systems made of several runs (random seeds, folds, repeated samplings) compared as systems.

A system's runs are scored on the same topics; the system's score on a topic is the mean of its runs' scores
on it, and systems are then compared by the paired tests of :mod:`graphsr.analysis.significance` over those
per-topic means (:func:`system_table`).  Or, with ``lmm``, every run's score is kept and a linear mixed model
is fitted to them (statsmodels' ``MixedLM``, restricted maximum likelihood):

.. math::

    x_{s,r,t} = \mu + \beta_s + u_t + \varepsilon_{s,r,t}, \qquad u_t \sim N(0, \sigma_u^2),\;
    \varepsilon \sim N(0, \sigma^2)

(system :math:`s`, run :math:`r` of it, topic :math:`t`; a random intercept per topic, the runs of a system
its replicates).  Each pair of systems is the Wald test of :math:`\beta_a - \beta_b = 0`, with its interval
(``MixedLMResults.t_test`` of the contrast: a normal distribution, as statsmodels takes for mixed models) and
the effect size :math:`(\hat\beta_a - \hat\beta_b) / \hat\sigma`; the p-values are then corrected over the
pairs as the other tests' are.  A warning statsmodels gives in the fit (a variance estimated on the boundary,
no convergence) is stated with the comparison's family of tests, never dropped.

Systems are named ``{name: [run, ...]}``; a run named by no system is a system of its own.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import GraphsrInputError

__all__ = ["parse_systems", "systems_by_pattern", "complete_systems", "system_table", "mixed_model_rows"]


def parse_systems(specs: list[str]) -> dict[str, list[str]]:
    """``NAME=RUN,RUN,...`` specs (the command line's ``--system``) as ``{name: [run, ...]}``."""
    out: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, runs = spec.partition("=")
        members = [r.strip() for r in runs.split(",")]
        if not sep or not name.strip() or not all(members):
            raise GraphsrInputError(f"a system is NAME=RUN,RUN,... (its runs, by name), got {spec!r}")
        if name.strip() in out:
            raise GraphsrInputError(f"system {name.strip()!r} is named twice")
        out[name.strip()] = members
    return out


def systems_by_pattern(runs: list[str], pattern: str) -> dict[str, list[str]]:
    """Runs grouped into systems by a regular expression: runs it matches (in full) are one system per value
    of its first group (``'(.*)-seed[0-9]+'``); runs it does not match stay systems of their own."""
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise GraphsrInputError(f"--systems-by {pattern!r} is not a regular expression: {exc}") from None
    if rx.groups < 1:
        raise GraphsrInputError(f"--systems-by {pattern!r} needs a group, (...), naming the system")
    out: dict[str, list[str]] = {}
    for r in runs:
        hit = rx.fullmatch(r)
        if hit and hit.group(1):
            out.setdefault(hit.group(1), []).append(r)
    if not out:
        raise GraphsrInputError(f"--systems-by {pattern!r} matches none of the runs ({', '.join(runs[:5])} ...)")
    return out


def complete_systems(systems: dict[str, list[str]], runs: list[str]) -> dict[str, list[str]]:
    """``systems`` checked against the table's ``runs`` (each run in one system at most, every run known, no
    system named as another's run), with every other run a system of its own, in the runs' order."""
    known = set(runs)
    owner: dict[str, str] = {}
    for name, members in systems.items():
        for r in members:
            if r not in known:
                raise GraphsrInputError(f"system {name!r}: the score table has no run {r!r}")
            if r in owner:
                raise GraphsrInputError(f"run {r!r} is in two systems, {owner[r]!r} and {name!r}")
            owner[r] = name
    for name in systems:
        if name in known and owner.get(name) != name:
            raise GraphsrInputError(f"system {name!r} has the name of a run that is not its own: name it otherwise")
    out: dict[str, list[str]] = {}
    for r in runs:  # (systems in the order of their first run)
        name = owner.get(r, r)
        out.setdefault(name, []).append(r)
    return out


def _per_topic(scores, measure: str, name: str, members: list[str]):
    table = scores.per_topic(measure, members)
    have = table.notna()
    if not have.all(axis=None):
        counts = have.sum().to_dict()
        raise GraphsrInputError(
            f"system {name!r}: its runs are not scored on the same topics under {measure} "
            f"({', '.join(f'{r} {n}' for r, n in counts.items())}): a system's runs must share their topics"
        )
    return table


def system_table(scores, systems: dict[str, list[str]], measures: list[str] | None = None):
    """A score table of systems under ``measures`` (default: all): each system's score on a topic the mean of its
    runs' scores on it (no ``all`` rows: a system's mean is the mean over topics).  ``systems`` as
    :func:`complete_systems` gives them."""
    import pandas as pd

    from .scores import ScoreTable

    parts = []
    for m in measures or scores.measures:
        for name, members in systems.items():
            table = _per_topic(scores, m, name, members)
            mean = table.mean(axis=1)
            parts.append(pd.DataFrame({"run": name, "measure": m, "topic": mean.index, "value": mean.to_numpy()}))
    return ScoreTable(pd.concat(parts, ignore_index=True))


def mixed_model_rows(
    scores, systems: dict[str, list[str]], measure: str, couples, confidence: float
) -> tuple[list[dict], list[str]]:
    """Each pair of ``couples`` (systems) under ``measure``: the linear mixed model's difference of the two
    systems' effects, its interval at ``confidence`` and its Wald test's p-value, over the topics every system
    compared has (see the module docstring); and what statsmodels warned of in the fit (each once)."""
    import warnings

    import pandas as pd

    from .._extras import need

    need("statsmodels", "the linear mixed model (--test lmm)")
    import statsmodels.formula.api as smf

    names = list(dict.fromkeys([s for pair in couples for s in pair]))
    tables = {s: _per_topic(scores, measure, s, systems[s]) for s in names}
    from ..core.topics import topic_sort_key

    common = sorted(set.intersection(*(set(t.index) for t in tables.values())), key=topic_sort_key)
    if len(common) < 2:
        raise GraphsrInputError(f"{measure}: the systems share {len(common)} topics; the mixed model needs 2")
    rows = []
    for s in names:
        t = tables[s].loc[common]
        for r in t.columns:
            rows.append(pd.DataFrame({"system": s, "run": r, "topic": common, "value": t[r].to_numpy(float)}))
    data = pd.concat(rows, ignore_index=True)
    data["system"] = pd.Categorical(data["system"], categories=names)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = smf.mixedlm("value ~ C(system)", data, groups=data["topic"]).fit(reml=True)
    problems = sorted({str(w.message).splitlines()[0] for w in caught})
    params = list(fit.fe_params.index)
    out = []
    for a, b in couples:
        contrast = np.zeros((1, len(params)))  # (over the fixed effects: MixedLMResults.t_test's form)
        for s, sign in ((a, 1.0), (b, -1.0)):
            if s != names[0]:
                contrast[0, params.index(f"C(system)[T.{s}]")] += sign
        test = fit.t_test(contrast)
        low, high = np.asarray(test.conf_int(alpha=1 - confidence)).reshape(-1)
        ta, tb = tables[a].loc[common].mean(axis=1), tables[b].loc[common].mean(axis=1)
        from .intervals import wins_ties_losses

        w, ties, losses = wins_ties_losses(ta.to_numpy(float), tb.to_numpy(float))
        out.append(
            {
                "measure": measure,
                "run_a": a,
                "run_b": b,
                "topics": len(common),
                "mean_a": float(ta.mean()),
                "mean_b": float(tb.mean()),
                "diff": float(np.squeeze(test.effect)),
                "ci_low": float(low),
                "ci_high": float(high),
                "ci_method": "linear mixed model",
                "effect_size": float(np.squeeze(test.effect)) / float(np.sqrt(fit.scale)),
                "wins": w,
                "ties": ties,
                "losses": losses,
                "p": float(np.squeeze(test.pvalue)),
                "p_anova": np.nan,
            }
        )
    return out, problems
