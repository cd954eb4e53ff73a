"""How close a reproduction comes to the paper: per table and metric, the mean absolute
distance, the share of rows within ±0.05 and ±0.10 and the share that agree.

The distance is the comparison table's `diff_<name>`: the distance to what the paper's
statement allows (studies/comparators.py), so a satisfied bound ("more than 20") counts 0, not
its difference from 20. For fractions (efficiency, fairness) the distances are absolute. For
quantities with units (queue lengths in cells) they are relative to the published value, so
±0.05 means ±5 %. `agree` is the share of rows whose `agrees_<name>` is true (a point within
its printed precision or the replications' interval, a bound satisfied). Rows where either
value is missing are left out and not counted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from . import comparators
from .registry import PaperTable

if TYPE_CHECKING:
    import pandas as pd

THRESHOLDS = (0.05, 0.10)
COLUMNS = ["table", "metric", "relative", "rows", "mean_abs_diff", "within_0.05", "within_0.10", "agree"]


def gap(sim: Any, paper: Any, relative: bool, comparator: str = "~", hi: Any = None) -> Optional[float]:
    """|distance| from sim to the statement (relative to paper with `relative`); None when
    either is missing."""
    d = comparators.distance(sim, paper, comparator or "~", hi)
    if d is None:
        return None
    p = float(paper)
    if relative:
        return abs(d) / abs(p) if p != 0 else None
    return abs(d)


def _gap_of(d: Any, paper: Any, relative: bool) -> Optional[float]:
    """|diff| of a comparison table's row, relative with `relative`; None when missing."""
    try:
        dv, p = float(d), float(paper)
    except (TypeError, ValueError):
        return None
    if math.isnan(dv) or math.isnan(p):
        return None
    if relative:
        return abs(dv) / abs(p) if p != 0 else None
    return abs(dv)


def _row(
    table: str, metric: str, relative: bool, gaps: List[float], agree: Optional[List[bool]] = None
) -> Dict[str, Any]:
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
    row["agree"] = sum(agree) / len(agree) if agree else nan
    return row


def summarize(tables: Dict[str, "pd.DataFrame"], specs: Sequence[PaperTable]) -> "pd.DataFrame":
    """One row per (table, compared metric), then one pooled row per absolute metric over
    all tables (table "all")."""
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    pooled: Dict[str, List[float]] = {}
    pooled_agree: Dict[str, List[bool]] = {}
    for spec in specs:
        frame = tables.get(spec.id)
        if frame is None or not len(frame):
            continue
        for c in spec.compared:
            gaps: List[float] = []
            agree: List[bool] = []
            agrees = frame[f"agrees_{c.name}"] if f"agrees_{c.name}" in frame else [None] * len(frame)
            for s, p, d, a in zip(frame[c.name], frame[f"paper_{c.name}"], frame[f"diff_{c.name}"], agrees):
                g = _gap_of(d, p, c.relative)
                if g is None or _missing(s):
                    continue
                gaps.append(g)
                if a is not None and not _missing(a):
                    agree.append(bool(a))
            rows.append(_row(spec.id, c.name, c.relative, gaps, agree))
            if not c.relative:
                pooled.setdefault(c.name, []).extend(gaps)
                pooled_agree.setdefault(c.name, []).extend(agree)
    if len(rows) > len(pooled):
        rows += [_row("all", name, False, gaps, pooled_agree[name]) for name, gaps in pooled.items()]
    return pd.DataFrame(rows, columns=COLUMNS)


def _missing(v: Any) -> bool:
    try:
        return math.isnan(float(v))
    except (TypeError, ValueError):
        return v is None
