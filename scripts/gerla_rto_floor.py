"""Credit/rate study: the saturation goodput of PRCA and FCVC (N = 15, MSS 1024, b_g 1.1 / 1.2 /
1.3) at the paper's length (20 s) for several RTO floors (`tcp.min_rto_ticks` of every
connection, on the study's 1 ms clock), replications = seeds 1..R. One JSON line per run, then
a summary line per (control, b_g, floor). docs/gerla-reproduction.md, "Where and why it
differs", quotes its output.

Usage: python scripts/gerla_rto_floor.py [FLOOR ...] [--runs R]   (default floors 2 10 20, R 4)
"""

import json
import statistics
import sys
from typing import Dict, List, Tuple

import atmsim
from atmsim.studies.gerla import scenarios as net

SOURCES = 15
args = sys.argv[1:]
runs = 4
if "--runs" in args:
    i = args.index("--runs")
    runs = int(args[i + 1])
    del args[i : i + 2]
floors = [int(a) for a in args] or [2, 10, 20]

summary: Dict[Tuple[str, float, int], List[float]] = {}
for control in net.CONTROLS:
    for b_g in (1.1, 1.2, 1.3):
        for floor in floors:
            overrides = {f"connection.{i}.tcp.min_rto_ticks": floor for i in range(SOURCES)}
            for seed in range(1, runs + 1):
                text = net.scenario_text(control, b_g, SOURCES, seed=seed)
                r = atmsim.run(text, overrides=overrides)
                f = r.flows
                goodput = float(f["goodput_bps"].sum()) / 1e6
                line = {
                    "control": control,
                    "b_g": b_g,
                    "floor_ticks": floor,
                    "seed": seed,
                    "goodput_mbps": round(goodput, 4),
                    "rto_expirations": int(f["rto_expirations"].sum()),
                }
                print(json.dumps(line), flush=True)
                summary.setdefault((control, b_g, floor), []).append(goodput)
for (control, b_g, floor), values in summary.items():
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    mean = statistics.mean(values)
    print(f"{control} b_g {b_g} floor {floor}: {mean:.2f} Mb/s (sd {sd:.2f}, {len(values)} runs)")
