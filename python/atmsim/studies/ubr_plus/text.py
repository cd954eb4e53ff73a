"""Text rendering of `atmsim reproduce ubr-plus`: one table per paper table, simulated and
published values side by side."""

from __future__ import annotations

from typing import Any, Dict, List

TITLES = {
    1: "Table 1: TCP over UBR, buffer requirements for zero loss (infinite buffer)",
    2: "Tables 2-3: UBR+ comparative analysis (SD and FBA with R = 0.9 K, Z = 0.8)",
    4: "Table 4: Selective Drop with per-VC accounting, Z sweep (R = 0.9 K)",
    5: "Table 5: Fair Buffer Allocation, LAN (R as a fraction of K)",
    6: "Table 6: Fair Buffer Allocation, WAN (R as a fraction of K)",
}

# Simulated value first, the paper's right after it, so the eye compares neighbours.
COLUMNS = [
    "config", "sources", "buffer_cells", "policy", "r", "z",
    "efficiency", "paper_efficiency", "fairness", "paper_fairness",
    "max_queue_cells", "paper_max_queue_cells",
]
HEADERS = {
    "buffer_cells": "buffer",
    "efficiency": "eff",
    "paper_efficiency": "eff(paper)",
    "fairness": "fair",
    "paper_fairness": "fair(paper)",
    "max_queue_cells": "max_queue",
    "paper_max_queue_cells": "max_queue(paper)",
}


def _table_text(rows: List[Dict[str, Any]]) -> str:
    import pandas as pd

    frame = pd.DataFrame(rows)
    frame = frame[[c for c in COLUMNS if c in frame.columns]]
    if "buffer_cells" in frame:
        frame["buffer_cells"] = frame["buffer_cells"].map(
            lambda k: "infinite" if k is None or pd.isna(k) else str(int(k))
        )
    for col in ("r", "z"):
        if col in frame:
            frame[col] = frame[col].map(lambda v: "-" if pd.isna(v) else f"{v:g}")
    for col in ("efficiency", "paper_efficiency", "fairness", "paper_fairness"):
        # The engine reports null when a metric is undefined (e.g. no goodput at all).
        frame[col] = frame[col].map(lambda v: "-" if v is None or pd.isna(v) else f"{v:.2f}")
    frame = frame.rename(columns=HEADERS)
    return frame.to_string(index=False)


def _mean_gap(rows: List[Dict[str, Any]], key: str) -> str:
    gaps = [abs(r[key] - r["paper_" + key]) for r in rows if r[key] is not None]
    return f"{sum(gaps) / len(gaps):.3f}" if gaps else "-"


def _gap_line(rows: List[Dict[str, Any]]) -> str:
    return (
        f"mean |simulated - paper| over {len(rows)} runs: "
        f"efficiency {_mean_gap(rows, 'efficiency')}, fairness {_mean_gap(rows, 'fairness')}"
    )


def render(rows: List[Dict[str, Any]]) -> str:
    """All tables present in rows, in table order."""
    blocks = []
    for table in sorted({r["table"] for r in rows}):
        mine = [r for r in rows if r["table"] == table]
        blocks.append(f"{TITLES[table]}\n{_table_text(mine)}\n{_gap_line(mine)}")
    return "\n\n".join(blocks)
