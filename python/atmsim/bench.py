"""`atmsim bench`: engine speed on a realistic scenario, or on the suite of issue 11.

The headline figure is bottleneck cells per wall-clock second: it is what a user feels
(simulated link time per real time) and, unlike raw events/s, it does not change when the
engine learns to do the same work with fewer events.

`atmsim bench --suite` runs the four cases shipped in `atmsim/scenarios/bench/` (the UBR+ N-source model with
EPD at 155.52 Mb/s: LAN with 5 and 15 sources, 1 us links, 1000-cell buffers, 2 s; WAN with 5 and
15 sources, 5 ms links, 12000-cell buffers, 4 s). Each case runs in a child process of its own
(`atmsim bench FILE --json`), which reports its own peak resident set (Python, the engine and the
built network): the peak is the case's alone, not the largest seen so far by one process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

from .overrides import duration
from .result import Result
from .runner import run
from .scenario import Scenario

# The shipped example scenario (atmsim/scenarios/), so the default works from any directory.
DEFAULT_SCENARIO = "ubr-plus-wan15"

#: The suite's cases, shipped with the package (atmsim/scenarios/bench/).
SUITE = ("lan5", "lan15", "wan5", "wan15")


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
        "max_rss_mib": peak_rss_mib(),
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


def suite_dir() -> Path:
    """The suite's folder inside the installed package (FileNotFoundError if a case is missing)."""
    d = Path(__file__).resolve().parent / "scenarios" / "bench"
    missing = [case for case in SUITE if not (d / f"{case}.toml").is_file()]
    if missing:
        raise FileNotFoundError(f"{d}: benchmark cases missing: {', '.join(missing)}")
    return d


def measure_in_child(path: Path, duration_s: Optional[float] = None) -> Dict[str, object]:
    """`measure` one scenario in a fresh Python process; adds its peak RSS (`max_rss_mib`)."""
    cmd: List[str] = [sys.executable, "-m", "atmsim", "bench", str(path), "--json"]
    if duration_s is not None:
        cmd += ["--duration", repr(float(duration_s))]
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"{path}: {err.decode(errors='replace').strip()}")
    m: Dict[str, object] = json.loads(out)
    return m


def peak_rss_mib() -> float:
    """This process's peak resident set so far, in MiB (Linux reports KiB, macOS bytes)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def suite(duration_s: Optional[float] = None) -> List[Dict[str, object]]:
    """Run the four cases, each in its own process."""
    d = suite_dir()
    rows = []
    for case in SUITE:
        m = measure_in_child(d / f"{case}.toml", duration_s)
        m["case"] = case
        rows.append(m)
    return rows


def render_suite(rows: List[Dict[str, object]]) -> str:
    head = (
        f"{'case':<6} {'sim s':>6} {'wall s':>8} {'bottleneck cells':>17} {'cells/wall s':>13} "
        f"{'events':>12} {'peak MiB':>9}"
    )
    lines = [head]
    for m in rows:
        lines.append(
            f"{m['case']!s:<6} {m['duration_s']!s:>6} {m['wall_s']:>8.3f} "
            f"{m['bottleneck_cells']:>17,} {m['cells_per_wall_s']:>13,.0f} {m['events']:>12,} "
            f"{m['max_rss_mib']:>9.1f}"
        )
    return "\n".join(lines)
