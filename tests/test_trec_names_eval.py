"""trec_eval's measures under their own names in ``graphsr eval``, against trec_eval 9.0.8's output (the
reference cases of tests/data/trec_eval): the official and all_trec sets, cut-off lists, gm_map, infAP, the set
measures, Rndcg, 11pt_avg, utility, with -q and -c, agree to trec_eval's four decimals, topic by topic and in the
``all`` lines; a TREC document evaluation without -m prints the official set.  (Scores tie in double precision
here, as pytrec_eval and ir_measures rank them; ``graphsr trec_eval`` ranks in trec_eval's single precision.)"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from graphsr.cli.main import main

REF = Path(__file__).parent / "data" / "trec_eval" / "reference"
INDEX = json.loads((REF / "index.json").read_text())
#: Option sets graphsr eval has no counterpart for (trec_eval's -l, -M, -N, -J, -n) or prints otherwise (relstring).
OTHER = ("-l", "-M", "-N", "-J", "-n", "relstring")


def _eval(argv) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([str(a) for a in argv]) == 0
    got = {}
    for line in out.getvalue().splitlines():
        name, topic, value = line.split("\t")
        got[name.strip(), topic] = value
    return got


CASES = [
    pytest.param(e, id=f"{e['case']}-{e['output']}") for e in INDEX if not any(a.startswith(OTHER) for a in e["args"])
]


@pytest.mark.parametrize("entry", CASES)
def test_trec_names_in_graphsr_eval_agree_with_trec_eval(entry):
    args, case = entry["args"], REF / entry["case"]
    measures = [a for k, a in enumerate(args) if k and args[k - 1] == "-m"] or ["official"]
    flags = [a for a in args if a in ("-q", "-c")]
    ours = _eval(["eval", case / "qrels.txt", case / "run.txt", *flags, *[x for m in measures for x in ("-m", m)]])
    compared = 0
    for line in (case / entry["output"]).read_text().splitlines():
        name, topic, value = line.split("\t")
        name = name.strip()
        if name in ("runid", "relstring"):  # (graphsr eval prints the run's name; relstring is not a number)
            continue
        got = ours[name, topic]
        if "." in value:
            assert abs(float(got) - float(value)) <= 0.00005 + 1e-9, (name, topic, got, value)
        else:
            assert int(float(got)) == int(value), (name, topic, got, value)
        compared += 1
    assert compared


def test_without_m_plain_trec_documents_get_trec_evals_official_set():
    case = REF / "case04"
    default = _eval(["eval", case / "qrels.txt", case / "run.txt"])
    official = _eval(["eval", case / "qrels.txt", case / "run.txt", "-m", "official"])
    assert default == official and ("gm_map", "all") in default and ("P_1000", "all") in default


def test_graphsr_names_and_ir_measures_names_mix_with_trec_names():
    case = REF / "case04"
    got = _eval(
        [
            "eval",
            case / "qrels.txt",
            case / "run.txt",
            "-m",
            "SetF(beta=0.5)",
            "-m",
            "set_F.0.5",
            "-m",
            "infAP",
            "-m",
            "GMAP",
            "-m",
            "gm_map",
            "-m",
            "SetP(relative=true)",
            "-m",
            "set_relative_P",
        ]
    )
    assert got["SetF(beta=0.5)", "all"] == got["set_F_0.5", "all"]
    assert got["GMAP", "all"] == got["gm_map", "all"]
    assert got["SetP(relative=True)", "all"] == got["set_relative_P", "all"]


def test_the_measures_ir_measures_also_has_equal_its_values():
    """infAP and the set measures under ir_measures' names equal ir_measures' (pytrec_eval's) values on random
    graded qrels with negative grades, ties and unjudged documents."""
    import random

    ir_measures = pytest.importorskip("ir_measures")
    import graphsr

    names = [
        "infAP",
        "SetP",
        "SetR",
        "SetF",
        "SetAP",
        "SetP(relative=True)",
        "SetF(beta=0.5)",
        "infAP(rel=2)",
        "SetP(rel=2)",
        "SetR(rel=3)",
    ]
    rng = random.Random(5)
    for _ in range(20):
        qrels: dict = {}
        run: dict = {}
        for t in map(str, range(1, rng.randint(2, 7))):
            docs = [f"d{k}" for k in range(40)]
            qrels[t] = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in rng.sample(docs, 20)}
            run[t] = {d: float(rng.randint(0, 5)) for d in rng.sample(docs, rng.randint(1, 30))}
        theirs = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qrels, run)
        ours = graphsr.calc_aggregate(names, qrels, run)
        for n in names:
            assert ours[graphsr.parse_measure(n)] == pytest.approx(theirs[ir_measures.parse_measure(n)], abs=1e-12), n


def test_ir_datasets_objects_are_qrels_and_runs(tmp_path):
    """A dataset of ir_datasets (built here from local files, offline), its qrels_iter(), qrels_dict() and
    scoreddocs_iter() are accepted where qrels and runs are; a dataset without the part asked for is refused in
    one line."""
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels, TrecScoredDocs
    from ir_datasets.util import LocalDownload

    import graphsr
    from graphsr.errors import GraphsrInputError

    case = REF / "case04"
    (tmp_path / "q").write_bytes((case / "qrels.txt").read_bytes())
    (tmp_path / "r").write_text(
        "".join(
            f"{t} Q0 {d} {k} {s} x\n"
            for k, (t, _, d, _, s, *_) in enumerate(
                line.split() for line in (case / "run.txt").read_text().splitlines()
            )
        )
    )
    ds = Dataset(TrecQrels(LocalDownload(tmp_path / "q"), {}), TrecScoredDocs(LocalDownload(tmp_path / "r")))
    want = graphsr.calc_aggregate(["AP", "P@5", "infAP"], case / "qrels.txt", tmp_path / "r")
    for qrels in (lambda: ds, ds.qrels_iter, ds.qrels_dict):  # (an iterator is made afresh for each use)
        for run in (lambda: ds, ds.scoreddocs_iter):
            assert graphsr.calc_aggregate(["AP", "P@5", "infAP"], qrels(), run()) == want
    only_qrels = ir_datasets.create_dataset(qrels_trec=str(tmp_path / "q"))
    with pytest.raises(GraphsrInputError, match="has no scored documents"):
        graphsr.calc_aggregate(["AP"], only_qrels, only_qrels)


RECORDED_SETS = (
    ["-q", "-m", "yaap", "-m", "map"],
    ["-m", "set", "-q"],
    ["-q", "-m", "relative_P.2,50", "-m", "binG", "-m", "G", "-m", "Rndcg"],
    ["-q", "-c", "-m", "gm_map", "-m", "gm_bpref", "-m", "infAP", "-m", "bpref"],
)


def _single_precision_ties(run_text: str) -> bool:
    """Whether two scores of a topic tie in single precision only (graphsr eval ranks in double precision, as
    pytrec_eval does; trec_eval in single)."""
    import numpy as np

    by_topic: dict = {}
    for line in run_text.splitlines():
        f = line.split()
        by_topic.setdefault(f[0], set()).add(float(f[4]))
    return any(len({float(np.float32(s)) for s in scores}) != len(scores) for scores in by_topic.values())


def test_more_trec_names_in_graphsr_eval_agree_with_recorded_trec_eval(tmp_path):
    """yaap, the set measures, relative_P, binG, G, Rndcg, gm_map, gm_bpref and infAP under trec_eval's names in
    graphsr eval, against trec_eval's recorded output (cases without duplicates, single-precision ties or a topic
    judged only negatively)."""
    import gzip

    with gzip.open(REF.parent / "recorded.json.gz", "rt") as fh:
        cases = json.load(fh)["cases"]
    compared = 0
    for case in cases:
        if _single_precision_ties(case["run"]):
            continue
        (tmp_path / "q").write_text(case["qrels"])
        (tmp_path / "r").write_text(case["run"])
        for res in case["results"]:
            if res["args"] not in RECORDED_SETS or res["judged"] != "qrels" or res["exit"] != 0:
                continue
            ours = _eval(["eval", tmp_path / "q", tmp_path / "r", *res["args"]])
            for line in res["stdout"].splitlines():
                name, topic, value = line.split("\t")
                if name.strip() == "runid":
                    continue
                got = ours[name.strip(), topic]
                assert abs(float(got) - float(value)) <= 0.00005 + 1e-9, (res["args"], name, topic, got, value)
                compared += 1
    assert compared > 500
