"""What the CLASS paper (Ajmone Marsan, Bianco, Lo Cigno, Munafò, "Some simulation results
about TCP connections in ATM networks") states and what the `ajmone-marsan` study assumes
(see `assumptions.py`, the model section of docs/ajmone-marsan-reproduction.md and
docs/italian-network.md).

The paper names its TCP ("the officially distributed C code of the BSD 4.3-reno release",
MSS 9140, no delayed or selective ACKs, connections closed by backoff), the networks, buffers,
background and both shaping schemes, and its simulator, CLASS, which its authors describe as
time-driven, slotted and synchronous (Ajmone Marsan et al., "ATM simulation with CLASS",
Performance Evaluation, 1995): the study's default is that model (every grid at phase 0, no
drift, arrivals on slot boundaries, ties). The paper does not give the timer clock the
adapted code ran on (4.3BSD's kernel runs it at 500 ms; connections closed by backoff within
runs of about a minute need a finer one), the window ("large enough"), the RTO floor or
backoff limit, the order of tied cells, the figure-4 sweep points, the 25 Mb/s abscissa, the
Italian topology (figure 7 is lost) or start times.
"""

from __future__ import annotations

from typing import Any, List, Mapping

from ...overrides import normalize
from ..assumptions import Assumption, Combination, Pairs, Stated, combinations, expand, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

# The simulator's documented nature, quoted by the records of the conditions it fixes.
CLASS_NATURE = (
    '"simulation with CLASS, an ATM network simulator recently developed at Politecnico di '
    "Torino\", section 2; time-driven, slotted and synchronous by its authors' description "
    '(Ajmone Marsan et al., "ATM simulation with CLASS", Performance Evaluation, 1995): cells '
    "of different inputs reach a switch on the same slot boundaries"
)

# 4.3BSD's timer limits, in ticks of its slow timer (PR_SLOWHZ = 2): TCPTV_SRTTDFLT 6 ticks
# (3 s), TCPTV_REXMTMAX 128 ticks (64 s); TCPTV_MIN 2 ticks is min_rto_ticks.
BSD_INITIAL_TICKS = 6
BSD_MAX_TICKS = 128


def _timer_clock(doc: Mapping[str, Any], value: Any) -> Pairs:
    """The adapted 4.3BSD code's tick-counted limits on a clock of `value` ms."""
    ms = float(value)
    pairs: List[Any] = []
    for field, v in (
        ("tick_ms", ms),
        ("initial_rto_s", BSD_INITIAL_TICKS * ms / 1000.0),
        ("max_rto_s", BSD_MAX_TICKS * ms / 1000.0),
    ):
        pairs += [(k, v) for k in expand(f"connection.*.tcp.{field}", doc)]
    return tuple(normalize(pairs))


STATED = [
    Stated(
        "TCP",
        "Reno from 4.3BSD, MSS 9140, no delayed or selective ACKs, connections closed by backoff",
        "section 2",
        "To obtain a model for the TCP protocol, we adapted the officially distributed C code of "
        "the BSD 4.3-reno release (Jacobson 1990), without considering the delayed and selective "
        "ACK options",
    ),
    Stated(
        "workload",
        "long file transfers, sources in sustained overload, no loss at transmitter or receiver",
        "section 2",
        "TCP sources operate in sustained overload: segments are always ready at the transmitter "
        "when an ACK is received.",
    ),
    Stated(
        "background",
        "Poisson messages, truncated geometric length (mean 20, max 200 "
        "cells), AAL3/4, 9 connections each way",
        "section 2",
        "The background traffic messages are generated according to a Poisson process, with a "
        "truncated geometric message length distribution with mean equal to 20 cells and maximum "
        "length 200 cells",
    ),
    Stated(
        "two-node network",
        "150 Mb/s, L0 = 500 km, buffers 1000 / 5000 cells, connection "
        "lengths 505 / 550 / 1000 km, 100 km for figure 4",
        "section 2.1, figure 1",
        "The data rate on each channel is 150 Mbit/s, and channel L0, linking the two ATM "
        "switches, is the system bottleneck.",
    ),
    Stated(
        "shaping",
        "GCRA at the assigned rate, beta x mean rate for the background, CDV tolerance tau",
        "section 2",
        "we assign to each connection beta = 1.2 and tau = 0 in the case of the simple 2-node "
        "network, while in the Italian network the bandwidth allocation factor is beta = 1.5",
    ),
    Stated(
        "adaptive shaping",
        "RM cell every 32 cells, IR/KR/DR from T_l, T_h at 1 % and 50 % of the buffer, rate C/N_S",
        "section 2.1",
        "The transmission rate R_T can only be set to a value that divides the capacity of the "
        "link, i.e., R_T = C/N_S",
    ),
    Stated(
        "Italian network",
        "10 cities, traffic matrix of Table 1, 0.8 / 1.0 / 1.2 Gb/s background, 6 TCP connections",
        "section 2.2, Tables 1-2",
    ),
    Stated(
        "run length",
        "until 98 % precision at 95 % confidence, or about one minute of simulated time",
        "section 2",
        "Simulations were either run until the receiver throughput reached a 98% precision with "
        "95% confidence, or stopped after about one minute of simulated time.",
    ),
    Stated(
        "goodput",
        "received data less faulty and retransmitted segments, in whole 9180-octet segments "
        "(reading: every octet delivered once, derived.goodput_mbps; the literal reading, "
        "which also drops the retransmissions that repaired a loss, is "
        "derived.goodput_first_mbps)",
        "section 2",
        "the useful throughput, called goodput, at the TCP receivers, obtained considering the "
        "received data, but discarding all the faulty and the retransmitted segments",
    ),
    Stated(
        "efficiency",
        "goodput / offered TCP load (derived.efficiency; literal: derived.efficiency_first)",
        "section 2",
        "the efficiency of the TCP connections, i.e., the ratio between the goodput and the total "
        "offered load of TCP connections",
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
            "timer_clock_ms",
            "clock of the adapted 4.3BSD timers (ms per tick; the tick-counted limits scale with it)",
            500.0,
            "Not stated: the paper gives the code (BSD 4.3-reno), not the clock a simulator ran "
            "it on. 500 ms is the 4.3BSD kernel's slow timer (PR_SLOWHZ = 2), with TCPTV_MIN 2, "
            "TCPTV_SRTTDFLT 6 and TCPTV_REXMTMAX 128 ticks (1 s, 3 s, 64 s). With those "
            "constants 12 backoffs take minutes, yet the paper reports connections closed by "
            "backoff in runs of about a minute (section 2; To-Fi in section 2.2): the same tick counts on "
            "a finer clock (100 ms, 10 ms) are the candidates that allows.",
            [500.0, 100.0, 10.0],
            applies="connection.*.tcp.tick_ms = X, initial_rto_s = 6 X, max_rto_s = 128 X "
            "(min_rto_ticks stays in ticks)",
            apply=_timer_clock,
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (timer ticks)",
            2,
            "Not stated; 2 ticks is 4.3BSD's TCPTV_MIN (1 s at 500 ms ticks).",
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
            "order of cells that reach a port on the same slot boundary",
            "random",
            "Not stated, and the one choice the slotted model leaves open: CLASS's inputs "
            "deliver their cells on the same slot boundaries, and the order the simulator "
            "takes them in decides which one a full buffer refuses. Random favours no input; "
            "fixed is a time-driven loop over the inputs in one order, rotating a round robin.",
            ["random", "rotating", "fixed"],
            keys=["port.*.arbitration"],
        ),
        Assumption(
            "arrivals",
            "when a port counts an arriving cell (port.*.arrivals)",
            "slotted",
            "Slotted: a cell counts from the next boundary of the port's slot grid, so cells of "
            "different inputs tie, as in a slotted synchronous simulator; continuous (each "
            "cell at the instant its last bit arrives, propagation delays not rounded to slots) "
            "is the variant of an event-driven simulator, against CLASS's nature.",
            ["slotted", "continuous"],
            keys=["port.*.arrivals"],
            stated=CLASS_NATURE,
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
    ] + randomness_seam(stated=CLASS_NATURE)


def sensitivity_combinations() -> List[Combination]:
    """The phase model x tie order x arrivals, together (issue 27): under random phases the tie
    order is inert and with continuous arrivals cells never tie, so one value at a time cannot
    show what the three do jointly. Every combination that differs from the default (aligned,
    random ties, slotted) in at least two of them: 7 sweep points per experiment."""
    return combinations(
        ["phases", "arbitration", "arrivals"],
        assumptions(),
        "CLASS's slotted synchronous nature against an event-driven, free-running model, with each tie order",
    )


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
