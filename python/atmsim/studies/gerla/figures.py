"""Figures of the credit/rate study's report: goodput against the number of TCP sources
(figures 3-4), goodput against MSS beside eta_OH x B_av (figure 5), utilisation trace
(figure 6)."""

from __future__ import annotations

from pathlib import Path
from typing import List

from ... import plots
from ..registry import FigureFile, StudyResults
from . import data
from . import scenarios as net

COLORS = {1.1: "tab:blue", 1.2: "tab:green", 1.3: "tab:orange"}


def _vs_sources(results: StudyResults, table: str, control: str, out: Path) -> List[FigureFile]:
    frame = results.tables.get(table)
    if frame is None or not len(frame):
        return []
    fig = plots._figure()
    ax = fig.add_subplot()
    ns = sorted(frame["sources"].astype(int).unique())
    ax.plot(ns, [net.offered_mbps(n) for n in ns], ":", color="gray", label="offered (user)")
    for b_g in data.BURSTINESS:
        sub = frame[frame["b_g"] == b_g].sort_values("sources")
        if not len(sub):
            continue
        color = COLORS[b_g]
        ax.plot(sub["sources"], sub["goodput_mbps"], "o-", color=color,
                label=f"b_g {b_g} (atmsim)")
        ax.axhline(data.SATURATION_MBPS[control][b_g], color=color, linestyle="--",
                   linewidth=0.8)
        ax.plot([max(ns)], [data.SATURATION_MBPS[control][b_g]], "x",
                color=plots.PAPER_COLOR, markersize=9, mew=2)
    ax.plot([], [], "x", color=plots.PAPER_COLOR, label="paper: saturation (text)")
    ax.set_xlabel("number of TCP sources")
    ax.set_ylabel("total TCP goodput (Mb/s)")
    ax.set_title(f"Figure {table}: {control.upper()}, MSS {data.MSS}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    files = plots.save(fig, out / f"figure{table}-goodput")
    return [FigureFile(table, f"Figure {table} ({control.upper()}): total TCP goodput against "
                       "the number of TCP sources; dashed lines and crosses: the saturation "
                       "goodputs the text states; dotted: the offered load.", files)]


def _vs_mss(results: StudyResults, out: Path) -> List[FigureFile]:
    from ... import _core

    frame = results.tables.get("5")
    if frame is None or not len(frame):
        return []
    fig = plots._figure()
    ax = fig.add_subplot()
    for control, color in (("prca", "tab:red"), ("fcvc", "tab:blue")):
        sub = frame[frame["control"] == control].sort_values("mss")
        ax.plot(sub["mss"], sub["goodput_mbps"], "o-", color=color,
                label=f"{control.upper()} (atmsim)")
    sweep = sorted(set(int(m) for m in frame["mss"]) | set(data.MSS_SWEEP))
    b_g = float(frame["b_g"].iloc[0])
    for b_av, style, label in ((data.b_av_mbps(b_g), "--", "eta_OH x B_av (this link)"),
                               (data.B_AV_MBPS[b_g], ":", "eta_OH x B_av (paper's B_av)")):
        ax.plot(sweep, [_core.eta_oh(m, float(data.APP_MEAN_BYTES)) * b_av for m in sweep],
                style, color="black", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("MSS (octets)")
    ax.set_ylabel("total TCP goodput (Mb/s)")
    ax.set_title(f"Figure 5: goodput against MSS (b_g {b_g}, 15 sources)", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    files = plots.save(fig, out / "figure5-mss")
    return [FigureFile("5", "Figure 5: total TCP goodput against MSS with the analytic bound "
                       "eta_OH(MSS) x B_av (eq. 2).", files)]


def _traces(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for run, tables in results.traces:
        util = tables.get("utilization")
        if util is None or not len(util):
            continue
        files = plots.utilisation_trace(util, out / f"figure6-{run.name}", title=run.title)
        figs.append(FigureFile("traces", f"Figure 6: utilisation of the output link, "
                               f"{run.title} (intervals of 1000 cell slots).", files))
    return figs


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    return (_vs_sources(results, "3", "prca", out_dir) + _vs_sources(results, "4", "fcvc", out_dir)
            + _vs_mss(results, out_dir) + _traces(results, out_dir))
