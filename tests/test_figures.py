"""What people look at: legends outside the data, long run ids shortened with a key, partitions in their natural
order with their keys, and aligned tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")

from graphsr.analysis.figures import coverage_figure, figure_bytes, means_figure, per_topic_figure  # noqa: E402
from graphsr.analysis.scores import ScoreTable  # noqa: E402
from graphsr.analysis.significance import compare_runs  # noqa: E402

LONG = ["uni-x-2010-focused-bm25-title-only", "uni-x-2010-focused-bm25-title-desc", "short"]


def scores(runs, topics=12, seed=0):
    rng = np.random.default_rng(seed)
    rows = [(r, "P@10", str(t), float(rng.random())) for r in runs for t in range(topics)]
    rows += [(r, "P@10", "all", 0.5) for r in runs]
    return ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))


def texts(fig) -> list[str]:
    return [t.get_text() for t in fig.texts]


def test_long_run_ids_become_codes_with_a_key_and_legends_stay_outside_the_data():
    fig = per_topic_figure(scores(LONG), "P@10")
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["R1", "R2", "R3"]
    assert any("R1 = uni-x-2010-focused-bm25-title-only" in t and "R3 = short" in t for t in texts(fig))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1  # right of the axes
    for t in fig.texts:  # the key is inside the figure, below the axes
        box = t.get_window_extent(renderer)
        assert box.y1 <= ax.get_window_extent(renderer).y0 and box.x0 >= 0
    figure_bytes(fig, "svg")
    short = means_figure(scores(["bm25", "lm"]), "P@10")  # short names stay, with no key
    assert not texts(short) and {t.get_text() for t in short.axes[0].get_yticklabels()} == {"lm", "bm25"}


def test_the_coverage_heat_map_orders_partitions_as_numbers_and_names_them():
    table = pd.DataFrame(
        {
            "run": "r",
            "sid": [f"S{k}" for k in (10, 2, 1, 11)],
            "key": ["/a/j", "/a/b", "/a", "/a/" + "x" * 60],
            "retrieved": 1,
            "relevant": 2,
            "relevant_retrieved": 1,
            "relevant_reachable": 0.5,
        }
    )
    fig = coverage_figure(table, "p*")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert [lab.split()[0] for lab in labels] == ["S1", "S2", "S10", "S11"]
    assert labels[0] == "S1  /a" and "…" in labels[3] and len(labels[3].split("  ")[1]) == 40  # a long key: cut


def test_the_significance_table_keeps_its_columns_aligned():
    rng = np.random.default_rng(3)
    rows = [
        (r, m, str(t), base + rng.normal(0, 0.03))
        for r, base in [("bm25", 0.3), ("a-long-run-name", 0.5), ("x", 0.52)]
        for m in ("P@10", "MAiP(task=thorough)")
        for t in range(25)
    ]
    text = compare_runs(
        ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])), None, test="t"
    ).table()
    lines = text.splitlines()[:4]
    assert any(" a" in line for line in lines[1:])  # some run beats another: letters are shown
    for measure in ("P@10", "MAiP(task=thorough)"):
        end = lines[0].index(measure) + len(measure)  # the header ends where the means end
        for line in lines[1:]:
            assert line[end - 5] == "." and line[end - 6].isdigit(), (measure, line)  # d.dddd in line


def _table(rows) -> ScoreTable:
    rows = list(rows)
    means = {}
    for r, m, _, v in rows:
        means.setdefault((r, m), []).append(v)
    rows += [(r, m, "all", float(np.mean(v))) for (r, m), v in means.items()]
    return ScoreTable(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]))


def test_a_one_topic_section_draws_no_interval_and_says_so():
    from graphsr.analysis.figures import family_means_figure, layout_problems

    one = _table((r, "P@10", "7", v) for r, v in (("a", 0.4), ("b", 0.9), ("c", 0.1)))
    fig = family_means_figure(one, ["P@10"])
    title = fig.axes[0].get_title()
    assert "no interval over one topic" in title and "interval over the topics" not in title
    assert not any(c for c in fig.axes[0].containers if getattr(c, "has_xerr", False))
    many = _table((r, "P@10", str(t), (t + k) / 10) for k, r in enumerate("abc") for t in range(5))
    fig = family_means_figure(many, ["P@10"])
    assert "95% interval over the topics" in fig.axes[0].get_title()
    assert not layout_problems(fig)


def test_a_run_scoring_0_on_a_topic_is_seen_where_one_not_answering_is_not():
    from graphsr.analysis.figures import per_topic_figure

    table = _table([("a", "P@10", "1", 0.0), ("a", "P@10", "2", 0.5), ("b", "P@10", "1", 0.7)])  # b lacks topic 2
    fig = per_topic_figure(table, "P@10")
    ax = fig.axes[0]
    marks = np.concatenate([c.get_offsets() for c in ax.collections]) if ax.collections else np.zeros((0, 2))
    assert len(marks) == 1 and marks[0][1] == 0.0  # a's 0 on topic 1, and nothing for b's missing topic 2
    assert "a dash at 0: scored 0; nothing: topic not answered" in " ".join(ax.get_title().split())


def test_a_family_of_more_measures_than_a_figure_draws_says_how_many():
    from graphsr.analysis.figures import FAMILY_SHOWN, family_means_figure

    names = [f"iP[{k / 100:.2f}]" for k in range(16)]
    table = _table((r, m, str(t), (t + k) / 20) for k, r in enumerate("abc") for m in names for t in range(3))
    fig = family_means_figure(table, names)
    assert fig.axes[0].get_title().startswith(f"{FAMILY_SHOWN} of 16 measures (the others in the tables): ")
    assert len(fig.axes[0].get_legend().get_texts()) == FAMILY_SHOWN


@pytest.mark.parametrize("n", [4, 12, 21])
def test_the_agreement_heat_map_prints_only_numbers_a_reader_can_read(n):
    """Every text of the heat map is at least 9 px as the report's page shows it (a wider figure is shown
    smaller): with 21 measures the cells are too small for a number, and the title says where the values are."""
    from graphsr.analysis.figure_layout import SMALLEST_PX, shown_px
    from graphsr.analysis.figures import agreement_matrix_figure, layout_problems

    rng = np.random.default_rng(n)
    names = [f"measure-with-a-long-name-{k}@10" for k in range(n)]
    table = _table((r, m, str(t), float(rng.random())) for r in "abcde" for m in names for t in range(4))
    fig = agreement_matrix_figure(table, names)
    fig.canvas.draw()
    assert not layout_problems(fig), layout_problems(fig)[:3]
    numbers = [t for t in fig.axes[0].texts]
    assert all(shown_px(fig, t.get_fontsize()) >= SMALLEST_PX for t in numbers)
    assert (len(numbers) == n * n) == (n <= 12)
    assert ("the values are in graphsr agree's table" in fig._suptitle.get_text()) == (n > 12)
