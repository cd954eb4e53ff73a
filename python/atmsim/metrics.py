"""A run's report flattened into named numbers, the columns of sweep and store tables.

Names are dotted paths into the report: `summary.efficiency`, `flows.tcp1.goodput_bps`,
`ports.sw1->sw2.drops.overflow`, `background.<name>.<field>`. The default set is what studies
compare (every numeric summary field and each flow's goodput); `detail=True` adds every numeric
field of every flow and port. Booleans and bookkeeping (summary.conservation) are not metrics;
wall-clock time is not either, as it says nothing about the network.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional

Metrics = Dict[str, Optional[float]]

# Report fields that are numbers but not measurements of the simulated network.
_NOT_METRICS = {"conservation"}


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    f = float(value)
    return f if math.isfinite(f) else None


def _numeric_fields(prefix: str, record: Mapping[str, Any], out: Metrics) -> None:
    for field, value in record.items():
        if field in _NOT_METRICS:
            continue
        if isinstance(value, Mapping):
            _numeric_fields(f"{prefix}.{field}", value, out)
            continue
        number = _number(value)
        # null metrics (undefined for this run) are kept as missing, not dropped, so every
        # run of a point has the same columns.
        if number is not None or value is None:
            out[f"{prefix}.{field}"] = number


def flatten(report: Mapping[str, Any], detail: bool = False) -> Metrics:
    """Numeric metrics of one engine report (the JSON document as a dict)."""
    out: Metrics = {}
    _numeric_fields("summary", report.get("summary", {}), out)
    for flow in report.get("flows", []):
        name = flow.get("name", "?")
        if detail:
            _numeric_fields(f"flows.{name}", {k: v for k, v in flow.items() if k != "name"}, out)
        else:
            out[f"flows.{name}.goodput_bps"] = _number(flow.get("goodput_bps"))
    if detail:
        for port in report.get("ports", []):
            fields = {k: v for k, v in port.items() if k != "name"}
            _numeric_fields(f"ports.{port.get('name', '?')}", fields, out)
        # Background sources (CBR, on-off, Poisson): offered and delivered cells and rates.
        for source in report.get("background", []):
            fields = {k: v for k, v in source.items() if k != "name"}
            _numeric_fields(f"background.{source.get('name', '?')}", fields, out)
    return out
