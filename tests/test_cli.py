"""The command line: trec_eval-style output, the hand-computed tiny case, samples, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphsr.data import sample
from graphsr.io import read_run

from .conftest import write, run_cli


def parse_trec(text):
    blocks, current = [], None
    for line in text.splitlines():
        measure, topic, value = line.split("\t")
        if measure == "runid":
            current = {"runid": value}
            blocks.append(current)
        else:
            current[(measure, topic)] = float(value)
    return blocks


@pytest.fixture
def tiny_case(tmp_path, tiny_collection):
    """Collection a.xml = <a><b>xx</b><b>yyy</b><c>z</c></a>, d2.xml = <x><y>w</y></x>.

    p* summary: S1 /a, S2 /a/b, S3 /a/c, S4 /x, S5 /x/y; extent weights W12 = 2, W13 = 1, W45 = 1,
    so by Eq 8 pi = (3, 2, 1, 1, 1) / 8 and p(e;f) = 1 - pi(S(e)): q_a = 5/8, q_b = 6/8, q_c = 7/8.
    """
    qrels = write(
        tmp_path / "qrels", "1 Q0 a /a[1]/b[1] 1\n1 Q0 a /a[1]/c[1] 0.5\n2 Q0 d2 /x[1]/y[1] 1\n2 Q0 a /a[1]/c[1] 1\n"
    )
    run = write(
        tmp_path / "sys.run",
        "1 Q0 a 1 4 sys /a[1]/b[1]\n1 Q0 a 2 3 sys /a[1]/c[1]\n1 Q0 a 3 2 sys /a[1]/b[2]\n"
        "1 Q0 a 4 1 sys /a[1]\n1 Q0 a 4 1 sys /a[1]/b[1]\n"
        "2 Q0 d2 1 3 sys /x[1]/y[1]\n2 Q0 d2 2 2 sys /x[1]\n2 Q0 a 3 1 sys /a[1]/c[1]\n",
    )
    return tiny_collection, qrels, run


def test_hand_computed_per_topic_values(capsys, tiny_case):
    coll, qrels, run = tiny_case
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels),
        str(run),
        "--collection",
        str(coll),
        "--model",
        "p*:extent",
        "-m",
        "SR@4",
        "-m",
        "SRP@2",
        "-m",
        "SRP@4",
        "-q",
    )
    assert code == 0, err
    (b,) = parse_trec(out)
    assert b["runid"] == "sys"  # the run id column names the run
    # topic 1: r1 = 1; r2: rel .5 x (1 - 7/8); r3: rel 0;
    #          r4 = {a, b1}: rel_tree .5, p(t4;r1) = (5/8 + 1)/2, p(t4;r2) = p(t4;r3) = (5/8 + 6/8)/2
    t1 = 1 + 0.5 / 8 + 0.5 * (3 / 16) * (5 / 16) * (5 / 16)
    assert b[("SR@4", "1")] == pytest.approx(t1, abs=1e-6)
    assert b[("SRP@2", "1")] == pytest.approx((1 + 0.5 / 8) / 2, abs=1e-6)
    assert b[("SRP@4", "1")] == pytest.approx(t1 / 4, abs=1e-6)
    # topic 2: y relevant, x not, then c of another document: no redundancy across documents
    assert b[("SR@4", "2")] == pytest.approx(2.0)
    assert b[("SRP@4", "2")] == pytest.approx(0.5)
    assert b[("SRP@4", "all")] == pytest.approx((t1 / 4 + 0.5) / 2, abs=1e-6)
    assert b[("num_q", "all")] == 2
    # order: runid, num_q, per-topic lines (topic by topic), then the means
    lines = out.splitlines()
    assert lines[0] == "runid\tall\tsys"
    assert lines[2].startswith("SR@4\t1\t") and lines[-1].startswith("SRP@4\tall\t")
    assert all(len(line.split("\t")[2].split(".")[1]) >= 6 for line in lines[2:])


def test_without_navigation_srp_is_precision(capsys, tiny_case):
    coll, qrels, run = tiny_case
    code, out, _ = run_cli(
        capsys, "eval", str(qrels), str(run), "--collection", str(coll), "--model", "none", "-m", "SRP@2", "-q"
    )
    (b,) = parse_trec(out)
    assert b[("SRP@2", "1")] == pytest.approx((1 + 0.5) / 2)
    assert b[("SRP@2", "2")] == pytest.approx(0.5)


def test_no_per_topic_lines_without_q(capsys, tiny_case):
    coll, qrels, run = tiny_case
    code, out, _ = run_cli(capsys, "eval", str(qrels), str(run), str(run), "--collection", str(coll))
    assert code == 0
    blocks = parse_trec(out)
    assert len(blocks) == 2
    assert set(blocks[0]) == {"runid", ("num_q", "all"), ("SRP@5", "all"), ("SRP@10", "all")}


@pytest.mark.parametrize(
    "model",
    [
        "p*:extent",
        "p*:length",
        "p*|c:extent",
        "p*|c:length",
        "c:extent",
        "c:uniform",
        "tag:extent",
        "tag:length",
        "none",
    ],
)
def test_bundled_samples_every_model(capsys, model):
    s = sample("shakespeare")
    code, out, err = run_cli(
        capsys,
        "eval",
        str(s["qrels"]),
        *map(str, s["runs"]),
        "--collection",
        str(s["collection"]),
        "--model",
        model,
        "-m",
        "SRP@5",
        "-m",
        "SRP@10",
    )
    assert code == 0, err
    blocks = parse_trec(out)
    assert [b["runid"] for b in blocks] == [read_run(p).run_id for p in s["runs"]] == [p.stem for p in s["runs"]]
    for b in blocks:
        assert 0 <= b[("SRP@5", "all")] <= 1 and 0 <= b[("SRP@10", "all")] <= 1
    by_name = {b["runid"]: b for b in blocks}
    # focused speeches beat whole plays under every model
    assert by_name["speeches"][("SRP@10", "all")] > by_name["plays"][("SRP@10", "all")]


def test_navigation_lowers_scores_of_same_document_results(capsys):
    s = sample("shakespeare")
    vals = {}
    for model in ["none", "p*:extent"]:
        _, out, _ = run_cli(
            capsys,
            "eval",
            str(s["qrels"]),
            str(s["runs"][3]),
            "--collection",
            str(s["collection"]),
            "--model",
            model,
            "-m",
            "SRP@10",
        )
        vals[model] = parse_trec(out)[0][("SRP@10", "all")]
    assert vals["p*:extent"] < vals["none"]


def test_unknown_xpath_is_an_error_with_file_and_line(capsys, tmp_path, tiny_case):
    coll, qrels, _ = tiny_case
    run = write(tmp_path / "bad.run", "1 Q0 a 1 1 s /a[1]/b[1]\n1 Q0 a 2 1 s /a[1]/b[3]\n")
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll))
    assert code == 2 and out == ""
    assert f"{run}:2:" in err and "has no node /a[1]/b[3]" in err


def test_unknown_document_is_an_error(capsys, tmp_path, tiny_case):
    coll, qrels, _ = tiny_case
    run = write(tmp_path / "bad.run", "1 Q0 zz 1 1 s /a[1]\n")
    code, _, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll))
    assert code == 2 and "unknown document 'zz'" in err and f"{run}:1:" in err


def test_unknown_node_in_qrels_is_an_error(capsys, tmp_path, tiny_case):
    coll, _, run = tiny_case
    qrels = write(tmp_path / "bad.qrels", "1 Q0 a /a[1]/zz[1] 1\n")
    code, _, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll))
    assert code == 2 and f"{qrels}:1:" in err


def test_unknown_nodes_with_warn_are_counted(capsys, tmp_path, tiny_case):
    coll, qrels, _ = tiny_case
    run = write(tmp_path / "some.run", "1 Q0 a 1 1 s /a[1]/b[1]\n1 Q0 zz 2 1 s /q[1]\n1 Q0 a 3 1 s /a[1]/b[9]\n")
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels),
        str(run),
        "--collection",
        str(coll),
        "--unknown",
        "warn",
        "--model",
        "none",
        "-m",
        "SRP@1",
        "-m",
        "SR@3",
        "-q",
    )
    assert code == 0
    assert "2 run line(s) name unknown documents or nodes" in err and "2 result(s) left empty" in err
    b = parse_trec(out)[0]
    assert b[("SR@3", "1")] == 1.0


def test_topics_default_and_all(capsys, tmp_path, tiny_case):
    coll, qrels, _ = tiny_case
    run = write(tmp_path / "one.run", "1 Q0 a 1 1 s /a[1]/b[1]\n9 Q0 a 1 1 s /a[1]/b[1]\n")
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), "-m", "SRP@1")
    b = parse_trec(out)[0]
    assert b[("num_q", "all")] == 1 and b[("SRP@1", "all")] == 1.0
    assert "1 run topic(s) have no assessments" in err
    code, out, _ = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), "-m", "SRP@1", "-c")
    b = parse_trec(out)[0]
    assert b[("num_q", "all")] == 2 and b[("SRP@1", "all")] == 0.5


@pytest.mark.parametrize(
    "args, pattern",
    [
        (["-m", "XYZ@5"], "unknown measure 'XYZ'"),
        (["--model", "p*:size"], "unknown weight 'size'"),
        (["-m", "SRP"], "needs a rank cut-off"),
    ],
)
def test_bad_options_exit_2(capsys, tiny_case, args, pattern):
    coll, qrels, run = tiny_case
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), *args)
    assert code == 2 and out == "" and pattern in err


def test_malformed_collection_exit_2(capsys, tmp_path, tiny_case):
    _, qrels, run = tiny_case
    coll = tmp_path / "broken"
    write(coll / "a.xml", "<a>\n<b></a>\n")
    code, out, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll))
    assert code == 2 and out == "" and "a.xml:2: malformed XML" in err


def test_empty_collection_exit_2(capsys, tmp_path, tiny_case):
    _, qrels, run = tiny_case
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(tmp_path / "empty"))
    assert code == 2 and "no documents found" in err


def test_output_formats(capsys, tiny_case):
    import json

    coll, qrels, run = tiny_case
    _, out, _ = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), "--format", "csv")
    assert out.splitlines()[0] == "run,measure,topic,value"
    _, out, _ = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), "--format", "json")
    recs = json.loads(out)
    assert {r["topic"] for r in recs} == {"1", "2", "all"}
    _, out, _ = run_cli(capsys, "eval", str(qrels), str(run), "--collection", str(coll), "--format", "table")
    assert out.splitlines()[0].split() == ["run", "SRP@5", "SRP@10"]


def test_summary_command(capsys):
    s = sample("mobydick")
    code, out, _ = run_cli(capsys, "summary", str(s["collection"]), "--kind", "p*", "--edges")
    assert code == 0
    lines = out.splitlines()
    assert lines[2].split("\t")[-1] == "/book" and "S7\t3\t" in out


@pytest.mark.slow
def test_demo(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHSR_STORE", f"local:{tmp_path / 'store'}")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "demo")
    assert code == 0, err
    report = tmp_path / "graphsr-demo" / "report.html"  # everything it writes in one directory
    assert f"report: {report}" in out and report.read_text().count('<img class="plot"') > 10
    scores = tmp_path / "graphsr-demo" / "scores.parquet"
    assert f"scores: {scores}" in out and sorted(p.name for p in tmp_path.iterdir()) == ["graphsr-demo", "store"]
    views = [tmp_path / "graphsr-demo" / f"{name}.view.html" for name in ("mobydick", "shakespeare")]
    assert f"views: {views[0]}, {views[1]}" in out  # each sample's summary view, linked from the report
    for v in views:  # a page of the sample's summary, linked from the report
        text = v.read_text()
        packed = json.loads(text.split('id="graphsr-data">', 1)[1].split("</script>", 1)[0])
        assert packed["format"] == "graphsr-page/1" and len(packed["sids"]) >= 5 and packed["runs"]
        assert f'href="{v.name}"' in report.read_text()
    # `graphsr report` on the demo's scores: a page a real browser renders whole
    from .test_report import assert_renders

    assert run_cli(capsys, "report", str(scores), "-o", str(tmp_path / "again.html"), "--no-progress")[0] == 0
    assert_renders(tmp_path / "again.html", tmp_path)
    assert "sample mobydick" in out and "sample shakespeare" in out
    assert "p*|c:length" in out and f"local:{tmp_path / 'store'}" in out
    # the commands it prints run when pasted into a shell as printed
    pasted = [block.split("\n\n")[0] for block in out.split("(paste it as it is):\n")[1:]]
    assert len(pasted) == 4 and "..." not in "".join(pasted)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for text in pasted:
        proc = subprocess.run(["bash", "-c", text], capture_output=True, text=True, env=env, cwd=tmp_path)
        assert proc.returncode == 0, (text, proc.stderr)
        if "SRP@10" in text:
            assert proc.stdout.count("SRP@10\tall\t") == text.count(".run") >= 2
        else:  # the INEX table it printed above the command
            shown = out.split(text)[0].split("official INEX thorough measures")[-1].split("the same (paste")[0]
            assert [r.split() for r in proc.stdout.splitlines()[1:]] == [
                r.split() for r in shown.splitlines()[2:] if r.strip()
            ]
    # the INEX numbers it prints are what `graphsr eval` gives for element assessments with --collection
    for name, block in zip(("mobydick", "shakespeare"), out.split("official INEX thorough measures")[1:]):
        rows = block.split("the same (paste")[0].splitlines()[2:]
        printed = {r.split()[0]: [float(x) for x in r.split()[1:]] for r in rows if r.strip()}
        smp = sample(name)
        code, table, err = run_cli(
            capsys,
            "eval",
            str(smp["qrels"]),
            *map(str, smp["runs"]),
            "--collection",
            str(smp["collection"]),
            "--task",
            "thorough",
            "-m",
            "iP[0.01]",
            "-m",
            "MAiP",
            "--format",
            "table",
        )
        assert code == 0, err
        got = {Path(r.split()[0]).stem: [float(x) for x in r.split()[1:]] for r in table.splitlines()[1:]}
        assert got == printed


def test_console_script_runs_as_module(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "graphsr", "eval", "nope", "nope.run", "--collection", "x"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "graphsr: error:" in proc.stderr


def test_closed_pipe_is_quiet(tmp_path):
    s = sample("shakespeare")
    cmd = (
        f"{sys.executable} -m graphsr eval {s['qrels']} {' '.join(map(str, s['runs']))} "
        f"--collection {s['collection']} -q | head -1"
    )
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    assert proc.stdout.startswith("runid") and "Traceback" not in proc.stderr


def test_workers_give_the_same_scores(capsys):
    s = sample("shakespeare")
    outs = []
    for w in ("1", "2"):
        code, out, err = run_cli(
            capsys,
            "eval",
            str(s["qrels"]),
            *map(str, s["runs"]),
            "--collection",
            str(s["collection"]),
            "--model",
            "p*|c:length",
            "--workers",
            w,
            "-q",
        )
        assert code == 0, err
        outs.append(out)
    assert outs[0] == outs[1]


def test_esr_measures_from_a_route_log(capsys, tmp_path, tiny_case):
    coll, _, run = tiny_case
    qrels = write(tmp_path / "binary.qrels", "1 Q0 a /a[1]/b[1] 1\n1 Q0 a /a[1]/c[1] 1\n2 Q0 d2 /x[1]/y[1] 1\n")
    # steps only inside d2: no navigation between the nodes topic 1 retrieves
    log = write(tmp_path / "log.csv", "route_id,step,docid,from,to\nr,1,d2,/x,/x/y\nr,2,d2,/x/y,/x\n")
    base = ["eval", str(qrels), str(run), "--collection", str(coll), "-q"]
    code, out, err = run_cli(
        capsys, *base, "--routes", str(log), "-m", "ESRP@2", "-m", "ESRR@3", "-m", "SRP@2", "--model", "none"
    )
    assert code == 0, err
    b = parse_trec(out)[0]
    assert b[("ESRP@2", "1")] == pytest.approx(b[("SRP@2", "1")]) == pytest.approx(1.0)
    assert b[("ESRR@3", "1")] == pytest.approx(1.0)
    # topic 2: y retrieved at rank 1; navigation x -> y learned from the log is irrelevant to hits
    assert b[("ESRP@2", "2")] == pytest.approx(0.5)
    code, out, err = run_cli(
        capsys, *base, "--routes", str(log), "--nav", "p*", "--effort", "duration", "-m", "ESR.NearMisses@1"
    )
    assert code == 2 and err.startswith(f"graphsr: error: {log}:2: route 'r' step 1: effort 'duration'")
    timed = write(
        tmp_path / "timed.csv", "route_id,step,docid,from,to,duration_ms\nr,1,d2,/x,/x/y,5\nr,2,d2,/x/y,/x,7.5\n"
    )
    code, out, err = run_cli(
        capsys, *base, "--routes", str(timed), "--nav", "p*", "--effort", "duration", "-m", "ESR.NearMisses@1"
    )
    assert code == 0, err
    code, _, err = run_cli(capsys, *base, "-m", "ESRP@2")
    assert code == 2 and "--routes" in err


def test_esr_near_misses_follow_the_log(capsys, tmp_path, tiny_case):
    coll, _, _ = tiny_case
    qrels = write(tmp_path / "q", "1 Q0 a /a[1]/c[1] 1\n")
    run = write(tmp_path / "r.run", "1 Q0 a 1 1 s /a[1]/b[1]\n")
    # from b, users went to c twice and to a once: p~(c; b) = 2/3
    log = write(
        tmp_path / "log.csv", "route_id,step,docid,from,to\nr1,1,a,/a/b,/a/c\nr2,1,a,/a/b,/a/c\nr3,1,a,/a/b,/a\n"
    )
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels),
        str(run),
        "--collection",
        str(coll),
        "--routes",
        str(log),
        "-m",
        "ESR.NearMisses@1",
        "-m",
        "ESRR@1",
        "-m",
        "ESRP@1",
        "-q",
    )
    assert code == 0, err
    b = parse_trec(out)[0]
    assert b[("ESR.NearMisses@1", "1")] == pytest.approx(2 / 3)
    assert b[("ESRR@1", "1")] == pytest.approx(2 / 3) and b[("ESRP@1", "1")] == 0


def test_depth4_partition_and_prior(capsys, tmp_path):
    coll = tmp_path / "inex"
    write(coll / "1.xml", "<article><name>t</name><bdy><sec><p>x</p><ss1><p>y</p></ss1></sec><sec/></bdy></article>")
    qrels = write(tmp_path / "q", "1 Q0 1 /article[1]/bdy[1]/sec[1]/ss1[1] 1\n")
    run = write(tmp_path / "r.run", "1 Q0 1 1 1 s /article[1]/bdy[1]/sec[1]\n")
    # prior: from a section (state sec) into an ss1 node: 0.16 of the mass
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels),
        str(run),
        "--collection",
        str(coll),
        "--nav",
        "depth4",
        "-m",
        "ESR.NearMisses@1",
        "-q",
    )
    assert code == 0, err
    assert parse_trec(out)[0][("ESR.NearMisses@1", "1")] == pytest.approx((1 / 3) / (1 + 1 / 2 + 1 / 3 + 1 / 4))
    # learned over the four partitions: from sec, users went to ss1 once and to p once
    log = write(
        tmp_path / "log.csv",
        "route_id,step,docid,from,to\nr,1,1,/article/bdy/sec,/article/bdy/sec/ss1\n"
        "s,1,1,/article/bdy/sec,/article/bdy/sec/p\n",
    )
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels),
        str(run),
        "--collection",
        str(coll),
        "--nav",
        "depth4",
        "--routes",
        str(log),
        "-m",
        "ESR.NearMisses@1",
        "-q",
    )
    assert code == 0, err
    assert parse_trec(out)[0][("ESR.NearMisses@1", "1")] == pytest.approx(0.5)


def test_gzipped_files_per_topic_tables_and_lazy_names(tmp_path, capsys):
    import gzip

    import graphsr

    s = sample("shakespeare")
    run_gz, qrels_gz = tmp_path / "scenes.run.gz", tmp_path / "qrels.txt.gz"
    run_gz.write_bytes(gzip.compress(s["runs"][2].read_bytes()))
    qrels_gz.write_bytes(gzip.compress(s["qrels"].read_bytes()))
    code, out, err = run_cli(
        capsys,
        "eval",
        str(qrels_gz),
        str(run_gz),
        "--collection",
        str(s["collection"]),
        "-m",
        "SRP@5",
        "--format",
        "table",
        "-q",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["run", "topic", "SRP@5"] and [ln.split()[1] for ln in lines[1:]] == [
        "all",
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    code, plain, _ = run_cli(
        capsys,
        "eval",
        str(s["qrels"]),
        str(s["runs"][2]),
        "--collection",
        str(s["collection"]),
        "-m",
        "SRP@5",
        "--format",
        "table",
        "-q",
    )
    assert [ln.split()[1:] for ln in plain.splitlines()] == [ln.split()[1:] for ln in lines]  # gzip is transparent
    assert {"evaluate", "parse_measure", "read_run", "ScoringContext"} <= set(dir(graphsr))
