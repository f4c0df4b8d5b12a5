"""Evaluation results: per-topic values, means, and their text/CSV/JSON/DataFrame forms."""

from __future__ import annotations

import io
from .._records import record, field

import numpy as np

from ..measures.base import Measure

__all__ = ["RunResult", "Results"]


@record
class RunResult:
    """The values of one run: ``values[measure][k]`` is the value for ``topics[k]``.

    ``overall`` holds ``all`` values that are not the measure's own
    aggregate of the per-topic values (:meth:`Measure.aggregate
    <graphsr.measures.base.Measure.aggregate>`: the mean, or the sum of a
    count) -- the official tool's, summed in its order; ``run_id`` is the run
    id the run names (the official tool's header).
    """

    name: str
    topics: list[str]
    values: dict[Measure, np.ndarray]
    warnings: list[str] = field(default_factory=list)
    overall: dict = field(default_factory=dict)
    run_id: str | None = None
    source: str | None = None  # the name of the run scored (its file path), when ``name`` is its run id
    unassessed: list[str] = field(default_factory=list)  # the run's topics without assessments (not scored)

    def mean(self, measure: Measure) -> float:
        """The ``all`` value of ``measure``."""
        if measure in self.overall:
            return self.overall[measure]
        return measure.aggregate(self.values[measure])

    def records(self, include_all: bool = True, labels=None):
        """``(run, measure, topic, value)`` tuples, measures under ``labels`` (``(label, measure)`` pairs;
        default: each measure under its canonical name)."""
        for label, m in labels if labels is not None else [(str(m), m) for m in self.values]:
            for t, v in zip(self.topics, self.values[m].tolist()):
                yield self.name, label, t, float(v)
            if include_all:
                yield self.name, label, "all", self.mean(m)


def _text(m: Measure, v: float, digits: int) -> str:
    return str(int(round(v))) if m.INTEGER else f"{v:.{digits}f}"


@record
class Results:
    """Results of several runs, in the order they were given.

    ``measures`` are the distinct measures scored; ``requests`` the measures as they were asked for
    (:class:`~graphsr.measures.parse.Requested`: the name each is reported under, e.g. ``map`` or ``MAP``
    for ``AP``), which the outputs follow.
    """

    runs: list[RunResult]
    measures: list[Measure]
    model: str = ""
    requests: list | None = None
    errors: list = field(default_factory=list)  # runs that could not be scored (``evaluate(keep_going=True)``)
    #: Confidence intervals of the runs' means, ``{(run name, measure): (low, high)}``, which the formats then
    #: print beside each ``all`` value (``graphsr eval --ci``).
    intervals: dict = field(default_factory=dict)
    #: Prediction-powered estimates of the runs' means (``graphsr eval --ci ppi``), ``{(run name, measure):
    #: PPIEstimate}`` (:mod:`graphsr.analysis.ppi`): the formats print each one's estimate and weight beside the
    #: ``all`` value (people's judgments alone), and ``intervals`` holds its interval.
    estimates: dict = field(default_factory=dict)

    @property
    def labels(self) -> list[tuple[str, Measure]]:
        """``(name, measure)`` in the order asked for: one row per name asked for."""
        if self.requests is None:
            return [(str(m), m) for m in self.measures]
        return [(r.label, r.measure) for r in self.requests]

    def __iter__(self):
        return iter(self.runs)

    def __getitem__(self, name: str) -> RunResult:
        """A run's results by the name it is reported under (its run id, see
        :func:`~graphsr.evaluation.entry.run_labels`) or the name of the run scored (its file path)."""
        for r in self.runs:
            if r.name == name:
                return r
        for r in self.runs:
            if r.source == name:
                return r
        raise KeyError(name)

    # -- formats -----------------------------------------------------------
    def to_trec(self, per_topic: bool = False, digits: int = 6) -> str:
        """trec_eval-style text: ``measure<TAB>topic<TAB>value``.

        One block per run: a ``runid`` line with the run name, ``num_q``
        (the number of topics averaged), the per-topic lines (with
        ``per_topic``) and the means as topic ``all``.
        """
        from ..measures.trec_table import RUNID, TOPICS

        out = []
        labels = self.labels
        asked_num_q = any(label == TOPICS for label, _ in labels)  # then printed among the measures
        for r in self.runs:
            out.append(f"{RUNID}\tall\t{r.name}")
            if not asked_num_q:
                out.append(f"{TOPICS}\tall\t{len(r.topics)}")
            if per_topic:
                for k, t in enumerate(r.topics):
                    for label, m in labels:
                        out.append(f"{label}\t{t}\t{_text(m, r.values[m][k], digits)}")
            for label, m in labels:
                out.append(f"{label}\tall\t{_text(m, r.mean(m), digits)}")
                est = self.estimates.get((r.name, m))
                if est is not None:  # the prediction-powered estimate and its weight, as more rows
                    out.append(f"{label}\tppi\t{est.mean:.{digits}f}")
                    out.append(f"{label}\tppi_lambda\t{est.lam:.{digits}f}")
                    out.append(f"{label}\tppi_topics\t{est.labelled}+{est.unlabelled}")
                ci = self.intervals.get((r.name, m))
                if ci is not None:  # the interval's ends, as two more rows of the measure
                    out.append(f"{label}\tci_low\t{ci[0]:.{digits}f}")
                    out.append(f"{label}\tci_high\t{ci[1]:.{digits}f}")
        return "\n".join(out) + "\n" if out else ""

    def records(self, include_all: bool = True) -> list[tuple[str, str, str, float]]:
        """``(run, measure, topic, value)`` tuples."""
        labels = self.labels
        return [rec for r in self.runs for rec in r.records(include_all, labels)]

    def to_frame(self, include_all: bool = False):
        """A pandas DataFrame with columns run, measure, topic, value."""
        import pandas as pd

        return pd.DataFrame(self.records(include_all), columns=["run", "measure", "topic", "value"])

    def to_csv(self, include_all: bool = True) -> str:
        import csv

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        ppi = ["ppi", "ppi_lambda", "ppi_labelled", "ppi_unlabelled"] if self.estimates else []
        w.writerow(["run", "measure", "topic", "value"] + (["ci_low", "ci_high"] if self.intervals else []) + ppi)
        for run, m, t, v in self.records(include_all):
            extra = []
            if self.intervals:
                ci = self._interval(run, m) if t == "all" else None
                extra = [repr(ci[0]), repr(ci[1])] if ci is not None else ["", ""]
            if ppi:
                est = self._estimate(run, m) if t == "all" else None
                extra += [repr(est.mean), repr(est.lam), est.labelled, est.unlabelled] if est else ["", "", "", ""]
            w.writerow([run, m, t, repr(v)] + extra)
        return buf.getvalue()

    def _interval(self, run: str, label: str):
        """The interval of run ``run``'s mean of the measure reported as ``label``, if computed."""
        measure = dict(self.labels).get(label)
        return self.intervals.get((run, measure))

    def _estimate(self, run: str, label: str):
        """The prediction-powered estimate of run ``run``'s mean of the measure reported as ``label``, if made."""
        return self.estimates.get((run, dict(self.labels).get(label)))

    def to_json(self, include_all: bool = True) -> str:
        """The records as standard JSON: values at full precision, an undefined value (NaN) as null."""
        import json

        out = []
        for run, m, t, v in self.records(include_all):
            rec = {"run": run, "measure": m, "topic": t, "value": None if v != v else v}
            ci = self._interval(run, m) if t == "all" and self.intervals else None
            if ci is not None:
                rec["ci_low"], rec["ci_high"] = ci
            est = self._estimate(run, m) if t == "all" and self.estimates else None
            if est is not None:
                rec["ppi"], rec["ppi_lambda"] = est.mean, est.lam
                rec["ppi_labelled"], rec["ppi_unlabelled"] = est.labelled, est.unlabelled
            out.append(rec)
        return json.dumps(out, indent=1) + "\n"

    def table(self, per_topic: bool = False) -> str:
        """A readable table: one row per run (its ``all`` values), one column per measure; with
        ``per_topic`` (``-q``) a topic column, and each run's topics after its row."""
        names = [r.name for r in self.runs]
        width = max([len("run")] + [len(n) for n in names])
        tw = max([len("topic")] + [len(t) for r in self.runs for t in r.topics]) if per_topic else 0
        labels = self.labels
        cols = [label for label, _ in labels]

        def mean_text(r, m) -> str:
            ci = self.intervals.get((r.name, m))
            text = _text(m, r.mean(m), 4)
            est = self.estimates.get((r.name, m))
            if est is not None:  # people's mean, then the prediction-powered estimate with its interval
                return f"{text} ppi {est.mean:.4f} [{est.low:.4f}, {est.high:.4f}]"
            return f"{text} [{ci[0]:.4f}, {ci[1]:.4f}]" if ci is not None else text

        alls = {(r.name, label): mean_text(r, m) for r in self.runs for label, m in labels}
        cw = [max([8, len(c)] + [len(alls[r.name, c]) for r in self.runs]) for c in cols]

        def row(run: str, topic: str | None, values) -> str:
            head = [f"{run:<{width}}"] + ([f"{topic:<{tw}}"] if per_topic else [])
            return "  ".join(head + [f"{v:>{w}}" for v, w in zip(values, cw)])

        lines = [row("run", "topic", cols)]
        for r in self.runs:
            lines.append(row(r.name, "all", [alls[r.name, label] for label, _ in labels]))
            if per_topic:
                for k, t in enumerate(r.topics):
                    lines.append(row(r.name, t, [_text(m, r.values[m][k], 4) for _, m in labels]))
        return "\n".join(lines) + "\n"
