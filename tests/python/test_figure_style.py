"""Figures fit for a paper: axis labels in words with units, legible heat-map annotations,
published marks in their series' colour, intervals that respect the quantity, and
replications drawn when there are few."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgb

from atmsim import figure_style as style
from atmsim import plots
from atmsim.studies import registry

# What a raw column or metric name looks like: lower-case words joined by _ . > -
RAW = re.compile(r"^[a-z][a-z0-9]*([_.>-][A-Za-z0-9]+)+$|^[a-z_]+$")


def _axis_labels(fig):
    return [text for ax in fig.axes for text in (ax.get_xlabel(), ax.get_ylabel()) if text]


def _assert_worded(fig, names):
    """Every axis of the figure is labelled, and no label is a column name."""
    labels = _axis_labels(fig)
    assert labels
    spaced = {n.replace("_", " ") for n in names}
    for text in labels:
        assert text not in names and text not in spaced, text
        assert not RAW.match(text), text
        assert text[0].isupper() or text[0] == "$", text  # words, as a caption starts


def test_every_study_column_has_words_with_units():
    # What the studies vary (their tables' label columns) and what their figures plot.
    names = {
        "efficiency",
        "fairness",
        "max_queue_cells",
        "goodput_mbps",
        "ratio",
        "goodput_tcp1",
        "efficiency_Mi-Ro",
        "summary.total_goodput_bps",
        "derived.priv_goodput_bps",
    }
    for name in registry.names():
        for table in registry.get(name).tables:
            names.update(table.labels)
    for name in sorted(names):
        words = style.label(name)
        assert words != name and not RAW.match(words), (name, words)
    assert style.label("goodput_Mi-Ro") == "Goodput of Mi-Ro (Mb/s)"
    with pytest.raises(KeyError, match="figure_style.LABELS"):
        style.label("no_such_column")


def test_units_in_the_labels_of_quantities_with_units():
    for name in (
        "buffer_cells",
        "mcr",
        "mss",
        "bg_mbps",
        "goodput_mbps",
        "max_queue_cells",
        "summary.total_goodput_bps",
        "t_s",
        "cells",
        "cwnd_kB",
    ):
        assert re.search(r"\((cells|cells/s|octets|Mb/s|Gb/s|s|kB)\b", style.label(name)), name
    assert style.scale("summary.total_goodput_bps") == 1e-6 and style.scale("efficiency") == 1.0


def test_text_colour_contrast():
    # Black on light cells, white on dark ones, and never below 4.5:1 over a colour map.
    assert style.text_color((1.0, 1.0, 1.0)) == "black"
    assert style.text_color((0.0, 0.0, 0.2)) == "white"
    assert style.contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    for g in [i / 50 for i in range(51)]:
        cell = (g, g, g)
        assert style.contrast(to_rgb(style.text_color(cell)), cell) >= 4.5


@pytest.fixture
def table():
    rows = []
    for i, config in enumerate(("LAN", "WAN")):
        for k in (1000, 2000, 3000):
            for j, policy in enumerate(("UBR", "EPD", "SD", "FBA")):
                sim = 0.1 + 0.25 * j + 0.05 * i
                # Differences across the whole diverging scale: -0.5 .. +0.5 and near 0.
                rows.append(
                    dict(
                        config=config,
                        buffer_cells=k,
                        policy=policy,
                        efficiency=sim,
                        paper_efficiency=sim - (j - 1.5) / 3 + k / 1e5,
                    )
                )
    return pd.DataFrame(rows)


def test_heatmap_annotations_are_legible_and_axes_worded(table):
    fig = plots.heatmap_figure(
        table, ["config", "buffer_cells"], "policy", "efficiency", "paper_efficiency", title="t"
    )
    checked = 0
    for ax in fig.axes:
        if not ax.images:
            continue  # a colour bar
        image = ax.images[0]
        values = image.get_array()
        assert values is not None
        for text in ax.texts:
            col, row = (round(v) for v in text.get_position())
            cell = image.cmap(image.norm(values[row, col]))
            rgb = [float(c) for c in cell[:3]]
            assert style.contrast(to_rgb(text.get_color()), rgb) >= 4.5, text.get_text()
            checked += 1
    assert checked == 3 * len(table)
    _assert_worded(fig, set(table.columns))
    assert "Buffer size (cells)" in fig.axes[0].get_ylabel()


def _points(ci_low_offset, n=10):
    rows = []
    for policy in ("EPD", "FBA"):
        for k in (1000, 2000, 3000):
            mean = 1e6 + k * 1e3
            rows.append(
                dict(
                    policy=policy,
                    buffer_cells=k,
                    metric="summary.total_goodput_bps",
                    n=n,
                    mean=mean,
                    std=1e6,
                    ci_low=mean - ci_low_offset,
                    ci_high=mean + 2e6,
                )
            )
    return pd.DataFrame(rows)


def test_goodput_interval_never_below_zero():
    # An interval reaching down to -4 Mb/s (a t interval over a skewed sample) stops at 0.
    fig = plots.goodput_figure(_points(ci_low_offset=8e6), "buffer_cells", hue="policy")
    ax = fig.axes[0]
    bars = [coll for coll in ax.collections if isinstance(coll, LineCollection)]
    lows = [seg[:, 1].min() for coll in bars for seg in coll.get_segments()]
    assert lows and min(lows) >= 0.0
    assert style.whiskers([1.0], [-3.0], [2.0]) == ([1.0], [1.0])
    assert style.whiskers([1.0], [-3.0], [2.0], floor_at_zero=False) == ([4.0], [1.0])
    assert style.whiskers([1.0], [float("nan")], [float("nan")]) == ([0.0], [0.0])
    _assert_worded(fig, {"buffer_cells", "summary.total_goodput_bps"})
    assert ax.get_xlabel() == "Buffer size (cells)"
    assert ax.get_ylabel() == "Total TCP goodput (Mb/s)"


def test_few_replications_are_drawn_not_an_interval():
    points = _points(ci_low_offset=3e6, n=2)
    runs = pd.DataFrame(
        [
            dict(
                policy=p["policy"],
                buffer_cells=p["buffer_cells"],
                **{"summary.total_goodput_bps": p["mean"] + d},
            )
            for _, p in points.iterrows()
            for d in (-1e5, 1e5)
        ]
    )
    fig = plots.goodput_figure(points, "buffer_cells", hue="policy", runs=runs)
    ax = fig.axes[0]
    assert not ax.collections  # no error bars
    marks = [line for line in ax.lines if line.get_linestyle() == "None"]
    assert sum(np.size(line.get_xdata()) for line in marks) == len(runs)


def test_paper_marks_in_their_series_colour_with_a_legend_entry():
    points = _points(ci_low_offset=1e6)
    paper = points.assign(value=points["mean"] * 0.9)
    fig = plots.goodput_figure(points, "buffer_cells", hue="policy", paper=paper)
    ax = fig.axes[0]
    series = {line.get_label(): line.get_color() for line in ax.lines if line.get_label() in ("EPD", "FBA")}
    crosses = [
        line for line in ax.lines if line.get_marker() == style.PAPER_MARKER and np.size(line.get_xdata())
    ]
    assert len(crosses) == 2
    assert {c.get_color() for c in crosses} == set(series.values())
    box = ax.get_legend()
    assert box is not None
    legend = [t.get_text() for t in box.get_texts()]
    assert style.PAPER_LEGEND in legend


@pytest.mark.parametrize("name", registry.names())
def test_every_study_figure_has_worded_axes(name, tmp_path, monkeypatch):
    """Each study's figures, drawn from made-up values for its quick experiments (no
    simulation): every axis is labelled in words, never with a column or metric name."""
    import random

    from atmsim.studies.registry import StudyResults
    from atmsim.studies.reproduce import _comparison, _labelled

    study = registry.get(name)
    experiments = study.experiments(quick=True)
    metrics = sorted({c.metric for t in study.tables for c in t.compared} | {"summary.total_goodput_bps"})
    rng = random.Random(1)
    runs, points = [], []
    for i, exp in enumerate(experiments):
        values = {
            m: [rng.uniform(0.2, 0.9) * (1e8 if m.endswith("_bps") else 1.0) for _ in range(study.runs)]
            for m in metrics
        }
        for r in range(study.runs):
            runs.append(
                {
                    "point": i,
                    "run": r,
                    "table": exp.table,
                    **exp.labels,
                    **{m: v[r] for m, v in values.items()},
                }
            )
        for m, v in values.items():
            mean = sum(v) / len(v)
            points.append(
                {
                    "point": i,
                    "metric": m,
                    "n": len(v),
                    "mean": mean,
                    "std": 0.0,
                    "ci_low": mean - 0.3 * mean,
                    "ci_high": mean + 0.3 * mean,
                }
            )
    frame = pd.DataFrame(points)
    results = StudyResults(
        tables=_comparison(study, frame, experiments),
        points=_labelled(frame, experiments),
        runs=pd.DataFrame(runs),
    )
    drawn = []

    # Labels need no rendering: keep each figure and write nothing (the PNG and SVG writes
    # were most of this test's time; test_plots.py checks that figures are written).
    def keep(fig, stem):
        drawn.append(fig)
        base = Path(stem)
        return [base.with_suffix(".png"), base.with_suffix(".svg")]

    monkeypatch.setattr(plots, "save", keep)
    figures = study.figures(results, tmp_path)
    assert figures and len(drawn) == len(figures)
    columns = set(metrics)
    for table in results.tables.values():
        columns.update(table.columns)
    for fig in drawn:
        _assert_worded(fig, columns)


def test_intervals_are_cut_to_the_quantity_s_range() -> None:
    # Jain's index cannot exceed 1 nor a goodput fall below 0; a difference can be anything.
    assert style.bounded("fairness", 0.447, 1.03) == (0.447, 1.0)
    assert style.bounded("summary.efficiency", 0.95, 1.02) == (0.95, 1.0)
    assert style.bounded("efficiency_min", 0.95, 1.02) == (0.95, 1.0)
    assert style.bounded("goodput_bps", -2.0, 5.0) == (0.0, 5.0)
    assert style.bounded("diff_efficiency", -0.3, 0.2) == (-0.3, 0.2)
    below, above = style.whiskers([0.98], [0.9], [1.05], True, style.ceiling("fairness"))
    assert below == [pytest.approx(0.08)] and above == [pytest.approx(0.02)]
