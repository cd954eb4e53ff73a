"""Published results of Goyal, Jain et al., "UBR+: improving performance of TCP over ATM-UBR
service" (Proc. IEEE ICC '97), Tables 1-6, transcribed by hand.

The tables keep the paper's row order and column layout so they can be checked line by line
against the text. Damage of the text extraction repaired here:
  * Table 1, 5-source WAN maximum queue: the table reads 99211, the text says 59211 and
    derives it (59211 cells = 2526336 bytes); 59211 is used.
  * decimal points lost by the OCR: 049 -> 0.49, 047 -> 0.47, 094 -> 0.94, 092 -> 0.92,
    091 -> 0.91, 099 -> 0.99, 095 -> 0.95, 097 -> 0.97, 98 -> 0.98, and in Tables 5-6 the
    parameters 08/05/02 -> 0.8/0.5/0.2 and 09/01 -> 0.9/0.1.
  * Table 2, LAN 15 sources 2000 cells, FBA efficiency is printed "0.8"; it is kept as 0.8
    (it has its decimal point, so no digit can be said to be missing).
  * Table 4, last row: the "15" of its sources column was lost; it belongs to the 15-source
    WAN 36000-cell block (Z = 1, 0.9, 0.8 like every other block).
Values printed as "1" are fairness 1.0. The paper is not always self-consistent (for example
Table 4's Selective Drop at Z = 0.8 and Table 5's FBA at R = 0.9, Z = 0.8 differ slightly or
greatly from the Selective Drop and FBA columns of Tables 2-3); each table is kept as printed.

Comparators (studies/comparators.py): every compared value is a printed table cell, a point
read at the table's precision (two decimals, whole cells: `Compared.unit`), so all are "~".
The paper's bound statements are about those tables or about parameters, none a value of its
own: section 4 "LAN simulations have very low efficiency values (less than 50%)" (Table 1's
tail drop cells, each compared as printed), "the sum of the window sizes is less than 6 times
the buffer size" (the configuration), "maximum possible throughput = ... 125.2 Mbps
approximately" (the arithmetic of the efficiency's denominator), section 6 "any Z value
between 0.8 and 1 produces good results" and section 7 "the best value of R was about 0.9 and
Z about 0.8" (parameter choices), "the highest values of fairness (close to 1)".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

# Policy labels used in the paper's column headers and in `atmsim reproduce` output.
POLICIES = ("UBR", "EPD", "SD", "FBA")

# R and Z of the Selective Drop and FBA columns of Tables 2-3 (paper section 8, "Summary").
TABLE23_R = 0.9
TABLE23_Z = 0.8

# Table 4 keeps R at 0.9 x K while sweeping Z (section 6).
TABLE4_R = 0.9

# Table 1: TCP over UBR with infinite buffers.
# (sources, config, efficiency, fairness, maximum queue in cells)
TABLE1 = [
    (5, "LAN", 1.0, 1.0, 7591),
    (15, "LAN", 1.0, 1.0, 22831),
    (5, "WAN", 1.0, 1.0, 59211),  # table prints 99211; text: 59211
    (15, "WAN", 1.0, 1.0, 196203),
]

# Table 2 (efficiency) and Table 3 (fairness).
# (config, sources, buffer cells) -> (UBR, EPD, Selective Drop, FBA)
TABLE2_EFFICIENCY = {
    ("LAN", 5, 1000): (0.21, 0.49, 0.75, 0.88),
    ("LAN", 5, 2000): (0.32, 0.68, 0.85, 0.84),
    ("LAN", 5, 3000): (0.47, 0.72, 0.90, 0.92),
    ("LAN", 15, 1000): (0.22, 0.55, 0.76, 0.91),
    ("LAN", 15, 2000): (0.49, 0.81, 0.82, 0.8),
    ("LAN", 15, 3000): (0.47, 0.91, 0.94, 0.95),
    ("WAN", 5, 12000): (0.86, 0.90, 0.90, 0.95),
    ("WAN", 5, 24000): (0.90, 0.91, 0.92, 0.92),
    ("WAN", 5, 36000): (0.91, 0.81, 0.81, 0.81),
    ("WAN", 15, 12000): (0.96, 0.92, 0.94, 0.95),
    ("WAN", 15, 24000): (0.94, 0.91, 0.94, 0.96),
    ("WAN", 15, 36000): (0.92, 0.96, 0.96, 0.95),
}
TABLE3_FAIRNESS = {
    ("LAN", 5, 1000): (0.68, 0.57, 0.99, 0.98),
    ("LAN", 5, 2000): (0.90, 0.98, 0.96, 0.98),
    ("LAN", 5, 3000): (0.97, 0.84, 0.99, 0.97),
    ("LAN", 15, 1000): (0.31, 0.56, 0.76, 0.97),
    ("LAN", 15, 2000): (0.59, 0.87, 0.98, 0.96),
    ("LAN", 15, 3000): (0.80, 0.78, 0.94, 0.93),
    ("WAN", 5, 12000): (0.75, 0.94, 0.95, 0.94),
    ("WAN", 5, 24000): (0.83, 0.99, 0.99, 1.0),
    ("WAN", 5, 36000): (0.86, 1.0, 1.0, 1.0),
    ("WAN", 15, 12000): (0.67, 0.93, 0.91, 0.97),
    ("WAN", 15, 24000): (0.82, 0.92, 0.97, 0.98),
    ("WAN", 15, 36000): (0.77, 0.91, 0.89, 0.97),
}

# Table 4: Selective Drop with per-VC accounting, Z sweep at R = 0.9 K.
# (sources, config, buffer cells, Z, efficiency, fairness)
TABLE4 = [
    (5, "LAN", 1000, 2.0, 0.36, 0.78),
    (5, "LAN", 1000, 1.0, 0.13, 0.81),
    (5, "LAN", 1000, 0.95, 0.72, 0.93),
    (5, "LAN", 1000, 0.9, 0.65, 0.96),
    (5, "LAN", 1000, 0.85, 0.68, 0.89),
    (5, "LAN", 1000, 0.8, 0.75, 0.98),
    (5, "LAN", 1000, 0.75, 0.63, 0.95),
    (5, "LAN", 1000, 0.5, 0.57, 0.95),
    (5, "LAN", 1000, 0.2, 0.50, 0.58),
    (5, "LAN", 2000, 1.0, 0.47, 0.92),
    (5, "LAN", 2000, 0.9, 0.72, 0.98),
    (5, "LAN", 2000, 0.8, 0.84, 0.95),
    (5, "LAN", 3000, 1.0, 0.88, 0.99),
    (5, "LAN", 3000, 0.9, 0.89, 0.98),
    (5, "LAN", 3000, 0.8, 0.90, 0.98),
    (15, "LAN", 1000, 1.0, 0.38, 0.48),
    (15, "LAN", 1000, 0.9, 0.73, 0.77),
    (15, "LAN", 1000, 0.8, 0.75, 0.76),
    (15, "LAN", 2000, 1.0, 0.38, 0.13),
    (15, "LAN", 2000, 0.9, 0.91, 0.95),
    (15, "LAN", 2000, 0.8, 0.81, 0.97),
    (15, "LAN", 3000, 1.0, 0.93, 0.94),
    (15, "LAN", 3000, 0.9, 0.95, 0.95),
    (15, "LAN", 3000, 0.8, 0.94, 0.94),
    (5, "WAN", 12000, 2.0, 0.86, 0.93),
    (5, "WAN", 12000, 1.0, 0.91, 0.96),
    (5, "WAN", 12000, 0.9, 0.86, 0.93),
    (5, "WAN", 12000, 0.8, 0.90, 0.95),
    (5, "WAN", 12000, 0.5, 0.89, 0.94),
    (5, "WAN", 24000, 1.0, 0.92, 0.97),
    (5, "WAN", 24000, 0.9, 0.92, 0.97),
    (5, "WAN", 24000, 0.8, 0.91, 0.98),
    (5, "WAN", 36000, 1.0, 0.85, 0.99),
    (5, "WAN", 36000, 0.9, 0.80, 0.99),
    (5, "WAN", 36000, 0.8, 0.80, 0.99),
    (15, "WAN", 12000, 1.0, 0.93, 0.97),
    (15, "WAN", 12000, 0.9, 0.92, 0.97),
    (15, "WAN", 12000, 0.8, 0.93, 0.90),
    (15, "WAN", 24000, 1.0, 0.95, 0.89),
    (15, "WAN", 24000, 0.9, 0.94, 0.92),
    (15, "WAN", 24000, 0.8, 0.94, 0.96),
    (15, "WAN", 36000, 1.0, 0.94, 0.97),
    (15, "WAN", 36000, 0.9, 0.96, 0.92),
    (15, "WAN", 36000, 0.8, 0.96, 0.88),  # sources column lost by the OCR
]

# Table 5 (LAN) and Table 6 (WAN): Fair Buffer Allocation, full factorial.
# (sources, Z, R as a fraction of K, K buffer cells, efficiency, fairness)
TABLE5 = [
    (5, 0.8, 0.9, 1000, 0.66, 0.93),
    (5, 0.5, 0.9, 1000, 0.80, 0.99),
    (5, 0.2, 0.9, 1000, 0.71, 0.92),
    (5, 0.8, 0.5, 1000, 0.21, 0.45),
    (5, 0.5, 0.5, 1000, 0.05, 1.00),
    (5, 0.2, 0.5, 1000, 0.33, 0.78),
    (5, 0.8, 0.1, 1000, 0.06, 1.00),
    (5, 0.5, 0.1, 1000, 0.04, 1.00),
    (5, 0.2, 0.1, 1000, 0.01, 1.00),
    (5, 0.8, 0.9, 2000, 0.84, 0.98),
    (5, 0.5, 0.9, 2000, 0.83, 0.97),
    (5, 0.2, 0.9, 2000, 0.89, 0.97),
    (5, 0.8, 0.5, 2000, 0.47, 0.77),
    (5, 0.5, 0.5, 2000, 0.58, 0.97),
    (5, 0.2, 0.5, 2000, 0.93, 0.99),
    (5, 0.8, 0.1, 2000, 0.20, 1.00),
    (5, 0.5, 0.1, 2000, 0.10, 1.00),
    (5, 0.2, 0.1, 2000, 0.04, 1.00),
    (5, 0.8, 0.9, 3000, 0.91, 0.97),
    (5, 0.5, 0.9, 3000, 0.88, 0.96),
    (5, 0.2, 0.9, 3000, 0.88, 0.98),
    (5, 0.8, 0.5, 3000, 0.92, 0.99),
    (5, 0.5, 0.5, 3000, 0.94, 0.96),
    (5, 0.2, 0.5, 3000, 0.94, 0.90),
    (5, 0.8, 0.1, 3000, 0.87, 0.93),
    (5, 0.5, 0.1, 3000, 0.20, 1.00),
    (5, 0.2, 0.1, 3000, 0.39, 0.82),
    (15, 0.8, 0.9, 1000, 0.60, 0.71),
    (15, 0.5, 0.9, 1000, 0.68, 0.77),
    (15, 0.2, 0.9, 1000, 0.68, 0.62),
    (15, 0.8, 0.5, 1000, 0.28, 0.34),
    (15, 0.5, 0.5, 1000, 0.21, 0.45),
    (15, 0.2, 0.5, 1000, 0.40, 0.61),
    (15, 0.8, 0.1, 1000, 0.04, 1.00),
    (15, 0.5, 0.1, 1000, 0.06, 0.20),
    (15, 0.2, 0.1, 1000, 0.01, 0.99),
    (15, 0.8, 0.9, 2000, 0.85, 0.96),
    (15, 0.5, 0.9, 2000, 0.92, 0.96),
    (15, 0.2, 0.9, 2000, 0.87, 0.96),
    (15, 0.8, 0.5, 2000, 0.74, 0.72),
    (15, 0.5, 0.5, 2000, 0.73, 0.63),
    (15, 0.2, 0.5, 2000, 0.80, 0.88),
    (15, 0.8, 0.1, 2000, 0.11, 1.00),
    (15, 0.5, 0.1, 2000, 0.14, 0.33),
    (15, 0.2, 0.1, 2000, 0.20, 0.29),
    (15, 0.8, 0.9, 3000, 0.95, 0.93),
    (15, 0.5, 0.9, 3000, 0.94, 0.96),
    (15, 0.2, 0.9, 3000, 0.92, 0.97),
    (15, 0.8, 0.5, 3000, 0.43, 0.74),
    (15, 0.5, 0.5, 3000, 0.80, 0.85),
    (15, 0.2, 0.5, 3000, 0.85, 0.90),
    (15, 0.8, 0.1, 3000, 0.18, 1.00),
    (15, 0.5, 0.1, 3000, 0.11, 1.00),
    (15, 0.2, 0.1, 3000, 0.04, 1.00),
]
TABLE6 = [
    (5, 0.8, 0.9, 12000, 0.95, 0.94),
    (5, 0.5, 0.9, 12000, 0.95, 0.98),
    (5, 0.2, 0.9, 12000, 0.91, 0.97),
    (5, 0.8, 0.5, 12000, 0.84, 0.99),
    (5, 0.5, 0.5, 12000, 0.92, 0.96),
    (5, 0.2, 0.5, 12000, 0.89, 0.96),
    (5, 0.8, 0.1, 12000, 0.88, 0.98),
    (5, 0.5, 0.1, 12000, 0.88, 0.95),
    (5, 0.2, 0.1, 12000, 0.78, 0.97),
    (5, 0.8, 0.9, 24000, 0.92, 1.00),
    (5, 0.5, 0.9, 24000, 0.93, 0.95),
    (5, 0.2, 0.9, 24000, 0.93, 1.00),
    (5, 0.8, 0.5, 24000, 0.93, 1.00),
    (5, 0.5, 0.5, 24000, 0.93, 1.00),
    (5, 0.2, 0.5, 24000, 0.86, 0.96),
    (5, 0.8, 0.1, 24000, 0.93, 0.98),
    (5, 0.5, 0.1, 24000, 0.93, 0.97),
    (5, 0.2, 0.1, 24000, 0.85, 0.99),
    (5, 0.8, 0.9, 36000, 0.81, 1.00),
    (5, 0.5, 0.9, 36000, 0.81, 1.00),
    (5, 0.2, 0.9, 36000, 0.81, 1.00),
    (5, 0.8, 0.5, 36000, 0.81, 1.00),
    (5, 0.5, 0.5, 36000, 0.86, 0.99),
    (5, 0.2, 0.5, 36000, 0.93, 1.00),
    (5, 0.8, 0.1, 36000, 0.93, 1.00),
    (5, 0.5, 0.1, 36000, 0.89, 0.98),
    (5, 0.2, 0.1, 36000, 0.87, 0.99),
    (15, 0.8, 0.9, 12000, 0.95, 0.97),
    (15, 0.5, 0.9, 12000, 0.94, 0.99),
    (15, 0.2, 0.9, 12000, 0.96, 0.98),
    (15, 0.8, 0.5, 12000, 0.95, 0.99),
    (15, 0.5, 0.5, 12000, 0.96, 0.98),
    (15, 0.2, 0.5, 12000, 0.96, 0.98),
    (15, 0.8, 0.1, 12000, 0.94, 0.98),
    (15, 0.5, 0.1, 12000, 0.91, 0.99),
    (15, 0.2, 0.1, 12000, 0.86, 0.98),
    (15, 0.8, 0.9, 24000, 0.96, 0.98),
    (15, 0.5, 0.9, 24000, 0.96, 0.98),
    (15, 0.2, 0.9, 24000, 0.96, 0.98),
    (15, 0.8, 0.5, 24000, 0.94, 0.98),
    (15, 0.5, 0.5, 24000, 0.94, 0.97),
    (15, 0.2, 0.5, 24000, 0.95, 0.98),
    (15, 0.8, 0.1, 24000, 0.93, 0.99),
    (15, 0.5, 0.1, 24000, 0.94, 0.97),
    (15, 0.2, 0.1, 24000, 0.96, 0.99),
    (15, 0.8, 0.9, 36000, 0.95, 0.97),
    (15, 0.5, 0.9, 36000, 0.96, 0.97),
    (15, 0.2, 0.9, 36000, 0.96, 0.97),
    (15, 0.8, 0.5, 36000, 0.96, 0.99),
    (15, 0.5, 0.5, 36000, 0.95, 0.98),
    (15, 0.2, 0.5, 36000, 0.96, 0.97),
    (15, 0.8, 0.1, 36000, 0.94, 1.00),
    (15, 0.5, 0.1, 36000, 0.94, 0.95),
    (15, 0.2, 0.1, 36000, 0.96, 0.98),
]


@dataclass(frozen=True)
class PaperRow:
    """One published experiment: its configuration and the numbers the paper reports."""

    table: int  # 1, 2 (Tables 2 and 3 together), 4, 5 or 6
    config: str  # "LAN" or "WAN"
    sources: int
    buffer_cells: Optional[int]  # None = infinite buffer (Table 1)
    policy: str  # "UBR", "EPD", "SD" or "FBA"
    efficiency: float
    fairness: float
    r: Optional[float] = None  # R as a fraction of the buffer (SD, FBA)
    z: Optional[float] = None
    max_queue_cells: Optional[int] = None  # Table 1 only


def table1() -> List[PaperRow]:
    return [
        PaperRow(1, config, n, None, "UBR", eff, fair, max_queue_cells=queue)
        for n, config, eff, fair, queue in TABLE1
    ]


def table23() -> List[PaperRow]:
    rows = []
    for (config, n, k), effs in TABLE2_EFFICIENCY.items():
        fairs = TABLE3_FAIRNESS[(config, n, k)]
        for policy, eff, fair in zip(POLICIES, effs, fairs):
            per_vc = policy in ("SD", "FBA")
            r = TABLE23_R if per_vc else None
            z = TABLE23_Z if per_vc else None
            rows.append(PaperRow(2, config, n, k, policy, eff, fair, r=r, z=z))
    return rows


def table4() -> List[PaperRow]:
    return [
        PaperRow(4, config, n, k, "SD", eff, fair, r=TABLE4_R, z=z) for n, config, k, z, eff, fair in TABLE4
    ]


def _fba_table(
    table: int, config: str, data: List[Tuple[int, float, float, int, float, float]]
) -> List[PaperRow]:
    return [PaperRow(table, config, n, k, "FBA", eff, fair, r=r, z=z) for n, z, r, k, eff, fair in data]


def table5() -> List[PaperRow]:
    return _fba_table(5, "LAN", TABLE5)


def table6() -> List[PaperRow]:
    return _fba_table(6, "WAN", TABLE6)


def all_rows() -> List[PaperRow]:
    """Every published row, in the paper's order."""
    return table1() + table23() + table4() + table5() + table6()
