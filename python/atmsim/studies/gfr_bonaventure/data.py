"""The numbers Bonaventure's GFR paper states in its text (sections 4-9: FIFO-based and
WFQ-based switches, LAN and WAN), for `atmsim reproduce gfr-bonaventure`.

The figures themselves are plots without printed values; only what the text says in numbers
is compared. Each statement: figure, TCP preset, privileged MCR (cells/s), the compared
column (see gfr_bonaventure_study), the value, the sentence it comes from, and how the
sentence states it (its comparator, studies/comparators.py): "about", "close to", "almost",
"similar to", "twice", "only once" are points ("~"), read at their printed precision or the
replications' interval; "is equal to", "is", "no cell losses", "did not reach" are "="; "less
than" / "slightly less than" are "<", "more than" / "slightly larger than" are ">" (the
"slightly" is not made a range: the paper gives no second end). Statements whose MCR the text
does not give are in UNPLACED (compared in the notes with the mean over the MCR points), not in
the tables.

The bound statements of the text (sections 4-9), all with their comparator below: figure 5
"slightly less than four times" (< 4 RTO per 10 MB), "slightly less than 50%" tagged (< 0.5);
figure 9 "slightly larger than 14 milliseconds" (> 14 ms); figure 14 "Less than 1%" tagged
(< 0.01), "always more than 50% full" (> 4096 cells); figure 22 "more than 20 times per 10
MBytes" (> 20); figure 23 "more than one fifth of the AAL5-PDUs ... tagged" (> 0.2). The runs
without a figure (text_runs, `section` set): section 5 "between these two values" for the
Emulated Ethernet / Token Ring MSS (<= figure 5's stated throughput), section 9 GFR.2 with
homogeneous MSS "similar results" as figure 18 "a lot of difficulties to efficiently use its
reserved throughput" (< 1 of the reserved rate); section 7 "almost its weighted fair
throughput" and figure 19's "almost able to achieve its reserved throughput" are "~". Bounds in
the text that are not a table value here: figure 5 "less than 50% of its reserved bandwidth"
(the same point as "about 18 Mbps"), section 6 "still less than 50% of its reserved
throughput" (LBO 2048, TCP_fast; in QUALITATIVE), figure 24 "almost does not even reach its
reserved throughput" (QUALITATIVE), and section 5 "a window of at least 120 KBytes" (the
paper's arithmetic, not a measurement).
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
    comparator: str = "~"  # how the sentence states the value (studies/comparators.py)
    # Where the sentence is, for runs without a figure (text_runs); "" = its figure.
    section: str = ""


STATEMENTS: List[Statement] = [
    Statement(
        "5",
        "tcp_default",
        100000,
        "priv_goodput_bps",
        18e6,
        "With its MCR set to 100000 cells per second the privileged source achieved only about 18 Mbps",
    ),
    Statement(
        "5",
        "tcp_default",
        180000,
        "priv_goodput_bps",
        25e6,
        "With its MCR set to 180000 cells per second, the privileged source only achieved "
        "a throughput of about 25 Mbps",
    ),
    Statement(
        "5",
        "tcp_default",
        180000,
        "retx_kb_per_10mb",
        200.0,
        "the privileged source had to retransmit about 200 KBytes during each 10 MBytes transfer",
    ),
    Statement(
        "5",
        "tcp_default",
        180000,
        "rto_per_10mb",
        4.0,
        "the retransmission timer expired on average slightly less than four times during each transfer",
        comparator="<",
    ),
    Statement(
        "5",
        "tcp_default",
        100000,
        "tagged_fraction",
        0.5,
        "With its MCR set to 100000 cells per second, slightly less than 50% of the "
        "AAL5-PDUs sent by the privileged source were tagged",
        comparator="<",
    ),
    Statement(
        "5",
        "tcp_default",
        180000,
        "tagged_fraction",
        0.3,
        "with its MCR set to 180000 cells per seconds 30% of its AAL5-PDUs were tagged",
    ),
    Statement(
        "5",
        "tcp_default",
        180000,
        "hbo_drops",
        0.0,
        "the output buffer of the bottleneck switch did not reach the HBO threshold, and "
        "only CLP=1 AAL5-PDUs were discarded",
        comparator="=",
    ),
    Statement(
        "7",
        "tcp_fast",
        180000,
        "rto_per_10mb",
        10.0,
        "it expired on average almost 10 times during each 10 MBytes transfer with TCP_fast",
    ),
    Statement(
        "7",
        "tcp_fast",
        180000,
        "retx_kb_per_10mb",
        500.0,
        "with TCP_fast the privileged source retransmitted on average about 500 KBytes per "
        "10 MBytes transfer",
    ),
    Statement(
        "9", "tcp_sack", 180000, "rto_per_10mb", 1.0, "about one expiration per 10 MBytes transfer on average"
    ),
    Statement(
        "9",
        "tcp_sack",
        180000,
        "tagged_fraction",
        0.3,
        "the percentage of CLP=1 AAL5-PDUs with TCP_SACK was similar to the percentage "
        "of CLP=1 AAL5-PDUs with TCP_default (30 % at 180000)",
    ),
    Statement(
        "9",
        "tcp_sack",
        180000,
        "mean_queue_cells",
        5000.0,
        "the output buffer at the bottleneck switch is heavily used, and its mean "
        "occupancy is close to 5000 cells for the whole simulation",
    ),
    Statement(
        "9",
        "tcp_sack",
        180000,
        "rtt_ms",
        14.0,
        "with a 180000 cells per second MCR, the average packet round-trip-time for the "
        "privileged source was slightly larger than 14 milliseconds",
        comparator=">",
    ),
]

# Sections 5-9 beyond the base figures.
STATEMENTS += [
    Statement(
        "14",
        "tcp_default",
        180000,
        "tagged_fraction",
        0.01,
        "the simulations performed with an MCR of 180000 cells per second and a 512 bytes "
        "MSS for the privileged source [...] Less than 1% of the segments sent by the "
        "privileged source were CLP=1 segments",
        comparator="<",
    ),
    Statement(
        "14",
        "tcp_default",
        180000,
        "rto_per_10mb",
        2.0,
        "the retransmission timer expired on average twice per 10 MBytes transfer",
    ),
    Statement(
        "14",
        "tcp_default",
        180000,
        "mean_queue_cells",
        4096.0,
        "the output buffer of the bottleneck switch is on average always more than 50% full",
        comparator=">",
    ),
    Statement(
        "14",
        "tcp_default",
        180000,
        "rtt_ms",
        12.6,
        "Such a high occupancy [...] corresponds to an average round-trip-time of 12.6 milliseconds",
        comparator="=",
    ),
    Statement(
        "14",
        "tcp_default",
        20000,
        "rto_per_10mb",
        1.0,
        "With an MCR set to 20000 cells per second, [...] it expired only once per 10 "
        "MBytes transfer during the simulations with TCP_default and the FIFO-based "
        "implementation reported in figure 14",
    ),
    Statement(
        "17",
        "tcp_sack",
        180000,
        "priv_delay_ms",
        1.16,
        "with the MCR of the privileged source set to 180000 cells per second, the "
        "average packet delay from the privileged source to the privileged destination "
        "is equal to 1.16 milliseconds",
        comparator="=",
    ),
    Statement(
        "17",
        "tcp_sack",
        180000,
        "bg_delay_ms",
        32.7,
        "while the average packet delay from a background source to the corresponding "
        "background destination is 32.7 milliseconds",
        comparator="=",
    ),
    Statement(
        "22",
        "tcp_sack",
        20000,
        "rto_per_10mb",
        20.0,
        "With an MCR set to 20000 cells per second, the retransmission timer of the "
        "privileged source expired more than 20 times per 10 MBytes transfer",
        comparator=">",
    ),
    Statement(
        "23",
        "tcp_sack",
        180000,
        "tagged_fraction",
        0.2,
        "On average, more than one fifth of the AAL5-PDUs sent by the privileged source "
        "are tagged by the F-GCRA",
        comparator=">",
    ),
]
# Figure 16: "there were no cell losses, and [...] the available throughput was fairly
# shared" ("the unreserved bandwidth is allocated in proportion to the MCR of the sources"),
# at every MCR point the study runs for it.
for _mcr in (20000, 60000, 100000, 140000, 180000):
    STATEMENTS += [
        Statement(
            "16",
            "tcp_sack",
            _mcr,
            "bottleneck_drops",
            0.0,
            "the simulations performed with a 9140 bytes MSS showed that there were no cell losses",
            comparator="=",
        ),
        Statement(
            "16",
            "tcp_sack",
            _mcr,
            "priv_fair_ratio",
            1.0,
            "the unreserved bandwidth is allocated in proportion to the MCR of the sources",
        ),
    ]


@dataclass(frozen=True)
class Unplaced:
    """A number stated for a figure without the MCR it was measured at."""

    figure: str
    column: str
    value: float
    quote: str


# Section 6, LBO = 0: "With TCP_default and TCP_SACK, each TCP source is only able to achieve
# a throughput of 275 kilobits per second with their MCR set to 20000 cells per second ... With
# its MCR set to 180000 cells per second, the privileged source still achieves only 275
# kilobits per second. With TCP_fast ... TCP_fast successfully sends three 9140 bytes segments
# every 40 milliseconds": 3 x 9140 x 8 / 0.040 = 5.484 Mb/s, the text's own arithmetic left
# undone (a derived value, marked so in its quote).
LBO0_KBPS = 275e3
LBO0_FAST_BPS = 3 * 9140 * 8 / 0.040
for _figure, _preset in (("lbo0", "tcp_default"), ("lbo0-sack", "tcp_sack")):
    STATEMENTS += [
        Statement(
            _figure,
            _preset,
            20000,
            "priv_goodput_bps",
            LBO0_KBPS,
            "each TCP source is only able to achieve a throughput of 275 kilobits per second "
            "with their MCR set to 20000 cells per second",
            comparator="=",
        ),
        Statement(
            _figure,
            _preset,
            20000,
            "bg_goodput_bps",
            LBO0_KBPS,
            "each TCP source is only able to achieve a throughput of 275 kilobits per second "
            "with their MCR set to 20000 cells per second",
            comparator="=",
        ),
        Statement(
            _figure,
            _preset,
            180000,
            "priv_goodput_bps",
            LBO0_KBPS,
            "With its MCR set to 180000 cells per second, the privileged source still achieves "
            "only 275 kilobits per second",
            comparator="=",
        ),
    ]
STATEMENTS += [
    Statement(
        "lbo0-fast",
        "tcp_fast",
        mcr,
        "priv_goodput_bps",
        LBO0_FAST_BPS,
        "TCP_fast successfully sends three 9140 bytes segments every 40 milliseconds "
        "(derived: 3 x 9140 octets / 40 ms)",
    )
    for mcr in (20000, 180000)
]

# The runs the text reports without a figure (text_runs: tables of their own).
# Section 7, WFQ-based switch, GFR.1, TCP_SACK, heterogeneous MSS: at every MCR point run.
for _figure in ("wfq-p512-b9140", "wfq-p9140-b512"):
    STATEMENTS += [
        Statement(
            _figure,
            "tcp_sack",
            _mcr,
            "priv_fair_ratio",
            1.0,
            "With TCP_SACK, there were almost no difference when the privileged source used a "
            "512 bytes MSS while the background sources used a 9140 bytes MSS or the opposite "
            "[2]. In both cases, the privileged source was able to achieve almost its weighted "
            "fair throughput",
            section="section 7 (no figure)",
        )
        for _mcr in (20000, 100000, 180000)
    ]
# Section 9, WFQ-based switch, GFR.2, TCP_SACK, 64 KB, homogeneous MSS: "similar results" as
# figures 18 and 19 (text_runs), whose statements apply at the MCR where reserving matters.
_GFR2_SIMILAR = (
    "Simulations performed with 64 KBytes windows, TCP_SACK and homogeneous MSS sizes (9140 "
    "or 1460 bytes) for the privileged and the background sources produced similar results as "
    "those presented in section 17 [figures 18-19]"
)
STATEMENTS += [
    Statement(
        "gfr2-mss9140",
        "tcp_sack",
        180000,
        "priv_reserved_ratio",
        1.0,
        _GFR2_SIMILAR + "; figure 18: With a 9140 bytes MSS, a 64 KBytes window and TCP_SACK, "
        "the privileged source had a lot of difficulties to efficiently use its reserved "
        "throughput",
        comparator="<",
        section="section 9 (no figure), with section 7 (figure 18)",
    ),
    Statement(
        "gfr2-mss1460",
        "tcp_sack",
        180000,
        "priv_reserved_ratio",
        1.0,
        _GFR2_SIMILAR + "; figure 19: with a 1460 bytes MSS it was almost able to achieve its "
        "reserved throughput",
        section="section 9 (no figure), with section 7 (figure 19)",
    ),
]
# Section 5, FIFO-based switch, TCP_default, every source at an Emulated Ethernet / Token Ring
# MSS: between the 512-octet run and figure 5 (9140 octets), whose throughput the text states
# at two MCRs: below those.
for _figure in ("mss1460", "mss4424"):
    STATEMENTS += [
        Statement(
            _figure,
            "tcp_default",
            _mcr,
            "priv_goodput_bps",
            _bps,
            "The throughputs achieved by TCP_default with the MSS sizes corresponding to an "
            "Emulated Ethernet and an Emulated Token Ring are between these two values [512 "
            "bytes MSS and figure 5's 9140 bytes MSS]; figure 5: " + _five,
            comparator="<=",
            section="section 5 (no figure), with figure 5",
        )
        for _mcr, _bps, _five in (
            (
                100000,
                18e6,
                "With its MCR set to 100000 cells per second the privileged source "
                "achieved only about 18 Mbps",
            ),
            (
                180000,
                25e6,
                "With its MCR set to 180000 cells per second, the privileged source "
                "only achieved a throughput of about 25 Mbps",
            ),
        )
    ]

UNPLACED: List[Unplaced] = [
    Unplaced(
        "18",
        "rto_per_10mb",
        10.0,
        "with a 9140 bytes MSS, the retransmission timer expired on average 10 times per 10 MBytes transfer",
    ),
    Unplaced(
        "19",
        "rto_per_10mb",
        1.0,
        "while with the 1460 bytes MSS, it expired on average only once per 10 MBytes transfer",
    ),
    # Section 9's homogeneous GFR.2 runs: "similar results" as figures 18 and 19.
    Unplaced(
        "gfr2-mss9140",
        "rto_per_10mb",
        10.0,
        "similar results as figure 18: with a 9140 bytes MSS, the retransmission timer expired "
        "on average 10 times per 10 MBytes transfer",
    ),
    Unplaced(
        "gfr2-mss1460",
        "rto_per_10mb",
        1.0,
        "similar results as figure 19: with the 1460 bytes MSS, it expired on average only "
        "once per 10 MBytes transfer",
    ),
]

# Qualitative statements, reported beside the simulated ratios in the write-up.
QUALITATIVE = {
    "fast_vs_default_retx": "total retransmitted packets with TCP_fast roughly three times "
    "those with TCP_default (ratio 3)",
    "fast_vs_default_goodput": "TCP_fast throughput slightly lower than TCP_default",
    "sack_vs_default_goodput": "TCP_SACK achieves a better throughput than TCP_default and TCP_fast",
    "figure4": "TCP_default completely utilizes the UNI2 bandwidth (goodput = reserved)",
    "figure11": "even with three background sources, the privileged source still cannot use "
    "its reserved bandwidth with TCP_default",
    "figure12": "TCP_SACK with the 1460 bytes MSS is lower than with the 9140 bytes MSS (figure 9)",
    "figure13": "privileged MSS 9140, background 512: the privileged source acquires a large "
    "share of the bottleneck link, its throughput almost independent of its MCR",
    "figure14": "privileged MSS 512, background 9140: very low throughput with a low MCR, and "
    "even at 180000 it has huge difficulties to achieve more than the background",
    "figure15": "TCP is not able to benefit from the GFR service category with the FIFO-based "
    "switch in a WAN",
    "figure17": "the privileged source acquires a large proportion of the NNI link",
    "figure18_19": "MSS 9140: a lot of difficulties to use the reserved throughput; MSS 1460: "
    "almost able to achieve it",
    "figure20": "the privileged source does not utilize its reservation in the WAN, but gets "
    "much more than with the FIFO-based switch (figure 15); its mean per-VC "
    "occupancy is below each background source's",
    "figure21_22": "GFR.2, privileged 9140 / background 512: no significant unfairness; "
    "privileged 512 / background 9140: a large unfairness",
    "figure23": "with tagging at the network access (GFR.2) the privileged TCP_SACK throughput "
    "in the WAN is much lower than without (figure 20)",
    "lbo": "LBO 4096 and 2048 cells: similar results as with 6144 (figure 5); TCP_fast at 2048 "
    "slightly higher than at 6144 (figure 7), but still less than 50 % of its reserved throughput",
    "background_mcr": "background MCR 10000 and 5000, and even 0: similar results (the "
    "privileged source has the same difficulties to use its reserved throughput)",
    "mss512": "TCP_default with a 512-octet MSS: slightly lower than with 9140 (figure 5)",
    "fifo_inf": "with infinite buffers the TCP throughput is almost independent of the MCR",
    "gfr2_homogeneous": "GFR.2 with homogeneous MSS (9140 or 1460): similar results as GFR.1 "
    "(figures 18 and 19); the F-GCRA tagging did not seem to influence the throughput",
    "wfq_heterogeneous": "GFR.1 with heterogeneous MSS: almost no difference between privileged "
    "512 / background 9140 and the opposite; both almost at the weighted fair throughput",
    "lane_mss": "TCP_default with the Emulated Ethernet and Token Ring MSS: between the 512-octet "
    "MSS and the 9140-octet MSS (figure 5)",
    "figure24": "the privileged source (WAN, WFQ, GFR.2, TCP_SACK, MCR 180000) almost does not "
    "even reach its reserved throughput during a 100 ms period; more than one fifth of its "
    "AAL5-PDUs are tagged",
}


def _of(figure: str, preset: str, mcr: int) -> List[Statement]:
    return [s for s in STATEMENTS if s.figure == figure and s.preset == preset and s.mcr == mcr]


def published(figure: str, preset: str, mcr: int) -> Dict[str, Optional[float]]:
    """The stated values for one point, by compared column."""
    return {s.column: s.value for s in _of(figure, preset, mcr)}


def comparators(figure: str, preset: str, mcr: int) -> Dict[str, str]:
    """How each stated value of one point is stated ("~" ones left out: the default)."""
    return {s.column: s.comparator for s in _of(figure, preset, mcr) if s.comparator != "~"}


def quotes(figure: str, preset: str, mcr: int) -> Dict[str, str]:
    """The sentence each stated value of one point comes from, with its figure (or, for a run
    without a figure, its section)."""
    return {s.column: f'"{s.quote}", ' + (s.section or f"figure {figure}") for s in _of(figure, preset, mcr)}
