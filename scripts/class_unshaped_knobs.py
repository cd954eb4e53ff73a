"""CLASS study, figure 2 with unshaped TCP: goodput, efficiency, timeouts and aborts of the three
1000 km connections under variations of the TCP model (the `tcp.*` overrides), one JSON line
per run. Usage: python scripts/class_unshaped_knobs.py DURATION_S [SET]  (SET: 1 or 2)."""

import json
import sys
import time
from typing import Dict

import atmsim
from atmsim.studies.ajmone_marsan import scenarios as net

SETS: Dict[str, Dict[str, Dict[str, object]]] = {
    "1": {
        "base (reno_class: Reno, 500 ms tick, min RTO 2 ticks, 3 dupacks)": {},
        "tahoe": {"tcp.variant": "tahoe"},
        "no fast retransmit": {"tcp.fast_retransmit": False},
        "tick 200 ms": {"tcp.tick_ms": 200.0},
        "tick 100 ms, min RTO 1 tick": {"tcp.tick_ms": 100.0, "tcp.min_rto_ticks": 1},
        "window 64 KB": {"tcp.window_bytes": 65535},
    },
    "2": {
        "receiver discards out-of-order (go-back-N)": {"tcp.cache_out_of_order": False},
        "tick 10 ms (min RTO 20 ms)": {"tcp.tick_ms": 10.0},
        "tick 10 ms + go-back-N receiver": {"tcp.tick_ms": 10.0, "tcp.cache_out_of_order": False},
        "tahoe + go-back-N receiver": {"tcp.variant": "tahoe", "tcp.cache_out_of_order": False},
    },
}
POINTS = [(1000, 50), (5000, 50), (1000, 100)]  # (buffer cells, shaped background user Mb/s)

dur = float(sys.argv[1])
variants = SETS[sys.argv[2] if len(sys.argv) > 2 else "1"]
for buf, bg in POINTS:
    for name, ov in variants.items():
        t0 = time.time()
        r = atmsim.run(net.two_node_scenario(bg, buf, None, duration_s=dur), overrides=ov)
        f = r.flows
        d, rx = f["bytes_delivered"].sum(), f["bytes_retransmitted"].sum()
        print(
            json.dumps(
                {
                    "buffer": buf,
                    "bg": bg,
                    "variant": name,
                    "goodput_mbps": round(f["goodput_bps"].sum() * 9180 / 9140 / 1e6, 2),
                    "efficiency": round(d / (d + rx), 3) if d + rx else None,
                    "rto": [int(x) for x in f["rto_expirations"]],
                    "fast_rtx": [int(x) for x in f["fast_retransmits"]],
                    "aborts": int(f["aborts"].sum()),
                    "drops": int(r.ports.set_index("name")["cells_dropped"]["A->B"]),
                    "wall": round(time.time() - t0, 1),
                }
            ),
            flush=True,
        )
