"""The GFR study (Bonaventure, FIFO-based switch, LAN) as a registered study:
figures 5, 7 and 9 (TCP_default, TCP_fast, TCP_SACK: privileged and mean background goodput
against the privileged MCR) and figure 4 (the artificial UBR baseline), with every number the
text states compared (gfr_bonaventure_data).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from ..scenario import Scenario
from . import gfr_bonaventure as net
from . import gfr_bonaventure_data as data
from .registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun

if TYPE_CHECKING:
    import pandas as pd

BOTTLENECK = "sw1->sw2"
QUICK_DURATION_S = 20.0
QUICK_MCRS = (20000, 100000, 180000)

PRIV_GOODPUT = Compared("priv_goodput_bps", "derived.priv_goodput_bps",
                        "privileged goodput (bit/s)", relative=True)
BG_GOODPUT = Compared("bg_goodput_bps", "derived.bg_mean_goodput_bps",
                      "mean background goodput (bit/s)", relative=True)
RTO = Compared("rto_per_10mb", "flows.priv.rto_per_10mb", "RTO expirations per 10 MB",
               relative=True)
RETX = Compared("retx_kb_per_10mb", "derived.priv_retx_kb_per_10mb",
                "KB retransmitted per 10 MB", relative=True)
TAGGED = Compared("tagged_fraction", "flows.priv.tagged_fraction", "tagged fraction")
HBO = Compared("hbo_drops", f"ports.{BOTTLENECK}.drops.hbo", "HBO drops (cells)")
QUEUE = Compared("mean_queue_cells", f"ports.{BOTTLENECK}.mean_queue_cells",
                 "mean bottleneck queue (cells)", relative=True)
RTT = Compared("rtt_ms", "derived.priv_rtt_ms", "privileged mean RTT (ms)", relative=True)

GFR_COMPARED = [PRIV_GOODPUT, BG_GOODPUT, RTO, RETX, TAGGED, HBO, QUEUE, RTT]
FIGURE_OF = {"tcp_default": "5", "tcp_fast": "7", "tcp_sack": "9"}
LABELS = ["preset", "mcr", "reserved_bps"]


def _flow_columns(runs: "pd.DataFrame", field: str) -> Dict[str, str]:
    prefix, suffix = "flows.", f".{field}"
    return {c[len(prefix):-len(suffix)]: c for c in runs.columns
            if c.startswith(prefix) and c.endswith(suffix)}


def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
    """Add per run: privileged goodput, mean background goodput, privileged KB retransmitted
    per 10 MB delivered, privileged RTT in ms, retransmitted segments of all flows."""
    out = runs.copy()
    derived: Dict[str, Any] = {}
    goodput = _flow_columns(runs, "goodput_bps")
    bg = [c for name, c in goodput.items() if name != net.privileged()]
    priv = goodput.get(net.privileged())
    if priv is not None:
        derived["derived.priv_goodput_bps"] = runs[priv]
    if bg:
        derived["derived.bg_mean_goodput_bps"] = runs[bg].mean(axis=1)
    p = f"flows.{net.privileged()}."
    if p + "bytes_retransmitted" in runs and p + "bytes_delivered" in runs:
        delivered = runs[p + "bytes_delivered"].where(runs[p + "bytes_delivered"] > 0)
        derived["derived.priv_retx_kb_per_10mb"] = (
            runs[p + "bytes_retransmitted"] / delivered * net.TRANSFER_BYTES / 1000.0)
    if p + "mean_rtt_s" in runs:
        derived["derived.priv_rtt_ms"] = runs[p + "mean_rtt_s"] * 1000.0
    retx = list(_flow_columns(runs, "segments_retransmitted").values())
    if retx:
        derived["derived.retx_segments_all"] = runs[retx].sum(axis=1)
    for name, column in derived.items():
        out[name] = column.astype("float64")
    out.attrs = dict(runs.attrs)
    out.attrs["metrics"] = list(runs.attrs.get("metrics", [])) + list(derived)
    return out


def _experiment(table: str, preset: str, mcr: int, mode: str, duration: float,
                published: Dict[str, Optional[float]]) -> Experiment:
    text = net.scenario_text(preset, mcr, mode=mode, duration_s=duration)
    return Experiment(
        table=table,
        labels={"preset": preset, "mcr": mcr, "reserved_bps": round(net.reserved_bps(mcr))},
        scenario=Scenario(text, f"gfr-bonaventure figure {table}: {preset} {mode} MCR {mcr}"),
        published=published,
        cost=duration,
    )


def _fmt(v: Any) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return "-"
    return "-" if f != f else f"{f:.3g}"


def _metric_mean(results: StudyResults, table: str, metric: str) -> Optional[float]:
    pts = results.points
    if not len(pts):
        return None
    sub = pts[(pts["table"] == table) & (pts["metric"] == metric)]
    return float(sub["mean"].mean()) if len(sub) else None


def notes(quick: bool, results: StudyResults) -> List[str]:
    """The settings, then every number the paper's text states beside the simulated value,
    then the text's comparisons between the TCP variants."""
    out: List[str] = []
    if quick:
        out.append(f"quick mode: {QUICK_DURATION_S:g} s runs instead of the paper's "
                   f"{net.DURATION_S:g} s, privileged MCR {', '.join(map(str, QUICK_MCRS))} "
                   f"only, {GfrBonaventureStudy.runs} replications: noisy, for a first look")
    labels = {c.name: c.label for t in GfrBonaventureStudy.tables for c in t.compared}
    for st in data.STATEMENTS:
        frame = results.tables.get(st.figure)
        if frame is None or not len(frame):
            continue
        row = frame[frame["mcr"] == st.mcr]
        if not len(row):
            continue
        r = row.iloc[0]
        out.append(
            f"figure {st.figure}, {st.preset}, MCR {st.mcr}: {labels[st.column]} atmsim "
            f"{_fmt(r[st.column])} (95 % CI {_fmt(r[st.column + '_ci_low'])}.."
            f"{_fmt(r[st.column + '_ci_high'])}), paper ~{st.value:g} (\"{st.quote}\")")
    retx = {t: _metric_mean(results, t, "derived.retx_segments_all") for t in ("5", "7")}
    if retx["5"] and retx["7"] is not None:
        out.append(f"retransmitted segments of all sources, TCP_fast / TCP_default (mean over "
                   f"the MCR points): atmsim {retx['7'] / retx['5']:.2f}, paper ~3")
    good = {t: _metric_mean(results, t, "derived.priv_goodput_bps") for t in ("5", "7", "9")}
    if all(good.values()):
        out.append(
            "privileged goodput averaged over the MCR points: TCP_default "
            f"{good['5'] / 1e6:.1f} Mb/s, TCP_fast {good['7'] / 1e6:.1f}, TCP_SACK "
            f"{good['9'] / 1e6:.1f} (paper: fast slightly below default, SACK above both)")
    t4 = results.tables.get("4")
    if t4 is not None and len(t4):
        ratio = (t4["priv_goodput_bps"] / t4["paper_priv_goodput_bps"]).astype(float)
        out.append(f"figure 4: privileged goodput / UNI2 capacity at application level: "
                   f"atmsim {ratio.min():.2f}..{ratio.max():.2f}, paper ~1 (\"able to "
                   f"completely utilize the bandwidth available on the UNI2 links\")")
    return out


class GfrBonaventureStudy:
    name = "gfr-bonaventure"
    title = "TCP over ATM GFR: FIFO-based switch with LBO/HBO and adapter tagging (LAN)"
    citation = ("O. Bonaventure, \"Providing bandwidth guarantees to internetwork traffic in "
                "ATM networks\" / GFR with TCP, FIFO-based implementation (sections 4-5)")
    runs = 2  # two replications per point: exponential idle times make the runs seed-dependent
    detail_metrics = True
    tables = [
        PaperTable("5", "Figure 5: TCP_default, privileged and background goodput against the "
                   "privileged MCR (FIFO GFR, LBO 6144, HBO 7168)", LABELS, GFR_COMPARED),
        PaperTable("7", "Figure 7: TCP_fast (10 ms timer, 2 duplicate ACKs)", LABELS,
                   GFR_COMPARED),
        PaperTable("9", "Figure 9: TCP_SACK", LABELS, GFR_COMPARED),
        PaperTable("4", "Figure 4: artificial UBR baseline, UNI2 links as bottlenecks "
                   "(EPD 7168/8192), TCP_default; the paper: goodput = reserved",
                   LABELS, [PRIV_GOODPUT, BG_GOODPUT]),
    ]

    @staticmethod
    def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
        return derive_metrics(runs)

    def experiments(self, quick: bool) -> List[Experiment]:
        duration = QUICK_DURATION_S if quick else net.DURATION_S
        mcrs = QUICK_MCRS if quick else net.MCRS
        out: List[Experiment] = []
        for preset in net.PRESETS:
            figure = FIGURE_OF[preset]
            for mcr in mcrs:
                out.append(_experiment(figure, preset, mcr, "gfr", duration,
                                       data.published(figure, preset, mcr)))
        for mcr in mcrs:
            # Figure 4: the paper says TCP_default uses all of each UNI2 link.
            out.append(_experiment("4", "tcp_default", mcr, "ubr", duration, {
                "priv_goodput_bps": net.reserved_bps(mcr),
                "bg_goodput_bps": net.reserved_bps(net.BACKGROUND_MCR),
            }))
        return out

    def report_notes(self, quick: bool, results: StudyResults) -> List[str]:
        return notes(quick, results)

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        return []

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from .gfr_bonaventure_figures import draw

        return draw(results, out_dir)


STUDY = GfrBonaventureStudy()
