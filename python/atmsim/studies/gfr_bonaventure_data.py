"""The numbers Bonaventure's GFR paper states in its text (sections 4-5, FIFO-based switch,
LAN), for `atmsim reproduce gfr-bonaventure`.

The figures themselves are plots without printed values; only what the text says in numbers
is compared. Each statement: figure, TCP preset, privileged MCR (cells/s), the compared
column (see gfr_bonaventure_study), the value, and the sentence it comes from. "About",
"slightly less than" and "close to" are taken at the stated round value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional


@dataclass(frozen=True)
class Statement:
    figure: str
    preset: str
    mcr: int
    column: str
    value: float
    quote: str


STATEMENTS: List[Statement] = [
    Statement("5", "tcp_default", 100000, "priv_goodput_bps", 18e6,
              "With its MCR set to 100000 cells per second the privileged source achieved only "
              "about 18 Mbps"),
    Statement("5", "tcp_default", 180000, "priv_goodput_bps", 25e6,
              "With its MCR set to 180000 cells per second, the privileged source only achieved "
              "a throughput of about 25 Mbps"),
    Statement("5", "tcp_default", 180000, "retx_kb_per_10mb", 200.0,
              "the privileged source had to retransmit about 200 KBytes during each 10 MBytes "
              "transfer"),
    Statement("5", "tcp_default", 180000, "rto_per_10mb", 4.0,
              "the retransmission timer expired on average slightly less than four times during "
              "each transfer"),
    Statement("5", "tcp_default", 100000, "tagged_fraction", 0.5,
              "With its MCR set to 100000 cells per second, slightly less than 50% of the "
              "AAL5-PDUs sent by the privileged source were tagged"),
    Statement("5", "tcp_default", 180000, "tagged_fraction", 0.3,
              "with its MCR set to 180000 cells per seconds 30% of its AAL5-PDUs were tagged"),
    Statement("5", "tcp_default", 180000, "hbo_drops", 0.0,
              "the output buffer of the bottleneck switch did not reach the HBO threshold, and "
              "only CLP=1 AAL5-PDUs were discarded"),
    Statement("7", "tcp_fast", 180000, "rto_per_10mb", 10.0,
              "it expired on average almost 10 times during each 10 MBytes transfer with "
              "TCP_fast"),
    Statement("7", "tcp_fast", 180000, "retx_kb_per_10mb", 500.0,
              "with TCP_fast the privileged source retransmitted on average about 500 KBytes per "
              "10 MBytes transfer"),
    Statement("9", "tcp_sack", 180000, "rto_per_10mb", 1.0,
              "about one expiration per 10 MBytes transfer on average"),
    Statement("9", "tcp_sack", 180000, "tagged_fraction", 0.3,
              "the percentage of CLP=1 AAL5-PDUs with TCP_SACK was similar to the percentage "
              "of CLP=1 AAL5-PDUs with TCP_default (30 % at 180000)"),
    Statement("9", "tcp_sack", 180000, "mean_queue_cells", 5000.0,
              "the output buffer at the bottleneck switch is heavily used, and its mean "
              "occupancy is close to 5000 cells for the whole simulation"),
    Statement("9", "tcp_sack", 180000, "rtt_ms", 14.0,
              "with a 180000 cells per second MCR, the average packet round-trip-time for the "
              "privileged source was slightly larger than 14 milliseconds"),
]

# Qualitative statements, reported beside the simulated ratios in the write-up.
QUALITATIVE = {
    "fast_vs_default_retx": "total retransmitted packets with TCP_fast roughly three times "
                            "those with TCP_default (ratio 3)",
    "fast_vs_default_goodput": "TCP_fast throughput slightly lower than TCP_default",
    "sack_vs_default_goodput": "TCP_SACK achieves a better throughput than TCP_default and "
                               "TCP_fast",
    "figure4": "TCP_default completely utilizes the UNI2 bandwidth (goodput = reserved)",
}


def published(figure: str, preset: str, mcr: int) -> Dict[str, Optional[float]]:
    """The stated values for one point, by compared column."""
    return {s.column: s.value for s in STATEMENTS
            if s.figure == figure and s.preset == preset and s.mcr == mcr}
