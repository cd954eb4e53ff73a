"""What the UBR+ paper (Goyal, Jain et al., shared/papers/002_...) states and what the study
assumes where it is silent (see `assumptions.py`).

The paper is unusually explicit about its TCP (section 3.1: MSS 512, 100 ms timer
granularity, no fast retransmit, no delayed ACK, windows, "all TCP sources start and stop at
the same time", "no ... randomization in any component"). It says nothing about how a switch
orders cells that arrive at the same instant, how its hosts' slow timers line up, the RTO
floor or the first RTO; those are the assumptions below.
"""

from __future__ import annotations

from typing import List

from ..assumptions import Assumption, Stated, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

STATED = [
    Stated(
        "topology",
        "N sources -> switch -> switch -> N destinations, one bottleneck",
        "section 3.1, figure 'N-source configuration'",
    ),
    Stated("link rate", "155.52 Mb/s on every link", "section 3.1"),
    Stated("link delay", "5 us (LAN), 5 ms (WAN) per link", "section 3.1"),
    Stated(
        "TCP", "MSS 512, timer granularity 100 ms, no fast retransmit/recovery, no delayed ACK", "section 3.1"
    ),
    Stated("window", "64 KB (LAN), 600000 octets with window scaling (WAN)", "section 3.1"),
    Stated("initial window", "one segment (slow start from CWND = 1)", "section 2"),
    Stated("start", "all sources start and stop at the same time (no start jitter)", "section 3.1"),
    Stated(
        "randomness",
        "'no processing delay, delay variation or randomization in any component'",
        "section 3.1",
    ),
    Stated("duration", "10 s (LAN), 20 s (WAN)", "section 3.1"),
    Stated("EPD threshold", "buffer - 200 cells", "section 5"),
    Stated(
        "buffers, R, Z", "per table row (1000-36000 cells; R = 0.9 K, Z = 0.8 in Tables 2-3)", "Tables 2-6"
    ),
    Stated(
        "efficiency",
        "sum of goodputs / maximum TCP throughput (125.2 Mb/s for MSS 512 with LLC/SNAP)",
        "section 3.2",
    ),
]


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "arbitration",
            "order of cells arriving at a port at the same instant",
            "rotating",
            "The paper does not say how its switches order simultaneous arrivals; with equal "
            "links they tie on every slot. Rotating (least recently served input first) is the "
            "usual round-robin of an output-buffered switch; fixed priority locks sources out "
            "and random is the alternative a real fabric's jitter would give.",
            ["rotating", "fixed", "random"],
            keys=["n_source.arbitration"],
        ),
        Assumption(
            "stagger_timers",
            "hosts' slow-timer phases spread over one tick",
            False,
            "Section 3.1 says there is no randomization, which we read as every host's 100 ms "
            "slow timer ticking at the same instants (false). Independent hosts do not share a "
            "clock, so staggered phases are the plausible other end.",
            [False, True],
            keys=["n_source.stagger_timers"],
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (timer ticks of 100 ms)",
            2,
            "Not stated. 4.3BSD's TCPTV_MIN is 2 ticks (1 s at 500 ms ticks); with the "
            "paper's 100 ms ticks the floor is 200 ms. One and three ticks bracket it.",
            [1, 2, 3],
            keys=["n_source.tcp.min_rto_ticks"],
        ),
        Assumption(
            "initial_rto_s",
            "retransmission timeout before the first RTT sample (s)",
            3.0,
            "Not stated. 3 s is BSD's TCPTV_SRTTDFLT and RFC 1122's value; 1 s is RFC 6298's.",
            [1.0, 3.0],
            keys=["n_source.tcp.initial_rto_s"],
        ),
    ] + randomness_seam("Section 3.1's 'no ... delay variation' suggests aligned slot grids.", jitter=False)


def _pick(experiments: List[Experiment], config: str, buffer: int, policy: str) -> Experiment:
    for e in experiments:
        if e.table == "2-3" and (
            e.labels.get("config"),
            e.labels.get("sources"),
            e.labels.get("buffer_cells"),
            e.labels.get("policy"),
        ) == (config, 5, buffer, policy):
            return e
    raise LookupError(f"ubr-plus: no Tables 2-3 row {config} 5 x {buffer} {policy}")


def sensitivity_subset(experiments: List[Experiment]) -> Subset:
    chosen = [
        _pick(experiments, "LAN", 1000, "UBR"),
        _pick(experiments, "LAN", 1000, "FBA"),
        _pick(experiments, "WAN", 12000, "UBR"),
    ]
    return Subset(
        chosen,
        "Tables 2-3, 5 sources: LAN 1000 cells UBR (the largest "
        "disagreement, 0.67 against 0.36 on average over the LAN UBR rows), LAN 1000 "
        "cells FBA (the row the issue reports as moved by arbitration), WAN 12000 "
        "cells UBR (a WAN row, where the model agrees, as a control).",
    )
