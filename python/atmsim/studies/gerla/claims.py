"""Gerla, Pazos, Signore: which control wins and where, as checks over figures 3-5.

Figures 3 (PRCA) and 4 (FCVC) are total TCP goodput against the number of TCP sources for
b_g = 1.1/1.2/1.3; rows of the two are matched on (b_g, sources). The paper states its
saturation goodputs (the plateau of the congested region), which the study attaches to the
15-source rows; the congested region is taken as N >= 10 (at N = 1 both controls carry the
offered load). Figure 5 is goodput against MSS at b_g 1.2, 15 sources. The rule is
`atmsim.studies.claims`.
"""

from __future__ import annotations

from typing import Any, List

from ..claims import Claim, ClaimVerdict, bound, judge, relation, side, trend
from ..registry import StudyResults

ON = ("b_g", "sources")


def _congested(n: Any) -> bool:
    return n is not None and int(n) >= 10


def _fcvc_wins(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("4", "goodput_mbps", "FCVC (fig. 4, N >= 10)", sources=_congested),
            ">",
            side("3", "goodput_mbps", "PRCA (fig. 3, N >= 10)", sources=_congested),
            ON,
        )
    )


def _saturation_with_bg(r: StudyResults) -> ClaimVerdict:
    return judge(
        trend(
            r,
            "3",
            "goodput_mbps",
            "b_g",
            description="PRCA saturation goodput (N = 15) increases with b_g",
            sources=15,
        ),
        trend(
            r,
            "4",
            "goodput_mbps",
            "b_g",
            description="FCVC saturation goodput (N = 15) increases with b_g",
            sources=15,
        ),
    )


def _fcvc_mss(r: StudyResults) -> ClaimVerdict:
    return judge(
        trend(r, "5", "goodput_mbps", "mss", description="FCVC goodput increases with MSS", control="fcvc")
    )


def _prca_mss(r: StudyResults) -> ClaimVerdict:
    return judge(
        trend(
            r,
            "5",
            "goodput_mbps",
            "mss",
            increasing=False,
            description="PRCA goodput decreases with MSS from 2048 octets on",
            control="prca",
            mss=lambda m: m is not None and int(m) >= 2048,
        )
    )


def _fcvc_bound(r: StudyResults) -> ClaimVerdict:
    return judge(
        relation(
            r,
            side("5", "goodput_mbps", "FCVC goodput (fig. 5)", control="fcvc"),
            ">=",
            side("5", "bound_mbps", "eta_OH x B_av", control="fcvc"),
            ("mss",),
            factor=0.9,
        ),
        relation(r, side("4", "abr_cells_lost", "FCVC ABR cells lost (fig. 4)"), "<=", bound(0.0), ON),
    )


CLAIMS: List[Claim] = [
    Claim(
        "fcvc-beats-prca",
        '"PRCA achieves approximately gamma = 7.3, 12.2, 16.6 Mbit/s, for the respective values '
        'of b_g, whereas FCVC gets gamma = 9.6, 18.9, 27.4 Mbit/s"; "This extra burden explains '
        'the gap of performances between PRCA and FCVC" (congested region, N >= 10: FCVC > PRCA '
        "per b_g and N)",
        "section IV, figures 3-4",
        _fcvc_wins,
    ),
    Claim(
        "saturation-increases-with-bg",
        "\"the goodput reaches a 'saturation' value, corresponding to the situation of a fully "
        'utilized link and as expected increases with b_g" (N = 15, both controls)',
        "section IV, figures 3-4",
        _saturation_with_bg,
    ),
    Claim(
        "fcvc-goodput-increases-with-mss",
        '"It is clear that the goodput increases with MSS for FCVC because the protocol overhead is reduced"',
        "section IV, figure 5",
        _fcvc_mss,
    ),
    Claim(
        "prca-goodput-peaks-near-2048",
        '"with PRCA the goodput is not an increasing function of MSS: it reaches a maximum '
        'around MSS = 2048 bytes, and decreases again for larger MSS"',
        "section IV, figure 5",
        _prca_mss,
    ),
    Claim(
        "fcvc-near-bound-no-loss",
        '"The TCP goodput achieved by FCVC is very close to a theoretical bound"; "FCVC '
        'guarantees no cell losses" (goodput >= 0.9 x eta_OH x B_av per MSS, the tolerance '
        "ours; no ABR cell lost in figure 4)",
        "sections IV and III.B, figures 4-5",
        _fcvc_bound,
    ),
]
