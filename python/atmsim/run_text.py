"""Readable text view of one run's results (`atmsim run` without --json).

The text view shows the documented columns that fit a terminal; `--json` has every field.
"""

from __future__ import annotations

from typing import Any, Dict, List

from .markdown import printable
from .numbers import fmt
from .result import Result

FLOW_COLUMNS = [
    "name",
    "goodput_Mbps",
    "bytes_delivered",
    "segments_sent",
    "segments_retransmitted",
    "rto_expirations",
]
PORT_COLUMNS = [
    "name",
    "cells_in",
    "cells_out",
    "cells_dropped",
    "frames_dropped",
    "max_queue_cells",
    "mean_queue_cells",
    "drops",
]


def _value(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}={_value(x)}" for k, x in v.items())
    return fmt(v, 6)


def _nonzero(counts: Any) -> str:
    # Per-reason drop counters: only the reasons that happened, to keep the row short.
    if not isinstance(counts, dict):
        return "" if counts is None else str(counts)
    return " ".join(f"{k}={v}" for k, v in counts.items() if v) or "-"


def _table(rows: List[Dict[str, Any]], columns: List[str]) -> str:
    import pandas as pd

    if not rows:
        return "  (none)"
    frame = pd.DataFrame(rows)
    return frame[[c for c in columns if c in frame.columns]].to_string(index=False)


def _names(rows: List[Dict[str, Any]]) -> None:
    # Names come from the scenario file: escape control characters (ANSI sequences).
    for row in rows:
        if isinstance(row.get("name"), str):
            row["name"] = printable(row["name"])


def render(result: Result, source: str) -> str:
    raw = result.raw
    flows = [dict(f) for f in raw.get("flows", [])]
    _names(flows)
    for flow in flows:
        # Mb/s is the unit the papers report; bits per second is unreadable at 155 Mb/s.
        if "goodput_bps" in flow:
            flow["goodput_Mbps"] = round(flow["goodput_bps"] / 1e6, 3)
    ports = [dict(p) for p in raw.get("ports", [])]
    _names(ports)
    for port in ports:
        if "drops" in port:
            port["drops"] = _nonzero(port["drops"])
    header = (
        f"scenario {printable(source)}: seed {raw.get('seed')}, simulated {raw.get('duration_s')} s, "
        f"wall {_value(raw.get('wall_s'))} s, {raw.get('events')} events, "
        f"engine {raw.get('engine_version')}"
    )
    summary = "\n".join(f"  {k}: {printable(_value(v))}" for k, v in result.summary.items())
    return "\n\n".join(
        [
            header,
            "Flows\n" + _table(flows, FLOW_COLUMNS),
            "Ports\n" + _table(ports, PORT_COLUMNS),
            "Summary\n" + summary,
        ]
    )
