"""Ajmone Marsan, Bianco, Lo Cigno, Munafò (CLASS): what shaping does to TCP, as checks over
the two-node network's figures 2 and 6.

Figure 2 rows are (buffer, shaping, background load); the TCP shaping is "none", "50" or
"15" (Mb/s per connection); rows are matched on (buffer, bg_mbps). Figure 6 is adaptive
shaping with 505/550/1000 km connections, with the switches enforcing fair shares (the
paper's) or not; its claims read the rows with `fairness = enforced`. An efficiency "equal to
1 (no segment loss was recorded)" is read as >= 0.99 (the precision a plotted efficiency can
be read at); "dropping to 0.5 or even less" as <= 0.55 (0.5 read at 0.05). The rule is
`atmsim.studies.claims`.
"""

from __future__ import annotations

from typing import Any, List

from ..claims import Claim, ClaimVerdict, bound, judge, relation, side
from ..registry import StudyResults

ON = ("buffer", "bg_mbps")
FLOWS = ("tcp1", "tcp2", "tcp3")


def _at_most(limit: float) -> Any:
    return lambda v: v is not None and float(v) <= limit


def _at_least(limit: float) -> Any:
    return lambda v: v is not None and float(v) >= limit


def _fifty_beats_unshaped(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("2", "goodput_mbps", "50 Mb/s shaping", shaping="50"),
            ">",
            side("2", "goodput_mbps", "unshaped", shaping="none"),
            ON,
        )
    )


def _fifteen_lossless(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side(
                "2",
                "efficiency",
                "efficiency with 15 Mb/s shaping, background <= 75 Mb/s",
                shaping="15",
                bg_mbps=_at_most(75),
            ),
            ">=",
            bound(0.99),
            ON,
        )
    )


def _unshaped_poor(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side(
                "2",
                "efficiency",
                "efficiency unshaped or 50 Mb/s, background >= 50 Mb/s",
                shaping=("none", "50"),
                bg_mbps=_at_least(50),
            ),
            "<=",
            bound(0.55),
            ("buffer", "shaping", "bg_mbps"),
        )
    )


def _adaptive_all_one(r: StudyResults) -> ClaimVerdict:
    parts = [
        relation(
            r,
            side(
                "6", f"efficiency_{f}", f"{f} efficiency (fig. 6, fair shares enforced)", fairness="enforced"
            ),
            ">=",
            bound(0.99),
            ("bg_mbps",),
        )
        for f in FLOWS
    ]
    return judge(*parts)


CLAIMS: List[Claim] = [
    Claim(
        "shaping-50-beats-unshaped",
        '"In any case, the goodput achieved with a 50 Mbit/s shaping is always greater than '
        'the unshaped goodput, regardless of the node buffer size and the background load" '
        "(per buffer and background load)",
        "section 2.1, figure 2",
        _fifty_beats_unshaped,
    ),
    Claim(
        "shaping-15-lossless",
        '"the only acceptable, even amazingly good, situation is the one with 15 Mbit/s '
        "shaping, whose efficiency remains equal to 1 (no segment loss was recorded) up to a "
        'background traffic load equal to 75 Mbit/s" (efficiency >= 0.99)',
        "section 2.1, figure 2",
        _fifteen_lossless,
    ),
    Claim(
        "unshaped-efficiency-poor",
        '"as soon as the total traffic offered to the network exceeds the bottleneck link '
        "capacity, the efficiency of the TCP protocol becomes very poor, dropping to 0.5 or even "
        'less" (unshaped and 50 Mb/s shaping, background >= 50 Mb/s: efficiency <= 0.55)',
        "section 2.1, figure 2",
        _unshaped_poor,
    ),
    Claim(
        "adaptive-shaping-efficiency-one",
        '"In this case the advantage of a mechanism that allows the transmission rate to be '
        "controlled, and the fairness among connections to be enforced, leads to a striking "
        'performance improvement: all TCP connections have efficiency one" (figure 6, every '
        "connection's efficiency >= 0.99)",
        "section 2.2, figure 6",
        _adaptive_all_one,
    ),
]
