"""Figures of the studies, one function per kind, each saved as PNG and SVG.

Figures are built on `matplotlib.figure.Figure` directly, never through pyplot: no global
state, no GUI backend, safe in worker threads and on machines without a display (the raster
output is Agg's). Every function takes tidy DataFrames (those of `atmsim.sweep`, of a study's
comparison tables, or `Result.traces`) and an output stem, and returns the files written.
SVGs carry no date and a fixed hash salt, so a figure redrawn from the same data is the same
file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Union

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PathLike = Union[str, Path]

SIM_COLOR = "#1f77b4"
PAPER_COLOR = "#d62728"


def _figure(width: float = 6.4, height: float = 4.0) -> "Figure":
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


def _scale(metric: str) -> tuple[float, str]:
    # The papers speak Mb/s; bit/s values are unreadable on an axis.
    return (1e-6, "Mb/s") if metric.endswith("_bps") else (1.0, "")


def _label(metric: str) -> str:
    factor, unit = _scale(metric)
    name = metric.split(".")[-1].replace("_bps", "").replace("_", " ")
    return f"{name} ({unit})" if unit else name


def goodput_vs_parameter(
    points: "pd.DataFrame",
    x: str,
    out: PathLike,
    metric: str = "summary.total_goodput_bps",
    hue: Optional[str] = None,
    reserved_bps: Union[None, float, Sequence[float], str] = None,
    paper: Optional["pd.DataFrame"] = None,
    title: Optional[str] = None,
    reference_label: str = "reserved",
) -> List[Path]:
    """A metric (default total goodput) against parameter x, one line per `hue` value, with
    95 % confidence bars.

    points: a sweep's summary (columns x, hue, metric, mean, ci_low, ci_high).
    reserved_bps: a reserved-bandwidth reference, drawn dashed: one value (a horizontal line),
    one per x value, or the name of a column of `points`; `reference_label` names it.
    paper: published values to mark beside the simulated ones (columns x, hue, value).
    """
    factor, _ = _scale(metric)
    data = points[points["metric"] == metric].sort_values(x)
    fig = _figure()
    ax = fig.add_subplot()
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=True))
    colors = {}
    for name, group in groups:
        mean = group["mean"] * factor
        low = (group["mean"] - group["ci_low"]).fillna(0) * factor
        high = (group["ci_high"] - group["mean"]).fillna(0) * factor
        line = ax.errorbar(group[x], mean, yerr=[low, high], marker="o", capsize=3,
                           label="simulated" if name is None else f"{hue}={name!s}")
        colors[name] = line.lines[0].get_color()
    if paper is not None:
        # The paper's values as crosses in their series' colour; one legend entry for all.
        pgroups = [(None, paper)] if hue is None else list(paper.groupby(hue, sort=True))
        for i, (name, group) in enumerate(pgroups):
            ax.plot(group[x], group["value"] * factor, linestyle="none", marker="x",
                    markersize=8, color=colors.get(name, PAPER_COLOR),
                    label="paper (crosses)" if i == 0 else None)
    if reserved_bps is not None:
        xs = sorted(data[x].unique())
        if isinstance(reserved_bps, str):
            ref = data.drop_duplicates(x).sort_values(x)[reserved_bps].tolist()
        elif isinstance(reserved_bps, (int, float)):
            ref = [float(reserved_bps)] * len(xs)
        else:
            ref = list(reserved_bps)
        ax.plot(xs, [r * factor for r in ref], linestyle="--", color="gray", label=reference_label)
    ax.set_xlabel(x)
    ax.set_ylabel(_label(metric))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title, fontsize="medium")
    return save(fig, out)


def _row_labels(table: "pd.DataFrame", columns: Sequence[str]) -> List[str]:
    def fmt(v: Any) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "-"
        return f"{v:g}" if isinstance(v, float) else str(v)

    return [" ".join(fmt(row[c]) for c in columns) for _, row in table.iterrows()]


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
    `<simulated>_ci_low/_ci_high` columns."""
    import numpy as np

    names = _row_labels(table, labels)
    pos = np.arange(len(names))
    fig = _figure(max(6.4, 0.45 * len(names) + 2), 4.2)
    ax = fig.add_subplot()
    sim = table[simulated].astype(float)
    err = None
    if f"{simulated}_ci_low" in table:
        low = (sim - table[f"{simulated}_ci_low"].astype(float)).fillna(0)
        high = (table[f"{simulated}_ci_high"].astype(float) - sim).fillna(0)
        err = [low.clip(lower=0), high.clip(lower=0)]
    ax.bar(pos - 0.2, sim, 0.4, yerr=err, capsize=2, color=SIM_COLOR, label="atmsim")
    ax.bar(pos + 0.2, table[published].astype(float), 0.4, color=PAPER_COLOR, label="paper")
    ax.set_xticks(pos, names, rotation=60, ha="right", fontsize="x-small")
    ax.set_ylabel(ylabel or simulated)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title, fontsize="medium")
    return save(fig, out)


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
    """Two heat maps on one colour scale, simulated | paper, plus their difference: rows are
    the `rows` columns' combinations, columns the values of `column`; cells are annotated."""
    sim = table.pivot_table(index=list(rows), columns=column, values=simulated, aggfunc="first",
                            sort=False)
    pap = table.pivot_table(index=list(rows), columns=column, values=published, aggfunc="first",
                            sort=False).reindex(index=sim.index, columns=sim.columns)
    diff = sim - pap
    height = max(3.0, 0.32 * len(sim.index) + 1.6)
    fig = _figure(max(9.0, 1.1 * 3 * len(sim.columns) + 3), height)
    axes = fig.subplots(1, 3, sharey=True)
    ylabels = [" ".join(str(v) for v in (k if isinstance(k, tuple) else (k,))) for k in sim.index]
    panels = [(sim, "atmsim", "viridis", vmin, vmax), (pap, "paper", "viridis", vmin, vmax),
              (diff, "atmsim - paper", "RdBu_r", -0.5, 0.5)]
    for ax, (grid, name, cmap, lo, hi) in zip(axes, panels):
        image = ax.imshow(grid.to_numpy(dtype=float), cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
        _annotate(ax, grid)
        ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns], fontsize="small")
        ax.set_title(name, fontsize="medium")
        fig.colorbar(image, ax=ax, shrink=0.8)
    axes[0].set_yticks(range(len(ylabels)), ylabels, fontsize="x-small")
    axes[0].set_ylabel(" ".join(rows), fontsize="small")
    if title:
        fig.suptitle(title, fontsize="medium")
    return save(fig, out)


def _annotate(ax: "Axes", grid: "pd.DataFrame") -> None:
    values = grid.to_numpy(dtype=float)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = float(values[i, j])
            if not math.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6, color="white")


def _time_series(
    frame: "pd.DataFrame", by: str, value: str, out: PathLike, ylabel: str,
    names: Optional[Sequence[str]], title: Optional[str], hline: Optional[float] = None,
    step: bool = False,
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
        ax.axhline(hline, linestyle="--", color="gray", linewidth=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if len(chosen) <= 16:
        ax.legend(fontsize="x-small", ncol=max(1, len(chosen) // 8))
    if title:
        ax.set_title(title, fontsize="medium")
    return save(fig, out)


def cwnd_trace(
    cwnd: "pd.DataFrame", out: PathLike, connections: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Congestion window of each connection over time (Result.traces["cwnd"])."""
    data = cwnd.assign(cwnd_kB=cwnd["cwnd_bytes"] / 1000.0)
    return _time_series(data, "connection", "cwnd_kB", out, "cwnd (kB)", connections, title,
                        step=True)


def queue_trace(
    queues: "pd.DataFrame", out: PathLike, ports: Optional[Sequence[str]] = None,
    buffer_cells: Optional[float] = None, title: Optional[str] = None,
) -> List[Path]:
    """Queue occupancy of switch ports over time (Result.traces["queues"]); the buffer size
    as a dashed line when given."""
    return _time_series(queues, "port", "cells", out, "queue (cells)", ports, title,
                        hline=buffer_cells)


def utilisation_trace(
    utilization: "pd.DataFrame", out: PathLike, ports: Optional[Sequence[str]] = None,
    title: Optional[str] = None,
) -> List[Path]:
    """Utilisation of switch ports' outgoing links over time (Result.traces["utilization"])."""
    return _time_series(utilization, "port", "utilization", out, "utilisation", ports, title,
                        hline=1.0)
