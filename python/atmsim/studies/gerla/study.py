"""The credit/rate study (Gerla, Pazos, Signore) as a registered study, `atmsim reproduce gerla`:
figures 3-4 (total TCP goodput against the number of TCP sources for b_g = 1.1/1.2/1.3, PRCA
and FCVC), figure 5 (goodput against MSS beside the bound eta_OH x B_av) and figure 6 (the
output link's utilisation trace), with the numbers the text states (gerla_data).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from ... import _core
from ...numbers import fmt as _fmt
from ...scenario import Scenario
from ..assumptions import Assumption
from ..registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun
from ..replication import replications
from ..sensitivity import Subset
from . import assumptions as declared
from . import data
from . import scenarios as net

if TYPE_CHECKING:
    import pandas as pd

QUICK_DURATION_S = 5.0
QUICK_SOURCES = (1, 5, 10, 15)
QUICK_MSS = (512, 2048, 8192)
TRACE_S = 2.0
FIG5_B_G = 1.2  # figure 5's b_g is not stated; the middle value
FIG5_SOURCES = 15  # saturated, as the saturation goodputs of figures 3-4

GOODPUT = Compared("goodput_mbps", "derived.goodput_mbps", "total TCP goodput (Mb/s)", relative=True)
B_AV = Compared("b_av_mbps", "derived.b_av_mbps", "bandwidth left to ABR, ATM level (Mb/s)", relative=True)
LOST = Compared("abr_cells_lost", "derived.abr_cells_lost", "ABR cells lost at the switch", kind="count")
BOUND = Compared(
    "bound_mbps", "derived.bound_mbps", "eta_OH x B_av with simulated B_av (Mb/s)", relative=True
)
LABELS = ["control", "b_g", "sources", "mss"]


def _columns(runs: "pd.DataFrame", prefix: str, suffix: str) -> List[str]:
    return [c for c in runs.columns if c.startswith(prefix) and c.endswith(suffix)]


def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
    """Per run: total goodput in Mb/s; the bandwidth the guaranteed traffic left on the output
    link (link rate minus its delivered cells, ATM level); the figure 5 bound eta_OH(MSS) x that
    bandwidth; cells lost at the switch's output port."""
    import numpy as np

    out = runs.copy()
    derived: Dict[str, Any] = {}
    if "summary.total_goodput_bps" in runs:
        derived["derived.goodput_mbps"] = runs["summary.total_goodput_bps"] / 1e6
    # Duration from any flow: goodput_bps = bytes_delivered x 8 / duration.
    delivered = _columns(runs, "flows.", ".bytes_delivered")
    goodput = [c.replace(".bytes_delivered", ".goodput_bps") for c in delivered]
    duration = None
    if delivered and all(c in runs for c in goodput):
        num = runs[delivered].sum(axis=1) * 8.0
        den = runs[goodput].sum(axis=1)
        duration = (num / den.where(den > 0)).astype(float)
    # One report entry per source: "guaranteed" alone, or "guaranteed.1" .. "guaranteed.14".
    cells = [
        c
        for c in runs.columns
        if c.endswith(".cells_delivered") and (c.startswith("background.guaranteed.") and c.count(".") <= 3)
    ]
    if cells and duration is not None:
        g_bps = runs[cells].sum(axis=1) * _core.CELL_BITS / duration
        derived["derived.b_av_mbps"] = data.LINK_CELLS_PER_S * _core.CELL_BITS / 1e6 - g_bps / 1e6
    if "derived.b_av_mbps" in derived and "mss" in runs:
        eta = runs["mss"].map(lambda m: _core.eta_oh(int(m), float(data.APP_MEAN_BYTES)))
        derived["derived.bound_mbps"] = eta.astype(float) * derived["derived.b_av_mbps"]
    port = f"ports.{net.BOTTLENECK}.cells_dropped"
    if port in runs:
        derived["derived.abr_cells_lost"] = runs[port]
    for name, column in derived.items():
        out[name] = np.asarray(column, dtype="float64")
    out.attrs = dict(runs.attrs)
    # Summarize only what the tables, figures and notes use (not every per-VC field).
    kept = [
        m
        for m in runs.attrs.get("metrics", [])
        if m.startswith("summary.")
        or (
            m.startswith("flows.")
            and m.endswith((".goodput_bps", ".rto_expirations", ".final_rate_bps", ".rm_cells_congested"))
        )
        or m in (f"ports.{net.BOTTLENECK}.cells_dropped", f"ports.{net.BOTTLENECK}.mean_queue_cells")
    ]
    out.attrs["metrics"] = kept + list(derived)
    return out


def _experiment(table: str, control: str, b_g: float, sources: int, mss: int, duration: float) -> Experiment:
    labels = {"control": control, "b_g": b_g, "sources": sources, "mss": mss}
    published: Dict[str, Optional[float]] = {}
    if table in ("3", "4") and sources == 15:
        # The stated saturation goodputs: the plateau, reached at the largest N.
        published["goodput_mbps"] = data.SATURATION_MBPS[control][b_g]
    if table in ("3", "4"):
        published["b_av_mbps"] = data.B_AV_MBPS[b_g]
    if control == "fcvc":
        published["abr_cells_lost"] = 0.0  # "FCVC guarantees no cell losses"
    comparators = {k: data.COMPARATORS[k] for k in published if k in data.COMPARATORS}
    quotes = {k: data.QUOTES[k] for k in published if k in data.QUOTES}
    return Experiment(
        table=table,
        labels=labels,
        scenario=Scenario(
            net.scenario_text(control, b_g, sources, mss=mss, duration_s=duration),
            f"gerla figure {table}: {control} b_g {b_g} N {sources} MSS {mss}",
        ),
        published=published,
        comparators=comparators,
        quotes=quotes,
        cost=duration * (1 + sources / 15),
    )


def notes(quick: bool, results: StudyResults) -> List[str]:
    out: List[str] = []
    if quick:
        out.append(
            f"quick mode: {QUICK_DURATION_S:g} s runs instead of the paper's "
            f"{data.DURATION_S:g} s, N = {', '.join(map(str, QUICK_SOURCES))}, MSS "
            f"{', '.join(map(str, QUICK_MSS))}; {replications(1, True)} replications per point"
        )
    out.append(
        f"link rate {data.LINK_CELLS_PER_S} cells/s = "
        f"{data.LINK_CELLS_PER_S * _core.CELL_BITS / 1e6:.2f} Mb/s (14 x 10 Mb/s x 53/48); "
        "B_av of this model: "
        + ", ".join(f"b_g {b}: {data.b_av_mbps(b):.2f}" for b in data.BURSTINESS)
        + " Mb/s; paper: 13.6, 25, 34.6 (= 150 x (1 - 1/b_g))"
    )
    for table in ("3", "4"):
        frame = results.tables.get(table)
        if frame is None or not len(frame):
            continue
        for _, r in frame[frame["sources"] == 15].iterrows():
            out.append(
                f"figure {table} ({r['control']}), b_g {r['b_g']}: saturation goodput "
                f"atmsim {_fmt(r['goodput_mbps'])} Mb/s, paper {_fmt(r['paper_goodput_mbps'])}"
                f"; B_av atmsim {_fmt(r['b_av_mbps'])}, paper {_fmt(r['paper_b_av_mbps'])}"
            )
    frame = results.tables.get("5")
    if frame is not None and len(frame):
        for control in net.CONTROLS:
            sub = frame[frame["control"] == control].dropna(subset=["goodput_mbps"])
            if len(sub):
                best = sub.loc[sub["goodput_mbps"].astype(float).idxmax()]  # type: ignore[call-overload]
                series = ", ".join(f"{int(m)}: {_fmt(g)}" for m, g in zip(sub["mss"], sub["goodput_mbps"]))
                out.append(
                    f"figure 5 ({control}): goodput by MSS {series} Mb/s; best MSS "
                    f"atmsim {int(best['mss'])}"
                    + (
                        f", paper ~{data.PRCA_BEST_MSS}"
                        if control == "prca"
                        else " (paper: increases with MSS)"
                    )
                )
        sub = frame.dropna(subset=["goodput_mbps", "bound_mbps"])
        if len(sub):
            out.append(
                "figure 5: eta_OH x B_av(simulated) by MSS: "
                + ", ".join(
                    f"{int(m)}: {_fmt(b)}"
                    for m, b in zip(
                        sub[sub["control"] == "fcvc"]["mss"], sub[sub["control"] == "fcvc"]["bound_mbps"]
                    )
                )
            )
    for run, tables in results.traces:
        util = tables.get("utilization")
        if util is not None and len(util):
            u = util["utilization"].astype(float)
            out.append(
                f"figure 6 trace {run.name}: utilisation mean {u.mean():.3f}, std "
                f"{u.std():.3f}, min {u.min():.3f} over {len(u)} intervals of 1000 slots"
            )
    return out


class GerlaStudy:
    name = "gerla"
    from .claims import CLAIMS as claims  # the paper's main claims as checks

    title = "Credit-based (FCVC) and rate-based (PRCA) ABR control under TCP in an ATM LAN"
    citation = (
        'M. Gerla, C. M. D. Pazos, V. A. Signore, "Comparing ATM credit-based and '
        'rate-based controls for TCP sources" (UCLA, 1995)'
    )
    runs = 1
    detail_metrics = True
    stated = declared.STATED

    @property
    def assumptions(self) -> List[Assumption]:
        return declared.assumptions()

    def sensitivity_subset(self, quick: bool) -> Subset:
        return declared.sensitivity_subset(self.experiments(True))

    tables = [
        PaperTable(
            "3",
            "Figure 3: PRCA, total TCP goodput against the number of TCP sources, "
            "b_g = 1.1/1.2/1.3, MSS 1024",
            LABELS,
            [GOODPUT, B_AV],
        ),
        PaperTable(
            "4",
            "Figure 4: FCVC, total TCP goodput against the number of TCP sources",
            LABELS,
            [GOODPUT, B_AV, LOST],
        ),
        PaperTable(
            "5",
            f"Figure 5: goodput against MSS (b_g = {FIG5_B_G}, N = {FIG5_SOURCES})",
            LABELS,
            [GOODPUT, BOUND, LOST],
        ),
    ]

    @staticmethod
    def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
        return derive_metrics(runs)

    def experiments(self, quick: bool) -> List[Experiment]:
        duration = QUICK_DURATION_S if quick else data.DURATION_S
        sources = QUICK_SOURCES if quick else data.TCP_SOURCES
        out: List[Experiment] = []
        for control, table in (("prca", "3"), ("fcvc", "4")):
            for b_g in data.BURSTINESS:
                for n in sources:
                    out.append(_experiment(table, control, b_g, n, data.MSS, duration))
        for control in net.CONTROLS:
            for mss in QUICK_MSS if quick else data.MSS_SWEEP:
                out.append(_experiment("5", control, FIG5_B_G, FIG5_SOURCES, mss, duration))
        return out

    def report_notes(self, quick: bool, results: StudyResults) -> List[str]:
        return notes(quick, results)

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        runs = []
        for control in net.CONTROLS:
            text = net.scenario_text(control, FIG5_B_G, 15, duration_s=TRACE_S, trace=True)
            runs.append(
                TraceRun(
                    name=f"{control}-bg{FIG5_B_G}-n15",
                    title=f"{control.upper()}, b_g {FIG5_B_G}, 15 TCP sources, first {TRACE_S:g} s",
                    scenario=Scenario(text, f"gerla figure 6: {control}"),
                    cost=TRACE_S * 2,
                )
            )
        return runs

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from .figures import draw

        return draw(results, out_dir)


STUDY = GerlaStudy()
