"""What Bonaventure's GFR paper (TCP over the GFR service category) states and what the
`gfr-bonaventure` study assumes (see `assumptions.py` and the model section of
docs/gfr-bonaventure-reproduction.md).

The paper is explicit about the network, the contracts, the switches and its three TCPs
(Tables 2.1-2.3). It does not give the MBS (hence the per-VC thresholds T_i) of the WFQ runs,
the RTO floor, the arbitration of simultaneous arrivals, link phases or start times, nor the
MSS of its Emulated Token Ring run (section 5 names the Emulated Ethernet's, 1460).
"""

from __future__ import annotations

from typing import List

from ..assumptions import Assumption, Stated, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset
from .text_runs import TOKEN_RING_MSS

WFQ_TABLES = ["16", "17", "18", "19", "20", "21", "22", "23"]

# What the paper says of its simulator and of the randomness in it (section 3).
STCP = (
    "STCP is an event-driven simulator which has been written to study the behaviour of TCP in "
    "ATM networks. ... STCP contains the real 4.4 BSD Lite working TCP code."
)
IDLE_RANDOMNESS = (
    "These idle times are exponentially distributed with a mean duration of 0.1 second. They are "
    "used to introduce some randomness in the simulations to avoid synchronisation effects."
)

STATED = [
    Stated(
        "simulator",
        "STCP: event-driven, with the 4.4BSD-Lite TCP code (not a simplified TCP model)",
        "section 3",
        STCP,
    ),
    Stated(
        "network",
        "UNI1 - switch - NNI - switch - UNI2, 1 privileged + 9 background sources",
        "section 3, figure 2",
    ),
    Stated(
        "links",
        "365566 cells/s; LAN 10 us UNI / 100 us NNI, WAN 2.5 ms / 10 ms",
        "section 3",
        "All the links in this network have a bandwidth of 155 Mbps (365566 cells/sec). For the "
        "LAN simulations, we use a delay of 10 usec on the UNI links and a delay of 100 usec on "
        "the NNI link.",
    ),
    Stated(
        "buffers",
        "8192 cells per port; LBO 6144, HBO 7168",
        "sections 5-6",
        "Most of the simulations shown in this paper were performed with output queues of 8192 "
        "cells and HBO and LBO thresholds of respectively 7168 and 6144 cells",
    ),
    Stated(
        "GFR contract",
        "MCR (swept 20000..180000 cells/s for the privileged source), MFS 200 cells",
        "sections 4-6",
        "The MFS is set to 200 cells for both types of sources, and the PCR is set to the line "
        "rate (365566 cells per second) for both types of sources.",
    ),
    Stated(
        "TCP",
        "TCP_default (Reno, RTO granularity 0.2 s, 3 dupacks, MSS 9140, 196608-"
        "octet buffers, no delayed ACK), TCP_fast (10 ms, 2 dupacks), TCP_SACK",
        "Tables 2.1-2.3",
    ),
    Stated(
        "application",
        "10 MB transfers separated by exponential idle times, mean 0.1 s; the idle times are "
        "the randomness the paper names",
        "section 3",
        IDLE_RANDOMNESS,
    ),
    Stated(
        "duration",
        "250 s",
        "section 3",
        "the simulation results reported in this paper correspond to average values for a "
        "simulation corresponding to 250 seconds of simulated time",
    ),
]


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "wfq_ti_cells",
            "per-VC threshold T_i = MBS in the WFQ switch (cells)",
            400,
            "The paper sets T_i = MBS but gives no MBS for the WFQ runs; 2 MFS (400 cells) is "
            "the text's default contract. 1 MFS and 1000 cells bracket it.",
            [200, 400, 1000],
            keys=["connection.*.gfr.mbs_cells"],
            tables=WFQ_TABLES,
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (timer ticks)",
            2,
            "The paper gives the RTO granularity, not its floor; 2 ticks is 4.3BSD's TCPTV_MIN.",
            [1, 2, 3],
            keys=["connection.*.tcp.min_rto_ticks"],
        ),
        Assumption(
            "arbitration",
            "order of simultaneous arrivals at a port",
            "rotating",
            "Not stated; the engine's least-recently-served order. (An event-driven simulator "
            "orders simultaneous events somehow; the paper does not say how.)",
            ["rotating", "random"],
            keys=["port.*.arbitration"],
        ),
        Assumption(
            "token_ring_mss",
            "MSS of every source in the Emulated Token Ring run (octets, table mss4424)",
            TOKEN_RING_MSS,
            "Not stated: section 5 says only 'the MSS sizes corresponding to an Emulated "
            "Ethernet and an Emulated Token Ring' and 'LAN Emulation supports four different "
            "maximum packet sizes'; it gives the Ethernet one (1460, figure 12) but no Token "
            "Ring value. 4424 is the IEEE 802.5 (4 Mb/s) IP MTU of 4464 octets (RFC 1191, "
            "table 7-1; LAN Emulation's 4544-octet frame class) less the 40 octets of TCP/IP "
            "headers, the rule that gives the stated 1460 from Ethernet's 1500; 4462 is the "
            "4544-octet LANE frame less its LE header (2), 802.5 MAC header (14), an 18-octet "
            "routing field, LLC/SNAP (8) and TCP/IP (40).",
            [TOKEN_RING_MSS, 4462],
            keys=["connection.*.tcp.mss"],
            tables=["mss4424"],
        ),
    ] + randomness_seam(
        "Not stated. The paper names its idle times as the randomness 'to avoid "
        "synchronisation effects' (section 3), which suggests a simulator otherwise without it "
        "(aligned), but says nothing of link phases or clocks, and an event-driven simulator "
        "need not align slots (STCP's links are not described)."
    )


def _first(experiments: List[Experiment], table: str, mcr: int) -> Experiment:
    for e in experiments:
        if e.table == table and e.labels.get("mcr") == mcr:
            return e
    raise LookupError(f"gfr-bonaventure: no figure {table} point at MCR {mcr}")


def sensitivity_subset(quick_experiments: List[Experiment], token_ring: List[Experiment]) -> Subset:
    """Figures 5 and 22 from the quick experiments, and the Emulated Token Ring run at MCR
    180000 (`token_ring`: its quick-length experiments, not in --quick's own set)."""
    return Subset(
        [
            _first(quick_experiments, "5", 180000),
            _first(quick_experiments, "22", 20000),
            _first(token_ring, "mss4424", 180000),
        ],
        "figure 5 at MCR 180000 (FIFO switch, TCP_default: five stated numbers), "
        "figure 22 at MCR 20000 (WFQ GFR.2, where T_i applies: the stated RTO "
        "rate) and the Emulated Token Ring run (mss4424) at MCR 180000 (where "
        "token_ring_mss applies: the throughput below figure 5's), --quick length (20 s).",
    )
