"""The HTML report renders in a real browser: headless Chromium loads the page, every plot decodes and every
table is there (DOM), and the screenshot is not blank (pixels)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import pytest

from graphsr.analysis.report import build_report, write_report
from graphsr.analysis.scores import ScoreTable
from graphsr.cli.main import main
from graphsr.data import sample

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _need_chromium():
    if CHROMIUM is None:
        if os.environ.get("GRAPHSR_REQUIRE_CHROMIUM"):
            pytest.fail("GRAPHSR_REQUIRE_CHROMIUM is set but no chromium is installed")
        pytest.skip("headless Chromium is not installed (Debian package 'chromium')")


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    s = sample("shakespeare")
    path = tmp_path_factory.mktemp("scores") / "scores.parquet"
    measures = ["SRP@5", "SRP@10", "SRP@20", "PRUM", "nxCG@5", "nxCG@10", "nxCG@20", "MAiP(task=thorough)"]
    measures += [f"iP[{x:.2f}](task=thorough)" for x in (0, 0.1, 0.5, 1.0)]
    argv = ["eval", str(s["qrels"]), *map(str, s["runs"]), "--collection", str(s["collection"]), "--save", str(path)]
    for m in measures:
        argv += ["-m", m]
    assert main(argv) == 0
    return ScoreTable.read(path)


@pytest.mark.slow
def test_the_report_has_every_part(scores, tmp_path):
    from graphsr.navigation import build_sr_model
    from graphsr.summaries import summarize_collection

    summary = summarize_collection(sample("shakespeare")["collection"], ["p*"])["p*"]
    report = build_report(scores, formats=("svg",), summary=(summary, build_sr_model(summary, "extent").pi, "p*"))
    ids = [fid for fid, _, _ in report.figures]
    assert {
        "means-0",
        "topics-0",
        "cutoff-0",
        "cutoff-1",
        "curve-0",
        "rank-change",
        "agreement",
        "agreement-matrix",
        "summary",
    } <= set(ids)
    path = write_report(report, tmp_path / "r.html", tmp_path / "figs", "svg")
    html = path.read_text()
    assert html.count('<img class="plot"') == len(ids) and "http" not in html.replace("http-equiv", "")
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == sorted(f"{i}.svg" for i in ids)
    assert 'id="table-means"' in html and 'id="table-significance-0"' in html and 'id="table-pairs-0"' in html
    assert 'id="table-runs"' in html and 'id="contents"' in html
    assert all(f'href="#{i}"' in html for i in ids)  # the table of contents names every figure


@pytest.mark.slow
def test_chromium_renders_every_plot_and_table(scores, tmp_path):
    assert_renders(write_report(build_report(scores), tmp_path / "report.html"), tmp_path)


def assert_renders(path, tmp_path) -> None:
    """Headless Chromium renders the page: every plot decodes, every table has rows (DOM), and the
    screenshot shows colour (pixels)."""
    _need_chromium()
    url = path.resolve().as_uri()
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, "--virtual-time-budget=5000", "--dump-dom", url], capture_output=True, text=True, timeout=120
    ).stdout
    body = re.search(r"<body[^>]*>", dom).group(0)
    attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', body))
    assert int(attrs["figures"]) >= 6 and attrs["figures-rendered"] == attrs["figures"], body
    assert attrs["tables-rendered"] == attrs["tables"] and int(attrs["tables"]) >= 4, body
    shot = tmp_path / "shot.png"
    subprocess.run(
        [CHROMIUM, *FLAGS, "--window-size=1200,6000", f"--screenshot={shot}", url],
        capture_output=True,
        timeout=120,
        check=True,
    )  # (tall enough to reach the figures below the contents and tables)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (6000, 1200)
    coloured = np.abs(pixels - pixels.mean(axis=2, keepdims=True)).sum(axis=2) > 0.2  # not grey: plot colours
    assert coloured.mean() > 0.01


@pytest.mark.slow
def test_report_command_and_figure_files(scores, tmp_path, capsys):
    path = tmp_path / "s.csv"
    scores.write(path)
    assert (
        main(
            [
                "report",
                str(path),
                "-o",
                str(tmp_path / "r.html"),
                "--figures",
                str(tmp_path / "f"),
                "--figure-format",
                "pdf",
                "--no-progress",
            ]
        )
        == 0
    )
    assert "figures" in capsys.readouterr().out
    assert all(p.read_bytes().startswith(b"%PDF") for p in (tmp_path / "f").iterdir())


def test_a_report_of_a_collection_links_its_summary_view(scores, tmp_path, capsys):
    import json

    from graphsr.analysis.partitions import memory_partitions

    path = tmp_path / "s.csv"
    scores.write(path)
    s = sample("shakespeare")
    assert (
        main(
            [
                "report",
                str(path),
                "-o",
                str(tmp_path / "r.html"),
                "--collection",
                str(s["collection"]),
                "--model",
                "p*|c:length",
                "--no-progress",
            ]
        )
        == 0
    )
    page = (tmp_path / "r.html").read_text()
    assert 'href="r.view.html"' in page and "Explore the p*|c summary of the collection interactively" in page
    view = (tmp_path / "r.view.html").read_text()
    data = json.loads(re.search(r'id="graphsr-data">(.*?)</script>', view, re.S).group(1))
    parts = memory_partitions(s["collection"], "p*|c", "p*|c:length")
    assert data["model"] == "p*|c:length" and data["nodes"]["pi"] == parts.pi.tolist()


def test_summary_and_esr_figures(tmp_path, capsys):
    s = sample("shakespeare")
    assert main(["summary", str(s["collection"]), "--plot", str(tmp_path / "s.svg")]) == 0
    assert b"pi on its nodes" in (tmp_path / "s.svg").read_bytes()
    capsys.readouterr()
    path = tmp_path / "esr.csv"
    argv = [
        "eval",
        str(s["qrels"]),
        *map(str, s["runs"]),
        "--collection",
        str(s["collection"]),
        "--nav",
        "depth4",
        "--save",
        str(path),
    ]
    for k in (1, 5, 10, 20):
        argv += ["-m", f"ESRP@{k}", "-m", f"ESRR@{k}"]
    assert main(argv) == 0
    from graphsr.analysis.figures import esr_curve_figure, figure_bytes

    assert b"ESRP vs ESRR" in figure_bytes(esr_curve_figure(ScoreTable.read(path)), "svg")


def test_the_eval_plot_shows_the_tasks_own_measure(tmp_path, capsys):

    from graphsr.data import sample

    inex = sample("inex2010")
    out = tmp_path / "ric.svg"
    assert main(["eval", str(inex["qrels"]), str(inex["runs"][2]), "--task", "ric", "--plot", str(out)]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("MAgP\tall")]
    svg = out.read_text()
    assert "Generalized precision (ric), mean over 46 topics" in svg
    assert (
        f"ric11 (MAgP {float(printed[0].split(chr(9))[2]):.4f}, 46 topics)" in svg
    )  # not MAiP; the run named by its run id


def test_the_report_shows_the_numbers_compare_gives(scores):
    """One key for the whole page, the aggregates with their intervals (within a bounded measure's range), and per
    set of runs sharing topics the
    pairs table with compare's own numbers (difference, interval, effect size, wins/ties/losses, Holm p)."""
    from graphsr.analysis.intervals import mean_interval, measure_bounds
    from graphsr.analysis.report import topic_groups
    from graphsr.analysis.significance import compare_runs

    report = build_report(scores, formats=("png",), max_measures=3)
    tables = {t.id: t for t in report.tables + report.details}
    assert list(tables)[:2] == ["runs", "means"] and [r[1].text for r in tables["runs"].rows] == scores.runs
    groups = [g for g in topic_groups(scores) if len(g) >= 2]
    assert groups and all(f"pairs-{k}" in tables and f"significance-{k}" in tables for k in range(len(groups)))
    api = compare_runs(scores, scores.measures[:3], groups[0], test="t", correction="holm").pairs
    rows = tables["pairs-0"].rows
    assert len(rows) == len(api)
    for row, (_, want) in zip(rows, api.iterrows()):
        assert row[2].sort == pytest.approx(want["diff"], abs=1e-12)
        assert row[3].sort == pytest.approx(want["ci_low"], abs=1e-12)
        assert row[4].sort == pytest.approx(want["effect_size"], abs=1e-12)
        assert row[5].text == f"{want['wins']}/{want['ties']}/{want['losses']}"
        assert row[6].sort == pytest.approx(want["p_adjusted"], abs=1e-12)
    m = scores.measures[0]
    values = scores.per_topic(m, [scores.runs[0]])[scores.runs[0]].dropna().to_numpy()
    low, high = mean_interval(values, 0.95, measure_bounds(m))
    assert f"[{low:.3f}, {high:.3f}]" in tables["means"].rows[0][1].text
    for row in tables["means"].rows:  # every interval of a bounded measure within its bounds
        for m, cell in zip(report.measures, row[1:]):
            bounds = measure_bounds(m)
            if bounds is not None and "[" in cell.text:
                lo, hi = map(float, cell.text.split("[")[1].rstrip("]").split(","))
                assert bounds[0] <= lo <= hi <= bounds[1], (m, cell.text)


# -- a report without flaws ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_collections(scores, tmp_path_factory):
    """The plays' scores and Moby Dick's (one topic), runs and topics named by collection, in one table: as the
    demo's report holds them."""
    import pandas as pd

    s = sample("mobydick")
    path = tmp_path_factory.mktemp("moby") / "scores.parquet"
    argv = ["eval", str(s["qrels"]), *map(str, s["runs"]), "--collection", str(s["collection"]), "--save", str(path)]
    for m in scores.measures:
        argv += ["-m", m]
    assert main(argv) == 0
    frames = []
    for name, table in (("moby", ScoreTable.read(path)), ("plays", scores)):
        f = table.frame.copy()
        f["run"] = name + "/" + f["run"]
        f["topic"] = f["topic"].where(f["topic"] == "all", name + ":" + f["topic"])
        frames.append(f)
    return ScoreTable(pd.concat(frames, ignore_index=True))


@pytest.fixture(scope="module")
def two_report(two_collections):
    return build_report(two_collections, max_measures=6)


def test_runs_of_other_topics_get_a_section_of_their_own(two_collections, two_report):
    """Runs scored on different topics (two collections) are never ranked, plotted or tested together: one section
    each, its aggregates, figures and significance over its own runs only."""
    from graphsr.analysis.report import topic_sets

    sets = topic_sets(two_collections)
    assert [sorted(g) for g in sets] == [
        sorted(r for r in two_collections.runs if r.startswith(p)) for p in ("moby/", "plays/")
    ]
    report = two_report
    assert [s.runs for s in report.sections] == sets
    for section in report.sections:
        for t in section.tables:
            assert [row[0].sort for row in t.rows] == section.runs  # the aggregates: this section's runs only
        for t in section.details:
            assert {row[1].sort for row in t.rows} <= set(section.runs)
    moby, plays = report.sections
    assert moby.topics == 1 and not moby.details and "fewer than two topics" in moby.tables[0].note
    assert plays.topics == 5 and [t.id for t in plays.details] == ["set2-significance-0", "set2-pairs-0"]
    assert {"set1-agreement", "set2-agreement", "set2-agreement-matrix"} <= {f[0] for f in report.figures}


def test_every_figure_of_the_report_is_drawn_without_flaws(two_report):
    """Each figure's text as drawn lies within the figure and no two texts overlap (titles wrapped, scatter
    labels placed where they collide with nothing)."""
    report = two_report
    assert len(report.layout) == len(report.figures) >= 20
    assert {fid: p for fid, p in report.layout.items() if p} == {}


def test_the_checks_find_clipped_and_overlapping_text():
    """The layout check is not blind: a title past the edge and two labels on one spot are found."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from graphsr.analysis.figures import layout_problems

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("a title far too long for a figure three inches wide, cut at both of its ends")
    ax.annotate("R1", (0.5, 0.5))
    ax.annotate("R2", (0.5, 0.5))
    problems = layout_problems(fig)
    plt.close(fig)
    assert any("runs past the figure's edge" in p for p in problems)
    assert any("'R1' overlaps 'R2'" in p for p in problems)


def test_heat_map_numbers_read_on_every_cell(two_collections):
    """On the Kendall tau heat map each cell's number has a WCAG contrast of at least 4.5 (AA) against its cell."""
    from matplotlib.colors import to_rgb

    from graphsr.analysis.figure_layout import _contrast
    from graphsr.analysis.figures import agreement_matrix_figure

    plays = ScoreTable(two_collections.frame[two_collections.frame["run"].str.startswith("plays/")])
    fig = agreement_matrix_figure(plays)
    ax, image = fig.axes[0], fig.axes[0].images[0]
    grid = image.get_array()
    seen = 0
    for text in ax.texts:
        x, y = (int(round(v)) for v in text.get_position())
        cell = image.cmap(image.norm(grid[y, x]))
        a, b = sorted((_contrast(cell), _contrast(to_rgb(text.get_color()))))
        assert (b + 0.05) / (a + 0.05) >= 4.5, (text.get_text(), cell, text.get_color())
        seen += 1
    assert seen == grid.size


from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # (no shrinking: a figure takes a tenth of a second to draw)
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    runs=st.integers(2, 14),
    long_names=st.booleans(),
    close=st.booleans(),
    measure=st.sampled_from(["P@10", "SRP@5 [p*|c:extent, a long label of a model]", "MAiP(task=thorough)"]),
    seed=st.integers(0, 2**16),
)
def test_figures_stay_without_flaws_whatever_the_runs(runs, long_names, close, measure, seed):
    """Crowded scatters (runs scoring nearly alike), run names past the label limit and long measure names: each
    figure's text still within it, nothing overlapping."""
    import pandas as pd

    from graphsr.analysis.figures import layout_problems
    from graphsr.analysis.report import _figures

    rng = np.random.default_rng(seed)
    names = [("system-with-a-long-identifier-" if long_names else "r") + str(k) for k in range(runs)]
    second = "P@5" if measure != "P@5" else "P@20"
    rows = []
    for k, r in enumerate(names):
        base = 0.5 + (0.001 * k if close else 0.4 * rng.random() - 0.2)
        for t in range(1, 9):
            for m in (measure, second):
                rows.append((r, m, str(t), float(np.clip(base + 0.05 * rng.standard_normal(), 0, 1))))
    table = ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))
    import matplotlib.pyplot as plt

    for fid, _, draw in _figures(table, 40):
        fig = draw()
        if fig is None:
            continue
        problems = layout_problems(fig)
        plt.close(fig)
        assert not problems, (fid, problems)


def test_the_page_shows_every_figure_whole_in_headless_chromium(two_report, tmp_path, browser, artefacts):
    """On the rendered page: one section per set of runs, each figure drawn whole (inside the page's width, its
    proportions kept, decoded), no heading or caption cut, nothing wider than the window."""
    from selenium.webdriver.support.ui import WebDriverWait

    page = write_report(two_report, tmp_path / "report.html")
    driver = browser()
    try:
        driver.set_window_size(1100, 900)
        driver.get(page.as_uri())
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element("tag name", "body").get_attribute("data-figures-rendered")
        )
        sections = driver.find_elements("css selector", "section.runs-set")
        assert [int(s.get_attribute("data-runs")) for s in sections] == [4, 5]
        assert [int(s.get_attribute("data-topics")) for s in sections] == [1, 5]
        figures = driver.execute_script(
            "return [...document.querySelectorAll('img.plot')].map(i => {const r = i.getBoundingClientRect(),"
            " p = i.parentElement.getBoundingClientRect();"
            " return [i.naturalWidth, i.naturalHeight, r.width, r.height, r.left, r.right, p.left, p.right]})"
        )
        assert len(figures) >= 20
        for nw, nh, w, h, left, right, pl, pr in figures:
            assert nw > 0 and left >= pl - 0.5 and right <= pr + 0.5  # (scaled to fit, never cut)
            assert abs(w / h - nw / nh) < 0.02
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        cut = driver.execute_script(
            "return [...document.querySelectorAll('h1, h2, figcaption, nav li')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
        assert cut == []
        for k, section in enumerate(sections):  # a section's tables hold its runs only
            keys = {td.text for td in section.find_elements("css selector", "table[id$='means'] tbody td.run")}
            assert len(keys) == int(section.get_attribute("data-runs"))
            driver.execute_script("arguments[0].scrollIntoView()", section)
            driver.save_screenshot(str(artefacts / f"report-section-{k + 1}.png"))
        matrix = driver.find_element("id", "set2-agreement-matrix")
        driver.execute_script("arguments[0].scrollIntoView()", matrix)
        driver.save_screenshot(str(artefacts / "report-heat-map.png"))
    finally:
        driver.quit()


@pytest.mark.parametrize("name", ["shakespeare", "mobydick"])
@pytest.mark.parametrize("kind", ["p*", "p*|c", "tag"])
def test_the_summary_figure_labels_its_nodes_without_overlap(name, kind):
    """The report's summary figure: node labels placed where they collide with nothing (a crowded node left
    unlabelled, the title says how many), the title within the figure."""
    import matplotlib.pyplot as plt

    from graphsr.analysis.figures import layout_problems, summary_figure
    from graphsr.navigation import build_sr_model
    from graphsr.summaries import summarize_collection

    s = summarize_collection(sample(name)["collection"], [kind])[kind]
    fig = summary_figure(s, build_sr_model(s, "extent").pi)
    labelled = len(fig.axes[0].texts)
    problems = layout_problems(fig)
    title = fig.axes[0].get_title()
    plt.close(fig)
    assert problems == []
    assert labelled == len(s) or f"{len(s) - labelled} crowded node" in title
