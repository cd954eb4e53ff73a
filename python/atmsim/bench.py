"""`atmsim bench`: engine speed on a realistic scenario, or on the benchmark suite.

The headline figure is bottleneck cells per wall-clock second: it is what a user feels
(simulated link time per real time) and, unlike raw events/s, it does not change when the
engine learns to do the same work with fewer events.

`atmsim bench --suite` runs the suite: the four UBR+ cases shipped in `atmsim/scenarios/bench/`
(the N-source model with EPD at 155.52 Mb/s: LAN with 5 and 15 sources, 1 us links, 1000-cell
buffers, 2 s; WAN with 5 and 15 sources, 5 ms links, 12000-cell buffers, 4 s), then one case per
other study family at its paper's run length: GFR FIFO, GFR WFQ and DFBA (also in `bench/`,
written by `scripts/write_bench_scenarios.py`), FCVC, PRCA, CLASS shaped, CLASS adaptive and the
Italian network (the shipped examples of those studies), and the two kinds of run that take most
of `atmsim reproduce all`'s time (also in `bench/`): Bonaventure's figure 21 (WFQ, GFR.2, SACK,
512-byte background segments) and Ajmone Marsan's figure 12 (the Italian network under adaptive
shaping). `--cases` picks some of them.

Besides the bottleneck's cells, a measurement counts every cell put on a link (`link_cells`: the
ports' and the hosts' `cells_out`), the divisor of issue 25's instructions per link cell.
Each case runs in a child process of its own
(`atmsim bench FILE --json`), which reports its own peak resident set (Python, the engine and the
built network): the peak is the case's alone, not the largest seen so far by one process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from .overrides import duration
from .result import Result
from .runner import run
from .scenario import Scenario

# The shipped example scenario (atmsim/scenarios/), so the default works from any directory.
DEFAULT_SCENARIO = "ubr-plus-wan15"

#: The suite's cases and their files, relative to the package's scenarios folder.
CASES: Dict[str, str] = {
    "lan5": "bench/lan5.toml",
    "lan15": "bench/lan15.toml",
    "wan5": "bench/wan5.toml",
    "wan15": "bench/wan15.toml",
    "gfr-fifo": "bench/gfr-fifo.toml",
    "gfr-wfq": "bench/gfr-wfq.toml",
    "gfr-wfq-sack": "bench/gfr-wfq-sack.toml",
    "dfba": "bench/dfba.toml",
    "fcvc": "gerla-fcvc.toml",
    "prca": "gerla-prca.toml",
    "class-shaped": "class-two-node-shaped.toml",
    "class-adaptive": "class-two-node-adaptive.toml",
    "italy": "class-italy.toml",
    "italy-adaptive": "bench/italy-adaptive.toml",
}
SUITE = tuple(CASES)


def measure(scenario: Scenario, duration_s: Optional[float] = None) -> Dict[str, object]:
    result: Result = run(scenario, overrides=duration(duration_s))
    port = result.bottleneck_port() or {}
    cells = int(port.get("cells_out", 0))
    components = result.raw.get("ports", []) + result.raw.get("hosts", [])
    link_cells = sum(int(c.get("cells_out", 0)) for c in components)
    wall = result.wall_s
    return {
        "scenario": scenario.source,
        "duration_s": result.duration_s,
        "wall_s": wall,
        "bottleneck_port": port.get("name"),
        "bottleneck_cells": cells,
        "link_cells": link_cells,
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
            f"link cells        {m['link_cells']:,} (every cell put on a link)",
            f"cells/s           {m['cells_per_wall_s']:,.0f} bottleneck cells per wall second",
            f"events/s          {m['events_per_wall_s']:,.0f} ({m['events']:,} events)",
        ]
    )


def case_paths(cases: Sequence[str] = SUITE) -> Dict[str, Path]:
    """Each case's file inside the installed package (ValueError for an unknown case name,
    FileNotFoundError if a file is missing)."""
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        raise ValueError(f"--cases: unknown case {unknown[0]!r} (choose from {', '.join(SUITE)})")
    d = Path(__file__).resolve().parent / "scenarios"
    paths = {c: d / CASES[c] for c in cases}
    missing = [c for c, p in paths.items() if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"{d}: benchmark cases missing: {', '.join(missing)}")
    return paths


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


def suite(duration_s: Optional[float] = None, cases: Sequence[str] = SUITE) -> List[Dict[str, object]]:
    """Run the cases (default: all), each in its own process."""
    rows = []
    for case, path in case_paths(cases).items():
        m = measure_in_child(path, duration_s)
        m["case"] = case
        rows.append(m)
    return rows


def render_suite(rows: List[Dict[str, object]]) -> str:
    head = (
        f"{'case':<14} {'sim s':>6} {'wall s':>8} {'bottleneck cells':>17} {'link cells':>13} "
        f"{'cells/wall s':>13} {'events':>13} {'peak MiB':>9}"
    )
    lines = [head]
    for m in rows:
        lines.append(
            f"{m['case']!s:<14} {m['duration_s']!s:>6} {m['wall_s']:>8.3f} "
            f"{m['bottleneck_cells']:>17,} {m['link_cells']:>13,} {m['cells_per_wall_s']:>13,.0f} "
            f"{m['events']:>13,} "
            f"{m['max_rss_mib']:>9.1f}"
        )
    return "\n".join(lines)
