"""Figures of the credit/rate study's report: goodput against the number of TCP sources
(figures 3-4), goodput against MSS beside eta_OH x B_av (figure 5), utilisation trace
(figure 6)."""

from __future__ import annotations

from pathlib import Path
from typing import List

from ... import figure_style as style
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
    ax.plot(
        ns,
        [net.offered_mbps(n) for n in ns],
        ":",
        color=style.REFERENCE_COLOR,
        label="offered load (user level)",
    )
    for b_g in data.BURSTINESS:
        sub = frame[frame["b_g"] == b_g].sort_values("sources")
        if not len(sub):
            continue
        color = COLORS[b_g]
        ax.plot(sub["sources"], sub["goodput_mbps"], "o-", color=color, label=f"$b_g$ = {b_g} (atmsim)")
        ax.axhline(data.SATURATION_MBPS[control][b_g], color=color, linestyle="--", linewidth=0.8)
        style.paper_marks(ax, [max(ns)], [data.SATURATION_MBPS[control][b_g]], color)
    style.paper_legend(ax)
    ax.plot([], [], "--", color="black", linewidth=0.8, label="paper: saturation level (dashed)")
    style.finish(ax, "sources", "goodput_mbps", f"Figure {table}: {control.upper()}, MSS {data.MSS}")
    files = plots.save(fig, out / f"figure{table}-goodput")
    return [
        FigureFile(
            table,
            f"Figure {table} ({control.upper()}): total TCP goodput against "
            "the number of TCP sources; dashed lines and crosses (in the colour of their "
            "b_g): the saturation goodputs the text states; dotted: the offered "
            "load.",
            files,
        )
    ]


def _vs_mss(results: StudyResults, out: Path) -> List[FigureFile]:
    from ... import _core

    frame = results.tables.get("5")
    if frame is None or not len(frame):
        return []
    fig = plots._figure()
    ax = fig.add_subplot()
    for control, color in (("prca", "tab:red"), ("fcvc", "tab:blue")):
        sub = frame[frame["control"] == control].sort_values("mss")
        ax.plot(sub["mss"], sub["goodput_mbps"], "o-", color=color, label=f"{control.upper()} (atmsim)")
    sweep = sorted({int(m) for m in frame["mss"]} | set(data.MSS_SWEEP))
    b_g = float(frame["b_g"].iloc[0])
    bound = r"$\eta_{OH} \times B_{av}$"
    for b_av, line, name in (
        (data.b_av_mbps(b_g), "--", f"{bound} (this link)"),
        (data.B_AV_MBPS[b_g], ":", f"{bound} (paper's $B_{{av}}$)"),
    ):
        ax.plot(
            sweep,
            [_core.eta_oh(m, float(data.APP_MEAN_BYTES)) * b_av for m in sweep],
            line,
            color="black",
            label=name,
        )
    ax.set_xscale("log", base=2)
    style.finish(ax, "mss", "goodput_mbps", f"Figure 5: goodput against MSS ($b_g$ = {b_g}, 15 sources)")
    files = plots.save(fig, out / "figure5-mss")
    return [
        FigureFile(
            "5",
            "Figure 5: total TCP goodput against MSS with the analytic bound eta_OH(MSS) x B_av (eq. 2).",
            files,
        )
    ]


def _traces(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for run, tables in results.traces:
        util = tables.get("utilization")
        if util is None or not len(util):
            continue
        files = plots.utilisation_trace(util, out / f"figure6-{run.name}", title=run.title)
        figs.append(
            FigureFile(
                "traces",
                f"Figure 6: utilisation of the output link, {run.title} (intervals of 1000 cell slots).",
                files,
            )
        )
    return figs


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    return (
        _vs_sources(results, "3", "prca", out_dir)
        + _vs_sources(results, "4", "fcvc", out_dir)
        + _vs_mss(results, out_dir)
        + _traces(results, out_dir)
    )
