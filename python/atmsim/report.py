"""Readable text view of one run's report (`atmsim run` without --json)."""

from __future__ import annotations

from typing import Any

from .result import Result


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def render(result: Result, source: str) -> str:
    flows = result.flows
    if "goodput_bps" in flows:
        # Mb/s is the unit the papers report; bits per second is unreadable at 155 Mb/s.
        flows.insert(1, "goodput_Mbps", (flows["goodput_bps"] / 1e6).round(3))
        flows = flows.drop(columns=["goodput_bps"])
    raw = result.raw
    header = (
        f"scenario {source}: seed {raw.get('seed')}, simulated {raw.get('duration_s')} s, "
        f"wall {_value(raw.get('wall_s'))} s, {raw.get('events')} events, "
        f"engine {raw.get('engine_version')}"
    )
    summary = "\n".join(f"  {k}: {_value(v)}" for k, v in result.summary.items())
    return "\n\n".join(
        [
            header,
            "Flows\n" + (flows.to_string(index=False) if len(flows) else "  (none)"),
            "Ports\n" + (result.ports.to_string(index=False) if len(result.ports) else "  (none)"),
            "Summary\n" + summary,
        ]
    )
