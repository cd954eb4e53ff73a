"""What the UBR+ paper (Goyal, Jain et al., shared/papers/002_...) states and what the study
assumes where it is silent (see `assumptions.py`).

The paper is unusually explicit about its TCP (section 3.1: MSS 512, 100 ms timer
granularity, no fast retransmit, no delayed ACK, windows, "all TCP sources start and stop at
the same time", "no ... randomization in any component"). It says nothing about how a switch
orders cells that arrive at the same instant, how its hosts' slow timers line up, the RTO
floor or the first RTO; those are the assumptions below.
"""

from __future__ import annotations

from typing import Any, List, Mapping

from ...overrides import normalize
from ..assumptions import Assumption, Pairs, Stated, randomness_seam
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


def _phase_locked_ties(_doc: Mapping[str, Any], value: Any) -> Pairs:
    if value == "none":
        return ()
    return tuple(normalize([("simulation.phases", "aligned"), ("n_source.arbitration", value)]))


def _timer_phases(_doc: Mapping[str, Any], value: Any) -> Pairs:
    if value == "aligned":
        return tuple(normalize([("n_source.tcp.tick_phase_ms", 0.0)]))
    if value == "staggered":
        return tuple(normalize([("n_source.stagger_timers", True)]))
    return ()


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "phase_locked_ties",
            "with phase-locked links (simulation.phases = aligned), the order of cells that "
            "reach a port at the same instant (n_source.arbitration); none = random phases",
            "none",
            "Section 3.1: 'no processing delay, delay variation or randomization in any "
            "component', so in the paper's simulator every source's cells reach the switch on "
            "the same instants and the order it gives simultaneous events decides which cell "
            "takes the last free place; it does not say which order. With the project's random "
            "phases (none) no two cells tie. Rotating is the round-robin of an output-buffered "
            "switch, fixed a static priority, random an arbitrary order that favours no input.",
            ["none", "rotating", "random", "fixed"],
            applies="none: nothing (the study's phases); otherwise simulation.phases = aligned "
            "and n_source.arbitration = the value",
            apply=_phase_locked_ties,
        ),
        Assumption(
            "timer_phases",
            "phase of each host's 100 ms TCP timer ticks",
            "random",
            "Not stated. Independent hosts do not share a clock, so each host's ticks have "
            "their own phase (random: drawn per host, the project's randomness model); "
            "aligned (every host ticks at the same instants) is the reading of section 3.1's "
            "'no randomization', which synchronises the timeouts of sources that lose together; "
            "staggered spreads the N hosts evenly over one tick.",
            ["random", "aligned", "staggered"],
            applies="aligned: n_source.tcp.tick_phase_ms = 0; staggered: n_source.stagger_timers "
            "= true; random: nothing",
            apply=_timer_phases,
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


def _pick(experiments: List[Experiment], table: str, **labels: object) -> Experiment:
    for e in experiments:
        if e.table == table and all(e.labels.get(k) == v for k, v in labels.items()):
            return e
    raise LookupError(f"ubr-plus: no Table {table} row {labels}")


def sensitivity_subset(experiments: List[Experiment]) -> Subset:
    """Four rows of the full study: the three LAN/WAN rows of Tables 2-3 the disagreements were
    first read on, and Table 5's collapse of FBA at a small R (not in --quick's tables)."""
    lan5 = {"config": "LAN", "sources": 5, "buffer_cells": 1000}
    chosen = [
        _pick(experiments, "2-3", **lan5, policy="UBR"),
        _pick(experiments, "2-3", **lan5, policy="FBA"),
        _pick(experiments, "5", **lan5, r=0.1, z=0.5),
        _pick(experiments, "2-3", config="WAN", sources=5, buffer_cells=12000, policy="UBR"),
    ]
    return Subset(
        chosen,
        "LAN 5 x 1000 cells: Tables 2-3 UBR (tail drop: paper 0.21, the largest efficiency "
        "disagreement of Tables 2-3) and FBA at R = 0.9 K, Z = 0.8 (paper 0.88, where the "
        "models agree), Table 5 FBA at R = 0.1 K, Z = 0.5 (paper 0.04: the collapse at a small "
        "R); WAN 5 x 12000 cells UBR (a WAN row, where the model agrees, as a control).",
    )
