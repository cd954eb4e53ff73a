"""Figures of the GFR (Bonaventure) report: privileged and mean background goodput against
the privileged MCR, with the application-level reserved bandwidth, as the paper draws
figures 4, 5, 7 and 9; the paper's stated goodputs as crosses."""

from __future__ import annotations

from pathlib import Path
from typing import List

from .. import plots
from . import gfr_bonaventure as net
from .registry import FigureFile, StudyResults

TITLES = {
    "4": "Figure 4: TCP_default, UBR with the UNI2 links as bottlenecks",
    "5": "Figure 5: TCP_default, FIFO-based GFR switch",
    "7": "Figure 7: TCP_fast, FIFO-based GFR switch",
    "9": "Figure 9: TCP_SACK, FIFO-based GFR switch",
}
SERIES = [("derived.priv_goodput_bps", "privileged", "tab:blue", "paper_priv_goodput_bps"),
          ("derived.bg_mean_goodput_bps", "background (mean)", "tab:green",
           "paper_bg_goodput_bps")]


def _one(results: StudyResults, table: str, out: Path) -> List[FigureFile]:
    frame = results.tables.get(table)
    points = results.points
    if frame is None or not len(frame) or not len(points):
        return []
    pts = points[points["table"] == table]
    fig = plots._figure()
    ax = fig.add_subplot()
    mcrs = sorted(frame["mcr"].astype(float))
    ax.plot(mcrs, [net.reserved_bps(m) / 1e6 for m in mcrs], "--", color="tab:blue",
            label="privileged reserved" if table != "4" else "privileged UNI2 (app level)")
    ax.plot(mcrs, [net.reserved_bps(net.BACKGROUND_MCR) / 1e6] * len(mcrs), "--",
            color="tab:green",
            label="background reserved" if table != "4" else "background UNI2 (app level)")
    for metric, label, color, paper in SERIES:
        sub = pts[pts["metric"] == metric].sort_values("mcr")
        if not len(sub):
            continue
        x = sub["mcr"].astype(float)
        y = sub["mean"] / 1e6
        low = (sub["mean"] - sub["ci_low"]).fillna(0) / 1e6
        high = (sub["ci_high"] - sub["mean"]).fillna(0) / 1e6
        ax.errorbar(x, y, yerr=[low, high], marker="o", color=color, capsize=3,
                    label=f"{label} (atmsim)")
        if paper in frame and table != "4":
            stated = frame[frame[paper].notna()]
            if len(stated):
                ax.plot(stated["mcr"].astype(float), stated[paper].astype(float) / 1e6, "x",
                        color=plots.PAPER_COLOR, markersize=10, mew=2,
                        label=f"{label} (paper text)")
    ax.set_xlabel("privileged MCR (cells/s)" if table != "4"
                  else "privileged UNI2 rate (cells/s)")
    ax.set_ylabel("goodput (Mb/s)")
    ax.set_title(TITLES[table], fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    files = plots.save(fig, out / f"figure{table}-goodput")
    caption = (f"{TITLES[table]}: mean goodput (95 % interval over the replications) against "
               "the privileged MCR; dashed: reserved bandwidth at application level "
               "(MCR x 48/53 x segment data / segment octets on the wire); crosses: values "
               "stated in the paper's text.")
    return [FigureFile(table, caption, files)]


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for table in ("5", "7", "9", "4"):
        figs += _one(results, table, out_dir)
    return figs
