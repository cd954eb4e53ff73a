"""Published numbers of Goyal, Jain, Fahmy, Vandalore, "Providing Rate Guarantees to TCP over
the ATM GFR Service" (Proc. IEEE LCN '98), Tables 1-5.

Tables 1-3: 15 SACK TCPs, each its own VC, in 5 groups of 3 with equal per-VC thresholds r_i,
one 48000-cell FIFO with the single-drop-per-crossing policy; 4 experiments (threshold
columns). Table 2 gives the throughput per TCP averaged over each group (Mb/s) and the total;
Table 3 the ratio mu_i / mu_i^e = (mu_i / mu) / (r_i / r), with r = sum over the 15 VCs.

Tables 4-5: the same 15 TCPs merged 3 per VC onto 5 VCs at edge switches, Differential FBA
(Z = 1.5) at the backbone; Table 4 the per-VC thresholds R_i of 3 experiments, Table 5 the
ratio (mu_i / mu) / (R_i / sum R_i) per VC.

Transcription notes (the text is an OCR of the PDF):
- Every table was checked against its own totals: the Table 1 and Table 4 column sums equal
  the printed totals (3 x sum of the 5 group thresholds for Table 1), and 3 x the sum of each
  Table 2 column is within 0.02 Mb/s of its printed total, so no table cell needed a repair.
- Table 3 recomputed from Tables 1-2 ((mu_i/mu)/(r_i/r)) agrees with the printed ratios to
  within 0.01 in 16 of 20 cells; it is up to 0.04 higher in 4 (experiment 3 TCPs 1-3: 1.06
  vs 1.02; experiment 4 TCPs 1-3: 1.12 vs 1.08, 7-9: 1.05 vs 1.02; experiment 3 TCPs 7-9:
  1.02 vs 1.00). The paper does not say how Table 3 was computed (perhaps per TCP, then
  averaged); the printed ratios are kept as published.
- The prose after Table 5 gives the first experiment's total allocation as "2230 cells"; the
  table's own total (and the sum of its column) is 2290. 2290 is used.
- Figure 3 (section 2): the prose gives the simulated throughputs of the four cases as 23.64,
  47.53, 93.77 and "25.5" Mb/s. The last case (no drop) is the one whose window grows past
  600000 octets, whose equation-1 throughput the same sentence gives as 125.6 Mb/s and which
  the next sentence calls "close" to the simulation: the leading "1" was lost, as in the OCR
  damage noted for the UBR+ paper. 125.5 is used, marked repaired in FIGURE3_REPAIRED.
- Table 2's "Expected Throughput" column (mu^e = 126 x r_i / r, identical for the 4 columns up
  to rounding) is kept as EXPECTED_MBPS for reference only.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

# Groups of Tables 1-3, as printed ("1-3" = TCPs 1, 2, 3).
GROUPS: Tuple[str, ...] = ("1-3", "4-6", "7-9", "10-12", "13-15")
TCPS_PER_GROUP = 3
EXPERIMENTS_1_3: Tuple[int, ...] = (1, 2, 3, 4)

# Table 1: per-VC threshold r_i (cells) of each group, per experiment (column).
TABLE1_THRESHOLDS: Dict[int, Tuple[int, ...]] = {
    1: (305, 611, 917, 1223, 1528),
    2: (458, 917, 1375, 1834, 2293),
    3: (611, 1223, 1834, 2446, 3057),
    4: (764, 1528, 2293, 3057, 3822),
}
TABLE1_TOTALS: Dict[int, int] = {1: 13752, 2: 20631, 3: 27513, 4: 34392}

# Table 2: achieved throughput per TCP, averaged over the group (Mb/s), and the total.
TABLE2_MBPS: Dict[int, Tuple[float, ...]] = {
    1: (2.78, 5.45, 8.21, 10.95, 14.34),
    2: (2.83, 5.52, 8.22, 10.89, 13.51),
    3: (2.95, 5.75, 8.48, 10.98, 13.51),
    4: (3.06, 5.74, 8.68, 9.69, 13.93),
}
TABLE2_TOTAL_MBPS: Dict[int, float] = {1: 125.21, 2: 122.97, 3: 125.04, 4: 123.35}
EXPECTED_MBPS: Tuple[float, ...] = (2.8, 5.6, 8.4, 11.2, 14.0)  # mu^e at mu = 126 Mb/s

# Table 3: ratio mu_i / mu_i^e per group.
TABLE3_RATIO: Dict[int, Tuple[float, ...]] = {
    1: (1.00, 0.98, 0.98, 0.98, 1.02),
    2: (1.03, 1.01, 1.00, 0.99, 0.98),
    3: (1.02, 1.03, 1.00, 0.98, 0.97),
    4: (1.08, 1.04, 1.02, 0.88, 1.01),
}

# Tables 4-5: 5 merged VCs, 3 experiments.
VCS: Tuple[int, ...] = (1, 2, 3, 4, 5)
EXPERIMENTS_4_5: Tuple[int, ...] = (1, 2, 3)
TABLE4_THRESHOLDS: Dict[int, Tuple[int, ...]] = {
    1: (152, 305, 458, 611, 764),
    2: (305, 611, 917, 1223, 1528),
    3: (611, 1223, 1834, 2446, 3057),
}
TABLE4_TOTALS: Dict[int, int] = {1: 2290, 2: 4584, 3: 9171}
TABLE5_RATIO: Dict[int, Tuple[float, ...]] = {
    1: (1.04, 1.05, 0.97, 0.93, 1.03),
    2: (1.01, 1.02, 0.99, 1.00, 0.99),
    3: (1.16, 1.06, 1.05, 1.13, 0.80),
}
# Prose after Table 5: maximum queue (cells) at the first backbone switch per experiment.
TABLE5_MAX_QUEUE_CELLS: Dict[int, int] = {1: 3185, 2: 5980, 3: 11992}
TABLE5_MAX_QUEUE_QUOTE = (
    '"the maximum observed queue sizes in cells in the first backbone switch (the main '
    'bottleneck) were 3185, 5980 and 11992 respectively", section 4 after Table 5'
)
# Comparators (studies/comparators.py): the printed table values and figure 3's throughputs are
# points read at their printed precision ("~"); the maximum queues are stated as measured ("=").
# Bound statements of the paper, none a compared value: figure 3 "over 600000 bytes" (the
# no-drop case's mean window, which the study does not compare), Table 2 "approximately 126
# Mbps at the TCP layer" (the capacity, the paper's arithmetic), Tables 4-5 "the achieved link
# utilization was almost 100%", Table 3 / Table 5 "close to 1" (the printed ratios are
# compared), section 2 "at least mu x_i / x" (a derivation).

# Figure 3 (section 2): one SACK TCP, one segment dropped each time its cwnd reaches the
# threshold (octets; None = no drop). The paper reads the mean window of the linear phase off
# the plot (the last case only as "over 600000"), computes equation 1 from it, and gives the
# simulated throughput.
FIGURE3_THRESHOLDS: Tuple[Optional[int], ...] = (125000, 250000, 500000, None)
FIGURE3_MEAN_CWND_BYTES: Tuple[Optional[int], ...] = (91232, 181952, 363392, None)
FIGURE3_EQ1_MBPS: Tuple[float, ...] = (24.32, 48.5, 96.9, 125.6)
FIGURE3_SIM_MBPS: Tuple[float, ...] = (23.64, 47.53, 93.77, 125.5)
FIGURE3_REPAIRED = {3: "printed 25.5; the leading 1 is lost (see the transcription notes)"}

# Section 3 / 4 settings.
BUFFER_CELLS = 48000
MSS_BYTES = 1024
RTT_S = 0.030
Z = 1.5
LINK_BPS = 155_520_000


def rows_1_3() -> List[Dict[str, Any]]:
    """One row per (experiment, group) of Tables 1-3."""
    return [
        {
            "experiment": e,
            "tcps": g,
            "r_i": TABLE1_THRESHOLDS[e][k],
            "r": TABLE1_TOTALS[e],
            "throughput_mbps": TABLE2_MBPS[e][k],
            "total_mbps": TABLE2_TOTAL_MBPS[e],
            "ratio": TABLE3_RATIO[e][k],
        }
        for e in EXPERIMENTS_1_3
        for k, g in enumerate(GROUPS)
    ]


def rows_4_5() -> List[Dict[str, Any]]:
    """One row per (experiment, VC) of Tables 4-5."""
    return [
        {
            "experiment": e,
            "vc": v,
            "r_i": TABLE4_THRESHOLDS[e][k],
            "r": TABLE4_TOTALS[e],
            "ratio": TABLE5_RATIO[e][k],
        }
        for e in EXPERIMENTS_4_5
        for k, v in enumerate(VCS)
    ]
