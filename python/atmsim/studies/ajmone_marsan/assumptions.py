"""What the CLASS paper (Ajmone Marsan et al., shared/papers/004_...) states and what the
`ajmone-marsan` study assumes (see `assumptions.py`, the model section of
docs/ajmone-marsan-reproduction.md and docs/italian-network.md).

The paper names its TCP (4.3BSD Reno, MSS 9140, no delayed or selective ACKs, connections
closed by backoff), the networks, buffers, background and both shaping schemes. It does not
give the window ("large enough"), the RTO floor or backoff limit, the figure-4 sweep points,
the 25 Mb/s abscissa, the Italian topology (figure 7 is lost), or anything on arbitration,
link phases and start times.
"""

from __future__ import annotations

from typing import List

from ..assumptions import Assumption, Stated, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

STATED = [
    Stated(
        "TCP",
        "Reno from 4.3BSD, MSS 9140, no delayed or selective ACKs, connections closed by backoff",
        "section 2",
    ),
    Stated("timer", "4.3BSD slow timer (500 ms)", "section 2 (4.3BSD)"),
    Stated(
        "background",
        "Poisson messages, truncated geometric length (mean 20, max 200 "
        "cells), AAL3/4, 9 connections each way",
        "section 3",
    ),
    Stated(
        "two-node network",
        "150 Mb/s, L0 = 500 km, buffers 1000 / 5000 cells, connection "
        "lengths 505 / 550 / 1000 km, 100 km for figure 4",
        "section 3, figure 1",
    ),
    Stated(
        "shaping",
        "GCRA at the assigned rate, beta x mean rate for the background, CDV tolerance tau",
        "section 3",
    ),
    Stated(
        "adaptive shaping",
        "RM cell every 32 cells, IR/KR/DR from T_l, T_h at 1 % and 50 % of the buffer, rate C/N_S",
        "section 4",
    ),
    Stated(
        "Italian network",
        "10 cities, traffic matrix of Table 1, 0.8 / 1.0 / 1.2 Gb/s background, 6 TCP connections",
        "section 5, Tables 1-2",
    ),
]


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "window_bytes",
            "TCP window (octets)",
            1048576,
            "The paper says only 'large enough'; 1 MB lets one connection fill 150 Mb/s over "
            "1000 km. 256 KB (not large enough for the longest path) and 4 MB bracket it.",
            [262144, 1048576, 4194304],
            keys=["connection.*.tcp.window_bytes"],
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (500 ms ticks)",
            2,
            "Not stated; 2 ticks is 4.3BSD's TCPTV_MIN (1 s).",
            [1, 2, 3],
            keys=["connection.*.tcp.min_rto_ticks"],
        ),
        Assumption(
            "max_backoffs",
            "timeouts before a connection is closed",
            12,
            "The paper closes connections by backoff but gives no limit; 12 is 4.3BSD's "
            "TCP_MAXRXTSHIFT, 6 a short alternative.",
            [6, 12],
            keys=["connection.*.tcp.max_backoffs"],
        ),
        Assumption(
            "arbitration",
            "order of simultaneous arrivals at a port",
            "rotating",
            "Not stated; the engine's least-recently-served order.",
            ["rotating", "random"],
            keys=["port.*.arbitration"],
        ),
        Assumption(
            "italian_topology",
            "Italian network links, capacities, routes",
            "derived",
            "Figure 7 is lost; the topology is derived from Tables 1-2 and the text "
            "(docs/italian-network.md). Structural: not swept.",
            ["derived"],
            apply=lambda doc, v: (),
            applies="scenario builder (italian_network.py); not swept",
            tables=["8-9", "10-11", "12", "T2"],
        ),
    ] + randomness_seam()


def sensitivity_subset(quick_experiments: List[Experiment]) -> Subset:
    chosen = [
        e
        for e in quick_experiments
        if e.table == "2"
        and e.labels.get("buffer") == 5000
        and e.labels.get("shaping") == "none"
        and e.labels.get("bg_mbps") in (0, 50)
    ]
    return Subset(
        chosen,
        "figure 2, 5000-cell buffer, unshaped TCP, background 0 and 50 Mb/s "
        "(the stated goodput 83 Mb/s and the efficiency of about 0.5 past the knee, "
        "which atmsim misses), --quick length.",
    )
