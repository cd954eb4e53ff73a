"""What the UBR+ paper (Goyal, Jain et al., ICC 1997) states and what the study
assumes where it is silent (see `assumptions.py`).

The paper is unusually explicit about its TCP (section 3.1: MSS 512, 100 ms timer
granularity, no fast retransmit, no delayed ACK, windows, "all TCP sources start and stop at
the same time", "no ... randomization in any component"). The study's default is therefore
phase-locked: every link's slot grid and every host's timer ticks start at 0, with no
oscillator drift (`simulation.phases = "aligned"`); random phases with drift are a declared
variant against the paper. The paper says nothing about how a switch orders cells that arrive
at the same instant (the one choice phase-locking leaves open), the RTO floor or the first
RTO; those are the assumptions below.
"""

from __future__ import annotations

from typing import Any, List, Mapping

from ...overrides import normalize
from ..assumptions import Assumption, Combination, Pairs, Stated, combinations, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

# Section 3.1's condition on randomness, quoted by the records that keep it sweepable.
NO_RANDOMIZATION = (
    '"There is no processing delay, delay variation or randomization in any component of the '
    'simulation. This highlights the effects of TCP synchronization", section 3.1'
)

STATED = [
    Stated(
        "topology",
        "N sources -> switch -> switch -> N destinations, one bottleneck",
        "section 3.1, figure 'N-source configuration'",
    ),
    Stated("link rate", "155.52 Mb/s on every link", "section 3.1", "All link bandwidths are 155.52 Mbps."),
    Stated(
        "link delay",
        "5 us (LAN), 5 ms (WAN) per link",
        "section 3.1",
        "All link delays are 5 microseconds for LANs and 5 milliseconds for WANs.",
    ),
    Stated(
        "traffic",
        "unidirectional: data from the sources, acknowledgements from the destinations",
        "section 3.1",
        "The traffic is unidirectional. Only the sources send data. The destinations send only "
        "acknowledgments.",
    ),
    Stated(
        "TCP",
        "MSS 512, timer granularity 100 ms, no fast retransmit/recovery, no delayed ACK",
        "section 3.1",
        "TCP Fast Retransmit and Recovery are disabled. ... The TCP segment size is set to 512 "
        "bytes. ... TCP timer granularity is set to 100 ms. ... TCP delay ack timer is NOT set. "
        "Segments are acked as soon are they are received.",
    ),
    Stated(
        "window",
        "64 KB (LAN), 600000 octets with window scaling (WAN)",
        "section 3.1",
        "TCP maximum receiver window size is 64K bytes for LANs. ... The window size used for "
        "WANs is 600000 Bytes.",
    ),
    Stated(
        "initial window",
        "one segment (slow start from CWND = 1)",
        "section 2",
        "The source starts transmission in the slow start phase by sending one segment",
    ),
    Stated(
        "start",
        "all sources start at t = 0 (no start jitter)",
        "section 3.1",
        "All TCP sources start and stop at the same time.",
    ),
    Stated(
        "processing delay",
        "none: a switch forwards a cell in the slot it arrives",
        "section 3.1",
        "There is no processing delay",
    ),
    Stated(
        "duration",
        "10 s (LAN), 20 s (WAN)",
        "section 3.1",
        "Duration of simulation runs is 10 seconds for LANs and 20 seconds for WANs.",
    ),
    Stated("EPD threshold", "buffer - 200 cells", "section 5"),
    Stated(
        "buffers, R, Z", "per table row (1000-36000 cells; R = 0.9 K, Z = 0.8 in Tables 2-3)", "Tables 2-6"
    ),
    Stated(
        "efficiency",
        "sum of goodputs / maximum TCP throughput (125.2 Mb/s for MSS 512 with LLC/SNAP)",
        "section 3.2",
        "Efficiency = (Sum of TCP throughputs)/(Maximum possible TCP throughput)",
    ),
]


def _timer_phases(_doc: Mapping[str, Any], value: Any) -> Pairs:
    if value == "staggered":
        return tuple(normalize([("n_source.stagger_timers", True)]))
    return ()


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "arbitration",
            "order of cells that reach a port at the same instant (n_source.arbitration)",
            "random",
            "Not stated, and the one choice section 3.1 leaves open: with 'no ... delay "
            "variation or randomization in any component' every source's cells reach the "
            "switch on the same instants, so the order the simulator gives simultaneous events "
            "decides which cell takes the last free place of a full buffer. Random (drawn afresh "
            "for each tie) favours no input; rotating is the round-robin of an output-buffered "
            "switch, fixed a static priority (input 1 first, always).",
            ["random", "rotating", "fixed"],
            keys=["n_source.arbitration"],
        ),
        Assumption(
            "timer_phases",
            "phase of each host's 100 ms TCP timer ticks",
            "aligned",
            "Every host's ticks at the same instants (0, 100 ms, ...), which the phase-locked "
            "model gives; staggered (host i at (i - 1)/N of a tick) is a deterministic variant "
            "against it. Random per-host phases come with the phases variant random.",
            ["aligned", "staggered"],
            applies="aligned: nothing (phases = aligned puts every tick at 0); staggered: "
            "n_source.stagger_timers = true",
            apply=_timer_phases,
            stated=NO_RANDOMIZATION + '; "All TCP sources start and stop at the same time."',
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
    ] + randomness_seam("Phase-locked links, the paper's condition.", jitter=False, stated=NO_RANDOMIZATION)


def sensitivity_combinations() -> List[Combination]:
    """The phase model x tie order, together (issue 27): the tie order acts only where cells
    tie, i.e. with phase-locked links, so random phases with each other tie order is a point
    the one-at-a-time sweep never runs (2 sweep points per experiment)."""
    return combinations(
        ["phases", "arbitration"],
        assumptions(),
        "the randomness variant (random phases, 20 ppm drift) with each other tie order",
    )


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
        "LAN 5 x 1000 cells: Tables 2-3 UBR (tail drop: paper 0.21, the row where the tie "
        "order matters most) and FBA at R = 0.9 K, Z = 0.8 (paper 0.88, the largest efficiency "
        "disagreement of the phase-locked default), Table 5 FBA at R = 0.1 K, Z = 0.5 (paper "
        "0.04: the collapse at a small R); WAN 5 x 12000 cells UBR (a WAN row, where every "
        "model agrees, as a control).",
    )
