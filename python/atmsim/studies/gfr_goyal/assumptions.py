"""What the GFR rate-guarantee paper (Goyal, Jain, Fahmy, Vandalore, LCN 1998)
states and what the `gfr-goyal` study assumes (see `assumptions.py`, and the model section of
docs/gfr-goyal-reproduction.md).

The paper's figures 4 and 7 (the topologies) are lost in the text; the prose gives the RTT
(30 ms), the buffer of Tables 1-3 (48000 cells), the TCP (SACK, MSS 1024) and DFBA's Z
(1.5). It gives no run length, no timer constants, no DFBA buffer K, congestion threshold R
or weights W_i for Tables 4-5, and nothing on arbitration or link phases.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, List, Mapping, Optional, Tuple

from ...overrides import normalize
from ..assumptions import Assumption, Pairs, Stated, randomness_seam
from ..registry import Experiment
from ..sensitivity import Subset

STATED = [
    Stated("TCP", "SACK TCP, MSS 1024, 15 greedy sources in 5 groups of 3", "section 3"),
    Stated(
        "figure 3",
        "one SACK TCP, a single segment lost each time CWND reaches a threshold; RTT 30 ms; "
        "throughput compared with equation 1 (8e-6 x mean CWND / RTT)",
        "section 2",
        "The round trip latency (RTT) for the connection is 30 ms.",
    ),
    Stated("round trip", "30 ms", "section 3"),
    Stated(
        "buffer (Tables 1-3)", "48000-cell FIFO, one drop each time a VC crosses r_i", "section 3, Table 1"
    ),
    Stated("thresholds", "r_i per group (Table 1), R_i per VC (Table 4)", "Tables 1, 4"),
    Stated("DFBA scale", "Z = 1.5", "section 4"),
    Stated("VC merging", "3 TCPs per VC at edge switches, frames not interleaved", "section 4"),
    Stated("link rate", "155.52 Mb/s (but see the assumption link_rate_bps)", "section 3"),
]


def _dfba(r_fraction: Optional[float]) -> Callable[[Mapping[str, Any], Any], Pairs]:
    """Apply to the DFBA port: with r_fraction None the value is R / K (K as in the
    scenario); otherwise the value is K and R follows as r_fraction x K (R may not exceed K)."""

    def apply(doc: Mapping[str, Any], value: Any) -> Pairs:
        pairs: List[Tuple[str, Any]] = []
        for i, p in enumerate(doc.get("port", []) or []):
            if (p.get("policy") or {}).get("kind") != "dfba":
                continue
            if r_fraction is None:
                pairs.append((f"port.{i}.policy.r_cells", int(round(value * p["buffer_cells"]))))
            else:
                pairs += [
                    (f"port.{i}.buffer_cells", int(value)),
                    (f"port.{i}.policy.r_cells", int(round(r_fraction * value))),
                ]
        return tuple(normalize(pairs))

    return apply


WEIGHT_RULES = ("equal", "threshold")


def _weight_rule(doc: Mapping[str, Any], value: Any) -> Pairs:
    """W_i per connection: "equal" gives every VC 1; "threshold" gives W_i = R_i / mean R_j, so
    the mean weight stays 1 and a VC with a higher threshold loses frames with a higher
    probability at the same relative overshoot (X_i - R_i) / R_i."""
    if value not in WEIGHT_RULES:
        raise ValueError(f"dfba_weight_rule: {value!r} is not one of {', '.join(WEIGHT_RULES)}")
    conns = [c for c in doc.get("connection", []) or [] if "vc_threshold_cells" in c]
    if not conns:
        return ()
    mean = sum(c["vc_threshold_cells"] for c in conns) / len(conns)
    pairs: List[Tuple[str, Any]] = []
    for i, c in enumerate(doc.get("connection", []) or []):
        if "vc_threshold_cells" not in c:
            continue
        w = 1.0 if value == "equal" or mean == 0 else c["vc_threshold_cells"] / mean
        pairs.append((f"connection.{i}.vc_weight", round(w, 6)))
    return tuple(normalize(pairs))


def assumptions() -> List[Assumption]:
    return [
        Assumption(
            "duration_s",
            "simulated time per run (s)",
            30.0,
            "The paper gives no run length. Tables 1-3 settle by about 20 s "
            "(docs/gfr-goyal-reproduction.md); 20 and 60 s bracket the choice.",
            [20.0, 30.0, 60.0],
            keys=["simulation.duration_s"],
        ),
        Assumption(
            "link_rate_bps",
            "cell rate of every link (bit/s)",
            155520000,
            "The paper says 155.52 Mb/s but its ceiling of 126 Mb/s for 1024-octet segments "
            "implies 149.76 Mb/s (the SONET payload) of cells; the engine runs at the line "
            "rate. Both conventions are swept.",
            [149760000, 155520000],
            keys=["link.*.rate_bps"],
        ),
        Assumption(
            "tick_ms",
            "TCP slow-timer tick (ms)",
            100.0,
            "Not stated. The group's UBR+ paper used 100 ms; 500 ms is the classic BSD tick "
            "and 10 ms a fine-grained timer.",
            [10.0, 100.0, 500.0],
            keys=["tcp.tick_ms"],
        ),
        Assumption(
            "min_rto_ticks",
            "RTO floor (ticks)",
            2,
            "Not stated; 2 ticks is 4.3BSD's TCPTV_MIN.",
            [1, 2, 3],
            keys=["tcp.min_rto_ticks"],
        ),
        Assumption(
            "delayed_ack",
            "receivers delay ACKs (RFC 1122)",
            False,
            "Not stated; the group's UBR+ paper disabled delayed ACKs, kept here.",
            [False, True],
            keys=["tcp.delayed_ack"],
        ),
        Assumption(
            "dfba_r_fraction",
            "DFBA congestion threshold R as a fraction of the buffer K",
            0.9,
            "Not stated for Tables 4-5; 0.9 K as in the UBR+ paper's FBA. With it the buffer "
            "never reaches R, so lower values test whether the global part of DFBA matters.",
            [0.5, 0.7, 0.9],
            apply=_dfba(r_fraction=None),
            applies="port.<dfba port>.policy.r_cells = fraction x buffer",
            tables=["4-5", "5q"],
        ),
        Assumption(
            "dfba_buffer_cells",
            "DFBA buffer K (cells), R kept at 0.9 K",
            48000,
            "Not stated for Tables 4-5; the 48000 cells of Tables 1-3 kept.",
            [24000, 48000, 96000],
            apply=_dfba(r_fraction=0.9),
            applies="port.<dfba port>.buffer_cells and policy.r_cells = 0.9 K",
            tables=["4-5", "5q"],
        ),
        Assumption(
            "vc_weight",
            "DFBA weight W_i of every VC",
            1.0,
            "Not stated; equal weights. Scaling every W_i changes DFBA's drop probability.",
            [0.5, 1.0, 2.0],
            keys=["connection.*.vc_weight"],
            tables=["4-5", "5q"],
        ),
        Assumption(
            "dfba_weight_rule",
            "how the DFBA weights W_i differ between VCs (mean W_i = 1)",
            "equal",
            "Not stated. Section 4 says the drop probability 'should be higher for connections "
            "with a higher threshold' and that W_i scales it, without giving W_i; 'threshold' "
            "reads that as W_i proportional to R_i (W_i = R_i / mean R_j).",
            list(WEIGHT_RULES),
            apply=_weight_rule,
            applies="connection.<i>.vc_weight = 1, or R_i / mean R_j",
            tables=["4-5", "5q"],
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
            "fig3_phases",
            "slot phases of the single-TCP runs of figure 3 (simulation.phases)",
            "aligned",
            "Not stated. One TCP alone on lossless links of one rate delivers the same octets "
            "whatever the slot and timer phases (seeds 1-3 identical), so its replications "
            "could not differ; the runs say so by being deterministic. Random phases are swept.",
            ["aligned", "random"],
            keys=["simulation.phases"],
            tables=["fig3"],
        ),
    ] + _seam()


def _seam() -> List[Assumption]:
    """The project's randomness seam, for every table but figure 3 (its own `fig3_phases`)."""
    tables = ["1-3", "4-5", "5q"]
    why = (
        "Not stated; nor is the simulator. The paper's simulator was not free of randomness: "
        "'The TCP throughputs were averaged over each group to reduce the effects of "
        "randomness' (section 3, Table 2)."
    )
    return [dataclasses.replace(a, tables=tables) if a.name == "phases" else a for a in randomness_seam(why)]


def sensitivity_subset(quick_experiments: List[Experiment]) -> Subset:
    return Subset(
        list(quick_experiments),
        "the --quick experiments: Tables 1-3 experiment 1 (agrees, 5 groups in one "
        "run) and Tables 4-5 (DFBA) experiments 1 (does not agree) and 2 (agrees); "
        "three runs per variant cover all 15 published ratios.",
    )
