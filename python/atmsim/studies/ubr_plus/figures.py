"""Figures of the UBR+ report: each paper table drawn simulated beside published, goodput
against the buffer size, and the traced runs' cwnd, queue and utilisation."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

from ... import plots
from ..registry import FigureFile, StudyResults

if TYPE_CHECKING:
    import pandas as pd

# Largest TCP goodput on the 155.52 Mb/s bottleneck with MSS 512 over AAL5 (the engine's
# summary.max_tcp_goodput_bps): converts the paper's efficiencies into goodputs.
MAX_TCP_GOODPUT_BPS = 125198490.56603773


def _tables(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    t = results.tables
    if "1" in t and len(t["1"]):
        files = plots.comparison_bars(
            t["1"],
            ["config", "sources"],
            "max_queue_cells",
            "paper_max_queue_cells",
            out / "table1-max-queue",
            "Table 1: maximum bottleneck queue",
        )
        figs.append(FigureFile("1", "Buffer needed for zero loss, atmsim beside the paper.", files))
    if "2-3" in t and len(t["2-3"]):
        for metric in ("efficiency", "fairness"):
            files = plots.comparison_heatmap(
                t["2-3"],
                ["config", "sources", "buffer_cells"],
                "policy",
                metric,
                f"paper_{metric}",
                out / f"table23-{metric}",
                f"Tables 2-3: {metric}",
            )
            figs.append(FigureFile("2-3", f"{metric.capitalize()} per policy and buffer.", files))
    if "4" in t and len(t["4"]):
        files = plots.comparison_heatmap(
            t["4"],
            ["config", "sources", "buffer_cells"],
            "z",
            "efficiency",
            "paper_efficiency",
            out / "table4-efficiency",
            "Table 4: Selective Drop efficiency against Z",
        )
        figs.append(FigureFile("4", "Selective Drop efficiency for each Z.", files))
    for table, config in (("5", "LAN"), ("6", "WAN")):
        if table in t and len(t[table]):
            files = plots.comparison_heatmap(
                t[table],
                ["sources", "buffer_cells", "r"],
                "z",
                "efficiency",
                "paper_efficiency",
                out / f"table{table}-efficiency",
                f"Table {table}: FBA efficiency ({config}), rows N K R, columns Z",
            )
            figs.append(FigureFile(table, f"FBA efficiency over R and Z ({config}).", files))
    return figs


def _runs_of(results: StudyResults, config: Any, sources: Any) -> Optional["pd.DataFrame"]:
    """The Tables 2-3 runs of one configuration and number of sources."""
    runs = results.runs
    if runs is None:
        return None
    mine: "pd.DataFrame" = runs[
        (runs["table"] == "2-3") & (runs["config"] == config) & (runs["sources"] == sources)
    ]
    return mine


def _goodput(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    t23 = results.tables.get("2-3")
    if t23 is None or not len(t23):
        return figs
    points = results.points
    points = points[(points["table"] == "2-3") & (points["metric"] == "summary.total_goodput_bps")]
    for (config, sources), group in points.groupby(["config", "sources"], sort=True):
        paper_rows = t23[(t23["config"] == config) & (t23["sources"] == sources)]
        paper = paper_rows.assign(value=paper_rows["paper_efficiency"] * MAX_TCP_GOODPUT_BPS)
        stem = out / f"goodput-{str(config).lower()}{sources}"
        files = plots.goodput_vs_parameter(
            group,
            "buffer_cells",
            stem,
            hue="policy",
            paper=paper,
            reserved_bps=MAX_TCP_GOODPUT_BPS,
            reference_label="maximum TCP goodput",
            title=f"Total goodput against buffer size, {config}, {sources} sources",
            runs=_runs_of(results, config, sources),
        )
        figs.append(
            FigureFile(
                "2-3",
                f"Goodput against buffer size ({config}, N = {sources}); "
                "crosses, in their policy's colour: the paper's efficiency x the "
                "maximum TCP goodput.",
                files,
            )
        )
    return figs


def _traces(results: StudyResults, out: Path) -> List[FigureFile]:
    figs: List[FigureFile] = []
    for run, tables in results.traces:
        name, title = run.name, run.title
        cwnd, queues, util = tables.get("cwnd"), tables.get("queues"), tables.get("utilization")
        if cwnd is not None and len(cwnd):
            files = plots.cwnd_trace(cwnd, out / f"trace-{name}-cwnd", title=title)
            figs.append(FigureFile("traces", f"Congestion windows: {title}.", files))
        if queues is not None and len(queues):
            files = plots.queue_trace(
                queues, out / f"trace-{name}-queue", buffer_cells=run.buffer_cells, title=title
            )
            figs.append(FigureFile("traces", f"Bottleneck queue: {title}.", files))
        if util is not None and len(util):
            files = plots.utilisation_trace(util, out / f"trace-{name}-utilisation", title=title)
            figs.append(FigureFile("traces", f"Bottleneck utilisation: {title}.", files))
    return figs


def draw(results: StudyResults, out_dir: Path) -> List[FigureFile]:
    return _tables(results, out_dir) + _goodput(results, out_dir) + _traces(results, out_dir)
