"""`atmsim bench`: engine speed on a realistic scenario.

The headline figure is bottleneck cells per wall-clock second: it is what a user feels
(simulated link time per real time) and, unlike raw events/s, it does not change when the
engine learns to do the same work with fewer events.
"""

from __future__ import annotations

from typing import Dict, Optional

from .overrides import duration
from .result import Result
from .runner import run
from .scenario import Scenario

# The shipped example scenario (atmsim/scenarios/), so the default works from any directory.
DEFAULT_SCENARIO = "ubr-plus-wan15"


def measure(scenario: Scenario, duration_s: Optional[float] = None) -> Dict[str, object]:
    result: Result = run(scenario, overrides=duration(duration_s))
    port = result.bottleneck_port() or {}
    cells = int(port.get("cells_out", 0))
    wall = result.wall_s
    return {
        "scenario": scenario.source,
        "duration_s": result.duration_s,
        "wall_s": wall,
        "bottleneck_port": port.get("name"),
        "bottleneck_cells": cells,
        "cells_per_wall_s": cells / wall if wall > 0 else float("inf"),
        "events": result.events,
        "events_per_wall_s": result.events / wall if wall > 0 else float("inf"),
    }


def render(m: Dict[str, object]) -> str:
    return "\n".join(
        [
            f"scenario          {m['scenario']}",
            f"simulated         {m['duration_s']} s",
            f"wall              {m['wall_s']:.3f} s",
            f"bottleneck port   {m['bottleneck_port']} ({m['bottleneck_cells']:,} cells out)",
            f"cells/s           {m['cells_per_wall_s']:,.0f} bottleneck cells per wall second",
            f"events/s          {m['events_per_wall_s']:,.0f} ({m['events']:,} events)",
        ]
    )
