"""Manage the property-graph store: load collections, build summaries and models, show what is stored.

The store is ``--store URL`` (``local:PATH``, ``bolt://HOST:PORT``,
``neo4j://HOST:PORT``), else ``$GRAPHSR_STORE``, else the local store in the
per-user data directory.
"""

from __future__ import annotations

import argparse
import io
import sys
import time

from ._common import EFFORT_HELP, PROGRESS_HELP, number, progress_default, warn


#: The example of ``store query --help`` (a test runs it against a sample store).
QUERY_EXAMPLE = (
    "MATCH (d:Document) WHERE d.docid = $doc RETURN d.code AS code, d.elements AS elements, d.length AS length"
)


def _store_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--store",
        metavar="URL",
        help="local:PATH, bolt://HOST:PORT or neo4j://HOST:PORT (default: $GRAPHSR_STORE or the per-user local store)",
    )


def routes_arguments(a: argparse.ArgumentParser) -> None:
    """Arguments of loading a navigation log (``store routes``, ``routes load``)."""
    _store_arg(a)
    a.add_argument("log", help="the navigation log")
    a.add_argument(
        "--collection", required=True, help="the stored collection (its route documents' elements must be stored)"
    )
    a.add_argument("--study", required=True, help="name of the study the routes belong to")
    a.add_argument(
        "--replace",
        action="store_true",
        help="if the study holds another log, swap it for this one (refused without: a study is never "
        "a mix of two logs; the same log again changes nothing)",
    )


def model_arguments(a: argparse.ArgumentParser) -> None:
    """Arguments of building a stored model (``store model``, ``model build``)."""
    _store_arg(a)
    a.add_argument("--collection", required=True, help="the stored collection's name")
    a.add_argument("--model", metavar="SUMMARY:WEIGHT", help="an SR model, e.g. p*|c:length")
    a.add_argument(
        "--from-routes", metavar="STUDY", help="a model of route steps of a stored study (aggregated in the database)"
    )
    a.add_argument(
        "--nav",
        default="p*",
        metavar="STATES",
        help="states for --from-routes: a summary kind (p*, the default; p*|c, c, tag) or elements",
    )
    a.add_argument("--effort", choices=["count", "duration"], default="count", help="for --from-routes: " + EFFORT_HELP)
    a.add_argument(
        "--name",
        help="name to store it under (default: COLLECTION/SUMMARY:WEIGHT or COLLECTION/routes:STUDY:SUMMARY:EFFORT)",
    )
    a.add_argument(
        "--solver",
        choices=["eq8", "general"],
        default="eq8",
        help="steady state: eq8, CIKM'08 Eq 8 for symmetric weights (default), or general, the "
        "long-run distribution of any chain P = D^-1 W",
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    a = sub.add_parser("init", help="start the store if needed and create its indexes")
    _store_arg(a)
    a = sub.add_parser("start", help="start the local store and leave it running")
    _store_arg(a)
    a.add_argument(
        "--memory",
        metavar="SIZE",
        help="the server's memory limit, e.g. 8G or 50%% of physical memory "
        "(default: $GRAPHSR_STORE_MEMORY, else 50%%)",
    )
    a.add_argument(
        "--data-memory",
        metavar="SIZE",
        help="how much data it may hold; past it writes are refused "
        "(default: $GRAPHSR_STORE_DATA_MEMORY, else half the memory)",
    )
    a.add_argument(
        "--query-memory",
        metavar="SIZE",
        help="how much memory one query may take (default: $GRAPHSR_STORE_QUERY_MEMORY, else a quarter of the memory)",
    )
    a.add_argument(
        "--query-time",
        metavar="SECONDS",
        help="how long any query may run (default: $GRAPHSR_STORE_QUERY_TIME, else 3600)",
    )
    a = sub.add_parser("stop", help="stop a running local store (its data stay) once no command uses it")
    _store_arg(a)
    a.add_argument(
        "--wait",
        type=number(float, "[0, 86400]"),
        default=0.0,
        metavar="SECONDS",
        help="wait up to SECONDS for commands using the store to finish (default: refuse at once)",
    )
    a = sub.add_parser(
        "load", help="load a collection, its summaries and (some of) its elements, optionally assessments and runs"
    )
    _store_arg(a)
    a.add_argument(
        "collection",
        metavar="DIR",
        help="the collection (directory, file, tar/zip archive or JSON lines corpus of XML, Markdown, text or HTML)",
    )
    a.add_argument("--name", help="the collection's name in the store (default: the directory name)")
    a.add_argument(
        "--kind",
        action="append",
        dest="kinds",
        metavar="SUMMARY",
        help="summary kind to build and store: p*, p*|c, c, tag (repeatable; default p* and p*|c)",
    )
    a.add_argument(
        "--elements",
        choices=["none", "all", "touched"],
        default=None,
        help="element nodes to store: none, all, or those of the documents the given qrels/runs "
        "touch (default: touched if --qrels/--run are given, else none)",
    )
    a.add_argument("--qrels", help="element qrels to store (their documents' elements are stored)")
    a.add_argument("--run", action="append", dest="runs", default=[], metavar="RUN", help="run to store (repeatable)")
    a.add_argument(
        "--replace",
        action="store_true",
        help="a collection, assessments or run stored under the same name with other content is "
        "replaced by this (refused without: names are never merged; the same content again "
        "changes nothing)",
    )
    a.add_argument(
        "--drop-dependants",
        action="store_true",
        help="with --replace: remove the old collection's assessments, runs, studies and models with it "
        "(refused without, naming them: they were made against the old documents)",
    )
    a.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    routes_arguments(sub.add_parser("routes", help="load a navigation log (CSV or JSON lines) as a study's routes"))
    model_arguments(
        sub.add_parser(
            "model", help="build a navigation model (SR from a summary, or ESR from a study's routes) and store it"
        )
    )
    a = sub.add_parser(
        "drop", help="remove a collection (with all stored under it), a model or a study, in bounded batches"
    )
    _store_arg(a)
    a.add_argument("collection", nargs="?", help="the collection to remove (with --study: the study's collection)")
    a.add_argument("--model", action="append", default=[], metavar="NAME", help="a model to remove (repeatable)")
    a.add_argument("--study", metavar="NAME", help="a study of COLLECTION to remove, with its routes and steps")
    a = sub.add_parser("models", help="list the stored models")
    _store_arg(a)
    a = sub.add_parser("summaries", help="list the stored summaries")
    _store_arg(a)
    a = sub.add_parser("show", help="show what is stored: counts per label and relationship type, collections")
    _store_arg(a)
    a = sub.add_parser(
        "export",
        help="write a stored collection, with everything stored under it, as node and "
        "relationship CSV files for 'neo4j-admin database import'",
    )
    _store_arg(a)
    a.add_argument("directory", metavar="DIR", help="a new (or empty) directory for the CSV files")
    a.add_argument("--collection", required=True, help="the stored collection's name")
    a.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    a = sub.add_parser("query", help="run a read-only Cypher query (writes are refused), with $parameters")
    a.add_argument(
        "cypher",
        help=f"the query, e.g. {QUERY_EXAMPLE!r} --param doc=DOCID (the graph schema: docs/reference/schema.md)",
    )
    a.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a string parameter $NAME (repeatable; the value is passed as is, never formatted in)",
    )
    a.add_argument(
        "--param-json",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="a parameter given as JSON (numbers, lists, maps, true/false/null)",
    )
    a.add_argument(
        "--format",
        choices=["table", "csv", "json"],
        default="table",
        help="aligned table (default), CSV, or JSON records",
    )
    a.add_argument(
        "--timeout",
        type=number(float, "(0, 86400]"),
        default=60.0,
        metavar="SECONDS",
        help="the server stops the query after this long (default: 60)",
    )
    _store_arg(a)


def _table(rows: list[dict], columns: list[str]) -> str:
    if not rows:
        return "(none)\n"
    widths = [max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in columns]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths))]
    lines += ["  ".join(str(r.get(c, "")).ljust(w) for c, w in zip(columns, widths)) for r in rows]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from ..store import open_store
    from ..store.url import default_store_url

    started = time.monotonic()  # a load reports the command's wall time: server start and saving included
    url = args.store or default_store_url()
    if args.store_command == "stop":
        from ..store import stop_store

        stopped = stop_store(url, wait=args.wait)
        sys.stdout.write(("stopped " if stopped else "not running: ") + url + "\n")
        return 0
    # what a write command reports is printed once its data are durable (the store persists on leaving the
    # block; a failure there is the command's failure, exit 3)
    out = io.StringIO()
    # only init, start and load make a store; every other action needs one (a mistyped path is not an empty store)
    options = {}
    if args.store_command == "start" and url.startswith("local:"):
        from ..store.limits import ServerLimits

        options["limits"] = ServerLimits.resolve(args.memory, args.data_memory, args.query_memory, args.query_time)
    with open_store(
        url,
        keep_running=args.store_command == "start",
        create=args.store_command in ("init", "start", "load"),
        **options,
    ) as store:
        if args.store_command in WRITERS:  # one writing command at a time: what it checks stays true
            with store.writing():
                ACTIONS[args.store_command](store, args, out)
        else:
            ACTIONS[args.store_command](store, args, out)
    text = out.getvalue()
    if WALL in text:  # the load's line, now that its data are saved
        seconds = time.monotonic() - started
        items = getattr(args, "_created", 0)
        rate = f", {items / seconds:.0f} per s" if items and seconds >= 0.5 else ""
        text = text.replace(WALL, f"{seconds:.1f} s{rate}")
    sys.stdout.write(text)
    return 0


#: Where a load's line says how long the command took (filled in once the store has saved the data).
WALL = "\x00wall\x00"


def _ready(store, args, out) -> None:
    store.init_schema()
    server = getattr(store, "server", None)
    if server is None:  # a Neo4j server: its limits are its own
        out.write(f"ready: {store.url}\n")
        return
    running = server.running_limits()
    out.write(f"ready: {store.url} ({running.describe() if running else 'limits unknown'})\n")
    asked = server.limits
    if args.store_command == "start" and not store.started and asked is not None and running != asked:
        out.write(
            f"note: the server was already running; these limits hold until 'graphsr store stop' "
            f"(asked for: {asked.describe()})\n"
        )


def _model(store, args, out) -> None:
    from ..errors import GraphsrInputError
    from ..navigation.stored import build_stored_model, build_stored_route_model

    if bool(args.model) == bool(args.from_routes):
        raise GraphsrInputError("give either --model SUMMARY:WEIGHT or --from-routes STUDY")
    if args.model:
        model = build_stored_model(store, args.collection, args.model, args.name, args.solver)
        out.write(f"stored model {model.name!r}: {len(model.pi)} summary nodes\n")
        return
    from ..summaries.kinds import partition_kind

    kind = "elements" if args.nav == "elements" else partition_kind(args.nav).name
    name = build_stored_route_model(store, args.collection, args.from_routes, kind, args.name, args.effort)
    out.write(f"stored model {name!r} from the routes of study {args.from_routes!r}\n")


def _routes(store, args, out) -> None:
    from ..io import read_routes
    from ..store import store_steps

    routes = read_routes(args.log)
    done = store_steps(store, args.collection, args.study, routes, routes.source, replace=args.replace)
    if done.unchanged:
        out.write(
            f"study {args.study!r}: holds this log already ({done.steps} steps of {done.routes} routes); "
            "nothing changed\n"
        )
    else:
        out.write(
            f"study {args.study!r}: {done.steps} steps of {done.routes} routes stored"
            + (" (replacing the log it held)" if done.replaced else "")
            + "\n"
        )
    for line in routes.report.lines()[1:]:
        warn(line)


def _models(store, args, out) -> None:
    from ..store import list_models

    out.write(_table(list_models(store), ["name", "collection", "kind", "weight", "solver", "source"]))


def _summaries(store, args, out) -> None:
    from ..store import list_summaries

    out.write(_table(list_summaries(store), ["collection", "kind", "nodes", "edges", "documents", "elements"]))


def _show(store, args, out) -> None:
    from ..store import list_collections

    out.write(f"store: {store.url}\n")
    out.write(_table([{"what": k, "count": v} for k, v in store.counts().items() if v], ["what", "count"]))
    rows = list_collections(store)
    for r in rows:
        r["state"] = "complete" if r["complete"] else "INCOMPLETE: load it again to complete it"
        if not r["complete"]:
            r["elements"] = "?"
    out.write("\ncollections:\n" + _table(rows, ["name", "documents", "elements", "state", "path"]))


def _drop(store, args, out) -> None:
    from ..errors import GraphsrInputError
    from ..store import drop_collection, drop_model, drop_study

    if not (args.collection or args.model):
        raise GraphsrInputError("name what to remove: COLLECTION, COLLECTION --study NAME or --model NAME")
    for name in args.model:
        out.write(f"removed model {name!r} ({drop_model(store, name)} node)\n")
    if args.study:
        if not args.collection:
            raise GraphsrInputError("--study needs the study's COLLECTION")
        n = drop_study(store, args.collection, args.study)
        out.write(f"removed study {args.study!r} of collection {args.collection!r} ({n} nodes)\n")
    elif args.collection:
        n = drop_collection(store, args.collection)
        out.write(f"removed collection {args.collection!r} with everything stored under it ({n} nodes)\n")


def _load(store, args, out) -> None:
    from ..io import read_element_qrels, read_run
    from ..store import store_assessments, store_collection, store_run
    from ..store.load import run_name, validate_references

    qrels = read_element_qrels(args.qrels) if args.qrels else None
    runs = [read_run(r) for r in args.runs]
    validate_references(args.collection, qrels, runs)  # a load that would fail writes nothing
    elements = args.elements or ("touched" if qrels or runs else "none")
    if elements == "touched":
        touched = set()
        if qrels:
            touched |= qrels.docids()
        for r in runs:
            touched |= r.docids()
        elements = touched
    progress = progress_default() if args.progress is None else args.progress
    from .._malloc import return_large_blocks

    return_large_blocks()  # each large document's parse tree and encoding given back once written
    before = store.counts()
    report, summaries = store_collection(
        store,
        args.collection,
        args.name,
        kinds=args.kinds or ["p*", "p*|c"],
        elements=elements,
        progress=progress,
        replace=args.replace,
        drop_dependants=args.drop_dependants,
    )
    from pathlib import Path

    name = args.name or Path(args.collection).resolve().name
    if report.removed is not None:  # what went first, then what the new collection's load made from there
        out.write(f"replaced collection {name!r}: {report.removed.describe()}\n")
        before = report.removed.counts
    after = store.counts()
    args._created = sum(after[k] - before[k] for k in after)
    out.write(f"collection {name!r}: {load_summary(report, before, after)}\n")
    if qrels:
        done = store_assessments(store, qrels, name, Path(args.qrels).name, replace=args.replace)
        out.write(f"assessments {Path(args.qrels).name!r}: {done.rows} judgments{_named_note(done)}\n")
    for r in runs:
        done = store_run(store, r, name, replace=args.replace)
        out.write(f"run {run_name(r)!r} ({r.name}): {done.rows} results{_named_note(done)}\n")


def _named_note(done) -> str:
    if done.unchanged:
        return " (stored already: nothing changed)"
    return " (replacing what the name held)" if done.replaced else ""


def load_summary(report, before: dict[str, int], after: dict[str, int]) -> str:
    """What a collection load did, from the store's counts before and after: loads MERGE, so a
    collection loaded again creates nothing, and then no rate is printed (it would be meaningless).  The
    time (and rate) is the whole command's, filled in where :data:`WALL` stands once the store has saved."""
    from ..store.base import NODE_LABELS

    nodes = sum(after[k] - before[k] for k in NODE_LABELS)
    rels = sum(after[k] - before[k] for k in after if k not in NODE_LABELS)
    stored = f" ({report.elements} of them stored now)" if 0 < report.elements < report.collection_elements else ""
    what = f"{report.documents} documents, {report.collection_elements} elements{stored}, summaries " + ", ".join(
        f"{k} ({n} nodes)" for k, n in report.summary_nodes.items()
    )
    if nodes == 0 and rels == 0:
        return f"{what}; already stored, nothing new written ({WALL})"
    return f"{what}; {nodes} nodes and {rels} relationships created in {WALL}"


def _query_params(args) -> dict:
    import json

    from ..errors import GraphsrInputError

    params = {}
    for given, parse in ((args.param, None), (args.param_json, json.loads)):
        for item in given:
            name, eq, value = item.partition("=")
            if not eq or not name.isidentifier():
                raise GraphsrInputError(f"expected NAME=VALUE with NAME a parameter name, got {item!r}")
            if parse is None:
                params[name] = value
            else:
                try:
                    params[name] = parse(value)
                except ValueError as exc:
                    raise GraphsrInputError(f"--param-json {name}: not JSON ({exc})") from None
    return params


def _plain(value):
    """A query result value as JSON-friendly data (graph entities by their properties)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    props = getattr(value, "properties", None)
    if isinstance(props, dict):
        return _plain(props)
    try:
        return _plain(dict(value))
    except (TypeError, ValueError):
        return str(value)


def _query(store, args, out) -> None:
    import csv
    import json

    rows = [
        {k: _plain(v) for k, v in row.items()}
        for row in store.read_query(args.cypher, _query_params(args), timeout=args.timeout)
    ]
    columns = list(dict.fromkeys(k for r in rows for k in r))
    if args.format == "json":
        out.write(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    elif args.format == "csv":
        w = csv.DictWriter(out, columns, lineterminator="\n")
        w.writeheader()
        w.writerows(
            {k: json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v for k, v in r.items()}
            for r in rows
        )
    else:
        out.write(_table(rows, columns))


#: The actions that write to the store.
def _export(store, args, out) -> None:
    from ..io.progress import progress_bar
    from ..store.export import export_collection, import_command

    bar, done = (
        progress_bar(
            None, "export", enabled=progress_default() if args.progress is None else args.progress, unit="node"
        ),
        [0],
    )

    def advance(read: int) -> None:
        bar.update(read - done[0])
        done[0] = read

    try:
        report = export_collection(store, args.collection, args.directory, progress=advance)
    finally:
        bar.close()
    nodes, rels = sum(report.nodes.values()), sum(report.relationships.values())
    out.write(
        f"exported collection {args.collection!r} to {report.directory}: {nodes} nodes in "
        f"{len(report.nodes)} files, {rels} relationships in {len(report.relationships)} files\n"
        f"load them into an empty Neo4j database (stopped) from that directory with\n"
        f"  {import_command(report)}\n"
    )


WRITERS = ("load", "model", "routes", "drop")

ACTIONS = {
    "init": _ready,
    "start": _ready,
    "load": _load,
    "model": _model,
    "routes": _routes,
    "drop": _drop,
    "models": _models,
    "summaries": _summaries,
    "show": _show,
    "query": _query,
    "export": _export,
}
