"""What a LAN UBR+ run loses, and when: one run of the 5-source LAN scenario with a trace.

    python scripts/ubr_plus_timeline.py [KEY=VALUE ...]    (default: tail drop, 1000 cells)

Prints efficiency and fairness, then per 5 ms interval of the bottleneck (sw1->sw2): how many
sources had cells arriving at it, with the utilisation and mean queue in those intervals, and
each source's timeouts (its congestion window falling to one segment: without fast retransmit
only a timeout does that) with how many of them fall within 1 ms of another source's. The
paper's explanation of the low LAN efficiency (section 4) is the link idling while every
source waits for its timeout; this shows whether and how often the model does that.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np

import atmsim

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "python/atmsim/scenarios/ubr-plus-lan5.toml"
TRACE = '\n[trace]\ninterval_s = 0.005\narrivals = true\nports = ["sw1->sw2"]\n'


def main() -> None:
    overrides: Dict[str, Any] = {"n_source.policy": "tail_drop", "n_source.buffer_cells": 1000}
    for a in sys.argv[1:]:
        k, v = a.split("=", 1)
        try:
            overrides[k] = json.loads(v)
        except json.JSONDecodeError:
            overrides[k] = v
    r = atmsim.run(text=SCENARIO.read_text() + TRACE, overrides=overrides)
    t = r.traces
    s = r.summary
    print(f"{overrides}: efficiency {s['efficiency']:.3f}, fairness {s['fairness']:.3f}")
    arrivals = t["arrivals"]
    value = next(c for c in arrivals.columns if c not in ("port", "t_s", "connection"))
    per_vc = arrivals.pivot_table(index="t_s", columns="connection", values=value, aggfunc="sum").fillna(0)
    util = t["utilization"].set_index("t_s")["utilization"].reindex(per_vc.index)
    queue = t["queues"].set_index("t_s")["cells"].reindex(per_vc.index)
    sending = (per_vc > 0).sum(axis=1)
    for n in range(int(sending.max()) + 1):
        m = sending == n
        if m.any():
            print(
                f"  {n} sources sending: {m.mean():.3f} of the time, utilisation {util[m].mean():.3f}, "
                f"mean queue {queue[m].mean():.0f} cells"
            )
    times: List[np.ndarray] = []
    counts = {}
    for name, g in t["cwnd"].sort_values("t_s").groupby("connection"):
        cw = g["cwnd_bytes"].to_numpy()
        ts = g["t_s"].to_numpy()
        hit = ts[1:][(cw[1:] <= 512) & (cw[:-1] > 512)]
        counts[str(name)] = len(hit)
        times.append(hit)
    allt = np.sort(np.concatenate(times))
    near = np.zeros(len(allt), dtype=bool)
    near[1:] |= np.diff(allt) < 0.001
    near[:-1] |= np.diff(allt) < 0.001
    print(f"  timeouts per source {counts}; {int(near.sum())} of {len(allt)} within 1 ms of another source's")


if __name__ == "__main__":
    main()
