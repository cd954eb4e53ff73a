"""Goyal, Jain, Fahmy, Vandalore (LCN 1998): per-VC thresholds in a FIFO buffer, and
Differential FBA, give TCP rates in proportion to the buffer allocated; as checks.

"Close to 1" is read with the paper's own tolerance: the largest |ratio - 1| of Table 3, of
which the paper says "All ratios are close to 1" (0.12). The rule is `atmsim.studies.claims`.
"""

from __future__ import annotations

from typing import List

from ..claims import Claim, ClaimVerdict, bound, judge, relation, side, trend
from ..registry import StudyResults
from . import data

# What the paper calls "close to 1": every Table 3 ratio is within this of 1.
CLOSE = round(max(abs(v - 1.0) for row in data.TABLE3_RATIO.values() for v in row), 6)
# "close to those obtained by simulation": the paper's largest gap between its equation 1
# and its simulated throughput (figure 3), rounded up to 5 %.
EQ1_TOLERANCE = 0.05


def _window_controls_rate(r: StudyResults) -> ClaimVerdict:
    return judge(
        trend(
            r,
            "fig3",
            "throughput_mbps",
            "paper_eq1_mbps",
            description="throughput increases with the drop threshold (figure 3)",
        ),
        relation(
            r,
            side("fig3", "throughput_mbps", "throughput"),
            ">=",
            side("fig3", "paper_eq1_mbps", "equation 1"),
            ("threshold_octets",),
            factor=1 - EQ1_TOLERANCE,
        ),
        relation(
            r,
            side("fig3", "throughput_mbps", "throughput"),
            "<=",
            side("fig3", "paper_eq1_mbps", "equation 1"),
            ("threshold_octets",),
            factor=1 + EQ1_TOLERANCE,
        ),
    )


def _close_to_one(r: StudyResults, table: str, on: tuple[str, ...]) -> ClaimVerdict:
    return judge(
        relation(r, side(table, "ratio", "ratio"), ">=", bound(1 - CLOSE), on),
        relation(r, side(table, "ratio", "ratio"), "<=", bound(1 + CLOSE), on),
    )


def _thresholds(r: StudyResults) -> ClaimVerdict:
    return _close_to_one(r, "1-3", ("experiment", "tcps"))


def _dfba(r: StudyResults) -> ClaimVerdict:
    return _close_to_one(r, "4-5", ("experiment", "vc"))


def _queue_over_allocation(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("5q", "max_queue_cells", "maximum queue"),
            ">",
            side("5q", "sum_r_i", "total allocated thresholds"),
            ("experiment",),
        )
    )


CLAIMS: List[Claim] = [
    Claim(
        "window-control-controls-rate",
        '"controlling the TCP window so as to maintain a desired average window size enables '
        'the network to control the average TCP throughput"; "The throughput values calculated '
        'from the average congestion windows are close to those obtained by simulation" '
        f"(throughput rises with the drop threshold; within {EQ1_TOLERANCE:.0%} of equation 1, "
        "the paper's own largest gap being 3.2 %)",
        "section 2, figure 3, equation 1",
        _window_controls_rate,
    ),
    Claim(
        "per-vc-thresholds-proportional",
        '"All ratios are close to 1. This indicates that the TCP throughputs are indeed '
        f'proportional to the buffer allocations" ((mu_i/mu)/(r_i/r) within {CLOSE:g} of 1, the '
        "largest deviation of the paper's own Table 3)",
        "section 3, Tables 1-3",
        _thresholds,
    ),
    Claim(
        "dfba-proportional",
        '"The table shows that TCP throughputs obtained were in proportion to the buffers '
        'allocated (since most of the ratios in table 5 are close to 1)" (within '
        f"{CLOSE:g} of 1, the closeness of Table 3)",
        "section 4, Tables 4-5",
        _dfba,
    ),
    Claim(
        "queue-exceeds-allocation",
        '"the maximum observed queue sizes in cells in the first backbone switch ... were 3185, '
        "5980 and 11992 respectively. The total allocated buffer thresholds were 2230, 4584 and "
        '9171 cells"; "At higher buffer allocations, the drop policy cannot provide tight bounds '
        'on throughput" (maximum queue above the total allocation, per experiment)',
        "section 4, prose after Table 5",
        _queue_over_allocation,
    ),
]
