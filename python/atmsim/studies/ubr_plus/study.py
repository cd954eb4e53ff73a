"""The UBR+ study (Goyal, Jain et al.) as a registered study for `atmsim reproduce all`.

The runs and published values are those of `scenarios.py` / `data.py` (which also
serve `atmsim reproduce ubr-plus`); this module says how they form tables and figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from ...scenario import Scenario
from ..assumptions import Assumption, Combination
from ..registry import (
    Compared,
    Experiment,
    FigureFile,
    PaperTable,
    StudyResults,
    TraceRun,
)
from ..sensitivity import Subset
from . import assumptions as declared
from . import scenarios
from .data import PaperRow

# Tables 1-6 print two decimals and whole cells.
EFFICIENCY = Compared("efficiency", "summary.efficiency", "efficiency", unit=0.01)
FAIRNESS = Compared("fairness", "summary.fairness", "fairness", unit=0.01)
MAX_QUEUE = Compared("max_queue_cells", "summary.max_queue_cells", "max queue (cells)", relative=True, unit=1)

# Paper table number (as ubr_plus numbers them) -> report table id.
TABLE_ID = {1: "1", 2: "2-3", 4: "4", 5: "5", 6: "6"}

# A short trace shows the dynamics (slow start, losses, timeouts) readably; [trace] records
# only the bottleneck to keep the stored report small.
TRACE_S = 2.0
TRACE_TABLE = '\n[trace]\ninterval_s = 0.005\nports = ["sw1->sw2"]\n'


def _labels(row: PaperRow) -> dict[str, object]:
    return {
        "config": row.config,
        "sources": row.sources,
        "buffer_cells": row.buffer_cells,
        "policy": row.policy,
        "r": row.r,
        "z": row.z,
    }


def _experiment(row: PaperRow) -> Experiment:
    published: dict[str, Optional[float]] = {
        "efficiency": row.efficiency,
        "fairness": row.fairness,
    }
    if row.table == 1:
        published["max_queue_cells"] = row.max_queue_cells
    source = f"ubr-plus table {TABLE_ID[row.table]}: " + " ".join(
        str(v) for v in _labels(row).values() if v is not None
    )
    return Experiment(
        table=TABLE_ID[row.table],
        labels=_labels(row),
        scenario=Scenario(scenarios.row_scenario(row), source),
        published=published,
        cost=scenarios.cost(row),
    )


class UbrPlusStudy:
    name = "ubr-plus"
    from .claims import CLAIMS as claims  # the paper's main claims as checks

    title = "UBR+: improving performance of TCP over ATM-UBR service"
    citation = (
        "R. Goyal, R. Jain, S. Kalyanaraman, S. Fahmy, B. Vandalore, "
        '"UBR+: Improving Performance of TCP over ATM-UBR Service", ICC 1997'
    )
    runs = 1  # the paper's model has no randomness (section 3.1); ties are ordered at random (declared)
    stated = declared.STATED
    tables = [
        PaperTable(
            "1",
            "Table 1: TCP over UBR, buffer for zero loss (infinite buffer)",
            ["config", "sources"],
            [EFFICIENCY, FAIRNESS, MAX_QUEUE],
        ),
        PaperTable(
            "2-3",
            "Tables 2-3: efficiency and fairness of UBR, EPD, SD and FBA (R = 0.9 K, Z = 0.8)",
            ["config", "sources", "buffer_cells", "policy"],
            [EFFICIENCY, FAIRNESS],
        ),
        PaperTable(
            "4",
            "Table 4: Selective Drop, Z sweep (R = 0.9 K)",
            ["config", "sources", "buffer_cells", "z"],
            [EFFICIENCY, FAIRNESS],
        ),
        PaperTable(
            "5",
            "Table 5: FBA on the LAN, R x Z",
            ["sources", "buffer_cells", "r", "z"],
            [EFFICIENCY, FAIRNESS],
        ),
        PaperTable(
            "6",
            "Table 6: FBA on the WAN, R x Z",
            ["sources", "buffer_cells", "r", "z"],
            [EFFICIENCY, FAIRNESS],
        ),
    ]

    def experiments(self, quick: bool) -> List[Experiment]:
        return [_experiment(row) for row in scenarios.select(scenarios.TABLES, quick=quick)]

    @property
    def assumptions(self) -> List[Assumption]:
        return declared.assumptions()

    def sensitivity_subset(self, quick: bool) -> Subset:
        return declared.sensitivity_subset(self.experiments(False))

    def sensitivity_combinations(self) -> List[Combination]:
        return declared.sensitivity_combinations()

    def trace_runs(self, quick: bool) -> List[TraceRun]:
        chosen = [("LAN", 1000, "UBR"), ("LAN", 1000, "FBA")]
        if not quick:
            chosen += [("WAN", 12000, "UBR"), ("WAN", 12000, "FBA")]
        runs = []
        for config, buffer, policy in chosen:
            per_vc = policy in ("SD", "FBA")
            text = (
                scenarios.scenario_text(
                    config,
                    5,
                    buffer,
                    policy,
                    0.9 if per_vc else None,
                    0.8 if per_vc else None,
                )
                + TRACE_TABLE
            )
            name = f"{config.lower()}5-{buffer}-{policy.lower()}"
            runs.append(
                TraceRun(
                    name=name,
                    title=f"{config}, 5 sources, {buffer}-cell buffer, {policy}, first {TRACE_S:g} s",
                    scenario=Scenario(text, f"ubr-plus trace {name}"),
                    overrides=(("simulation.duration_s", repr(TRACE_S)),),
                    buffer_cells=buffer,
                    cost=scenarios.DURATION_S[config],
                )
            )
        return runs

    def figures(self, results: StudyResults, out_dir: Path) -> List[FigureFile]:
        from .figures import draw

        return draw(results, out_dir)


STUDY = UbrPlusStudy()
