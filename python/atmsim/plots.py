"""Figures of the studies, one function per kind, each saved as PNG and SVG.

Figures are built on `matplotlib.figure.Figure` directly, never through pyplot: no global
state, no GUI backend, safe in worker threads and on machines without a display (the raster
output is Agg's). Every function takes tidy DataFrames (those of `atmsim.sweep`, of a study's
comparison tables, or `Result.traces`) and an output stem, and returns the files written.
SVGs carry no date and a fixed hash salt, so a figure redrawn from the same data is the same
file. What the figures look like (labels with units, colours, published marks, intervals,
annotations) is decided in `atmsim.figure_style`; the `*_figure` functions return the
Figure unsaved, for tests and for callers that add to it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Union

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from . import figure_style as style

PathLike = Union[str, Path]

SIM_COLOR = style.SIM_COLOR
PAPER_COLOR = style.PAPER_COLOR


def _figure(width: float = 7.6, height: float = 4.0) -> "Figure":
    # Wide enough for the legend beside the axes (figure_style.legend).
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams["svg.hashsalt"] = "atmsim"
    return Figure(figsize=(width, height), layout="constrained")


def save(fig: "Figure", stem: PathLike) -> List[Path]:
    """Write stem.png and stem.svg (parents created); return both paths."""
    base = Path(stem)
    base.parent.mkdir(parents=True, exist_ok=True)
    png, svg = base.with_suffix(".png"), base.with_suffix(".svg")
    fig.savefig(png, dpi=120, metadata={"Software": None})
    fig.savefig(svg, metadata={"Date": None})
    return [png, svg]


def goodput_figure(
    points: "pd.DataFrame",
    x: str,
    metric: str = "summary.total_goodput_bps",
    hue: Optional[str] = None,
    reserved_bps: Union[None, float, Sequence[float], str] = None,
    paper: Optional["pd.DataFrame"] = None,
    title: Optional[str] = None,
    reference_label: str = "reserved",
    runs: Optional["pd.DataFrame"] = None,
) -> "Figure":
    """A metric (default total goodput) against parameter x, one line per `hue` value.

    points: a sweep's summary (columns x, hue, metric, n, mean, ci_low, ci_high).
    runs: the run table of the same points (columns x, hue and the metric); with fewer than
    figure_style.FEW_REPLICATIONS runs per point the replications are drawn instead of the
    95 % interval, which never reaches below zero for a quantity that cannot.
    reserved_bps: a reserved-bandwidth reference, drawn dashed: one value (a horizontal line),
    one per x value, or the name of a column of `points`; `reference_label` names it.
    paper: published values (columns x, hue, value, and optionally comparator: a bound, `<`
    or `>`, is drawn as a bound), marked in their series' colour.
    """
    factor = style.scale(metric)
    data = points[points["metric"] == metric].sort_values(x)
    fig = _figure()
    ax = fig.add_subplot()
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=True))
    colors = {}
    any_replications = False
    for name, group in groups:
        mean = group["mean"] * factor
        few = "n" in group and group["n"].max() < style.FEW_REPLICATIONS
        drawn = few and group["n"].max() > 1 and runs is not None and metric in runs
        line = ax.plot(
            group[x],
            mean,
            marker="o",
            markersize=style.MEAN_MARKER_SIZE if drawn else 6,
            label="atmsim" if name is None else str(name),
        )[0]
        color = line.get_color()
        colors[name] = color
        if drawn:
            assert runs is not None
            mine = runs if name is None else runs[runs[hue] == name]
            style.replications(ax, mine[x], mine[metric] * factor, color)
            any_replications = True
        elif not few:
            below, above = style.whiskers(
                mean,
                group["ci_low"] * factor,
                group["ci_high"] * factor,
                style.nonnegative(metric),
                style.ceiling(metric),
            )
            ax.errorbar(group[x], mean, yerr=[below, above], linestyle="none", capsize=3, color=color)
    if any_replications:
        style.replications_legend(ax)
    if paper is not None:
        pgroups = [(None, paper)] if hue is None else list(paper.groupby(hue, sort=True))
        bounds: List[str] = []
        for name, group in pgroups:
            bounds += style.paper_marks(
                ax,
                group[x],
                group["value"] * factor,
                colors.get(name, style.PAPER_COLOR),
                list(group["comparator"]) if "comparator" in group else None,
            )
        style.paper_legend(ax, bounds)
    if reserved_bps is not None:
        xs = sorted(data[x].unique())
        if isinstance(reserved_bps, str):
            ref = data.drop_duplicates(x).sort_values(x)[reserved_bps].tolist()
        elif isinstance(reserved_bps, (int, float)):
            ref = [float(reserved_bps)] * len(xs)
        else:
            ref = list(reserved_bps)
        ax.plot(
            xs, [r * factor for r in ref], linestyle="--", color=style.REFERENCE_COLOR, label=reference_label
        )
    style.finish(ax, x, metric, title or "", "" if hue is None else style.label(hue))
    return fig


def goodput_vs_parameter(points: "pd.DataFrame", x: str, out: PathLike, **kwargs: Any) -> List[Path]:
    """`goodput_figure` saved as out.png and out.svg."""
    return save(goodput_figure(points, x, **kwargs), out)


# Tick words for label columns whose bare values are ambiguous side by side ("1 1-3" is
# experiment 1, TCPs 1-3).
TICK_WORDS = {"experiment": "exp. {}", "tcps": "TCPs {}", "vc": "VC {}"}


def _row_labels(table: "pd.DataFrame", columns: Sequence[str]) -> List[str]:
    """One tick label per row from its label columns: "LAN 5", or with a column of
    TICK_WORDS "exp. 1, TCPs 1-3"."""
    from .numbers import fmt

    worded = any(c in TICK_WORDS for c in columns)
    sep = ", " if worded else " "
    return [
        sep.join(TICK_WORDS.get(c, "{}").format(fmt(row[c])) for c in columns) for _, row in table.iterrows()
    ]


def comparison_bars(
    table: "pd.DataFrame",
    labels: Sequence[str],
    simulated: str,
    published: str,
    out: PathLike,
    title: Optional[str] = None,
    ylabel: Optional[str] = None,
) -> List[Path]:
    """Grouped bars, simulated beside published, one pair per table row (labelled by the
    `labels` columns); the simulated bar carries its 95 % interval when the table has
    `<simulated>_ci_low/_ci_high` columns. ylabel: default the simulated column's label."""
    import numpy as np

    names = _row_labels(table, labels)
    pos = np.arange(len(names))
    fig = _figure(max(6.4, 0.45 * len(names) + 2), 4.2)
    ax = fig.add_subplot()
    sim = table[simulated].astype(float)
    err = None
    if f"{simulated}_ci_low" in table:
        below, above = style.whiskers(
            sim,
            table[f"{simulated}_ci_low"],
            table[f"{simulated}_ci_high"],
            style.nonnegative(simulated),
            style.ceiling(simulated),
        )
        # One replication has no interval: no zero-length whiskers with caps.
        err = [below, above] if any(below) or any(above) else None
    ax.bar(pos - 0.2, sim, 0.4, yerr=err, capsize=2, color=SIM_COLOR, label="atmsim")
    # A published bound (`comparator_<simulated>` < or >) is drawn as a bound, not as a bar.
    values = table[published].astype(float).to_numpy()
    comps = style.comparators(table, simulated)
    kinds = np.array([style.bound_kind(c) for c in comps] if comps is not None else [None] * len(names))
    point = kinds == None  # noqa: E711 (element-wise)
    ax.bar(pos[point] + 0.2, values[point], 0.4, color=PAPER_COLOR, label="paper")
    for kind in ("upper", "lower"):
        sel = kinds == kind
        if sel.any():
            ax.plot(
                pos[sel] + 0.2,
                values[sel],
                linestyle="none",
                marker=style.UPPER_MARKER if kind == "upper" else style.LOWER_MARKER,
                markersize=style.BOUND_MARKER_SIZE,
                mew=style.PAPER_MARKER_WIDTH,
                color=PAPER_COLOR,
                label=style.BOUND_LEGEND[kind],
            )
    ax.set_xticks(pos, names, rotation=60, ha="right", fontsize="x-small")
    ax.set_xlabel(style.labels(labels))
    ax.set_ylabel(ylabel or style.label(simulated))
    ax.grid(True, axis="y", alpha=0.3)
    style.legend(ax)
    if title:
        ax.set_title(title, fontsize="medium")
    return save(fig, out)


def heatmap_figure(
    table: "pd.DataFrame",
    rows: Sequence[str],
    column: str,
    simulated: str,
    published: str,
    title: Optional[str] = None,
    vmin: float = 0.0,
    vmax: float = 1.0,
) -> "Figure":
    """Two heat maps on one colour scale, simulated | paper, plus their difference: rows are
    the `rows` columns' combinations, columns the values of `column`; every cell is annotated
    in black or white, whichever reads better on its colour."""
    from .numbers import fmt

    sim = table.pivot_table(index=list(rows), columns=column, values=simulated, aggfunc="first", sort=False)
    pap = table.pivot_table(
        index=list(rows), columns=column, values=published, aggfunc="first", sort=False
    ).reindex(index=sim.index, columns=sim.columns)
    diff = sim - pap
    height = max(3.0, 0.32 * len(sim.index) + 1.6)
    fig = _figure(max(9.0, 1.1 * 3 * len(sim.columns) + 3), height)
    axes = fig.subplots(1, 3, sharey=True)
    ylabels = [" ".join(fmt(v) for v in (k if isinstance(k, tuple) else (k,))) for k in sim.index]
    quantity = style.label(simulated)
    lim = style.DIFFERENCE_RANGE
    panels = [
        (sim, "atmsim", style.FRACTION_CMAP, vmin, vmax, quantity),
        (pap, "paper", style.FRACTION_CMAP, vmin, vmax, quantity),
        (diff, "atmsim − paper", style.DIFFERENCE_CMAP, -lim, lim, "Difference"),
    ]
    for ax, (grid, name, cmap, lo, hi, bar_label) in zip(axes, panels):
        image = ax.imshow(grid.to_numpy(dtype=float), cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
        _annotate(ax, grid, image)
        ax.set_xticks(range(len(grid.columns)), [fmt(c) for c in grid.columns], fontsize="small")
        ax.set_xlabel(style.label(column), fontsize="small")
        ax.set_title(name, fontsize="medium")
        fig.colorbar(image, ax=ax, shrink=0.8, label=bar_label)
    axes[0].set_yticks(range(len(ylabels)), ylabels, fontsize="x-small")
    axes[0].set_ylabel(style.labels(rows), fontsize="small")
    if title:
        fig.suptitle(title, fontsize="medium")
    return fig


def comparison_heatmap(
    table: "pd.DataFrame",
    rows: Sequence[str],
    column: str,
    simulated: str,
    published: str,
    out: PathLike,
    title: Optional[str] = None,
    vmin: float = 0.0,
    vmax: float = 1.0,
) -> List[Path]:
    """`heatmap_figure` saved as out.png and out.svg."""
    return save(heatmap_figure(table, rows, column, simulated, published, title, vmin, vmax), out)


def _annotate(ax: "Axes", grid: "pd.DataFrame", image: Any) -> None:
    values = grid.to_numpy(dtype=float)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = float(values[i, j])
            if not math.isnan(v):
                cell = image.cmap(image.norm(v))
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6, color=style.text_color(cell))


def _time_series(
    frame: "pd.DataFrame",
    by: str,
    value: str,
    out: PathLike,
    ylabel: str,
    names: Optional[Sequence[str]],
    title: Optional[str],
    hline: Optional[float] = None,
    step: bool = False,
    hline_label: str = "",
    legend_title: str = "",
) -> List[Path]:
    fig = _figure(7.0, 3.8)
    ax = fig.add_subplot()
    chosen = list(names) if names is not None else list(dict.fromkeys(frame[by]))
    for name in chosen:
        part = frame[frame[by] == name]
        if step:
            ax.step(part["t_s"], part[value], where="post", linewidth=0.8, label=str(name))
        else:
            ax.plot(part["t_s"], part[value], linewidth=0.8, label=str(name))
    if hline is not None:
        ax.axhline(
            hline, linestyle="--", color=style.REFERENCE_COLOR, linewidth=0.8, label=hline_label or None
        )
    ax.set_xlabel(style.label("t_s"))
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if len(chosen) <= 16:
        style.legend(ax, legend_title)
    if title:
        ax.set_title(title, fontsize="medium")
    return save(fig, out)


def cwnd_trace(
    cwnd: "pd.DataFrame",
    out: PathLike,
    connections: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Congestion window of each connection over time (Result.traces["cwnd"])."""
    data = cwnd.assign(cwnd_kB=cwnd["cwnd_bytes"] / 1000.0)
    return _time_series(
        data,
        "connection",
        "cwnd_kB",
        out,
        style.label("cwnd_kB"),
        connections,
        title,
        step=True,
        legend_title="Connection",
    )


def arrival_trace(
    arrivals: "pd.DataFrame",
    out: PathLike,
    reserved_cells_per_s: Optional[float] = None,
    connections: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Arrival rate of each connection's data at a port per interval (Result.traces
    ["arrivals"]), with the reserved rate (MCR) as a dashed line if given."""
    return _time_series(
        arrivals,
        "connection",
        "cells_per_s",
        out,
        style.label("cells_per_s"),
        connections,
        title,
        hline=reserved_cells_per_s,
        step=True,
        hline_label="MCR",
        legend_title="Connection",
    )


def queue_trace(
    queues: "pd.DataFrame",
    out: PathLike,
    ports: Optional[Sequence[str]] = None,
    buffer_cells: Optional[float] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Queue occupancy of switch ports over time (Result.traces["queues"]); the buffer size
    as a dashed line when given."""
    return _time_series(
        queues,
        "port",
        "cells",
        out,
        style.label("cells"),
        ports,
        title,
        hline=buffer_cells,
        hline_label="buffer size",
        legend_title="Port",
    )


def utilisation_trace(
    utilization: "pd.DataFrame",
    out: PathLike,
    ports: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Utilisation of switch ports' outgoing links over time (Result.traces["utilization"])."""
    return _time_series(
        utilization,
        "port",
        "utilization",
        out,
        style.label("utilization"),
        ports,
        title,
        hline=1.0,
        legend_title="Port",
    )
