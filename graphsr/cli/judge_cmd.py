"""Fill the holes in judgments with any judge: export what runs retrieved that no judgment covers (documents, or
stretches of text in characters), fill it with a judge (the lexical one graphsr ships, or any tool that adds
``relevance`` and ``judge`` to each JSON line), and merge the grades back, each judgment naming who gave it."""

from __future__ import annotations

import argparse
import json
import sys

from ._common import positive_int, wrote


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="judge_command", metavar="ACTION", required=True)
    a = sub.add_parser(
        "export",
        help="write the holes of runs' first results as JSON lines: query text, document id, range, text",
    )
    a.add_argument("qrels", help="the judgments: TREC qrels, span judgments, or with --chunks TREC qrels of chunk ids")
    a.add_argument("runs", nargs="+", metavar="RUN", help="the runs whose results are looked for in the judgments")
    a.add_argument(
        "--queries", required=True, metavar="FILE", help="the queries' texts: 'id<TAB>text' lines or JSON lines"
    )
    a.add_argument("--collection", required=True, metavar="DIR", help="the documents' texts (a collection or corpus)")
    a.add_argument("--chunks", metavar="CHUNK_MAP", help="the chunk map the qrels and runs name chunks of")
    a.add_argument("--depth", type=positive_int, default=10, help="results of each topic looked at (default: 10)")
    a.add_argument("--qrels-judge", default="person", metavar="JUDGE", help="who judged QRELS (default: person)")
    a.add_argument("-o", "--output", required=True, metavar="FILE", help="where the holes go (JSON lines)")
    a.add_argument(
        "--umbrela",
        metavar="FILE",
        help="also write the holes as UMBRELA's batch requests (JSON lines, one a query); its judgments are read "
        "back with graphsr judge fill --umbrela-judgments",
    )
    f = sub.add_parser(
        "fill", help="judge each hole with a judge graphsr ships (caching every grade), or read UMBRELA's judgments"
    )
    f.add_argument("holes", help="holes (graphsr judge export ... -o FILE)")
    f.add_argument(
        "--judge", choices=["lexical"], default="lexical", help="the judge: lexical (query terms in the text; default)"
    )
    f.add_argument("--cache", metavar="FILE", help="grades kept across runs (JSON lines): nothing is judged twice")
    f.add_argument(
        "--umbrela-judgments",
        metavar="FILE",
        help="UMBRELA's output (JSON lines) for the requests graphsr judge export --umbrela wrote: its judgments fill "
        "the holes (a fallback judgment, result_status 0, leaves its hole unfilled)",
    )
    f.add_argument(
        "--name",
        metavar="JUDGE",
        help="with --umbrela-judgments: the judge to record (default: model:umbrela@MODEL, the model it names)",
    )
    f.add_argument("-o", "--output", required=True, metavar="FILE", help="the filled holes (JSON lines)")
    j = sub.add_parser(
        "merge",
        help="two TREC judgments files (documents or chunk ids) as one, each judgment naming its judge: the first's, "
        "then the second's where the first judges nothing",
    )
    j.add_argument("qrels", help="the first judgments (a person's, unless --qrels-judge)")
    j.add_argument("other", help="the second judgments: what they judge that the first does not is added")
    j.add_argument(
        "--other-judge", required=True, metavar="JUDGE", help="who judged OTHER: model:NAME, checked:NAME, ..."
    )
    j.add_argument("--qrels-judge", default="person", metavar="JUDGE", help="who judged QRELS (default: person)")
    j.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the merged judgments (TREC qrels, judge field)"
    )
    m = sub.add_parser("import", help="merge filled holes into the judgments, each naming its judge")
    m.add_argument("qrels", help="the judgments the holes were found in")
    m.add_argument("filled", help="the filled holes: JSON lines with relevance and judge")
    m.add_argument("--chunks", metavar="CHUNK_MAP", help="the chunk map of chunk qrels (they are merged as spans)")
    m.add_argument("--qrels-judge", default="person", metavar="JUDGE", help="who judged QRELS (default: person)")
    m.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the merged judgments: TREC qrels with a judge field, or span judgments (JSON lines) with a judge column",
    )


def run(args: argparse.Namespace) -> int:
    if args.judge_command == "export":
        return _export(args)
    if args.judge_command == "fill":
        return _fill(args)
    if args.judge_command == "merge":
        return _merge(args)
    return _import(args)


def _merge(args) -> int:
    from ..evaluation.holes import merge_files
    from ._common import warn

    written, dropped = merge_files(args.qrels, args.other, args.output, args.other_judge, args.qrels_judge)
    if dropped:
        warn(
            f"{args.other}: {dropped} judgment(s) of what {args.qrels} judges already were left out ({args.qrels}'s kept)"
        )
    wrote(args.output, f"{written} judgments")
    return 0


def _export(args) -> int:
    from ..core.judges import parse_judge
    from ..errors import GraphsrInputError
    from ..evaluation.holes import find_holes, read_queries
    from ..evaluation.inputs import Inputs
    from ..io.atomic import atomic_write
    from ._common import warn

    inputs = Inputs(
        args.qrels, args.runs, collection=args.collection, chunks=args.chunks, qrels_judge=parse_judge(args.qrels_judge)
    )
    holes, left_out = find_holes(inputs, read_queries(args.queries), args.depth)
    if left_out:
        warn(
            f"{len(left_out)} run topic(s) have no query text in {args.queries} and were left out: "
            + ", ".join(left_out[:10])
            + (" ..." if len(left_out) > 10 else "")
        )
    with atomic_write(args.output, "the holes") as fh:
        for h in holes:
            fh.write(json.dumps(h, ensure_ascii=False) + "\n")
    characters = sum(h.get("end", 0) - h.get("start", 0) for h in holes)
    wrote(args.output, f"{len(holes)} holes" + (f" ({characters:,} characters)" if characters else ""))
    if args.umbrela:
        from ..evaluation.umbrela import requests

        asked = requests(holes)
        candidates = sum(len(r["candidates"]) for r in asked)
        if candidates != len(holes):
            raise GraphsrInputError(f"{args.umbrela}: {candidates} candidates written for {len(holes)} holes")
        with atomic_write(args.umbrela, "UMBRELA's requests") as fh:
            for r in asked:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        wrote(args.umbrela, f"{len(asked)} UMBRELA requests ({candidates} candidates, the holes in order)")
    return 0


def _fill(args) -> int:
    from ..errors import GraphsrInputError
    from ..evaluation.holes import HOLE_KINDS, json_lines
    from ..evaluation.judging import JudgmentCache, fill, lexical
    from ..io.atomic import atomic_write

    holes = []
    for n, rec in json_lines(args.holes, "the holes"):
        if not isinstance(rec, dict) or rec.get("kind") not in HOLE_KINDS:
            raise GraphsrInputError(f"{args.holes}:{n}: not a hole (graphsr judge export writes them)")
        holes.append(rec)
    if args.umbrela_judgments:
        return _fill_from_umbrela(args, holes)
    if args.name:
        raise GraphsrInputError("--name names the judge of --umbrela-judgments (the lexical judge is model:lexical@1)")
    cache = JudgmentCache(args.cache)
    judges = {"lexical": lexical}
    with atomic_write(args.output, "the filled holes") as out:
        count = 0
        for rec in fill(holes, judges[args.judge], cache):
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
            count += 1
    if count != len(holes):
        raise GraphsrInputError(f"{args.output}: {count} of {len(holes)} holes written")
    wrote(args.output, f"{count} filled holes ({cache.asked} judged now, {count - cache.asked} from the cache)")
    return 0


def _fill_from_umbrela(args, holes: list[dict]) -> int:
    from ..errors import GraphsrInputError
    from ..evaluation.umbrela import read_judgments
    from ..io.atomic import atomic_write
    from ._common import warn

    if args.cache:
        raise GraphsrInputError("--cache keeps the lexical judge's grades: UMBRELA's judgments are read as they are")
    filled, fallbacks = read_judgments(args.umbrela_judgments, holes, args.name)
    with atomic_write(args.output, "the filled holes") as out:
        for rec in filled:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    if fallbacks:
        warn(
            f"{fallbacks} of UMBRELA's {len(holes)} judgments fell back to 0 (result_status 0: the model's answer "
            "was not understood): their holes stay unfilled"
        )
    wrote(args.output, f"{len(filled)} filled holes (UMBRELA's judgments, {filled[0]['judge'] if filled else '-'})")
    return 0


def _import(args) -> int:
    from ..core.judges import parse_judge
    from ..evaluation.holes import merge_judgments, read_filled

    n = merge_judgments(args.qrels, read_filled(args.filled), args.output, args.chunks, parse_judge(args.qrels_judge))
    wrote(args.output, f"{n} judgments")
    sys.stdout.flush()
    return 0
