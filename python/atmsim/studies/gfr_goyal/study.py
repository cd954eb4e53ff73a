"""The GFR rate-guarantee study (Goyal, Jain, Fahmy, Vandalore) for `atmsim reproduce`.

Rows: figure 3 (one SACK TCP whose window the network holds down by dropping a segment each
time its cwnd reaches 125000 / 250000 / 500000 octets, or never: throughput), Tables 1-3
(experiment x group of 3 TCPs: r_i, throughput per TCP, ratio (mu_i/mu)/(r_i/r)) and
Tables 4-5 (experiment x merged VC: R_i, ratio). All rows of one experiment share one
scenario, hence one run (the store keys runs by scenario text).

The compared values are derived from several flows of a run (a group's mean goodput over the
total), which no single run metric holds: the study's `derive_metrics` hook computes them per
run (so replications, if any, give them intervals like any other metric), from the row's
experiment, group and the goodputs of tcp1..tcp15. Tables 4-5 also compare the maximum
queue at the first backbone switch, which the paper gives in prose after Table 5, one row per
experiment (the same scenario, so the same run). Trace runs draw figure 3 (the single TCP's
window) and figure 5 (one TCP of each group per Tables 1-3 experiment). See
docs/gfr-goyal-reproduction.md.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

from ...scenario import Scenario
from ..assumptions import Assumption
from ..registry import Compared, Experiment, FigureFile, PaperTable, StudyResults, TraceRun
from ..sensitivity import Subset
from . import assumptions as declared
from . import data
from . import scenarios as model

if TYPE_CHECKING:
    import pandas as pd

# Derived metrics (computed per run by derive_metrics).
# Tables 2, 3 and 5 print two decimals; the maximum queues whole cells.
RATIO = Compared("ratio", "derived.ratio", "(mu_i/mu)/(r_i/r)", unit=0.01, kind="ratio")
THROUGHPUT = Compared(
    "throughput_mbps", "derived.throughput_mbps", "throughput per TCP (Mb/s)", relative=True, unit=0.01
)

# Figure 3 against the paper's own equation 1 (throughput = 8e-6 x mean CWND / RTT), whose
# values the paper prints beside its simulated ones (24.32, 48.5, 96.9, 125.6 Mb/s).
THROUGHPUT_EQ1 = Compared(
    "throughput_vs_equation1_mbps",
    "derived.throughput_mbps",
    "throughput against the paper's equation 1 (Mb/s)",
    relative=True,
)

MAX_QUEUE = Compared(
    "max_queue_cells", "summary.max_queue_cells", "maximum queue at sw1->sw2 (cells)", relative=True, unit=1
)

# Figure 3: the window-controlled cases 125000 and 500000 octets in quick mode; all four full.
QUICK_FIG3 = (125000, 500000)
# Figure 5: one TCP of each group (the first).
FIG5_CONNECTIONS = tuple(f"tcp{k * data.TCPS_PER_GROUP + 1}" for k in range(len(data.GROUPS)))
QUICK_1_3 = (1,)
# Tables 4-5: experiment 1, which does not reproduce (see the doc), and experiment 2, which
# does: a quick run shows the disagreement as well as the agreement.
QUICK_4_5 = (1, 2)


def _experiments_1_3(quick: bool) -> List[Experiment]:
    out = []
    for e in QUICK_1_3 if quick else data.EXPERIMENTS_1_3:
        scenario = Scenario(model.threshold_scenario(e), f"gfr-goyal tables 1-3: experiment {e}")
        for k, g in enumerate(data.GROUPS):
            out.append(
                Experiment(
                    table="1-3",
                    labels={"experiment": e, "tcps": g, "r_i": data.TABLE1_THRESHOLDS[e][k]},
                    scenario=scenario,
                    published={"ratio": data.TABLE3_RATIO[e][k], "throughput_mbps": data.TABLE2_MBPS[e][k]},
                )
            )
    return out


def _threshold_label(t: Optional[int]) -> str:
    return "none" if t is None else str(t)


def equation1_mbps(mean_cwnd_bytes: float, rtt_s: float = data.RTT_S) -> float:
    """The paper's equation 1: throughput (Mb/s) = 8e-6 x average CWND (octets) / RTT (s)."""
    return 8e-6 * mean_cwnd_bytes / rtt_s


def equation2_cwnd(cwnd_max: float, mss: float = data.MSS_BYTES) -> float:
    """The paper's equation 2: the mean window of the linear phase, from CWND_max / 2 up to
    CWND_max by one MSS per round trip over T = CWND_max / (2 MSS) round trips."""
    rounds = max(1, int(cwnd_max / 2 // mss))
    return sum(cwnd_max / 2 + mss * i for i in range(1, rounds + 1)) / rounds


def _experiments_fig3(quick: bool) -> List[Experiment]:
    out = []
    for k, t in enumerate(data.FIGURE3_THRESHOLDS):
        if quick and t not in QUICK_FIG3:
            continue
        out.append(
            Experiment(
                table="fig3",
                labels={
                    "threshold_octets": _threshold_label(t),
                    "paper_eq1_mbps": data.FIGURE3_EQ1_MBPS[k],
                    # Equations 1-2 at the drop threshold (no mean window without a drop).
                    "eq1_at_threshold_mbps": None
                    if t is None
                    else round(equation1_mbps(equation2_cwnd(t)), 2),
                },
                scenario=Scenario(
                    model.single_tcp_scenario(t), f"gfr-goyal figure 3: drop at cwnd {_threshold_label(t)}"
                ),
                published={
                    "throughput_mbps": data.FIGURE3_SIM_MBPS[k],
                    "throughput_vs_equation1_mbps": data.FIGURE3_EQ1_MBPS[k],
                },
                cost=0.5,
            )
        )
    return out


def _experiments_4_5(quick: bool) -> List[Experiment]:
    out = []
    for e in QUICK_4_5 if quick else data.EXPERIMENTS_4_5:
        scenario = Scenario(model.dfba_scenario(e), f"gfr-goyal tables 4-5: experiment {e}")
        for k, v in enumerate(data.VCS):
            out.append(
                Experiment(
                    table="4-5",
                    labels={"experiment": e, "vc": v, "r_i": data.TABLE4_THRESHOLDS[e][k]},
                    scenario=scenario,
                    published={"ratio": data.TABLE5_RATIO[e][k]},
                    cost=1.3,
                )
            )
        out.append(
            Experiment(
                table="5q",
                labels={"experiment": e, "sum_r_i": data.TABLE4_TOTALS[e]},
                scenario=scenario,
                published={"max_queue_cells": data.TABLE5_MAX_QUEUE_CELLS[e]},
                comparators={"max_queue_cells": "="},
                quotes={"max_queue_cells": data.TABLE5_MAX_QUEUE_QUOTE},
                cost=1.3,
            )
        )
    return out


def group_values(goodputs: Dict[int, float], thresholds: List[int], per_tcp: bool) -> List[Dict[str, float]]:
    """Per group (VC) k: mean goodput per TCP (Mb/s) and the ratio (mu_k/mu)/(r_k/r).

    per_tcp: Tables 1-3, each TCP its own VC with threshold r_k (r = 3 x sum r_k), mu_k the
    group's mean goodput per TCP. Otherwise Tables 4-5: mu_k the VC's (3 TCPs') goodput,
    r = sum R_k."""
    n = data.TCPS_PER_GROUP
    total = sum(goodputs.values())
    r_total = sum(thresholds) * (n if per_tcp else 1)
    out = []
    for k, r_k in enumerate(thresholds):
        vals = [goodputs.get(k * n + j + 1, math.nan) for j in range(n)]
        mu_k = sum(vals) / n if per_tcp else sum(vals)
        ratio = (mu_k / total) / (r_k / r_total) if total > 0 else math.nan
        out.append({"throughput_mbps": sum(vals) / n / 1e6, "ratio": ratio})
    return out


# Per table: the label holding the row's group, the groups in order, the thresholds per
# experiment, and whether each TCP is its own VC (Tables 1-3) or 3 TCPs share one (4-5).
_GROUPING = {
    "1-3": ("tcps", data.GROUPS, data.TABLE1_THRESHOLDS, True),
    "4-5": ("vc", data.VCS, data.TABLE4_THRESHOLDS, False),
}


def _row_values(row: Mapping[Any, Any]) -> Dict[str, float]:
    """The derived ratio (and throughput per TCP for Tables 1-3, the single TCP's throughput
    for figure 3) of one run row."""
    if str(row.get("table")) == "fig3":
        v = row.get("flows.tcp1.goodput_bps")
        return {"throughput_mbps": float(v) / 1e6} if v is not None and v == v else {}
    grouping = _GROUPING.get(str(row.get("table")))
    if grouping is None:
        return {}
    key, groups, thresholds, per_tcp = grouping
    try:
        experiment = int(row["experiment"])
        k = list(groups).index(row[key])
    except (KeyError, TypeError, ValueError):
        return {}
    goodputs = {}
    for i in range(1, data.TCPS_PER_GROUP * len(groups) + 1):
        v = row.get(f"flows.tcp{i}.goodput_bps")
        if v is not None and v == v:
            goodputs[i] = float(v)
    vals = group_values(goodputs, list(thresholds[experiment]), per_tcp)[k]
    return vals if per_tcp else {"ratio": vals["ratio"]}


def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
    """Add `derived.ratio` ((mu_i/mu)/(r_i/r) of the row's group) and, for Tables 1-3,
    `derived.throughput_mbps` (the group's mean goodput per TCP) to every run row; the row's
    `table`, `experiment` and `tcps` / `vc` columns say which group it is."""
    out = runs.copy()
    values = [_row_values(row) for row in runs.to_dict("records")]
    for name in ("ratio", "throughput_mbps"):
        out[f"derived.{name}"] = [v.get(name, math.nan) for v in values]
        out[f"derived.{name}"] = out[f"derived.{name}"].astype("float64")
    out.attrs = dict(runs.attrs)
    out.attrs["metrics"] = list(runs.attrs.get("metrics", [])) + ["derived.ratio", "derived.throughput_mbps"]
    return out


def _trace_table(connections: Any) -> str:
    """Windows only (figures 3 and 5 plot nothing else)."""
    names = ", ".join(f'"{c}"' for c in connections)
    return f"\n[trace]\nqueues = false\nutilization = false\nconnections = [{names}]\n"


class GfrGoyalStudy:
    name = "gfr-goyal"
    from .claims import CLAIMS as claims  # the paper's main claims as checks

    title = "Providing rate guarantees to TCP over the ATM GFR service"
    citation = (
        'R. Goyal, R. Jain, S. Fahmy, B. Vandalore, "Providing Rate Guarantees to '
        'TCP over the ATM GFR Service", Proc. LCN 1998'
    )
    runs = 1  # threshold_drop is deterministic; DFBA draws from the seeded stream
    stated = declared.STATED

    @property
    def assumptions(self) -> List[Assumption]:
        return declared.assumptions()

    def sensitivity_subset(self, quick: bool) -> Subset:
        return declared.sensitivity_subset(self.experiments(True))

    def morris_subset(self, quick: bool) -> Subset:
        """Quick: the sensitivity subset (5 of the 11 distinct runs, 214 design points); full:
        every experiment with a published value (all 11 runs, 460 design points)."""
        if quick:
            return self.sensitivity_subset(quick)
        return Subset(
            self.experiments(False),
            "every experiment with a published value: figure 3's four thresholds, Tables 1-3 "
            "experiments 1-4, Tables 4-5 experiments 1-3 and their maximum queues (5q).",
        )

    def family(self, exp: Experiment) -> str:
        """The rows the paper reports together: one experiment (a column of Tables 1-3, of
        Tables 4-5) of a table; figure 3's four cases together."""
        e = exp.labels.get("experiment")
        if e is None:
            return exp.table
        return f"Tables {exp.table} experiment {e}" if "-" in exp.table else f"{exp.table} experiment {e}"

    tables = [
        PaperTable(
            "fig3",
            "Figure 3: one SACK TCP, one segment dropped each time its cwnd reaches the "
            "threshold (octets); throughput against the paper's simulation and against its "
            "equation 1 (from the mean window read off its figure; eq1_at_threshold_mbps: "
            "equations 1-2 at the threshold)",
            ["threshold_octets", "paper_eq1_mbps", "eq1_at_threshold_mbps"],
            [THROUGHPUT, THROUGHPUT_EQ1],
        ),
        PaperTable(
            "1-3",
            "Tables 1-3: 15 SACK TCPs, one VC each, per-VC thresholds r_i in a "
            "48000-cell FIFO (single drop per crossing); throughput per TCP and "
            "(mu_i/mu)/(r_i/r) per group of 3",
            ["experiment", "tcps", "r_i"],
            [RATIO, THROUGHPUT],
        ),
        PaperTable(
            "4-5",
            "Tables 4-5: 15 TCPs merged 3 per VC onto 5 VCs, Differential FBA "
            "(Z = 1.5, per-VC R_i); (mu_i/mu)/(R_i/sum R) per VC",
            ["experiment", "vc", "r_i"],
            [RATIO],
        ),
        PaperTable(
            "5q",
            "Tables 4-5 (prose after Table 5): maximum queue at the first backbone switch "
            "(sw1->sw2) per experiment",
            ["experiment", "sum_r_i"],
            [MAX_QUEUE],
        ),
    ]

    @staticmethod
    def derive_metrics(runs: "pd.DataFrame") -> "pd.DataFrame":
        return derive_metrics(runs)

    def experiments(self, quick: bool) -> List[Experiment]:
        return _experiments_fig3(quick) + _experiments_1_3(quick) + _experiments_4_5(quick)

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        runs = []
        for t in data.FIGURE3_THRESHOLDS:
            if quick and t not in QUICK_FIG3:
                continue
            name = f"fig3-{_threshold_label(t)}"
            runs.append(
                TraceRun(
                    name=name,
                    title=f"figure 3, drop at cwnd {_threshold_label(t)} octets",
                    scenario=Scenario(
                        model.single_tcp_scenario(t) + _trace_table(("tcp1",)), f"gfr-goyal trace {name}"
                    ),
                    cost=0.5,
                )
            )
        for e in QUICK_1_3 if quick else data.EXPERIMENTS_1_3:
            name = f"fig5-experiment{e}"
            runs.append(
                TraceRun(
                    name=name,
                    title=f"figure 5, Tables 1-3 experiment {e}: one TCP per group",
                    scenario=Scenario(
                        model.threshold_scenario(e) + _trace_table(FIG5_CONNECTIONS),
                        f"gfr-goyal trace {name}",
                    ),
                )
            )
        return runs

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from ... import plots

        out_dir.mkdir(parents=True, exist_ok=True)
        figs: List[FigureFile] = []
        for run, traces in results.traces:
            cwnd = traces.get("cwnd")
            if cwnd is None or not len(cwnd):
                continue
            figure = "3" if run.name.startswith("fig3") else "5"
            files = plots.cwnd_trace(cwnd, out_dir / f"trace-{run.name}-cwnd", title=run.title)
            figs.append(FigureFile("traces", f"Figure {figure}: congestion window, {run.title}.", files))
        for table, key, caption in (
            ("1-3", "tcps", "Table 3: (mu_i/mu)/(r_i/r) per group of 3 TCPs, atmsim beside the paper."),
            ("4-5", "vc", "Table 5: (mu_i/mu)/(R_i/sum R) per merged VC (DFBA), atmsim beside the paper."),
        ):
            frame: Optional[Any] = results.tables.get(table)
            if frame is None or not len(frame):
                continue
            files = plots.comparison_bars(
                frame,
                ["experiment", key],
                "ratio",
                "paper_ratio",
                out_dir / f"table{table}-ratio",
                f"Tables {table}: throughput/threshold ratio",
            )
            figs.append(FigureFile(table, caption, files))
        return figs


STUDY = GfrGoyalStudy()
