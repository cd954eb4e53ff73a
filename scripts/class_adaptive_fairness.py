"""CLASS study, figures 5-6 (adaptive shaping) with and without the switches' fair-share enforcement,
one JSON line per run. Usage: python scripts/class_adaptive_fairness.py DURATION_S INTERVALS [POINTS]
(INTERVALS: comma-separated fair_share_interval_us values, "none" for no enforcement)."""

import json
import sys
import time

import pandas as pd

import atmsim
from atmsim.studies.ajmone_marsan import scenarios as net

dur = float(sys.argv[1])
intervals = [None if x == "none" else float(x) for x in sys.argv[2].split(",")]
cases = [
    (fig, buf, bg)
    for fig, buf, bgs in (
        ("5", 5000, (0, 25, 50, 75, 100)),
        ("5", 1000, (0, 25, 50, 75, 100)),
        ("6", 5000, (0, 25, 50, 75, 100)),
    )
    for bg in bgs
]
if len(sys.argv) > 3:
    cases = [c for c in cases if f"{c[0]}/{c[1]}/{c[2]}" in sys.argv[3].split(",")]
for fig, buf, bg in cases:
    for iv in intervals:
        text = net.two_node_scenario(
            bg,
            buf,
            "adaptive",
            lengths="1000" if fig == "5" else "mixed",
            duration_s=dur,
            fair_share_interval_us=iv,
        )
        t0 = time.time()
        r = atmsim.run(text)
        f = r.flows.set_index("name")

        def flow(n: str, col: str, f: "pd.DataFrame" = f) -> float:
            return float(f[col][n])

        g = [flow(n, "goodput_bps") * 9180 / 9140 / 1e6 for n in ("tcp1", "tcp2", "tcp3")]
        eff = [
            flow(n, "bytes_delivered") / max(1, flow(n, "bytes_delivered") + flow(n, "bytes_retransmitted"))
            for n in ("tcp1", "tcp2", "tcp3")
        ]
        dropped = int(r.ports.set_index("name")["cells_dropped"]["A->B"])
        free = (150 - bg * 53 / 44) * 48 / 53
        print(
            json.dumps(
                {
                    "fig": fig,
                    "buffer": buf,
                    "bg": bg,
                    "interval_us": iv,
                    "goodput": [round(x, 2) for x in g],
                    "total": round(sum(g), 2),
                    "free": round(free, 1),
                    "frac_free": round(sum(g) / free, 3),
                    "eff": [round(x, 4) for x in eff],
                    "drops": dropped,
                    "fs_dr": int(r.ports["rm_fair_share_decreases"].sum()),
                    "wall": round(time.time() - t0, 1),
                }
            ),
            flush=True,
        )
