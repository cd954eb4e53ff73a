"""The CLASS study (Ajmone Marsan, Bianco, Lo Cigno, Munafò) as a registered study,
`atmsim reproduce ajmone-marsan`.

Two-node network: figure 2 (1000 km connections, buffers 1000/5000, TCP unshaped / shaped at
50 / 15 Mb/s, shaped background), figure 3 (505/550/1000 km, 5000 cells, unshaped / 50 Mb/s),
figure 4 (100 km, 1000 cells, sweep of the shaping rate with 15 or 45 Mb/s of shaped or unshaped
background), figures 5-6 (adaptive shaping). Italian network: figures 8-11 (buffers 100 / 1000,
TCP unshaped / 25 / 37.5 / 50 Mb/s, background shaped or not, 0.8 / 1.0 / 1.2 Gb/s), figure 12
(adaptive shaping), and the check of Table 2's background loads ("T2").

Goodput is counted as the paper counts it: whole 9180-octet segments (TCP and IP headers
included), retransmissions excluded, i.e. atmsim's goodput x 9180/9140.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar

from ... import _core
from ...numbers import fmt as _fmt
from ...scenario import Scenario
from ..assumptions import Assumption, Combination
from ..registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun
from ..replication import replications
from ..sensitivity import Subset
from . import assumptions as declared
from . import data
from . import italian_network as it
from . import scenarios as net

if TYPE_CHECKING:
    import pandas as pd

STUDY_RUNS = 1  # the study's own replication count (replication.replications raises it)
QUICK_TWO_NODE_S = 10.0
QUICK_ITALY_S = 5.0
FULL_TWO_NODE_S = 30.0
FULL_ITALY_S = 10.0
LOAD_CHECK_S = 2.0
SEGMENT_FACTOR = data.SEGMENT_OCTETS / data.MSS  # paper's goodput / payload goodput

# Figure 4's abscissa: shaping rates C/N of the 150 Mb/s access link (the rates an adaptive
# shaper can take; the text's knees 30 and 37.5 Mb/s are two of them).
FIG4_RATES_MBPS = (15.0, 150 / 9, 18.75, 150 / 7, 25.0, 30.0, 37.5, 50.0, 75.0)
QUICK_FIG4_RATES_MBPS = (25.0, 30.0, 37.5, 50.0)

GOODPUT = Compared("goodput_mbps", "derived.goodput_mbps", "total TCP goodput (Mb/s)", relative=True)
EFFICIENCY = Compared("efficiency", "derived.efficiency", "TCP efficiency", unit=0.01)
# The goodput definition read literally ("discarding all the faulty and the retransmitted
# segments", section 2): the retransmissions that repaired a loss are discarded too. Computed
# as delivered minus retransmitted octets (a lower bound: a retransmission lost again counts
# as discarded twice) and compared with the paper's efficiency like the first reading.
EFFICIENCY_FIRST = Compared(
    "efficiency_first", "derived.efficiency_first", "TCP efficiency, retransmissions discarded", unit=0.01
)
TCP_LINK = Compared(
    "tcp_link_mbps", "derived.tcp_link_mbps", "TCP cells on L0 (Mb/s, link level)", relative=True
)
ABORTS = Compared("aborts", "derived.aborts", "connections closed by backoff", kind="count")
ABORTS_TOFI = Compared("aborts_To-Fi", "flows.To-Fi.aborts", "To-Fi closed by backoff", kind="count")
# Figure 3's prose: goodput ratios between the connections (tcp1 505 km, tcp2 550 km, tcp3
# 1000 km) and the spread of goodput and efficiency. "Inversely proportional", "negligible",
# "independent" print no digits: read at 0.1; "exactly the same goodput" at 0.01.
RATIO_1000 = Compared(
    "goodput_ratio_1000_505",
    "derived.goodput_ratio.tcp3_tcp1",
    "goodput 1000 km / 505 km",
    unit=0.1,
    kind="ratio",
)
RATIO_550 = Compared(
    "goodput_ratio_550_505",
    "derived.goodput_ratio.tcp2_tcp1",
    "goodput 550 km / 505 km",
    unit=0.1,
    kind="ratio",
)
GOODPUT_EVEN = Compared(
    "goodput_min_max", "derived.goodput_min_max", "lowest / highest connection goodput", unit=0.01
)
EFF_EVEN = Compared(
    "efficiency_min_max", "derived.efficiency_min_max", "lowest / highest connection efficiency", unit=0.1
)
FIG3_EXTRA = [RATIO_1000, RATIO_550, GOODPUT_EVEN, EFF_EVEN]
# Figures 8-11's prose: a shaped connection's goodput over the cap the text states for its
# shaping rate ("completely use their assigned bandwidth": 1, read at 0.01, the precision the
# caps 22.5 / 33.8 / 45.1 are printed at).
CAP_USE = [
    Compared(f"cap_use_{n}", f"derived.cap_use.{n}", f"{n} goodput / its shaping cap", unit=0.01)
    for n in ("Mi-Ro", "To-Fi", "Ve-To")
]
TWO_NODE = ("tcp1", "tcp2", "tcp3")
ITALY = tuple(n for n, _, _ in data.ITALY_CONNECTIONS)


def _per_flow(names: Sequence[str]) -> List[Compared]:
    out = []
    for n in names:
        out.append(
            Compared(f"goodput_{n}", f"derived.goodput_mbps.{n}", f"{n} goodput (Mb/s)", relative=True)
        )
        out.append(Compared(f"efficiency_{n}", f"derived.efficiency.{n}", f"{n} efficiency", unit=0.01))
    return out


EFF_MIN = Compared("efficiency_min", "derived.efficiency_min", "lowest efficiency", unit=0.01)


def _shaping_label(shaping: net.Shaping) -> str:
    if shaping is None:
        return "none"
    if shaping == "adaptive":
        return "adaptive"
    return f"{float(shaping) / 1e6:g}"


def _flows(runs: "pd.DataFrame", field: str) -> Dict[str, str]:
    prefix, suffix = "flows.", f".{field}"
    return {
        c[len(prefix) : -len(suffix)]: c for c in runs.columns if c.startswith(prefix) and c.endswith(suffix)
    }


def pd_min(columns: List[Any]) -> Any:
    """Row-wise minimum of equally indexed series (NaN skipped)."""
    import pandas as pd

    return pd.concat(columns, axis=1).min(axis=1)


def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
    """Per run: total and per-connection goodput in the paper's unit, total efficiency, lowest
    efficiency, aborted connections, TCP cells on the two-node bottleneck, the two-node
    connections' goodput ratios (tcp3 / tcp1, tcp2 / tcp1) and the lowest over the highest
    connection goodput and efficiency, and for the Table 2 check every switch-to-switch
    port's load as a fraction of its capacity."""
    import numpy as np

    out = runs.copy()
    derived: Dict[str, Any] = {}
    goodput = _flows(runs, "goodput_bps")
    for name, col in goodput.items():
        derived[f"derived.goodput_mbps.{name}"] = runs[col] * SEGMENT_FACTOR / 1e6
    if goodput:
        derived["derived.goodput_mbps"] = runs[list(goodput.values())].sum(axis=1) * SEGMENT_FACTOR / 1e6
    if "tcp1" in goodput:
        first = runs[goodput["tcp1"]].where(runs[goodput["tcp1"]] > 0)
        for other in ("tcp2", "tcp3"):
            if other in goodput:
                derived[f"derived.goodput_ratio.{other}_tcp1"] = runs[goodput[other]] / first
    if len(goodput) > 1:
        derived["derived.goodput_min_max"] = _min_over_max(runs[list(goodput.values())])
    if "shaping" in runs and goodput:
        stated_caps = runs["shaping"].map(_stated_cap)
        for name, col in goodput.items():
            derived[f"derived.cap_use.{name}"] = runs[col] * SEGMENT_FACTOR / 1e6 / stated_caps
    # Efficiency: goodput over the offered TCP load, i.e. payload delivered over payload
    # delivered plus payload retransmitted. (flows[].efficiency divides by every octet sent,
    # which also counts the window still in flight, or waiting in a shaper, at the end of the
    # run: a bias of up to 1 MB per connection that short runs would show as lost efficiency.)
    delivered, retx = _flows(runs, "bytes_delivered"), _flows(runs, "bytes_retransmitted")
    per_flow = []
    for name, col in delivered.items():
        if name in retx:
            offered = runs[col] + runs[retx[name]]
            derived[f"derived.efficiency.{name}"] = runs[col] / offered.where(offered > 0)
            per_flow.append(f"derived.efficiency.{name}")
    if per_flow:
        tot_d = runs[[delivered[n] for n in delivered if n in retx]].sum(axis=1)
        tot_r = runs[[retx[n] for n in delivered if n in retx]].sum(axis=1)
        derived["derived.efficiency"] = tot_d / (tot_d + tot_r).where(tot_d + tot_r > 0)
        first = (tot_d - tot_r).clip(lower=0)
        if "derived.goodput_mbps" in derived:
            derived["derived.goodput_first_mbps"] = derived["derived.goodput_mbps"] * (
                first / tot_d.where(tot_d > 0)
            )
        derived["derived.efficiency_first"] = first / (tot_d + tot_r).where(tot_d + tot_r > 0)
        derived["derived.efficiency_min"] = pd_min([derived[c] for c in per_flow])
        if len(per_flow) > 1:
            import pandas as pd

            derived["derived.efficiency_min_max"] = _min_over_max(
                pd.concat([derived[c] for c in per_flow], axis=1)
            )
    aborts = list(_flows(runs, "aborts").values())
    if aborts:
        derived["derived.aborts"] = runs[aborts].sum(axis=1)
    # Simulated time: from the flows (goodput = bytes x 8 / duration), else the label.
    duration = None
    if delivered and goodput:
        num = runs[list(delivered.values())].sum(axis=1) * 8.0
        den = runs[[goodput[n] for n in delivered if n in goodput]].sum(axis=1)
        duration = num / den.where(den > 0)
    if "duration_s" in runs:
        duration = (
            runs["duration_s"].astype(float)
            if duration is None
            else duration.fillna(runs["duration_s"].astype(float))
        )
    if duration is not None and "ports.A->B.cells_out" in runs:
        tcp_cells = runs["ports.A->B.cells_out"].copy()
        bg = [c for c in runs.columns if c.startswith("background.bg_fwd") and c.endswith(".cells_delivered")]
        if bg:
            tcp_cells = tcp_cells - runs[bg].fillna(0).sum(axis=1)
        derived["derived.tcp_link_mbps"] = tcp_cells * _core.CELL_BITS / duration / 1e6
    if duration is not None:
        caps = it.capacity(it.TOPOLOGY)
        for (a, b), cap in caps.items():
            col = f"ports.{a}->{b}.cells_out"
            if col in runs:
                derived[f"derived.load.{a}->{b}"] = runs[col] * _core.CELL_BITS / duration / cap
    for name, column in derived.items():
        out[name] = np.asarray(column, dtype="float64")
    out.attrs = dict(runs.attrs)
    # Only these are summarized: the Italian reports hold thousands of per-port, per-VC and
    # per-source fields, and summarizing them all takes minutes.
    kept = [m for m in runs.attrs.get("metrics", []) if _kept(m)]
    out.attrs["metrics"] = kept + list(derived)
    return out


def _stated_cap(shaping: Any) -> float:
    """The goodput cap the text states for a shaping label ("25", "37.5", "50": 22.5, 33.8,
    45.1 Mb/s); NaN for "none", "adaptive" and rates it states no cap for."""
    try:
        rate = float(shaping) * 1e6
    except (TypeError, ValueError):
        return math.nan
    return data.ITALY_MAX_GOODPUT_MBPS.get(rate, math.nan)


def _min_over_max(frame: "pd.DataFrame") -> Any:
    """Row-wise lowest over highest value (NaN when the highest is not positive)."""
    high = frame.max(axis=1)
    return frame.min(axis=1) / high.where(high > 0)


_FLOW_FIELDS = (
    ".goodput_bps",
    ".efficiency",
    ".aborts",
    ".rto_expirations",
    ".fast_retransmits",
    ".final_rate_bps",
    ".rm_cells_congested",
)


def _kept(metric: str) -> bool:
    if metric.startswith("summary."):
        return True
    if metric.startswith("flows."):
        return metric.endswith(_FLOW_FIELDS)
    if metric.startswith("ports.A->B."):
        return metric.split(".", 2)[2] in ("cells_dropped", "max_queue_cells", "mean_queue_cells")
    return False


def _two_node(
    table: str,
    buffer: int,
    shaping: net.Shaping,
    bg: float,
    lengths: str,
    bg_shaped: bool,
    duration: float,
    extra: Optional[Dict[str, Any]] = None,
    fair_share: bool = False,
) -> Experiment:
    labels: Dict[str, Any] = {
        "buffer": buffer,
        "shaping": _shaping_label(shaping),
        "bg_mbps": bg,
        "bg_shaped": bg_shaped,
        "lengths": lengths,
    }
    if shaping == "adaptive":
        labels["fairness"] = "enforced" if fair_share else "none"
    labels.update(extra or {})
    text = net.two_node_scenario(
        bg,
        buffer,
        shaping,
        lengths=lengths,
        bg_shaped=bg_shaped,
        duration_s=duration,
        fair_share_interval_us=data.FAIR_SHARE_INTERVAL_US if fair_share else None,
    )
    return Experiment(
        table=table,
        labels=labels,
        scenario=Scenario(
            text, f"ajmone-marsan figure {table}: " + " ".join(f"{k}={v}" for k, v in labels.items())
        ),
        published=_both_readings(data.published(table, labels)),
        comparators=_both_readings(data.comparators(table, labels)),
        quotes=_both_readings(data.quotes(table, labels)),
        cost=duration * 0.5,
    )


V = TypeVar("V")


def _both_readings(per_metric: Mapping[str, V]) -> Dict[str, V]:
    """The paper's efficiency (its value, comparator or quotation), compared under both
    readings of its goodput definition."""
    out = dict(per_metric)
    if "efficiency" in out:
        out["efficiency_first"] = out["efficiency"]
    return out


def _italy(
    table: str, total: float, buffer: int, shaping: net.Shaping, bg_shaped: bool, duration: float
) -> Experiment:
    labels: Dict[str, Any] = {
        "total_gbps": total / 1e9,
        "buffer": buffer,
        "shaping": _shaping_label(shaping),
        "bg_shaped": bg_shaped,
    }
    text = net.italy_scenario(total, buffer, shaping, bg_shaped, duration_s=duration)
    return Experiment(
        table=table,
        labels=labels,
        scenario=Scenario(
            text, f"ajmone-marsan figure {table}: " + " ".join(f"{k}={v}" for k, v in labels.items())
        ),
        published=data.published(table, labels),
        comparators=data.comparators(table, labels),
        quotes=data.quotes(table, labels),
        cost=duration * 4 * total / 1e9,
    )


def table2_compared() -> Tuple[List[Compared], Dict[float, Dict[str, float]]]:
    """The Table 2 check: one compared load per (connection, link), and the printed values."""
    paths = it.routes(it.TOPOLOGY)
    compared: List[Compared] = []
    published: Dict[float, Dict[str, float]] = {t: {} for t in data.ITALY_TOTALS_BPS}
    for name, src, dst in data.ITALY_CONNECTIONS:
        path = paths[(src, dst)]
        for i, (a, b) in enumerate(zip(path, path[1:]), start=1):
            key = f"load_{name}_{i}"
            compared.append(
                Compared(
                    key, f"derived.load.{a}->{b}", f"{name} link {i} ({a}->{b}) background load", unit=0.01
                )
            )
            for total in data.ITALY_TOTALS_BPS:
                published[total][key] = data.TABLE2[name][total][i - 1]
    return compared, published


T2_COMPARED, T2_PUBLISHED = table2_compared()


def notes(quick: bool, results: StudyResults) -> List[str]:
    out: List[str] = []
    if quick:
        out.append(
            f"quick mode: two-node runs of {QUICK_TWO_NODE_S:g} s, Italian runs of "
            f"{QUICK_ITALY_S:g} s (the paper: up to about 60 s or 98 % precision), a "
            f"subset of the points, {replications(STUDY_RUNS, True)} replications per point"
        )
    else:
        out.append(
            f"two-node runs of {FULL_TWO_NODE_S:g} s, Italian runs of {FULL_ITALY_S:g} s "
            "(the paper: up to about 60 s or 98 % precision), "
            f"{replications(STUDY_RUNS, False)} replications per point"
        )
    for st in data.STATEMENTS:
        frame = results.tables.get(st.figure)
        if frame is None or not len(frame):
            continue
        mask = None
        for k, v in st.point.items():
            if k not in frame:
                mask = None
                break
            m = frame[k] == v
            mask = m if mask is None else mask & m
        if mask is None or not mask.any() or st.quantity not in frame:
            continue
        for _, r in frame[mask].iterrows():
            where = ", ".join(
                f"{k} {r[k]}"
                for k in frame.columns
                if k in ("buffer", "shaping", "bg_mbps", "bg_shaped", "shaping_mbps", "total_gbps")
            )
            out.append(
                f"figure {st.figure} ({where}): {st.quantity} atmsim "
                f"{_fmt(r[st.quantity])}, paper {st.comparator} {st.value:g}"
                f"{_agreement(r.get('agrees_' + st.quantity))} "
                f'("{st.quote[:90]}...")'
            )
    t2 = results.tables.get("T2")
    if t2 is not None and len(t2):
        for _, r in t2.iterrows():
            parts = [
                f"{c.name[5:]} {_fmt(r[c.name], 2)}/{_fmt(r['paper_' + c.name], 2)}" for c in T2_COMPARED
            ]
            out.append(f"Table 2 check at {r['total_gbps']:g} Gb/s (simulated/paper): " + ", ".join(parts))
    return out


def _agreement(agrees: Any) -> str:
    if agrees is None or (isinstance(agrees, float) and math.isnan(agrees)):
        return ""
    return " (agrees)" if bool(agrees) else " (does not agree)"


class AjmoneMarsanStudy:
    name = "ajmone-marsan"
    from .claims import CLAIMS as claims  # the paper's main claims as checks

    title = "TCP over ATM with GCRA shaping and adaptive shaping (CLASS): two-node and Italian networks"
    citation = (
        'M. Ajmone Marsan, A. Bianco, R. Lo Cigno, M. Munafò, "Some simulation '
        'results about TCP connections in ATM networks"'
    )
    runs = 1
    stated = declared.STATED

    @property
    def assumptions(self) -> List[Assumption]:
        return declared.assumptions()

    def sensitivity_subset(self, quick: bool) -> Subset:
        return declared.sensitivity_subset(self.experiments(True))

    def sensitivity_combinations(self) -> List[Combination]:
        return declared.sensitivity_combinations()

    detail_metrics = True
    tables = [
        PaperTable(
            "2",
            "Figure 2: 1000 km connections, goodput and efficiency against the "
            "shaped background load, buffers 1000/5000, TCP unshaped / 50 / 15 Mb/s",
            ["buffer", "shaping", "bg_mbps"],
            [GOODPUT, EFFICIENCY, EFFICIENCY_FIRST, TCP_LINK, ABORTS],
        ),
        PaperTable(
            "3",
            "Figure 3: 505/550/1000 km connections, 5000 cells, unshaped / 50 Mb/s (and the text's 15 Mb/s)",
            ["shaping", "bg_mbps"],
            [GOODPUT, EFFICIENCY, EFFICIENCY_FIRST, ABORTS] + _per_flow(TWO_NODE) + FIG3_EXTRA,
        ),
        PaperTable(
            "4",
            "Figure 4: 100 km connections, 1000 cells, goodput and efficiency "
            "against the shaping rate, background 15 / 45 Mb/s shaped or not",
            ["bg_mbps", "bg_shaped", "shaping_mbps"],
            [GOODPUT, EFFICIENCY, EFFICIENCY_FIRST, ABORTS],
        ),
        PaperTable(
            "5",
            "Figure 5: adaptive shaping, 1000 km, buffers 1000/5000, switches "
            "enforcing fair shares (the paper's) or not",
            ["fairness", "buffer", "bg_mbps"],
            [GOODPUT, EFFICIENCY, EFFICIENCY_FIRST, ABORTS] + _per_flow(TWO_NODE),
        ),
        PaperTable(
            "6",
            "Figure 6: adaptive shaping, 505/550/1000 km, 5000 cells, switches "
            "enforcing fair shares (the paper's) or not",
            ["fairness", "buffer", "bg_mbps"],
            [GOODPUT, EFFICIENCY, EFFICIENCY_FIRST, ABORTS] + _per_flow(TWO_NODE),
        ),
        PaperTable(
            "8-9",
            "Figures 8-9: Italian network, 100-cell buffers",
            ["total_gbps", "shaping", "bg_shaped"],
            _per_flow(ITALY) + CAP_USE + [ABORTS, ABORTS_TOFI],
        ),
        PaperTable(
            "10-11",
            "Figures 10-11: Italian network, 1000-cell buffers",
            ["total_gbps", "shaping", "bg_shaped"],
            _per_flow(ITALY) + CAP_USE + [ABORTS, ABORTS_TOFI],
        ),
        PaperTable(
            "12",
            "Figure 12: Italian network, adaptive shaping",
            ["total_gbps", "buffer", "bg_shaped"],
            _per_flow(ITALY) + [EFF_MIN, ABORTS, ABORTS_TOFI],
        ),
        PaperTable(
            "T2",
            "Table 2: background load on the links the TCP connections cross "
            "(fraction of capacity), simulated without TCP",
            ["total_gbps"],
            T2_COMPARED,
        ),
    ]

    @staticmethod
    def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
        return derive_metrics(runs)

    def experiments(self, quick: bool) -> List[Experiment]:
        t2n = QUICK_TWO_NODE_S if quick else FULL_TWO_NODE_S
        tit = QUICK_ITALY_S if quick else FULL_ITALY_S
        out: List[Experiment] = []
        # Figure 2
        for buffer in data.TWO_NODE_BUFFERS:
            loads = ((0, 50, 75) if buffer == 5000 else (0, 75)) if quick else data.BG_LOADS_MBPS
            for shaping in data.TWO_NODE_SHAPING_BPS:
                for bg in loads:
                    out.append(_two_node("2", buffer, shaping, bg, "1000", True, t2n))
        # Figure 3, and the 15 Mb/s shaping the text reports without drawing it (quick: one
        # row of it)
        for shaping in (None, 50e6, 15e6):
            for bg in ((50,) if shaping == 15e6 else (0, 50)) if quick else data.BG_LOADS_MBPS:
                out.append(_two_node("3", 5000, shaping, bg, "mixed", True, t2n))
        # Figure 4
        rates = QUICK_FIG4_RATES_MBPS if quick else FIG4_RATES_MBPS
        for bg in data.FIG4_BG_MBPS:
            for bg_shaped in (True,) if quick else (True, False):
                for rate in rates:
                    out.append(
                        _two_node(
                            "4",
                            data.FIG4_BUFFER,
                            rate * 1e6,
                            bg,
                            "100",
                            bg_shaped,
                            t2n,
                            {"shaping_mbps": round(rate, 2)},
                        )
                    )
        # Figures 5 and 6: with the paper's fair-share enforcement; in full mode also without,
        # to show what it does.
        for fair in (True,) if quick else (True, False):
            for buffer in data.TWO_NODE_BUFFERS:
                for bg in (0, 50) if quick else data.BG_LOADS_MBPS:
                    out.append(_two_node("5", buffer, "adaptive", bg, "1000", True, t2n, fair_share=fair))
            for bg in (50,) if quick else data.BG_LOADS_MBPS:
                out.append(_two_node("6", 5000, "adaptive", bg, "mixed", True, t2n, fair_share=fair))
        # Figures 8-11
        totals = (1.0e9,) if quick else data.ITALY_TOTALS_BPS
        shapings = (None, 50e6) if quick else data.ITALY_SHAPING_BPS
        for buffer, table in ((100, "8-9"), (1000, "10-11")):
            for shaping in shapings:
                for bg_shaped in (True, False):
                    for total in totals:
                        out.append(_italy(table, total, buffer, shaping, bg_shaped, tit))
        # Figure 12
        for buffer in data.ITALY_BUFFERS:
            for bg_shaped in (False,) if quick else (True, False):
                for total in totals:
                    out.append(_italy("12", total, buffer, "adaptive", bg_shaped, tit))
        # Table 2: the background alone, shaped as in the runs with shaped background.
        for total in (1.0e9,) if quick else data.ITALY_TOTALS_BPS:
            labels = {"total_gbps": total / 1e9, "duration_s": LOAD_CHECK_S}
            text = net.italy_scenario(total, 1000, None, True, duration_s=LOAD_CHECK_S, tcp=False)
            out.append(
                Experiment(
                    table="T2",
                    labels=labels,
                    scenario=Scenario(text, f"ajmone-marsan Table 2 check {total / 1e9:g} Gb/s"),
                    published=dict(T2_PUBLISHED[total]),
                    cost=LOAD_CHECK_S * 4,
                )
            )
        return out

    def report_notes(self, quick: bool, results: StudyResults) -> List[str]:
        return notes(quick, results)

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        return []

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from .figures import draw

        return draw(results, out_dir)


STUDY = AjmoneMarsanStudy()
