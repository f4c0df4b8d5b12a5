"""Run the whole pipeline on the bundled samples (Moby Dick of the SR paper, ten Shakespeare plays).

(Then ESR: simulated user routes are stored as a study, a navigation model
is learned from them in the store, and the runs are scored with ESRP, ESRR
and SRiP; and the official INEX thorough measures, iP[0.01] and MAiP, on the
runs and assessments taken as character passages -- thorough, because the
sample runs return nested elements, which the official tool scores only in
that task.)

For each sample: load the collection into the graph store (the local store
by default: ``--store`` or ``$GRAPHSR_STORE`` choose another) with every
summary kind, its elements, assessments and runs; build and store a
navigation model per summary kind x weight scheme; reload each model from
the store and score the sample runs with SRP@5 and SRP@10; print the means
next to the scores without navigation.
"""

from __future__ import annotations

import argparse
import sys

from ._common import PROGRESS_HELP, progress_default
from .wording import CLI_WORDING

MODELS = ["none", "p*:extent", "p*:length", "p*|c:extent", "p*|c:length", "c:extent", "tag:extent", "tag:uniform"]
MEASURES = ["SRP@5", "SRP@10"]


def pasteable(*parts: list[str]) -> str:
    """A shell command, each part on a line of its own ending in a backslash, every word quoted
    where the shell needs it: pasted into a shell it runs as printed."""
    import shlex

    return " \\\n       ".join(shlex.join(p) for p in parts)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--sample", action="append", choices=["mobydick", "shakespeare"], help="sample set(s) to run (default: both)"
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    p.add_argument(
        "--store", metavar="URL", help="graph store to use (default: $GRAPHSR_STORE or the per-user local store)"
    )
    p.add_argument(
        "--out",
        default="graphsr-demo",
        metavar="DIR",
        help="directory for what the demo writes: report.html (every score it computes), "
        "scores.parquet and each sample's summary view, SAMPLE.view.html (default: graphsr-demo)",
    )


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from .._extras import need

    for module in ("matplotlib", "jinja2", "pyarrow"):  # the demo ends with its report: say so before the work
        need(module, "the demo's report")
    from ..io.atomic import output_directory

    directory = output_directory(args.out, "the demo's report")  # before the work, not after it

    from ..data import sample
    from ..evaluation.entry import evaluate
    from ..evaluation.stored import stored_navigation
    from ..measures.provider import ScoringContext
    from ..io import read_element_qrels, read_run
    from ..measures import parse_measures
    from ..navigation.stored import build_stored_model
    from ..store import open_store, store_assessments, store_collection, store_run
    from ..store.base import StoreError
    from ..store.trees import stored_trees

    progress = progress_default() if args.progress is None else args.progress
    measures = parse_measures(MEASURES)
    scores = []
    views = []  # (file beside the report, what it shows)
    out = sys.stdout
    with open_store(args.store) as store:
        out.write(f"graph store: {store.url}\n\n")
        for name in args.sample or ["mobydick", "shakespeare"]:
            s = sample(name)
            qrels = read_element_qrels(s["qrels"])
            runs = [read_run(p, name=p.stem) for p in s["runs"]]
            kinds = sorted({m.split(":")[0] for m in MODELS if m != "none"})
            report, summaries = store_collection(
                store, s["collection"], name, kinds=kinds, elements="all", progress=progress
            )
            store_assessments(store, qrels, name, "qrels.txt")
            for r in runs:
                store_run(store, r, name)
            touched = qrels.docids().union(*(r.docids() for r in runs))
            views.append(_view(store, name, qrels, runs, directory))
            out.write(
                f"== sample {name}: {report.documents} document(s), {len(qrels.topics)} topic(s), "
                f"{len(runs)} runs; stored with "
                + ", ".join(f"{k} ({len(v)} nodes)" for k, v in summaries.items())
                + " summaries\n\n"
            )
            rows = []
            docs = stored_trees(store, name, touched)  # rebuilt from the store
            if len(docs) != len(set(touched)):
                raise StoreError(f"sample {name}: documents {sorted(set(touched) - set(docs))} did not read back")
            for spec in MODELS:
                if spec == "none":

                    def seen_of(docid, docs=docs):
                        return np.zeros(len(docs[docid]))
                else:
                    model = build_stored_model(store, name, spec, f"{name}/{spec}")
                    _, seen_of, _ = stored_navigation(store, model.name, touched, documents=docs)
                context = ScoringContext(docs, seen_of, spec, wording=CLI_WORDING)
                rows.append((spec, evaluate(qrels, runs, measures, context, all_topics=False)))
                scores.append(_scores(rows[-1][1], name, f" [{spec}]"))
            width = max(len(r.name) for r in runs)
            for m in measures:
                out.write(f"   mean {m} per run (rows) and navigation model (columns)\n")
                out.write(f"   {'run':<{width}}" + "".join(f"{spec:>13}" for spec, _ in rows) + "\n")
                for r in runs:
                    out.write(
                        f"   {r.name:<{width}}" + "".join(f"{res[r.name].mean(m):>13.4f}" for _, res in rows) + "\n"
                    )
                out.write("\n")
            scores.append(_scores(_esr_section(out, store, name, qrels, runs, docs, touched), name))
            scores.append(_scores(_inex_section(out, qrels, runs, docs, s), name))
            out.write("   the same from the command line (paste it as it is):\n")
            out.write(
                "   "
                + pasteable(
                    ["graphsr", "eval", str(s["qrels"]), *map(str, s["runs"])],
                    ["--store", store.url, "--model", f"{name}/p*|c:length", "-m", "SRP@5", "-m", "SRP@10"],
                )
                + "\n\n"
            )
    out.write(
        "'none' is SR without navigation (SRP@k = P@k with binary relevance); other columns use the\n"
        "steady state (CIKM'08 Eq 8) of the summary graph under the given edge weights, stored as a model\n"
        "in the graph store and reloaded from it ('graphsr store models' lists them).\n\n"
    )
    from ..analysis.report import build_report, write_report
    from ..analysis.scores import ScoreTable

    table = ScoreTable.concat(scores)
    from ..evaluation.provenance import input_record, provenance_record

    table.provenance = [
        provenance_record(
            [input_record("qrels", s["qrels"])]
            + [input_record("run", r) for r in s["runs"]]
            + [input_record("collection", s["collection"])],
            {"sample": name, "models": list(MODELS), "measures": list(MEASURES)},
            ["demo", "--sample", name],
        )
        for name, s in ((name, sample(name)) for name in args.sample or ["mobydick", "shakespeare"])
    ]
    saved = directory / "scores.parquet"
    table.write(saved)
    page = build_report(table, "graphsr demo: every score of the sample runs", "graphsr demo", progress=progress)
    page.views.extend(views)
    path = write_report(page, directory / "report.html")
    out.write(
        f"report: {path.resolve()} (every score above: tables, significance, plots; open it in a browser)\n"
        f"scores: {saved.resolve()} (a score table: graphsr compare / agree / report take it)\n"
        f"views: {', '.join(str((directory / v).resolve()) for v, _ in views)} (each sample's summary, "
        "where its assessments and runs fall: graphsr view)\n"
    )
    return 0


def _view(store, name: str, qrels, runs, directory) -> tuple[str, str]:
    """Write the interactive view of a stored sample's p* summary with its assessments and runs beside the
    report (graphsr view), and say what the report links to."""
    from ..analysis.partitions import stored_partitions
    from ..analysis.view import view_data, write_view

    path = directory / f"{name}.view.html"
    write_view(view_data(stored_partitions(store, name, "p*"), qrels, runs), path, "html")
    return path.name, f"the p* summary of the {name} sample, its assessments and runs"


def _scores(results, sample: str, suffix: str = ""):
    """The results as a score table with runs and topics named by sample, measures by model."""
    from ..analysis.scores import ScoreTable

    frame = results.to_frame(include_all=True)
    frame["run"] = sample + "/" + frame["run"]
    frame["topic"] = frame["topic"].where(frame["topic"] == "all", sample + ":" + frame["topic"])
    frame["measure"] = frame["measure"] + suffix
    return ScoreTable(frame)


ESR_MEASURES = ["ESRP@5", "ESRR@10", "SRiP@10"]


def _esr_section(out, store, name, qrels, runs, docs, touched):
    """Simulated routes -> stored study -> route model aggregated in the store -> ESR scores."""
    from ..evaluation.entry import evaluate
    from ..measures import parse_measures
    from ..measures.provider import ScoringContext
    from ..navigation.stored import build_stored_route_model, load_stored_route_model
    from ..simulation import RouteSimulator
    from ..store import store_steps

    steps = [s.as_dict() for s in RouteSimulator(seed=2009).walk([docs[d] for d in sorted(touched)], 2000)]
    store_steps(store, name, "simulated", steps)
    model_name = build_stored_route_model(store, name, "simulated", "p*")
    model = load_stored_route_model(store, model_name, docs)
    measures = parse_measures(ESR_MEASURES)
    res = evaluate(
        qrels, runs, measures, ScoringContext(docs, route_model=model, wording=CLI_WORDING), all_topics=False
    )
    width = max(len(r.name) for r in runs)
    out.write(f"   ESR with navigation learned from {len(steps)} simulated route steps (model {model_name!r})\n")
    out.write(f"   {'run':<{width}}" + "".join(f"{str(m):>13}" for m in measures) + "\n")
    for r in res:
        out.write(f"   {r.name:<{width}}" + "".join(f"{r.mean(m):>13.4f}" for m in measures) + "\n")
    out.write("\n")
    return res


def _inex_measures() -> list[str]:
    """The official tool's iP[0.01] and MAiP (of its headline, graphsr.measures.fol.OFFICIAL_FOCUSED)."""
    from ..measures.fol import OFFICIAL_FOCUSED

    return [OFFICIAL_FOCUSED[1], OFFICIAL_FOCUSED[-1]]


def _inex_section(out, qrels, runs, docs, s):
    """The same runs under the official INEX thorough measures, elements taken as character ranges (the
    sample runs return nested elements: the official tool scores overlapping passages in the thorough task
    only)."""
    from ..evaluation.entry import evaluate
    from ..measures.provider import ScoringContext

    inex = _inex_measures()
    measures = [f"{m}(task=thorough)" for m in inex]  # elements as the text they cover
    res = evaluate(qrels, runs, measures, ScoringContext(docs, wording=CLI_WORDING), all_topics=False)
    width = max(len(r.name) for r in runs)
    out.write("   official INEX thorough measures, elements as character passages (no navigation)\n")
    out.write(f"   {'run':<{width}}" + "".join(f"{m:>13}" for m in inex) + "\n")
    for r in res:
        out.write(f"   {r.name:<{width}}" + "".join(f"{r.mean(m):>13.4f}" for m in res.measures) + "\n")
    out.write(
        "   the same (paste it as it is):\n   "
        + pasteable(
            ["graphsr", "eval", str(s["qrels"]), *map(str, s["runs"])],
            [
                "--collection",
                str(s["collection"]),
                "--task",
                "thorough",
                *(a for m in inex for a in ("-m", m)),
                "--format",
                "table",
            ],
        )
        + "\n\n"
    )
    return res
