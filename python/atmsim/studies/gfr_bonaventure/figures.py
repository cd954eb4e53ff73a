"""Figures of the GFR (Bonaventure) report: privileged and mean background goodput against
the privileged MCR, with the application-level reserved bandwidth, as the paper draws figures
4, 5, 7, 9 and 11-23 (the paper's stated goodputs as crosses; for the WFQ-based switch also
the MCR-weighted share of the link, which the paper says the unreserved bandwidth follows);
and the privileged source's congestion window of figures 6, 8 and 10. With the study's two
replications the figures draw both beside their mean, not a t interval."""

from __future__ import annotations

from pathlib import Path
from typing import List

from matplotlib.ticker import MaxNLocator

from ... import figure_style as style
from ... import plots
from ..registry import FigureFile, StudyResults
from . import scenarios as net
from . import setups

SERIES = [
    ("derived.priv_goodput_bps", "privileged", "tab:blue", "paper_priv_goodput_bps"),
    ("derived.bg_mean_goodput_bps", "background, mean per source", "tab:green", "paper_bg_goodput_bps"),
]


def _one(results: StudyResults, table: str, out: Path) -> List[FigureFile]:
    frame = results.tables.get(table)
    points = results.points
    if frame is None or not len(frame) or not len(points):
        return []
    setup = setups.SETUPS[table]
    ubr = setup.mode == "ubr"
    pts = points[points["table"] == table]
    fig = plots._figure()
    ax = fig.add_subplot()
    mcrs = sorted(frame["mcr"].astype(float))
    ax.plot(
        mcrs,
        [net.reserved_bps(m, setup.priv_segment) / 1e6 for m in mcrs],
        "--",
        color="tab:blue",
        label="privileged UNI2 (app level)" if ubr else "privileged reserved",
    )
    ax.plot(
        mcrs,
        [net.reserved_bps(setup.background_mcr, setup.bg_segment) / 1e6] * len(mcrs),
        "--",
        color="tab:green",
        label="background UNI2 (app level)" if ubr else "background reserved",
    )
    if setup.mode == "wfq":
        bg_sum = setup.background_sources * setup.background_mcr
        ax.plot(
            mcrs,
            [
                net.reserved_bps(net.LINE_CELLS_PER_S * m / (m + bg_sum), setup.priv_segment) / 1e6
                for m in mcrs
            ],
            ":",
            color="tab:blue",
            label="privileged MCR-weighted share of the link",
        )
    runs = results.runs
    stated_any = drawn_runs = False
    bounds: List[str] = []
    for metric, label, color, paper in SERIES:
        sub = pts[pts["metric"] == metric].sort_values("mcr")
        if not len(sub):
            continue
        x = sub["mcr"].astype(float)
        factor = style.scale(metric)
        y = sub["mean"] * factor
        few = sub["n"].max() < style.FEW_REPLICATIONS
        ax.plot(
            x,
            y,
            marker="o",
            color=color,
            label=f"{label} (atmsim)",
            markersize=style.MEAN_MARKER_SIZE if few else 6,
        )
        if few:
            if runs is not None and metric in runs:
                mine = runs[runs["table"] == table]
                style.replications(ax, mine["mcr"].astype(float), mine[metric] * factor, color)
                drawn_runs = True
        else:
            below, above = style.whiskers(y, sub["ci_low"] * factor, sub["ci_high"] * factor)
            ax.errorbar(x, y, yerr=[below, above], linestyle="none", color=color, capsize=3)
        if paper in frame and not ubr:
            stated = frame[frame[paper].notna()]
            if len(stated):
                bounds += style.paper_marks(
                    ax,
                    stated["mcr"].astype(float),
                    stated[paper].astype(float) * factor,
                    color,
                    style.comparators(stated, paper[len("paper_") :]),
                )
                stated_any = True
    if drawn_runs:
        style.replications_legend(ax)
    if stated_any:
        style.paper_legend(ax, bounds)
    # Figure 4 varies the privileged UNI2 link's rate, not an MCR.
    style.finish(ax, "mcr", "derived.priv_goodput_bps", setup.title)
    ax.xaxis.set_major_locator(MaxNLocator(5))  # 6-digit rates: fewer ticks stay apart
    if ubr:
        ax.set_xlabel("Privileged UNI2 link rate (cells/s)")
    files = plots.save(fig, out / f"figure{table}-goodput")
    caption = (
        f"{setup.title}: goodput against the privileged MCR, the mean of the "
        "replications (open circles: each replication); dashed: reserved bandwidth at application level "
        "(MCR x 48/53 x segment data / segment octets on the wire)"
        + ("; dotted: the privileged MCR-weighted share of the link" if setup.mode == "wfq" else "")
        + "; crosses, in their series' colour: values stated in the paper's text."
    )
    return [FigureFile(table, caption, files)]


def _traces(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for run, tables in results.traces:
        cwnd, queues, arrivals = tables.get("cwnd"), tables.get("queues"), tables.get("arrivals")
        if arrivals is not None and len(arrivals):
            files = plots.arrival_trace(
                arrivals,
                out / f"trace-{run.name}-arrivals",
                reserved_cells_per_s=float(run.name.rsplit("-mcr", 1)[-1]) if "-mcr" in run.name else None,
                title=run.title,
            )
            figs.append(
                FigureFile(
                    "traces",
                    f"Figure 24: arrival rate of the privileged source at the bottleneck switch "
                    f"(sw1->sw2), cells/s averaged over 100 ms windows; dashed: its MCR. {run.title}.",
                    files,
                )
            )
        if cwnd is not None and len(cwnd):
            files = plots.cwnd_trace(cwnd, out / f"trace-{run.name}-cwnd", title=run.title)
            figs.append(
                FigureFile("traces", f"Congestion window of the privileged source: {run.title}.", files)
            )
        if queues is not None and len(queues):
            files = plots.queue_trace(
                queues, out / f"trace-{run.name}-queue", buffer_cells=run.buffer_cells, title=run.title
            )
            figs.append(FigureFile("traces", f"Bottleneck (sw1->sw2) queue: {run.title}.", files))
    return figs


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for table in setups.FIGURES + setups.VARIANTS:
        figs += _one(results, table, out_dir)
    return figs + _traces(results, out_dir)
