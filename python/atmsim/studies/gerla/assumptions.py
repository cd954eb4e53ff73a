"""What the credit/rate paper (Gerla, Pazos, Signore) states and what
the `gerla` study assumes (see `assumptions.py` and docs/gerla-reproduction.md).

The paper fixes the switch (165-cell ABR buffer behind a priority class), the links (70 us),
the guaranteed sources, the TCP workload and every PRCA/FCVC parameter. It gives no TCP timer
granularity, RTO floor or window, no run-to-run randomness, and a B_av that no link rate
reproduces with the sources as described (docs, "Which link rate reproduces B_av").
"""

from __future__ import annotations

from typing import List

from ..assumptions import Assumption, Stated, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

# 14 x 10 Mb/s user peak x 53/48 / 424 bits per cell: the rate the sources fill exactly.
LINK_CELLS = 364583
# 150 Mb/s (the rate that reproduces the printed B_av) and 155.52 Mb/s (OC-3 line rate).
LINK_150 = 353774
LINK_OC3 = 366792

STATED = [
    Stated(
        "simulator",
        "a simulation program in the MAISIE language; the switch modelled on ATOM",
        "section II",
        "The model of the ATM LAN used in our simulation program, written in MAISIE language "
        "[BL90], is based on a single switch (fig. 1). We use the ATOM [SNS+89] architecture as "
        "a model for the basic switching functions",
    ),
    Stated("switch", "one output-buffered switch (ATOM), guaranteed traffic served first", "section II"),
    Stated("ABR buffer", "165 cells", "section III", "The ABR buffer size is 165 cells."),
    Stated(
        "links",
        "70 us including processing",
        "section III",
        "The link propagation delay, including processing time, is 70 us.",
    ),
    Stated(
        "guaranteed traffic",
        "14 on-off VBR sources, 10 Mb/s peak, 4.8 KB mean burst, burstiness b_g = 1.1/1.2/1.3",
        "section III",
    ),
    Stated("TCP workload", "exponential messages, mean 2.5 KB, 2.5 Mb/s average per source", "section III"),
    Stated("TCP", "Jacobson 1988: slow start, congestion avoidance, Karn", "section II"),
    Stated(
        "TCP timing",
        "timers and round-trip estimations exclude transmission times: they count from a "
        "segment's transmission completion (tcp.timing_excludes_transmission = true)",
        "section II",
        "In our simulation, timers and round-trip estimations do not include transmission "
        "times, meaning that the reference instant is the time of a segment transmission "
        "completion.",
    ),
    Stated(
        "PRCA",
        "EFCI at 50 % of the buffer, NRM 32, AIR 3.2 Mb/s, MDF 5, PCR 12 Mb/s, MCR 0.5 Mb/s",
        "section III.E",
    ),
    Stated("FCVC", "per-VC buffers N2 + N3, credit every N2 = 10 cells, N3 from eq. 1", "section III.D"),
    Stated(
        "duration",
        "20 s",
        "section IV",
        "All TCP connections are kept opened throughout the whole simulation (20 seconds of actual time).",
    ),
]


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "link_rate",
            "rate of every link (cells/s)",
            LINK_CELLS,
            "The paper's B_av values equal 150 Mb/s x (1 - 1/b_g), but its 14 sources at the "
            "stated peak fill 154.58 Mb/s; the study keeps the sources and runs the links at "
            "the rate they fill. 150 Mb/s and 155.52 Mb/s are the other readings.",
            [LINK_150, LINK_CELLS, LINK_OC3],
            keys=["link.*.rate_cells_per_s"],
        ),
        Assumption(
            "tick_ms",
            "TCP slow-timer tick (ms)",
            1.0,
            "Not stated. The paper's timers count from transmission completion so that the "
            "estimates represent 'the delay, and consequently the level of congestion inside "
            "the network': in this LAN (140 us round trip plus at most 165 cells of queue) only "
            "a clock of about a millisecond sees such delays. 10 ms is a fine-grained timer, "
            "100 ms the UBR+ study's BSD tick, 500 ms 4.3BSD's.",
            [1.0, 10.0, 100.0, 500.0],
            keys=["connection.*.tcp.tick_ms"],
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (ticks)",
            2,
            "Not stated. The paper's TCP is a model, not an implementation: timers 'set based on "
            "round trip estimations according to Karn's algorithm [Com91]', counted from "
            "transmission completion, which 'may not be feasible for real TCP implementations' "
            "(section II); no floor is given. 2 ticks keeps that model: on the 1 ms clock it "
            "never binds (1, 2 and 3 ticks give identical runs) because the RTO is already at "
            "least the RTT sample + 2 ticks, the 'minimum feasible timer' of a ticking clock "
            "(later BSDs' tcp_xmit_timer). The 2 of 4.3BSD's TCPTV_MIN is one second of 500 ms ticks "
            "(1*PR_SLOWHZ); real floors are times: 1 s in BSD and RFC 6298 (2.4), 200 ms in "
            "Linux (TCP_RTO_MIN = HZ/5), 'fractions of a second' in RFC 1122 (4.2.3.1). Any of "
            "them removes every timeout without loss here, which the paper reports ('retransmissions "
            "triggered by sudden increases in the round-trip delay, even without actual losses', "
            "section IV). No source gives a value in between (docs, 'Where and why it differs'). "
            "Swept 1-20 ms, and 200 ms and 1 s, the implementations' floors.",
            [1, 2, 3, 5, 10, 20, 200, 1000],
            keys=["connection.*.tcp.min_rto_ticks"],
        ),
        Assumption(
            "window_bytes",
            "TCP receive window (octets)",
            65535,
            "Not stated; the largest window without scaling. 16 KB is a common 1995 default.",
            [16384, 65535],
            keys=["connection.*.tcp.window_bytes"],
        ),
        Assumption(
            "fast_retransmit",
            "fast retransmit on 3 duplicate ACKs",
            False,
            "The paper's TCP description (Jacobson 1988) has no fast retransmit; 4.3BSD-Tahoe "
            "(1988) shipped with it, so both are plausible.",
            [False, True],
            keys=["connection.*.tcp.fast_retransmit"],
        ),
    ] + randomness_seam(
        "Not stated. The paper counts time in 'cell transmission slots' (fig. 6) and models an "
        "ATOM switch, but says nothing of its inputs' phases; its sources are random anyway "
        "(on-off guaranteed traffic, exponential messages)."
    )


def sensitivity_subset(quick_experiments: List[Experiment]) -> Subset:
    chosen = [
        e
        for e in quick_experiments
        if e.table in ("3", "4") and e.labels.get("b_g") == 1.2 and e.labels.get("sources") == 15
    ]
    return Subset(
        chosen,
        "figures 3 and 4 at b_g = 1.2 with 15 TCP sources (the saturation "
        "goodput of PRCA and of FCVC, the paper's headline comparison), --quick "
        "length (5 s).",
    )
