"""The GFR study (Bonaventure) as a registered study: one table per figure of privileged and
mean background goodput against the privileged MCR (what each figure varies:
gfr_bonaventure_setups), with every number the text states compared (gfr_bonaventure_data):
FIFO-based switch figures 4, 5, 7, 9 and 11-15, WFQ-based switch figures 16-23, and the
cwnd traces of figures 6, 8 and 10.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence

from ...numbers import fmt as _fmt
from ...scenario import Scenario
from ..assumptions import Assumption
from ..comparators import label as _label
from ..registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun
from ..replication import replications
from ..sensitivity import Subset
from . import assumptions as declared
from . import data, setups, text_runs
from . import scenarios as net

if TYPE_CHECKING:
    import pandas as pd

BOTTLENECK = "sw1->sw2"
QUICK_DURATION_S = 20.0
QUICK_MCRS = (20000, 100000, 180000)
# The other figures' quick points: the two MCRs the text states numbers at. In full mode they
# run at every other MCR of the base figures: with small segments a 250 s run takes up to a
# minute on the 2-core machine, and 9 points x 14 figures x 2 replications would take hours.
QUICK_OTHER_MCRS = (20000, 180000)
OTHER_MCRS = (20000, 60000, 100000, 140000, 180000)
BASE_FIGURES = ("5", "7", "9", "4")
# Figures 6, 8 and 10 are sample cwnd traces of the privileged source; the text gives neither
# the MCR nor the time span: the largest MCR (the case the text discusses) and 10 s.
TRACE_S = 10.0
TRACE_MCR = 180000
TRACE_TABLE = '[trace]\ninterval_s = 0.01\nports = ["sw1->sw2"]\nconnections = ["priv"]\nutilization = false'
TRACED = (("6", "tcp_default", "5"), ("8", "tcp_fast", "7"), ("10", "tcp_sack", "9"))
# Figure 24: the privileged source's data arrival rate at the bottleneck, averaged over 100 ms
# windows, in the case the text discusses (figure 23: WAN, WFQ, GFR.2, TCP_SACK, MCR 180000).
# The text gives no time span: the same 10 s as the other traces.
FIGURE24_MCR = 180000
FIGURE24_TABLE = (
    '[trace]\ninterval_s = 0.1\nports = ["sw1->sw2"]\nconnections = ["priv"]\n'
    "cwnd = false\nqueues = false\nutilization = false\narrivals = true"
)
# The section-6 variants (setups.VARIANTS) run at three MCRs in full mode.
VARIANT_MCRS = (20000, 100000, 180000)

PRIV_GOODPUT = Compared(
    "priv_goodput_bps", "derived.priv_goodput_bps", "privileged goodput (bit/s)", relative=True
)
BG_GOODPUT = Compared(
    "bg_goodput_bps", "derived.bg_mean_goodput_bps", "mean background goodput (bit/s)", relative=True
)
RTO = Compared("rto_per_10mb", "flows.priv.rto_per_10mb", "RTO expirations per 10 MB", relative=True)
RETX = Compared(
    "retx_kb_per_10mb", "derived.priv_retx_kb_per_10mb", "KB retransmitted per 10 MB", relative=True
)
TAGGED = Compared("tagged_fraction", "flows.priv.tagged_fraction", "tagged fraction", unit=0.01)
HBO = Compared("hbo_drops", f"ports.{BOTTLENECK}.drops.hbo", "HBO drops (cells)", kind="count")
QUEUE = Compared(
    "mean_queue_cells", f"ports.{BOTTLENECK}.mean_queue_cells", "mean bottleneck queue (cells)", relative=True
)
RTT = Compared("rtt_ms", "derived.priv_rtt_ms", "privileged mean RTT (ms)", relative=True)
DROPS = Compared(
    "bottleneck_drops", f"ports.{BOTTLENECK}.cells_dropped", "cells dropped at the bottleneck", kind="count"
)
FAIR = Compared(
    "priv_fair_ratio",
    "derived.priv_fair_ratio",
    "privileged goodput / its MCR-weighted share of the total",
    unit=0.1,  # "in proportion to the MCR" prints no digits: read as 1.0
    kind="ratio",
)
PRIV_DELAY = Compared(
    "priv_delay_ms", "derived.priv_delay_ms", "privileged mean packet delay (ms)", relative=True
)
BG_DELAY = Compared(
    "bg_delay_ms", "derived.bg_mean_delay_ms", "mean background packet delay (ms)", relative=True
)
PRIV_VCQ = Compared(
    "priv_vc_queue_cells",
    "derived.priv_vc_queue_cells",
    "privileged mean per-VC occupancy (cells)",
    relative=True,
)
BG_VCQ = Compared(
    "bg_vc_queue_cells",
    "derived.bg_mean_vc_queue_cells",
    "mean background per-VC occupancy (cells)",
    relative=True,
)

GFR_COMPARED = [PRIV_GOODPUT, BG_GOODPUT, RTO, RETX, TAGGED, HBO, QUEUE, RTT]
WFQ_COMPARED = [
    PRIV_GOODPUT,
    BG_GOODPUT,
    FAIR,
    RTO,
    RETX,
    TAGGED,
    DROPS,
    QUEUE,
    RTT,
    PRIV_DELAY,
    BG_DELAY,
    PRIV_VCQ,
    BG_VCQ,
]
RESERVED = Compared(
    "priv_reserved_ratio",
    "derived.priv_reserved_ratio",
    "privileged goodput / its reserved throughput (application level)",
    unit=0.1,  # "almost able to achieve its reserved throughput" prints no digits
    kind="ratio",
)
# The runs the text reports without a figure (text_runs) compare the reserved ratio too.
TEXT_WFQ_COMPARED = WFQ_COMPARED + [RESERVED]
# Every table's setup: the figures, the section-6 variants and the text-only runs.
ALL_SETUPS: Dict[str, setups.Setup] = {**setups.SETUPS, **text_runs.SETUPS}
FIGURE_OF = {"tcp_default": "5", "tcp_fast": "7", "tcp_sack": "9"}
LABELS = ["preset", "mcr", "reserved_bps"]


def _flow_columns(runs: "pd.DataFrame", field: str) -> Dict[str, str]:
    prefix, suffix = "flows.", f".{field}"
    return {
        c[len(prefix) : -len(suffix)]: c for c in runs.columns if c.startswith(prefix) and c.endswith(suffix)
    }


def _mcr_share(table: Any, mcr: Any) -> float:
    """The privileged source's MCR over the sum of all MCRs of the figure's network (NaN when
    the row's figure or MCR is unknown)."""
    s = ALL_SETUPS.get(str(table))
    try:
        m = float(mcr)
    except (TypeError, ValueError):
        return math.nan
    if s is None or s.mode == "ubr" or math.isnan(m):
        return math.nan
    return m / (m + s.background_sources * s.background_mcr)


def _reserved(table: Any, mcr: Any) -> float:
    """The privileged source's reserved throughput at application level (bit/s) for its MSS
    in the row's figure (NaN when the figure or MCR is unknown, or the figure is UBR)."""
    s = ALL_SETUPS.get(str(table))
    try:
        m = float(mcr)
    except (TypeError, ValueError):
        return math.nan
    if s is None or s.mode == "ubr" or math.isnan(m) or m <= 0:
        return math.nan
    return net.reserved_bps(m, s.priv_segment)


def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
    """Add per run: privileged goodput, mean background goodput, privileged KB retransmitted
    per 10 MB delivered, privileged RTT and mean packet delay in ms, mean background delay,
    privileged and mean background per-VC occupancy at the bottleneck, retransmitted segments
    of all flows, and (with the run's `table` and `mcr`) the privileged goodput over its
    MCR-weighted share of the total goodput and over its reserved throughput."""
    out = runs.copy()
    derived: Dict[str, Any] = {}
    priv_name = net.privileged()
    goodput = _flow_columns(runs, "goodput_bps")
    bg = [c for name, c in goodput.items() if name != priv_name]
    priv = goodput.get(priv_name)
    if priv is not None:
        derived["derived.priv_goodput_bps"] = runs[priv]
    if bg:
        derived["derived.bg_mean_goodput_bps"] = runs[bg].mean(axis=1)
    p = f"flows.{priv_name}."
    if p + "bytes_retransmitted" in runs and p + "bytes_delivered" in runs:
        delivered = runs[p + "bytes_delivered"].where(runs[p + "bytes_delivered"] > 0)
        derived["derived.priv_retx_kb_per_10mb"] = (
            runs[p + "bytes_retransmitted"] / delivered * net.TRANSFER_BYTES / 1000.0
        )
    if p + "mean_rtt_s" in runs:
        derived["derived.priv_rtt_ms"] = runs[p + "mean_rtt_s"] * 1000.0
    delay = _flow_columns(runs, "mean_delay_s")
    if priv_name in delay:
        derived["derived.priv_delay_ms"] = runs[delay[priv_name]] * 1000.0
    bg_delay = [c for name, c in delay.items() if name != priv_name]
    if bg_delay:
        derived["derived.bg_mean_delay_ms"] = runs[bg_delay].mean(axis=1) * 1000.0
    vcq_prefix = f"ports.{BOTTLENECK}.vc_mean_queue_cells."
    vcq = {c[len(vcq_prefix) :]: c for c in runs.columns if c.startswith(vcq_prefix)}
    if priv_name in vcq:
        derived["derived.priv_vc_queue_cells"] = runs[vcq[priv_name]]
    bg_vcq = [c for name, c in vcq.items() if name != priv_name]
    if bg_vcq:
        derived["derived.bg_mean_vc_queue_cells"] = runs[bg_vcq].mean(axis=1)
    if priv is not None and "table" in runs and "mcr" in runs:
        share = [_mcr_share(t, m) for t, m in zip(runs["table"], runs["mcr"])]
        total = runs[list(goodput.values())].sum(axis=1)
        derived["derived.priv_fair_ratio"] = runs[priv] / (total * share)
        reserved = [_reserved(t, m) for t, m in zip(runs["table"], runs["mcr"])]
        derived["derived.priv_reserved_ratio"] = runs[priv] / reserved
    retx = list(_flow_columns(runs, "segments_retransmitted").values())
    if retx:
        derived["derived.retx_segments_all"] = runs[retx].sum(axis=1)
    for name, column in derived.items():
        out[name] = column.astype("float64")
    out.attrs = dict(runs.attrs)
    out.attrs["metrics"] = list(runs.attrs.get("metrics", [])) + list(derived)
    return out


def _experiment(
    setup: setups.Setup, mcr: int, duration: float, published: Dict[str, Optional[float]]
) -> Experiment:
    text = setup.scenario_text(mcr, duration)
    stated = setup.mode != "ubr"  # figure 4's values are the reserved rates, not statements
    return Experiment(
        table=setup.figure,
        labels={
            "preset": setup.preset,
            "mcr": mcr,
            "reserved_bps": round(net.reserved_bps(mcr, setup.priv_segment)),
        },
        scenario=Scenario(
            text, f"gfr-bonaventure figure {setup.figure}: {setup.preset} {setup.mode} MCR {mcr}"
        ),
        published=published,
        cost=duration * setup.cost(),
        comparators=data.comparators(setup.figure, setup.preset, mcr) if stated else {},
        quotes=data.quotes(setup.figure, setup.preset, mcr) if stated else {},
    )


def _metric_mean(results: StudyResults, table: str, metric: str) -> Optional[float]:
    pts = results.points
    if not len(pts):
        return None
    sub = pts[(pts["table"] == table) & (pts["metric"] == metric)]
    return float(sub["mean"].mean()) if len(sub) else None


def _at(results: StudyResults, table: str, mcr: int, column: str) -> Optional[float]:
    """The simulated value of a compared column at one MCR point of a figure's table."""
    frame = results.tables.get(table)
    if frame is None or not len(frame) or column not in frame:
        return None
    row = frame[frame["mcr"] == mcr]
    if not len(row):
        return None
    v = float(row.iloc[0][column])
    return None if math.isnan(v) else v


def _mbps(v: Optional[float]) -> str:
    return "-" if v is None else f"{v / 1e6:.1f}"


def _comparisons(results: StudyResults) -> List[str]:
    """The text's comparisons between figures, with the simulated numbers behind them."""
    out: List[str] = []
    mcrs = sorted({int(m) for f in results.tables.values() if "mcr" in f for m in f["mcr"]})
    if not mcrs:
        return out
    lo, hi = mcrs[0], mcrs[-1]

    def priv(table: str, mcr: int) -> Optional[float]:
        return _at(results, table, mcr, "priv_goodput_bps")

    def reserved(table: str, mcr: int) -> str:
        mss = setups.SETUPS[table].priv_segment
        return f"{net.reserved_bps(mcr, mss) / 1e6:.1f}"

    for table, label in (("11-3bg", "3"), ("11-6bg", "6")):
        if priv(table, hi) is not None:
            out.append(
                f"figure 11, {label} background sources: privileged goodput at MCR {hi} "
                f"atmsim {_mbps(priv(table, hi))} Mb/s of {reserved(table, hi)} reserved "
                f"(paper: {data.QUALITATIVE['figure11']})"
            )
    g12, g9 = (
        _metric_mean(results, "12", "derived.priv_goodput_bps"),
        _metric_mean(results, "9", "derived.priv_goodput_bps"),
    )
    if g12 and g9:
        out.append(
            f"figures 12 vs 9, privileged goodput averaged over the MCR points: MSS 1460 "
            f"{g12 / 1e6:.1f} Mb/s, MSS 9140 {g9 / 1e6:.1f} (paper: "
            f"{data.QUALITATIVE['figure12']})"
        )
    for table in ("13", "14"):
        if priv(table, lo) is not None and priv(table, hi) is not None:
            bg_hi = _at(results, table, hi, "bg_goodput_bps")
            out.append(
                f"figure {table}: privileged goodput {_mbps(priv(table, lo))} Mb/s at MCR "
                f"{lo}, {_mbps(priv(table, hi))} at {hi} (mean background "
                f"{_mbps(bg_hi)}) (paper: {data.QUALITATIVE['figure' + table]})"
            )
    for table in ("15", "20", "23"):
        if priv(table, hi) is not None:
            out.append(
                f"figure {table} (WAN): privileged goodput at MCR {hi} atmsim "
                f"{_mbps(priv(table, hi))} Mb/s of {reserved(table, hi)} reserved"
            )
    if priv("20", hi) is not None and priv("15", hi) is not None:
        out.append(
            f"figures 20 vs 15 at MCR {hi}: WFQ {_mbps(priv('20', hi))} Mb/s, FIFO "
            f"{_mbps(priv('15', hi))} (paper: {data.QUALITATIVE['figure20']}); "
            "per-VC occupancy privileged "
            f"{_fmt(_at(results, '20', hi, 'priv_vc_queue_cells'))} vs mean background "
            f"{_fmt(_at(results, '20', hi, 'bg_vc_queue_cells'))} cells"
        )
    if priv("23", hi) is not None and priv("20", hi) is not None:
        out.append(
            f"figures 23 vs 20 at MCR {hi}: GFR.2 {_mbps(priv('23', hi))} Mb/s, GFR.1 "
            f"{_mbps(priv('20', hi))} (paper: {data.QUALITATIVE['figure23']})"
        )
    for table in ("16", "17"):
        if priv(table, hi) is not None:
            out.append(
                f"figure {table} at MCR {hi}: privileged {_mbps(priv(table, hi))} Mb/s, "
                f"{_fmt(_at(results, table, hi, 'priv_fair_ratio'))} of its MCR-weighted "
                f"share of the total; cells dropped "
                f"{_fmt(_at(results, table, hi, 'bottleneck_drops'))}"
            )
    for table, key, base in (
        ("lbo4096", "lbo", "5"),
        ("lbo2048", "lbo", "5"),
        ("lbo2048-fast", "lbo", "7"),
        ("bg10000", "background_mcr", "5"),
        ("bg5000", "background_mcr", "5"),
        ("bg0", "background_mcr", "5"),
        ("mss512", "mss512", "5"),
    ):
        if priv(table, hi) is not None and priv(base, hi) is not None:
            out.append(
                f"{setups.SETUPS[table].title}: privileged goodput at MCR {lo} / {hi} "
                f"{_mbps(priv(table, lo))} / {_mbps(priv(table, hi))} Mb/s, figure {base} "
                f"{_mbps(priv(base, lo))} / {_mbps(priv(base, hi))} (paper: {data.QUALITATIVE[key]})"
            )
    if priv("fifo-inf", lo) is not None and priv("fifo-inf", hi) is not None:
        out.append(
            f"infinite FIFO: privileged goodput {_mbps(priv('fifo-inf', lo))} Mb/s at MCR {lo}, "
            f"{_mbps(priv('fifo-inf', hi))} at {hi}, mean background "
            f"{_mbps(_at(results, 'fifo-inf', hi, 'bg_goodput_bps'))} (paper: {data.QUALITATIVE['fifo_inf']})"
        )
    for run, tables in results.traces:
        arrivals = tables.get("arrivals")
        if arrivals is None or not len(arrivals):
            continue
        rate = arrivals["cells_per_s"].astype(float)
        above = float((rate >= FIGURE24_MCR).mean())
        out.append(
            f"figure 24 ({run.title}): arrival rate over 100 ms windows mean {rate.mean():.0f} "
            f"cells/s, max {rate.max():.0f}, at or above the MCR {FIGURE24_MCR} in "
            f"{100 * above:.0f} % of the windows (paper: {data.QUALITATIVE['figure24']})"
        )
    for u in data.UNPLACED:
        v = _metric_mean(results, u.figure, "flows.priv.rto_per_10mb")
        if v is not None:
            out.append(
                f"figure {u.figure}: RTO expirations per 10 MB, mean over the MCR points "
                f"atmsim {v:.3g}, paper ~{u.value:g} at an MCR it does not give "
                f'("{u.quote}")'
            )
    out += _text_run_comparisons(results, priv)
    for a, b in (("18", "19"), ("21", "22")):
        if priv(a, hi) is not None and priv(b, hi) is not None:
            key = f"figure{a}_{b}"
            out.append(
                f"figures {a} / {b} at MCR {hi}: privileged {_mbps(priv(a, hi))} / "
                f"{_mbps(priv(b, hi))} Mb/s of {reserved(a, hi)} / {reserved(b, hi)} "
                f"reserved, mean background {_mbps(_at(results, a, hi, 'bg_goodput_bps'))}"
                f" / {_mbps(_at(results, b, hi, 'bg_goodput_bps'))} (paper: "
                f"{data.QUALITATIVE[key]})"
            )
    return out


def _text_run_comparisons(results: StudyResults, priv: Callable[[str, int], Optional[float]]) -> List[str]:
    """The text-only runs (text_runs) beside the runs the text likens them to."""
    out: List[str] = []
    mcrs = sorted({int(m) for f in results.tables.values() if "mcr" in f for m in f["mcr"]})
    for table, base in text_runs.SIMILAR_TO.items():
        for mcr in mcrs:
            if priv(table, mcr) is not None and priv(base, mcr) is not None:
                out.append(
                    f"{text_runs.SETUPS[table].title} at MCR {mcr}: privileged "
                    f"{_mbps(priv(table, mcr))} Mb/s, mean background "
                    f"{_mbps(_at(results, table, mcr, 'bg_goodput_bps'))}; GFR.1 (figure {base}) "
                    f"{_mbps(priv(base, mcr))} / {_mbps(_at(results, base, mcr, 'bg_goodput_bps'))} "
                    f"(paper: {data.QUALITATIVE['gfr2_homogeneous']})"
                )
    a, b = "wfq-p512-b9140", "wfq-p9140-b512"
    for mcr in mcrs:
        fa, fb = (_at(results, t, mcr, "priv_fair_ratio") for t in (a, b))
        if fa is not None and fb is not None:
            out.append(
                f"WFQ, GFR.1, heterogeneous MSS at MCR {mcr}: privileged goodput over its "
                f"weighted fair share {_fmt(fa)} (privileged 512 / background 9140) and "
                f"{_fmt(fb)} (the opposite) (paper: {data.QUALITATIVE['wfq_heterogeneous']})"
            )
    low, high = text_runs.BETWEEN
    for table in ("mss1460", "mss4424"):
        for mcr in mcrs:
            v, lo, hi = priv(table, mcr), priv(low, mcr), priv(high, mcr)
            if v is not None and lo is not None and hi is not None:
                inside = min(lo, hi) <= v <= max(lo, hi)
                out.append(
                    f"{text_runs.SETUPS[table].title} at MCR {mcr}: privileged {_mbps(v)} Mb/s, "
                    f"MSS 512 {_mbps(lo)}, MSS 9140 (figure 5) {_mbps(hi)}: "
                    f"{'between' if inside else 'not between'} the two "
                    f"(paper: {data.QUALITATIVE['lane_mss']})"
                )
    return out


def _stated(comparator: str, value: float) -> str:
    """A stated value with its comparator: "~18e+06", "> 20", "= 0"."""
    return f"~{value:g}" if comparator == "~" else _label(comparator, value)


def _verdict(agrees: Any) -> str:
    if agrees is None or (isinstance(agrees, float) and math.isnan(agrees)):
        return ""
    return ": agrees" if bool(agrees) else ": does not agree"


def notes(quick: bool, results: StudyResults) -> List[str]:
    """The settings, then every number the paper's text states beside the simulated value,
    then the text's comparisons between the TCP variants and between figures."""
    out: List[str] = []
    if quick:
        out.append(
            f"quick mode: {QUICK_DURATION_S:g} s runs instead of the paper's "
            f"{net.DURATION_S:g} s, privileged MCR {', '.join(map(str, QUICK_MCRS))} "
            f"only (figures {', '.join(BASE_FIGURES)}; the others "
            f"{', '.join(map(str, QUICK_OTHER_MCRS))}), {replications(GfrBonaventureStudy.runs, True)} "
            "replications: noisy, for a first look"
        )
    labels = {c.name: c.label for t in GfrBonaventureStudy.tables for c in t.compared}
    for st in data.STATEMENTS:
        frame = results.tables.get(st.figure)
        if frame is None or not len(frame):
            continue
        row = frame[frame["mcr"] == st.mcr]
        if not len(row):
            continue
        r = row.iloc[0]
        # Goodputs in Mb/s, as the tables and figures print them.
        scale, unit = (1e-6, " Mb/s") if st.column.endswith("_bps") else (1.0, "")
        label = labels[st.column].replace("(bit/s)", "").strip() if unit else labels[st.column]
        out.append(
            f"figure {st.figure}, {st.preset}, MCR {st.mcr}: {label} atmsim "
            f"{_fmt(scale * float(r[st.column]))}{unit} (95 % CI "
            f"{_fmt(scale * float(r[st.column + '_ci_low']))}.."
            f"{_fmt(scale * float(r[st.column + '_ci_high']))}), paper "
            f"{_stated(st.comparator, scale * st.value)}{unit} "
            f'("{st.quote}"){_verdict(r.get("agrees_" + st.column))}'
        )
    retx = {t: _metric_mean(results, t, "derived.retx_segments_all") for t in ("5", "7")}
    if retx["5"] and retx["7"] is not None:
        out.append(
            f"retransmitted segments of all sources, TCP_fast / TCP_default (mean over "
            f"the MCR points): atmsim {retx['7'] / retx['5']:.2f}, paper ~3"
        )
    g5, g7, g9 = (_metric_mean(results, t, "derived.priv_goodput_bps") for t in ("5", "7", "9"))
    if g5 and g7 and g9:
        out.append(
            "privileged goodput averaged over the MCR points: TCP_default "
            f"{g5 / 1e6:.1f} Mb/s, TCP_fast {g7 / 1e6:.1f}, TCP_SACK "
            f"{g9 / 1e6:.1f} (paper: fast slightly below default, SACK above both)"
        )
    t4 = results.tables.get("4")
    if t4 is not None and len(t4):
        ratio = (t4["priv_goodput_bps"] / t4["paper_priv_goodput_bps"]).astype(float)
        out.append(
            f"figure 4: privileged goodput / UNI2 capacity at application level: "
            f'atmsim {ratio.min():.2f}..{ratio.max():.2f}, paper ~1 ("able to '
            f'completely utilize the bandwidth available on the UNI2 links")'
        )
    out += _comparisons(results)
    return out


def _table(setup: setups.Setup) -> PaperTable:
    if setup.mode == "ubr":
        return PaperTable(
            setup.figure,
            f"{setup.title} (EPD 7168/8192); the paper: goodput = reserved",
            LABELS,
            [PRIV_GOODPUT, BG_GOODPUT],
        )
    if setup.mode == "wfq":
        return PaperTable(
            setup.figure,
            f"{setup.title} (per-VC Virtual Spacing, LBO {setup.lbo_cells}, HBO {net.HBO_CELLS}, T_i = MBS)",
            LABELS,
            TEXT_WFQ_COMPARED if setup.figure in text_runs.SETUPS else WFQ_COMPARED,
        )
    if setup.infinite_buffer:
        return PaperTable(setup.figure, f"{setup.title} (no drops, adapter tagging)", LABELS, GFR_COMPARED)
    return PaperTable(
        setup.figure,
        f"{setup.title} (LBO {setup.lbo_cells}, HBO {net.HBO_CELLS}, adapter tagging)",
        LABELS,
        GFR_COMPARED,
    )


def _published(setup: setups.Setup, mcr: int) -> Dict[str, Optional[float]]:
    if setup.mode == "ubr":
        # Figure 4: the paper says TCP_default uses all of each UNI2 link.
        return {
            "priv_goodput_bps": net.reserved_bps(mcr),
            "bg_goodput_bps": net.reserved_bps(net.BACKGROUND_MCR),
        }
    return data.published(setup.figure, setup.preset, mcr)


def experiment_list(quick: bool, figures: Optional[Sequence[str]] = None) -> List[Experiment]:
    """One experiment per figure (and section-6 variant, and run the text reports without a
    figure: text_runs) and privileged MCR; quick: shorter runs at fewer MCRs, only the
    variants of setups.QUICK_VARIANTS and the text runs' text_runs.QUICK rows."""
    default = figures is None
    if figures is None:
        figures = setups.FIGURES + (setups.QUICK_VARIANTS if quick else setups.VARIANTS + text_runs.TABLES)
    duration = QUICK_DURATION_S if quick else net.DURATION_S
    out = []
    for f in figures:
        if f not in ALL_SETUPS:
            raise ValueError(f"gfr-bonaventure: no table {f!r} (choose from {', '.join(ALL_SETUPS)})")
        mcrs: Sequence[int]
        if f in BASE_FIGURES:
            mcrs = QUICK_MCRS if quick else net.MCRS
        elif f in text_runs.SETUPS:
            mcrs = QUICK_OTHER_MCRS if quick else text_runs.MCRS
        elif f in setups.VARIANTS:
            mcrs = QUICK_OTHER_MCRS if quick else VARIANT_MCRS
        else:
            mcrs = QUICK_OTHER_MCRS if quick else OTHER_MCRS
        out += [_experiment(ALL_SETUPS[f], mcr, duration, _published(ALL_SETUPS[f], mcr)) for mcr in mcrs]
    if default and quick:
        out += [
            _experiment(text_runs.SETUPS[f], mcr, duration, _published(text_runs.SETUPS[f], mcr))
            for f, mcr in text_runs.QUICK
        ]
    return out


def trace_list(quick: bool) -> List[TraceRun]:
    """Figures 6, 8 and 10: the privileged source's congestion window (and the bottleneck
    queue) with TCP_default, TCP_fast and TCP_SACK; the same runs in quick and full mode."""
    out = []
    for figure, preset, base in TRACED:
        text = setups.SETUPS[base].scenario_text(TRACE_MCR, TRACE_S, trace=TRACE_TABLE)
        out.append(
            TraceRun(
                name=f"figure{figure}-{preset}",
                title=f"Figure {figure}: {preset}, privileged MCR {TRACE_MCR}, first {TRACE_S:g} s",
                scenario=Scenario(text, f"gfr-bonaventure trace figure {figure}"),
                buffer_cells=net.BUFFER_CELLS,
                cost=TRACE_S,
            )
        )
    text = setups.SETUPS["23"].scenario_text(FIGURE24_MCR, TRACE_S, trace=FIGURE24_TABLE)
    out.append(
        TraceRun(
            name=f"figure24-mcr{FIGURE24_MCR}",
            title=f"Figure 24: WAN, WFQ, GFR.2, TCP_SACK, privileged MCR {FIGURE24_MCR}, first {TRACE_S:g} s",
            scenario=Scenario(text, "gfr-bonaventure trace figure 24"),
            cost=TRACE_S * setups.SETUPS["23"].cost(),
        )
    )
    return out


class GfrBonaventureStudy:
    name = "gfr-bonaventure"
    from .claims import CLAIMS as claims  # the paper's main claims as checks

    title = (
        "TCP over ATM GFR: FIFO-based switch (LBO/HBO, adapter tagging) and WFQ-based "
        "switch (Virtual Spacing, per-VC thresholds, GFR.1/GFR.2), LAN and WAN"
    )
    citation = (
        'O. Bonaventure, "Providing bandwidth guarantees to internetwork traffic in '
        'ATM networks" / GFR with TCP, FIFO- and WFQ-based implementations '
        "(sections 4-9)"
    )
    runs = 2  # two replications per point: exponential idle times make the runs seed-dependent
    stated = declared.STATED

    @property
    def assumptions(self) -> List[Assumption]:
        return declared.assumptions()

    def sensitivity_subset(self, quick: bool) -> Subset:
        return declared.sensitivity_subset(self.experiments(True), experiment_list(True, ["mss4424"]))

    detail_metrics = True
    tables = [_table(ALL_SETUPS[f]) for f in setups.FIGURES + setups.VARIANTS + text_runs.TABLES]

    @staticmethod
    def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
        return derive_metrics(runs)

    def experiments(self, quick: bool) -> List[Experiment]:
        return experiment_list(quick)

    def report_notes(self, quick: bool, results: StudyResults) -> List[str]:
        return notes(quick, results)

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        return trace_list(quick)

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from .figures import draw

        return draw(results, out_dir)


STUDY = GfrBonaventureStudy()
