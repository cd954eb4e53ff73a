"""How close a reproduction comes to the paper: per table and metric, the mean absolute
difference and the share of rows within ±0.05 and ±0.10.

For fractions (efficiency, fairness) the differences are absolute. For quantities with units
(queue lengths in cells) they are relative to the published value, so ±0.05 means ±5 %.
Rows where either value is missing are left out and not counted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from .registry import PaperTable

if TYPE_CHECKING:
    import pandas as pd

THRESHOLDS = (0.05, 0.10)
COLUMNS = ["table", "metric", "relative", "rows", "mean_abs_diff", "within_0.05", "within_0.10"]


def gap(sim: Any, paper: Any, relative: bool) -> Optional[float]:
    """|sim − paper| (relative to paper with `relative`); None when either is missing."""
    try:
        s, p = float(sim), float(paper)
    except (TypeError, ValueError):
        return None
    if math.isnan(s) or math.isnan(p):
        return None
    if relative:
        return abs(s - p) / abs(p) if p != 0 else None
    return abs(s - p)


def _row(table: str, metric: str, relative: bool, gaps: List[float]) -> Dict[str, Any]:
    n = len(gaps)
    nan = float("nan")
    row: Dict[str, Any] = {
        "table": table,
        "metric": metric,
        "relative": relative,
        "rows": n,
        "mean_abs_diff": sum(gaps) / n if n else nan,
    }
    for t in THRESHOLDS:
        # A tiny tolerance: 0.90 vs 0.85 must count as within 0.05 despite binary floats.
        row[f"within_{t:.2f}"] = sum(g <= t + 1e-9 for g in gaps) / n if n else nan
    return row


def summarize(tables: Dict[str, "pd.DataFrame"], specs: Sequence[PaperTable]) -> "pd.DataFrame":
    """One row per (table, compared metric), then one pooled row per absolute metric over
    all tables (table "all")."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    pooled: Dict[str, List[float]] = {}
    for spec in specs:
        frame = tables.get(spec.id)
        if frame is None or not len(frame):
            continue
        for c in spec.compared:
            gaps = [
                g
                for g in (gap(s, p, c.relative) for s, p in zip(frame[c.name], frame[f"paper_{c.name}"]))
                if g is not None
            ]
            rows.append(_row(spec.id, c.name, c.relative, gaps))
            if not c.relative:
                pooled.setdefault(c.name, []).extend(gaps)
    if len(rows) > len(pooled):
        rows += [_row("all", name, False, gaps) for name, gaps in pooled.items()]
    return pd.DataFrame(rows, columns=COLUMNS)
