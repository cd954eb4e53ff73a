"""Tidy tables of runs and of points: what sweeps return and the store exports.

Run table: one row per run; identity columns, then one column per parameter (dotted scenario
key), then one per metric (dotted report path). Point table: one row per (point, metric) with
n, mean, std and the 95 % Student-t interval. Long form keeps the table the same shape however
many flows a scenario has, and pivots or filters to whatever a plot needs.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from .metrics import flatten
from .runkey import scenario_hash
from .stats import estimate

if TYPE_CHECKING:
    import pandas as pd

    from .store import StoredRun

IDENTITY = ["key", "source", "scenario_hash", "run", "seed", "engine_version", "created_at"]
POINT_STATS = ["n", "mean", "std", "ci_low", "ci_high"]


def plain(v: Any) -> Any:
    """A table cell as a JSON-ready value.

    Args:
        v: The cell.

    Returns:
        numpy scalars as Python ones, NaN as None, anything else unchanged.
    """
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _ordered_union(groups: Sequence[Sequence[str]]) -> List[str]:
    seen: Dict[str, None] = {}
    for group in groups:
        for name in group:
            seen.setdefault(name, None)
    return list(seen)


def runs_frame(
    stored: Sequence["StoredRun"],
    detail: bool = False,
    extra: Optional[Sequence[Dict[str, Any]]] = None,
) -> pd.DataFrame:
    """The run table of stored runs, one row per run.

    Args:
        stored: The runs, as `Store.fetch` returns them.
        detail: Metrics from every numeric field of every flow and port (needs the runs
            fetched with their results).
        extra: Columns to add, one dict per run (e.g. the sweep's point index).

    Returns:
        A pandas DataFrame: identity columns, then parameters, then metrics (floats).
    """
    import pandas as pd

    rows = []
    metric_sets = []
    for i, s in enumerate(stored):
        metrics = flatten(json.loads(s.result), detail=True) if detail and s.result else s.metrics
        metric_sets.append(list(metrics))
        row: Dict[str, Any] = {
            "key": s.key,
            "source": s.source,
            "scenario_hash": scenario_hash(s.scenario),
            "run": s.run,
            "seed": s.seed,
            "engine_version": s.engine_version,
            "created_at": pd.Timestamp(s.created_at, unit="s", tz="UTC"),
        }
        if extra is not None:
            row.update(extra[i])
        row.update(s.params)
        row.update(metrics)
        rows.append(row)
    params = _ordered_union([list(s.params) for s in stored])
    metrics_cols = _ordered_union(metric_sets)
    leading = IDENTITY[:1] + (list(extra[0]) if extra else []) + IDENTITY[1:]
    frame = pd.DataFrame(rows, columns=leading + params + metrics_cols)
    # Missing metrics are None in JSON; as floats they become NaN, which pandas skips.
    for col in metrics_cols:
        frame[col] = pd.to_numeric(frame[col], errors="coerce").astype("float64")
    frame.attrs["params"] = params
    frame.attrs["metrics"] = metrics_cols
    return frame


def without_attrs(frame: "pd.DataFrame") -> "pd.DataFrame":
    """A shallow copy of `frame` without its attrs, to take many columns or groups from.

    pandas deep-copies a frame's attrs into every column and group taken from it; a run
    table's attrs list its metric columns (hundreds with `detail`), so a loop over its groups
    and metrics spent most of its time copying that list (`atmsim reproduce all --quick`:
    about 60 % of the main process under cProfile).

    Args:
        frame: Any DataFrame; it keeps its own attrs.

    Returns:
        The same columns and rows (no data copied), `attrs` empty.
    """
    bare = frame.copy(deep=False)
    bare.attrs = {}
    return bare


def summarize(
    runs: pd.DataFrame,
    by: Optional[Sequence[str]] = None,
    metrics: Optional[Sequence[str]] = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """Per-point statistics of a run table: what `sweep` returns by default.

    Args:
        runs: A run table, one row per run: `sweep(..., summary=False)` or
            `Store.runs()` (its `.attrs["params"]` and `.attrs["metrics"]` name the columns).
        by: Columns that identify a point. Default None: `point` (when present),
            `scenario_hash` and the parameter columns.
        metrics: Metric columns to summarise. Default None: all of them.
        level: Confidence level of the two-sided Student-t interval, in (0, 1).

    Returns:
        A pandas DataFrame, one row per (point, metric): the `by` columns, `metric`, `n`,
            `mean`, `std`, `ci_low`, `ci_high` (missing values skipped; `std` and the interval
            are NaN with fewer than two values).
    """
    import pandas as pd

    params = list(runs.attrs.get("params", []))
    if by is None:
        by = (["point"] if "point" in runs.columns else []) + ["scenario_hash"] + params
    if metrics is None:
        metrics = list(runs.attrs.get("metrics", []))
    out: List[Dict[str, Any]] = []
    runs = without_attrs(runs)
    if len(runs):
        # Group on a string rendering so that unhashable or NaN parameter values still group.
        group_keys = runs[list(by)].astype(str).agg("\x1f".join, axis=1) if by else None
        grouped = runs.groupby(group_keys, sort=False) if group_keys is not None else [(0, runs)]
        for _, group in grouped:
            first = group.iloc[0]
            for metric in metrics:
                est = estimate(group[metric].tolist(), level)
                row = {col: first[col] for col in by}
                row.update(
                    metric=metric, n=est.n, mean=est.mean, std=est.std, ci_low=est.ci_low, ci_high=est.ci_high
                )
                out.append(row)
    frame = pd.DataFrame(out, columns=list(by) + ["metric"] + POINT_STATS)
    frame.attrs["params"] = [p for p in params if p in by]
    return frame
