"""graphsr view: the data a page embeds equals the summary, pi, transitions and coverage graphsr computes
elsewhere, from memory and from the store; GraphML and GEXF read back; the page works in a real browser."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from graphsr.analysis.partitions import memory_partitions, partition_coverage, partition_page, stored_partitions
from graphsr.analysis.view import COUNTS, view_data, write_view
from graphsr.analysis.view_page import PAGE_FORMAT, unpack
from graphsr.cli.main import main
from graphsr.data import sample
from graphsr.io import iter_documents, read_element_qrels, read_run

PLAYS = sample("shakespeare")


@pytest.fixture(scope="module")
def inputs():
    return read_element_qrels(PLAYS["qrels"]), [read_run(PLAYS["runs"][0]), read_run(PLAYS["runs"][2])]


@pytest.fixture(scope="module", params=["p*", "p*|c"])
def memory_view(request, inputs):
    qrels, runs = inputs
    parts = memory_partitions(PLAYS["collection"], request.param)
    return parts, view_data(parts, qrels, runs, elements_per_node=5)


def test_nodes_and_edges_are_the_summary_and_its_model(memory_view):
    parts, data = memory_view
    s = parts.summary
    assert [n["sid"] for n in data["nodes"]] == [f"S{k + 1}" for k in range(len(s))]
    assert [n["label"] for n in data["nodes"]] == s.labels()
    assert [n["extent"] for n in data["nodes"]] == s.extent_size.tolist()
    assert [n["content_length"] for n in data["nodes"]] == s.content_length.tolist()
    assert [n["pi"] for n in data["nodes"]] == parts.pi.tolist()
    assert [(e["source"], e["target"], e["pairs"]) for e in data["edges"]] == [
        (f"S{a + 1}", f"S{b + 1}", n)
        for a, b, n in zip(s.edge_src.tolist(), s.edge_dst.tolist(), s.edge_pairs.tolist())
    ]
    # the transitions are a chain whose steady state is the pi shown: each node's steps sum to one, pi P = pi
    n = len(s)
    P = np.zeros((n, n))
    for e in data["edges"]:
        a, b = int(e["source"][1:]) - 1, int(e["target"][1:]) - 1
        P[a, b], P[b, a] = e["transition"], e["back"]
    pi = np.array([v["pi"] for v in data["nodes"]])
    assert np.allclose(P.sum(axis=1), 1) and np.allclose(pi @ P, pi)
    # a node's parent is a summary node it is reached from, roots have none
    parents = {(e["source"], e["target"]) for e in data["edges"]}
    assert all(v["parent"] is None or (v["parent"], v["sid"]) in parents for v in data["nodes"])
    assert data["nodes"][0]["parent"] is None and data["nodes"][0]["depth"] == 1


def test_counts_are_the_coverage_table(memory_view, inputs):
    parts, data = memory_view
    qrels, runs = inputs
    table = partition_coverage(parts, qrels, runs)
    got = {(run, sid): v for run, by_sid in data["counts"].items() for sid, v in by_sid.items()}
    want = {
        (r.run, r.sid): [r.retrieved, r.relevant, r.relevant_retrieved, r.relevant_reachable]
        for r in table.itertuples()
    }
    assert got == want and data["runs"] == sorted(set(table.run), key=list(table.run).index)
    for run in data["runs"]:  # the topics' counts add up to the totals
        total = {}
        for by_sid in data["topic_counts"][run].values():
            for sid, v in by_sid.items():
                total[sid] = [a + b for a, b in zip(total.get(sid, [0, 0, 0, 0]), v)]
        assert set(total) == set(data["counts"][run])
        for sid, v in total.items():
            assert v[:3] == data["counts"][run][sid][:3] and v[3] == pytest.approx(data["counts"][run][sid][3])


def test_listed_elements_carry_their_grades_and_ranks(memory_view, inputs):
    parts, data = memory_view
    qrels, runs = inputs
    docs = {d.docid: d for d in iter_documents(PLAYS["collection"])}
    judged = {(str(t), d, x): v for t, j in qrels.judgments.items() for (d, x), v in j.items()}
    ranks = {}
    for run, name in zip(runs, data["runs"]):
        for t, results in run.results.items():
            for r in results:
                for x in r.xpaths:
                    ranks.setdefault((name, str(t), r.docid, x), r.rank)
    seen = 0
    assert data["element_fields"] == ["docid", "node", "xpath", "length", "judged", "retrieved"]
    for sid, rows in data["elements"].items():
        k = int(sid[1:]) - 1
        for e in (dict(zip(data["element_fields"], row)) for row in rows):
            doc = docs[e["docid"]]
            assert doc.xpath(e["node"]) == e["xpath"] and parts.summary.assign(doc)[e["node"]] == k
            assert e["length"] == int(doc.length[e["node"]])
            for t, v in e["judged"].items():
                assert judged[(t, e["docid"], e["xpath"])] == v
                seen += 1
            for name, by_topic in e["retrieved"].items():
                for t, rank in by_topic.items():
                    assert ranks[(name, t, e["docid"], e["xpath"])] == rank
    assert seen == len(judged)  # every assessment is listed with its element
    # beside those, the first elements of each node in document order, as `graphsr partition` pages them
    for k in range(len(parts.summary)):
        page, total = partition_page(parts, f"S{k + 1}", limit=5)
        listed = [(row[0], row[1]) for row in data["elements"][f"S{k + 1}"]]
        assert {(d, i) for d, i, _, _ in page} <= set(listed)
        assert total == data["nodes"][k]["extent"]


def test_the_page_embeds_the_data_and_the_formats_read_back(memory_view, tmp_path):
    parts, data = memory_view
    write_view(data, tmp_path / "v.html", "html")
    html = (tmp_path / "v.html").read_text(encoding="utf-8")
    embedded = re.search(r'<script type="application/json" id="graphsr-data">(.*?)</script>', html, re.S).group(1)
    packed = json.loads(embedded)
    assert packed["format"] == PAGE_FORMAT and unpack(packed, data["format"]) == json.loads(json.dumps(data))
    outside = html.replace(embedded, "")
    assert not re.search(r"https?:|<script[^>]+src|<link|@import|url\(", outside)  # the page loads nothing
    write_view(data, tmp_path / "v.json", "json")
    assert json.loads((tmp_path / "v.json").read_text()) == json.loads(json.dumps(data))
    for form, read in (("graphml", nx.read_graphml), ("gexf", nx.read_gexf)):
        write_view(data, tmp_path / f"v.{form}", form)
        g = read(tmp_path / f"v.{form}")
        assert sorted(g.nodes) == sorted(n["sid"] for n in data["nodes"])
        for node in data["nodes"]:
            attrs = g.nodes[node["sid"]]
            assert attrs["pi"] == pytest.approx(node["pi"]) and int(attrs["extent"]) == node["extent"]
            for run in data["runs"]:
                values = data["counts"][run].get(node["sid"], [0, 0, 0, 0])
                assert [float(attrs[f"{run}:{c}"]) for c in COUNTS] == pytest.approx(values)
        assert g.number_of_edges() == len({(e["source"], e["target"]) for e in data["edges"]})


def test_a_stored_collection_gives_the_same_view(tmp_path, inputs):
    from graphsr.store import open_store, store_collection

    qrels, runs = inputs
    store = open_store(f"local:{tmp_path / 's'}")
    try:
        store_collection(store, PLAYS["collection"], "plays", kinds=["p*"], elements="all")
        stored = view_data(stored_partitions(store, "plays", "p*"), qrels, runs, elements_per_node=5)
    finally:
        store.close()
    memory = view_data(memory_partitions(PLAYS["collection"], "p*"), qrels, runs, elements_per_node=5)
    for key in ("nodes", "edges", "runs", "topics", "counts", "topic_counts", "elements", "kind", "model"):
        assert stored[key] == memory[key], key
    assert stored["source"] != memory["source"]


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("routes") / "log.csv"
    assert (
        main(
            [
                "simulate-routes",
                str(PLAYS["collection"]),
                "--routes",
                "300",
                "--seed",
                "5",
                "-o",
                str(path),
                "--no-progress",
            ]
        )
        == 0
    )
    return path


def test_route_edges_are_the_steps_users_take(log, tmp_path):
    """The route edges are the learned chain: per partition, the share of the steps leaving it that go to each
    other one (counted here from the log itself), from memory and from a stored route model alike."""
    from graphsr.analysis.view import route_transitions
    from graphsr.io import read_routes
    from graphsr.navigation.stored import build_stored_route_model
    from graphsr.store import open_store, store_collection, store_steps

    routes = read_routes(log)
    parts = memory_partitions(PLAYS["collection"], "p*")
    data = view_data(parts, routes=route_transitions(parts, routes), elements_per_node=0)
    docs = {d.docid: d for d in iter_documents(PLAYS["collection"])}
    sids = {d: parts.summary.assign(doc) for d, doc in docs.items()}
    steps: dict = {}
    for step in routes:
        a, b = sids[step.docid][docs[step.docid].node(step.src)], sids[step.docid][docs[step.docid].node(step.dst)]
        steps.setdefault(f"S{a + 1}", {}).setdefault(f"S{b + 1}", 0)
        steps[f"S{a + 1}"][f"S{b + 1}"] += 1
    want = {(a, b): n / sum(out.values()) for a, out in steps.items() for b, n in out.items()}
    got = {(e["source"], e["target"]): e["transition"] for e in data["route_edges"]}
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)
    assert data["routes"].startswith("routes of ") and len(want) > 5
    store = open_store(f"local:{tmp_path / 's'}")
    try:
        store_collection(store, PLAYS["collection"], "plays", kinds=["p*"], elements="all")
        store_steps(store, "plays", "sim", routes, routes.source)
        name = build_stored_route_model(store, "plays", "sim", "p*")
        stored = view_data(
            stored_partitions(store, "plays", "p*"),
            routes=route_transitions(stored_partitions(store, "plays", "p*"), routes_model=name),
            elements_per_node=0,
        )
    finally:
        store.close()
    assert {(e["source"], e["target"]): pytest.approx(e["transition"]) for e in stored["route_edges"]} == got


def test_the_command_writes_each_format_and_refuses_bad_options(tmp_path, capsys, log):
    args = [str(PLAYS["collection"]), "--qrels", str(PLAYS["qrels"]), "--run", str(PLAYS["runs"][0])]
    assert main(["view", *args, "-o", str(tmp_path / "v.gexf")]) == 0
    assert "wrote the view of the p* summary (13 partitions, 1 run; gexf)" in capsys.readouterr().err
    assert main(["view", *args, "--format", "json", "-o", str(tmp_path / "data")]) == 0
    assert json.loads((tmp_path / "data").read_text())["format"] == "graphsr-view/1"
    assert main(["view", *args, "--routes", str(log), "--effort", "duration", "-o", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["routes"].endswith("(duration)")
    for bad, said in (
        (["--elements-per-node", "-1"], "expected an integer in [0, 100000], got '-1'"),
        (["--elements-per-node", "nan"], "expected an integer in [0, 100000], got 'nan'"),
        (["-o", str(tmp_path / "v.svg")], "cannot tell the format from the output's suffix .svg"),
        (["--routes-model", "m"], "is read from the store: give --store"),
        (["--routes", str(log), "--routes-model", "m"], "give --routes or --routes-model, not both"),
    ):
        try:
            code = main(["view", *args, *bad])
        except SystemExit as exc:  # (argparse's refusal)
            code = exc.code
        assert code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
    assert not (tmp_path / "v.svg").exists()


# -- in a real browser ---------------------------------------------------------------------------------------


def _ready(driver, page: Path) -> float:
    from selenium.webdriver.support.ui import WebDriverWait

    started = time.perf_counter()
    driver.get(page.as_uri())
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    return time.perf_counter() - started


def _shown(driver) -> list[str]:
    """The partitions whose rows are drawn, top to bottom (read from the page, not its script)."""
    return [r.get_attribute("data-sid") for r in driver.find_elements("css selector", "#tree .row[data-sid]")]


def _row(driver, sid: str):
    return driver.find_element("css selector", f'#tree .row[data-sid="{sid}"]')


def _retrieved(parts, runs, names) -> dict:
    """Per run, the (topic, document, element) it retrieves and the partition each falls in, from the runs and
    the documents themselves."""
    from graphsr.core.document import resolve_node

    docs = {d.docid: d for d in iter_documents(PLAYS["collection"])}
    out = {}
    for run, name in zip(runs, names):
        got = {}
        for t, results in run.results.items():
            for r in results:
                for x in r.xpaths:
                    i = resolve_node(docs, r.docid, x)
                    got[(str(t), r.docid, i)] = f"S{int(parts.summary.assign(docs[r.docid])[i]) + 1}"
        out[name] = got
    return out


def test_the_tree_expands_finds_and_lists_in_headless_chromium(tmp_path, inputs, artefacts, log, browser):
    """The summary as a tree one expands: rows drawn are the roots and the children of expanded rows; a click on
    the toggle expands and collapses; finding a partition expands to it, selects it, centres it and gives its path;
    the panel's figures, the model's steps in and out and the listed elements are the data's."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from graphsr.analysis.view import route_transitions
    from graphsr.io import read_routes

    qrels, runs = inputs
    parts = memory_partitions(PLAYS["collection"], "p*")
    data = view_data(parts, qrels, runs, elements_per_node=20, routes=route_transitions(parts, read_routes(log)))
    page = tmp_path / "view.html"
    write_view(data, page, "html")
    nodes = {n["sid"]: n for n in data["nodes"]}
    children = {sid: [n["sid"] for n in data["nodes"] if n["parent"] == sid] for sid in nodes}
    driver = browser()
    try:
        rendered = _ready(driver, page)
        shown = _shown(driver)
        assert shown and shown[0] == next(n["sid"] for n in data["nodes"] if n["parent"] is None)
        for sid in shown:  # a row is drawn when every ancestor is expanded
            p = nodes[sid]["parent"]
            assert p is None or _row(driver, p).get_attribute("aria-expanded") == "true"
        # collapse a row with children by its toggle, then expand it again
        opened = next(s for s in shown if children[s] and _row(driver, s).get_attribute("aria-expanded") == "true")
        _row(driver, opened).find_element("css selector", ".tog").click()
        after = _shown(driver)
        assert _row(driver, opened).get_attribute("aria-expanded") == "false"
        assert not set(children[opened]) & set(after) and len(after) < len(shown)
        assert "below" in _row(driver, opened).find_element("css selector", ".more").text
        _row(driver, opened).find_element("css selector", ".tog").click()
        assert _shown(driver) == shown
        # every label is drawn whole, at a legible size
        for r in driver.find_elements("css selector", "#tree .row[data-sid] .lab"):
            assert r.size["width"] > 0 and driver.execute_script(
                "return arguments[0].scrollWidth <= arguments[0].clientWidth + 1 && "
                "parseFloat(getComputedStyle(arguments[0]).fontSize) >= 12",
                r,
            )
        # the keyboard: down selects the next row, right expands it, left collapses it
        first = shown[0]
        _row(driver, first).find_element("css selector", ".lab").click()
        tree = driver.find_element("id", "tree")
        tree.send_keys(Keys.ARROW_DOWN)
        second = _shown(driver)[1]
        assert "sel" in _row(driver, second).get_attribute("class")
        assert children[second]  # (the plays' head)
        was = _row(driver, second).get_attribute("aria-expanded")
        tree.send_keys(Keys.ARROW_LEFT if was == "true" else Keys.ARROW_RIGHT)
        assert _row(driver, second).get_attribute("aria-expanded") != was
        tree.send_keys(Keys.ARROW_RIGHT if was == "true" else Keys.ARROW_LEFT)
        assert _row(driver, second).get_attribute("aria-expanded") == was
        # find: typed, then Enter; the deepest partition, under collapsed rows
        driver.find_element("id", "close-all").click()
        assert len(_shown(driver)) == sum(n["parent"] is None for n in data["nodes"])
        deep = max(data["nodes"], key=lambda n: (n["depth"], n["extent"]))
        find = driver.find_element("id", "find")
        find.send_keys(deep["label"])
        assert deep["sid"] in [h.get_attribute("data-hit") for h in driver.find_elements("css selector", "#hits div")]
        find.send_keys(Keys.ENTER)
        row = _row(driver, deep["sid"])
        assert "sel" in row.get_attribute("class")
        path, p = [], deep["sid"]
        while p:
            path.insert(0, nodes[p]["tag"])
            p = nodes[p]["parent"]
        assert driver.find_element("id", "crumbs").text.split(" (")[0] == " › ".join(path)
        top, bottom, centre = driver.execute_script(
            "const t = document.getElementById('tree').getBoundingClientRect(), r = arguments[0].getBoundingClientRect();"
            "return [t.top, t.bottom, (r.top + r.bottom) / 2];",
            row,
        )
        assert top < centre < bottom
        assert driver.find_element("id", "panel-figures").get_attribute("data-sid") == deep["sid"]
        driver.save_screenshot(str(artefacts / "view-tree-found.png"))
        # select the partition the most results fall in, by a click on its row
        busy = max(nodes, key=lambda s: sum(data["counts"][r].get(s, [0])[0] for r in data["runs"]))
        driver.find_element("id", "open-all").click()
        assert len(_shown(driver)) == len(nodes)
        _row(driver, busy).find_element("css selector", ".lab").click()
        figures = driver.find_element("id", "panel-figures")
        assert figures.get_attribute("data-sid") == busy
        assert int(driver.find_element("id", "panel-extent").text) == int(parts.summary.extent_size[int(busy[1:]) - 1])
        first = int(driver.find_element("id", "panel-retrieved").text)
        assert first == data["counts"][data["runs"][0]].get(busy, [0])[0]
        # the model's steps out of and into it, with their probabilities
        for box, end, other in (("steps-out", "source", "target"), ("steps-in", "target", "source")):
            want = {e[other]: e["transition"] for e in data["edges"] if e[end] == busy}
            got = {}
            for tr in driver.find_elements("css selector", f"#{box} tbody tr"):
                cells = tr.find_elements("tag name", "td")
                got[cells[0].text.split()[0]] = float(cells[1].text)
            assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=1e-3) for k in want)
        routed = {e["target"]: e["transition"] for e in data["route_edges"] if e["source"] == busy}
        got = [tr.find_elements("tag name", "td") for tr in driver.find_elements("css selector", "#route-out tbody tr")]
        assert {c[0].text.split()[0]: pytest.approx(float(c[1].text), rel=1e-3) for c in got} == routed
        # its elements, as the data lists them (decoded in the page), a page of 25 at a time
        rows = driver.find_elements("css selector", "#panel-rows tr")
        listed = data["elements"][busy]
        assert len(rows) == min(25, len(listed))
        assert [r.find_elements("tag name", "td")[1].text for r in rows] == [x[2] for x in listed[:25]]
        assert driver.execute_script("return graphsrView.listing(arguments[0])", busy) == json.loads(json.dumps(listed))
        driver.save_screenshot(str(artefacts / "view-tree-selected.png"))
        Select(driver.find_element("id", "run")).select_by_value(data["runs"][1])
        second = int(driver.find_element("id", "panel-retrieved").text)
        assert second == data["counts"][data["runs"][1]].get(busy, [0])[0] and second != first
        topic = data["topics"][0]
        Select(driver.find_element("id", "topic")).select_by_value(topic)
        assert (
            int(driver.find_element("id", "panel-retrieved").text)
            == data["topic_counts"][data["runs"][1]].get(topic, {}).get(busy, [0])[0]
        )
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        requests = [json.loads(e["message"])["message"] for e in driver.get_log("performance")]
        urls = {m["params"]["request"]["url"] for m in requests if m["method"] == "Network.requestWillBeSent"}
        assert urls == {page.as_uri()}, urls  # nothing but the page itself
    finally:
        driver.quit()
    assert rendered < 20


def test_two_runs_compared_on_the_tree_in_headless_chromium(tmp_path, inputs, artefacts, browser):
    """Runs A and B compared: per partition, the (topic, element) pairs A retrieves and B does not and the
    reverse, counted here from the runs and the documents; shown in each row, on hover and in the panel, and the
    elements of either side listed on request."""
    from selenium.webdriver.support.ui import Select

    qrels, runs = inputs
    parts = memory_partitions(PLAYS["collection"], "p*|c")
    data = view_data(parts, qrels, runs, elements_per_node=3)
    page = tmp_path / "view.html"
    write_view(data, page, "html")
    a, b = data["runs"]
    got = _retrieved(parts, runs, data["runs"])
    driver = browser()
    try:
        _ready(driver, page)
        Select(driver.find_element("id", "colour")).select_by_value("compare")
        for first, second in ((a, b), (b, a)):
            Select(driver.find_element("id", "run")).select_by_value(first)
            Select(driver.find_element("id", "other")).select_by_value(second)
            for topic in ("", data["topics"][0]):
                Select(driver.find_element("id", "topic")).select_by_value(topic)
                keep = lambda key: not topic or key[0] == topic  # noqa: E731
                only = {s: 0 for s in (n["sid"] for n in data["nodes"])}
                other = dict(only)
                for key, sid in got[first].items():
                    only[sid] += keep(key) and key not in got[second]
                for key, sid in got[second].items():
                    other[sid] += keep(key) and key not in got[first]
                shown = driver.execute_script("return graphsrView.compare()")
                assert dict(zip((n["sid"] for n in data["nodes"]), shown["aOnly"])) == only
                assert dict(zip((n["sid"] for n in data["nodes"]), shown["bOnly"])) == other
        Select(driver.find_element("id", "run")).select_by_value(a)
        Select(driver.find_element("id", "other")).select_by_value(b)
        Select(driver.find_element("id", "topic")).select_by_value("")
        only = {}
        for key, sid in got[a].items():
            if key not in got[b]:
                only.setdefault(sid, set()).add(key)
        sid = max(only, key=lambda s: len(only[s]))
        driver.find_element("id", "find").send_keys(sid + "\n")
        row = _row(driver, sid)
        assert f"{a} only {len(only[sid])}" in row.get_attribute("title")  # the counts on hover
        assert row.find_element("css selector", ".val").text.split()[0] == f"+{len(only[sid])}"
        colour = row.find_element("css selector", ".sw").value_of_css_property("background-color")
        red, _, blue = (int(v) for v in re.findall(r"\d+", colour)[:3])
        assert red > blue  # A's colour where A alone finds more
        assert int(driver.find_element("id", "panel-a-only").text) == len(only[sid])
        Select(driver.find_element("id", "filter")).select_by_value("a")
        listed = driver.find_elements("css selector", "#panel-rows tr")
        docs = {d.docid: d for d in iter_documents(PLAYS["collection"])}
        want = {(d, docs[d].xpath(i)) for _, d, i in only[sid]}
        seen = {(r.find_elements("tag name", "td")[0].text, r.find_elements("tag name", "td")[1].text) for r in listed}
        assert seen == set(list(want)[:25]) if len(want) <= 25 else seen <= want
        driver.save_screenshot(str(artefacts / "view-compare.png"))
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()


def test_every_partition_is_in_the_tree_whatever_its_parents(tmp_path, inputs, browser):
    """A tag summary's main parents may form a cycle (text under scene, scene under text): every partition is still
    drawn, once, when all are expanded."""
    qrels, runs = inputs
    data = view_data(memory_partitions(PLAYS["collection"], "tag"), qrels, runs, elements_per_node=1)
    page = tmp_path / "view.html"
    write_view(data, page, "html")
    driver = browser()
    try:
        _ready(driver, page)
        driver.find_element("id", "open-all").click()
        shown = _shown(driver)
        assert sorted(shown) == sorted(n["sid"] for n in data["nodes"])
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()


def test_names_that_look_like_markup_stay_text(tmp_path, browser):
    """A document named like HTML (file names may hold < > " &) is shown as its name, never run as markup."""

    folder = tmp_path / "c"
    folder.mkdir()
    hostile = 'a"<b onmouseover=alert(1)>&x<script>alert(2)<!--'  # (no /: a file name)
    (folder / f"{hostile}.xml").write_text("<r><s>x</s></r>")
    (folder / "plain.xml").write_text("<r><s/><s/></r>")
    page = tmp_path / "v.html"
    assert main(["view", str(folder), "-o", str(page)]) == 0
    driver = browser()
    try:
        _ready(driver, page)
        driver.execute_script("graphsrView.go('S1')")
        assert hostile in driver.find_element("id", "panel-rows").text
        assert not driver.find_elements("css selector", "#panel b[onmouseover]")
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()


def _renamed(data: dict, run: str, doc: str, collection: str) -> dict:
    """The view's data with its one run, its documents and its collection renamed."""
    old = data["runs"][0]
    out = json.loads(json.dumps(data))
    out["runs"] = [run]
    out["collection"] = collection
    out["counts"] = {run: out["counts"].pop(old)}
    out["topic_counts"] = {run: out["topic_counts"].pop(old)}
    for rows in out["elements"].values():
        for row in rows:
            row[0] = doc + row[0]
            row[5] = {run: v for v in row[5].values()}
    return out


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_NAMES = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(
        ["\x00", "\x01", "\x1f", "\x0b", "\ufffe", "\uffff", "\udc80", "\ud800", "<", "&", '"', "]", ">", "\t", "\n"]
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=_NAMES, doc=_NAMES, collection=_NAMES)
def test_every_export_parses_whatever_the_names(memory_view, tmp_path, run, doc, collection):
    """Run ids, document names and the collection's path with control characters, lone surrogates or markup:
    GraphML and GEXF read back in networkx, JSON in json, each with the names escaped the same way."""
    from graphsr.analysis.view import safe_text

    _, data = memory_view
    named = _renamed(data, run, doc, collection)
    safe = safe_text(run)
    for form, read in (("graphml", nx.read_graphml), ("gexf", nx.read_gexf)):
        path = tmp_path / f"v.{form}"
        write_view(named, path, form)
        g = read(path)
        assert g.number_of_nodes() == len(data["nodes"]), form
        first = g.nodes[data["nodes"][0]["sid"]]
        assert first[f"{safe}:retrieved"] == data["counts"][data["runs"][0]][data["nodes"][0]["sid"]][0], form
        assert g.graph.get("collection", safe_text(collection)) == safe_text(collection)
    path = tmp_path / "v.json"
    write_view(named, path, "json")
    back = json.loads(path.read_text(encoding="utf-8"))
    assert back["runs"] == [safe] and back["collection"] == safe_text(collection)
    docs = {row[0] for rows in back["elements"].values() for row in rows}
    assert docs and all(d.startswith(safe_text(doc)) for d in docs)
    write_view(named, tmp_path / "v.html", "html")
    assert (tmp_path / "v.html").read_text(encoding="utf-8")
