"""Bonaventure's GFR paper: its main claims as checks over the figures' rows.

Each figure is a table of rows per privileged MCR (`mcr`, cells/s); claims that compare two
figures (TCP_SACK's figure 9 against TCP_default's figure 5, the WFQ-based switch's figure 16
against the FIFO-based figure 9) match their rows on the MCR. `reserved_bps` (a label of every
row) is the MCR as the application-level throughput it can carry. The figures are plots
without printed values, so most relations have no paper count beside them; the rule is
`atmsim.studies.claims`.
"""

from __future__ import annotations

from typing import List

from ..claims import Claim, ClaimVerdict, bound, judge, relation, side
from ..registry import StudyResults

GOODPUT = "priv_goodput_bps"
ON = ("mcr",)


def _sack_better(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r, side("9", GOODPUT, "TCP_SACK (fig. 9)"), ">", side("5", GOODPUT, "TCP_default (fig. 5)"), ON
        ),
        relation(
            r, side("9", GOODPUT, "TCP_SACK (fig. 9)"), ">", side("7", GOODPUT, "TCP_fast (fig. 7)"), ON
        ),
    )


def _fast_not_better(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r, side("7", GOODPUT, "TCP_fast (fig. 7)"), "<", side("5", GOODPUT, "TCP_default (fig. 5)"), ON
        ),
        relation(
            r,
            side("7", "retx_kb_per_10mb", "TCP_fast (fig. 7)"),
            ">",
            side("5", "retx_kb_per_10mb", "TCP_default (fig. 5)"),
            ON,
        ),
    )


def _fifo_short_of_mcr(r: StudyResults) -> ClaimVerdict:
    high = {"mcr": lambda m: m is not None and float(m) >= 100000}
    return judge(
        relation(
            r,
            side("5", GOODPUT, "privileged goodput (fig. 5, MCR >= 100000)", **high),
            "<",
            side("5", "reserved_bps", "its reserved throughput", **high),
            ON,
        )
    )


def _wfq_beats_fifo(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("16", GOODPUT, "WFQ GFR.1 LAN (fig. 16)"),
            ">",
            side("9", GOODPUT, "FIFO LAN (fig. 9)"),
            ON,
        ),
        relation(
            r,
            side("20", GOODPUT, "WFQ GFR.1 WAN (fig. 20)"),
            ">",
            side("15", GOODPUT, "FIFO WAN (fig. 15)"),
            ON,
        ),
    )


def _wfq_no_loss(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("16", GOODPUT, "privileged goodput (fig. 16)"),
            ">=",
            side("16", "reserved_bps", "reserved"),
            ON,
        ),
        relation(
            r, side("16", "priv_fair_ratio", "MCR-weighted share ratio (fig. 16)"), ">=", bound(0.9), ON
        ),
        relation(
            r, side("16", "priv_fair_ratio", "MCR-weighted share ratio (fig. 16)"), "<=", bound(1.1), ON
        ),
    )


CLAIMS: List[Claim] = [
    Claim(
        "sack-better-throughput",
        '"The simulations performed with TCP_SACK (figure 9) show that it achieves a better '
        'throughput than TCP_default and TCP_fast" (privileged goodput, per MCR)',
        "section 5, figures 5, 7, 9",
        _sack_better,
    ),
    Claim(
        "fast-not-better-than-default",
        '"the throughput achieved with TCP_fast ... is slightly lower than the throughput '
        'achieved by TCP_default"; "with TCP_fast the privileged source retransmitted on '
        "average about 500 KBytes per 10 MBytes transfer, while TCP_default retransmitted only "
        'about 200 KBytes" (privileged goodput lower, retransmissions higher, per MCR)',
        "section 5, figure 7",
        _fast_not_better,
    ),
    Claim(
        "fifo-cannot-use-mcr",
        '"the privileged source has a lot of difficulties to actually use its reserved '
        'bandwidth"; "the TCP sources with a large MCR could not efficiently utilize their '
        'minimum guaranteed bandwidth" (figure 5, MCR >= 100000 cells/s: goodput below the '
        "reserved throughput)",
        "section 5, figure 5; section 11",
        _fifo_short_of_mcr,
    ),
    Claim(
        "wfq-gfr1-beats-fifo-gfr2",
        '"With the proposed WFQ-based switch implementation and the GFR.1 conformance '
        "definition, the performance of TCP was much better than with the proposed FIFO-based "
        'implementation and the GFR.2 conformance definition" (privileged goodput per MCR, LAN '
        "figure 16 against figure 9, WAN figure 20 against figure 15; checked as >, the paper "
        "gives no factor)",
        "section 11; section 9 (figure 20)",
        _wfq_beats_fifo,
    ),
    Claim(
        "wfq-no-loss-uses-mcr",
        '"When no losses occured ..., the proposed WFQ-based implementation allowed each TCP '
        "source to efficiently utilize its minimum guaranteed bandwidth and the unreserved "
        'bandwidth was shared among the different VCs in proportion to their respective MCR" '
        "(figure 16: privileged goodput >= reserved, its MCR-weighted share ratio within 0.1 "
        "of 1)",
        "section 11, figure 16",
        _wfq_no_loss,
    ),
]
