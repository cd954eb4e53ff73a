"""The figure defects of issue 26, each on a small synthetic table (no run):

- Goyal's bar ticks read `1 1-3` (experiment and TCP group run together);
- one CLASS figure-2 series drawn exactly under another (the same marker and line);
- the CLASS figure 8-9 panels are single points in quick mode, drawn as if they were curves;
- published upper and lower bounds drawn as points.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List

import numpy as np
import pandas as pd

from atmsim import figure_style as style
from atmsim import plots
from atmsim.studies.ajmone_marsan import figures as class_figures


def _markers(fig) -> List[Any]:
    return [line.get_marker() for ax in fig.axes for line in ax.get_lines()]


def _y(line: Any) -> List[float]:
    """A line's y values as floats (matplotlib types them as any array-like)."""
    return [float(v) for v in np.asarray(line.get_ydata(), dtype=float)]


def _n(line: Any) -> int:
    return int(np.asarray(line.get_xdata()).size)


def test_goyal_ticks_name_experiment_and_group():
    frame = pd.DataFrame({"experiment": [1, 1, 2], "tcps": ["1-3", "4-6", "1-3"]})
    assert plots._row_labels(frame, ["experiment", "tcps"]) == [
        "exp. 1, TCPs 1-3",
        "exp. 1, TCPs 4-6",
        "exp. 2, TCPs 1-3",
    ]
    # Columns whose values read on their own keep the short form.
    ubr = pd.DataFrame({"config": ["LAN", "WAN"], "sources": [5, 15]})
    assert plots._row_labels(ubr, ["config", "sources"]) == ["LAN 5", "WAN 15"]


def _class_frame(bg: List[float], same: bool = True) -> pd.DataFrame:
    rows = []
    for shaping in ("none", "15"):
        for b in bg:
            rows.append(
                {
                    "buffer": 5000,
                    "shaping": shaping,
                    "bg_mbps": b,
                    "goodput_mbps": 50.0 if same else 50.0 + len(shaping),
                    "efficiency": 1.0,
                    "paper_goodput_mbps": math.nan,
                    "paper_efficiency": 0.5 if (shaping == "none" and b == 50) else math.nan,
                }
            )
    return pd.DataFrame(rows)


def test_class_coincident_series_stay_visible():
    fig, _, _, single = class_figures.panel_figure(
        _class_frame([0, 50, 75]), "bg_mbps", ["buffer", "shaping"], ["goodput_mbps", "efficiency"], "t", "2"
    )
    assert not single
    for ax in fig.axes[:2]:
        series = [ln for ln in ax.get_lines() if _n(ln) == 3]
        assert len(series) == 2
        a, b = series
        # The same values: told apart by marker and line style, hollow markers of two sizes.
        assert _y(a) == _y(b)
        assert (a.get_marker(), a.get_linestyle()) != (b.get_marker(), b.get_linestyle())
        assert a.get_markerfacecolor() == "none" and a.get_markersize() != b.get_markersize()


def test_class_single_point_panels_are_said_so(tmp_path):
    frame = _class_frame([50])
    figs = class_figures._panel(
        frame, "bg_mbps", ["buffer", "shaping"], ["efficiency"], tmp_path / "f", "Figures 8-9", "2", "Cap."
    )
    (fig_file,) = figs
    assert "single point" in fig_file.caption
    several = class_figures._panel(
        _class_frame([0, 50]),
        "bg_mbps",
        ["buffer", "shaping"],
        ["efficiency"],
        tmp_path / "g",
        "t",
        "2",
        "Cap.",
    )
    assert "single point" not in several[0].caption


def test_class_stated_upper_bound_is_drawn_as_a_bound():
    # Figure 2, no shaping, 50 Mb/s background: "efficiency ... dropping to 0.5 or even less".
    fig, stated, bounds, _ = class_figures.panel_figure(
        _class_frame([0, 50, 75]), "bg_mbps", ["buffer", "shaping"], ["efficiency"], "t", "2"
    )
    assert stated and bounds == ["upper"]
    assert style.UPPER_MARKER in _markers(fig)
    marks = [ln for ln in fig.axes[0].get_lines() if ln.get_marker() == style.UPPER_MARKER]
    assert any(_y(ln) == [0.5] for ln in marks)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert style.BOUND_LEGEND["upper"] in labels


def test_comparator_column_draws_bounds_in_goodput_figures():
    points = pd.DataFrame(
        {
            "buffer_cells": [1, 2, 3],
            "metric": ["summary.efficiency"] * 3,
            "n": [5] * 3,
            "mean": [0.5, 0.6, 0.7],
            "ci_low": [0.4, 0.5, 0.6],
            "ci_high": [0.6, 0.7, 0.8],
        }
    )
    paper = pd.DataFrame(
        {"buffer_cells": [1, 2, 3], "value": [0.55, 0.8, 0.5], "comparator": ["~", "<=", ">"]}
    )
    fig = plots.goodput_figure(points, "buffer_cells", metric="summary.efficiency", paper=paper)
    by_marker: Dict[Any, List[float]] = {ln.get_marker(): _y(ln) for ln in fig.axes[0].get_lines() if _n(ln)}
    assert by_marker[style.PAPER_MARKER] == [0.55]
    assert by_marker[style.UPPER_MARKER] == [0.8] and by_marker[style.LOWER_MARKER] == [0.5]
    # Without comparators, every published value is a point, as before.
    fig = plots.goodput_figure(
        points, "buffer_cells", metric="summary.efficiency", paper=paper.drop(columns="comparator")
    )
    assert style.UPPER_MARKER not in _markers(fig) and style.LOWER_MARKER not in _markers(fig)


def test_paper_marks_bound_kinds():
    assert style.bound_kind("<") == style.bound_kind("<=") == "upper"
    assert (
        style.bound_kind(">=") == "lower" and style.bound_kind("~") is None and style.bound_kind(None) is None
    )
    frame = pd.DataFrame({"comparator_ratio": ["<", "="]})
    assert style.comparators(frame, "ratio") == ["<", "="] and style.comparators(frame, "x") is None


def test_dotted_keys_have_axis_words():
    assert style.label("n_source.buffer_cells") == "Buffer size (cells)"
    assert style.label("summary.efficiency") == "Efficiency"
    assert style.label("n_source.policy") == "Drop policy"


def test_class_caption_names_the_bounds_it_draws(tmp_path):
    (with_bound,) = class_figures._panel(
        _class_frame([0, 50]),
        "bg_mbps",
        ["buffer", "shaping"],
        ["efficiency"],
        tmp_path / "a",
        "t",
        "2",
        "Cap.",
    )
    assert "Carets: bounds the text states, at most" in with_bound.caption
    plain = _class_frame([0, 50]).assign(paper_efficiency=math.nan)
    (without,) = class_figures._panel(
        plain, "bg_mbps", ["buffer", "shaping"], ["efficiency"], tmp_path / "b", "t", "2", "Cap."
    )
    assert "Caret" not in without.caption and "Crosses" not in without.caption
