"""The UBR+ paper's main claims (Goyal, Jain et al., ICC 1997) as checks over Tables 1-3.

Tables 2-3 print, per configuration (LAN/WAN), number of sources and buffer size, the
efficiency and the fairness of the four policies; the claims compare the policies row by row
(matched on those three labels) and in their means over the rows (the rule is
`atmsim.studies.claims`). With `--quick` only the 5-source rows run, and the claims are
judged on those (the paper's own counts on the same rows beside).
"""

from __future__ import annotations

from typing import List

from ..claims import Claim, ClaimVerdict, bound, judge, relation, side
from ..registry import StudyResults

ROW = ("config", "sources", "buffer_cells")


def _epd_throughput(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("2-3", "efficiency", "EPD", policy="EPD"),
            ">",
            side("2-3", "efficiency", "UBR", policy="UBR"),
            ROW,
        )
    )


def _sd_fairness(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("2-3", "fairness", "SD", policy="SD"),
            ">",
            side("2-3", "fairness", "EPD", policy="EPD"),
            ROW,
        )
    )


def _fba_both(r: StudyResults) -> ClaimVerdict:
    parts = []
    for metric in ("efficiency", "fairness"):
        for other in ("UBR", "EPD", "SD"):
            parts.append(
                relation(
                    r,
                    side("2-3", metric, "FBA", policy="FBA"),
                    ">",
                    side("2-3", metric, other, policy=other),
                    ROW,
                )
            )
    return judge(*parts)


def _zero_loss(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(r, side("1", "efficiency", "efficiency"), ">=", bound(0.99), ("config", "sources")),
        relation(r, side("1", "fairness", "fairness"), ">=", bound(0.99), ("config", "sources")),
    )


CLAIMS: List[Claim] = [
    Claim(
        "epd-improves-throughput",
        '"Early Packet Discard (EPD) improves throughput"; "Tables 2 and 3 show that EPD '
        'improves the efficiency of TCP over UBR" (efficiency, EPD > UBR per row)',
        "abstract; section 5, Table 2",
        _epd_throughput,
    ),
    Claim(
        "sd-improves-fairness",
        '"Selective packet drop based on per-connection buffer occupancy improves fairness"; '
        '"Selective Drop using per-VC accounting improves the fairness of TCP over UBR+EPD" '
        "(fairness, SD > EPD per row)",
        "abstract; section 6, Table 3",
        _sd_fairness,
    ),
    Claim(
        "fba-improves-both",
        '"The Fair Buffer Allocation scheme further improves both throughput and fairness"; '
        '"the average efficiency and fairness values for FBA ... are higher than the '
        'previously discussed options" (FBA > UBR, EPD and SD in efficiency and in fairness)',
        "abstract; section 7, Tables 2-3",
        _fba_both,
    ),
    Claim(
        "zero-loss-full-throughput",
        '"TCP achieves maximum possible throughput when no segments are lost. To achieve zero '
        'loss for TCP over UBR, switches need buffers equal to the sum of the receiver windows"; '
        'with infinite buffers "The connections achieve 100% of the possible throughput and '
        'perfect fairness" (Table 1: efficiency and fairness >= 0.99, the two decimals the '
        "other tables print)",
        "section 4, Table 1; section 8 (UBR+: Summary)",
        _zero_loss,
    ),
]
