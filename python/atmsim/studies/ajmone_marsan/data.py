"""What Ajmone Marsan, Bianco, Lo Cigno and Munafò state in "Some simulation results about TCP
connections in ATM networks" (the CLASS study), for
`atmsim reproduce ajmone-marsan`: the settings of both networks, the traffic matrix of Table 1,
the measured background loads of Table 2 and every number the text gives about the figures.

The figures are plots without printed values; only what the text states in numbers is compared.

Transcription notes (Table 1, thousandths of the total background traffic; the column is the
source node, the row the destination):
  * MI row, FI column reads "3". The FI column must add up to its printed total 70, which needs
    35 there (3 gives 38), and the matrix is otherwise symmetric (FI row, MI column: 35).
    The digit lost by the OCR is restored: FI -> MI = 35.
  * Every other column adds up to its printed total, the totals add up to 1000, and the matrix
    is then exactly symmetric.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

# ---------------------------------------------------------------------------------------------
# Common settings (section 2)

MSS = 9140  # TCP segment data octets; 9180 with the TCP and IP headers
SEGMENT_OCTETS = 9180  # what the paper's goodput counts per segment
AAL5_TRAILER = 8
BG_MEAN_CELLS = 20  # background messages: truncated geometric length, mean 20 cells
BG_MAX_CELLS = 200
BG_CONNECTIONS = 9  # two-node network: 9 background connections (and as many backward)
BG_USER_OCTETS_PER_CELL = 44  # AAL3/4: background load in user Mb/s x 53/44 = link load
BG_BETA_TWO_NODE = 1.2  # GCRA bandwidth allocation factor of shaped background, tau = 0
BG_BETA_ITALY = 1.5
LINK_BPS = 150e6  # every channel of the two-node network
CONFIDENCE = "98 % precision at 95 % confidence, or about one minute of simulated time"
RUN_LIMIT_S = 60.0

# Two-node network (figure 1): L0 between the switches is the bottleneck.
TWO_NODE_BUFFERS = (1000, 5000)
TWO_NODE_SHAPING_BPS = (None, 50e6, 15e6)  # unshaped, 1/3 and 1/10 of the bottleneck
# Link lengths (km) L0, L1, L2, L3 (L1..L3: the sources' access links) per figure.
LENGTHS_KM = {
    "1000": (500, 500, 500, 500),  # figures 2 and 5: three 1000 km connections
    "mixed": (500, 5, 50, 500),  # figures 3 and 6: 505, 550 and 1000 km
    "100": (50, 50, 50, 50),  # figure 4: three 100 km connections
}
# Background loads (user Mb/s) on the abscissa of figures 2, 3, 5 and 6: the text names 0, 50,
# 75 and 100 Mb/s; 25 Mb/s is assumed as the remaining step of a 25 Mb/s grid.
BG_LOADS_MBPS = (0, 25, 50, 75, 100)
FIG4_BG_MBPS = (15, 45)
FIG4_BUFFER = 1000
# Adaptive shaping (figures 5 and 6): N_RM, thresholds as fractions of the buffer, rate cap.
NRM = 32
T_LOW_FRACTION = 0.01
T_HIGH_FRACTION = 0.50
ADAPTIVE_MAX_BPS_TWO_NODE = 50e6
# Fair-share enforcement in the two-node adaptive runs ("switches are able to enforce fairness in
# the partition of the bandwidth among connections"; figure 12 runs without it). The mechanism
# is atmsim's reading of those words (crates/atmsim-core/src/net/fair_share.rs). ASSUMPTION:
# its measurement interval, 1 ms: about 350 cell times of L0, a tenth of the 1000 km round trip,
# so the share follows the background within a round trip while 1 ms of Poisson background
# (20-cell messages) still averages over tens of messages. Plausible range 0.5-10 ms.
FAIR_SHARE_INTERVAL_US = 1000.0

# Italian network (section 2.2)
ITALY_NODES = ("MI", "TO", "GE", "VE", "BO", "FI", "RO", "NA", "BA", "PA")
ITALY_BUFFERS = (100, 1000)
ITALY_TOTALS_BPS = (0.8e9, 1.0e9, 1.2e9)
ITALY_SHAPING_BPS = (None, 25e6, 37.5e6, 50e6)  # plus adaptive shaping
ITALY_MAX_GOODPUT_MBPS = {25e6: 22.5, 37.5e6: 33.8, 50e6: 45.1}  # stated goodput caps
ITALY_ADAPTIVE_MAX_BPS = 75e6  # every connection but Mi-Ro
ITALY_ADAPTIVE_MAX_BPS_MIRO = 150e6
# Adaptive-shaping thresholds (T_l, T_h) in cells per buffer size (figure 12).
ITALY_THRESHOLDS = {100: (5, 50), 1000: (10, 500)}
ITALY_CONNECTIONS = (
    ("Mi-Ro", "MI", "RO"),
    ("To-Fi", "TO", "FI"),
    ("Ve-To", "VE", "TO"),
    ("Ro-Ba", "RO", "BA"),
    ("Ba-Pa", "BA", "PA"),
    ("Pa-Ba", "PA", "BA"),
)

# Table 1: rows = destination, columns = source, in thousandths of the total traffic.
_TABLE1_ROWS = {
    #      MI   TO  GE  VE  BO  FI   RO  NA  BA  PA
    "MI": (0, 52, 20, 2, 18, 35, 206, 17, 2, 17),  # FI column printed "3" (see above)
    "TO": (52, 0, 3, 0, 3, 5, 32, 3, 0, 3),
    "GE": (20, 3, 0, 0, 2, 2, 12, 1, 0, 1),
    "VE": (2, 0, 0, 0, 0, 0, 1, 0, 0, 0),
    "BO": (18, 3, 2, 0, 0, 2, 11, 1, 0, 1),
    "FI": (35, 5, 2, 0, 2, 0, 22, 2, 0, 2),
    "RO": (206, 32, 12, 1, 11, 22, 0, 10, 1, 10),
    "NA": (17, 3, 1, 0, 1, 2, 10, 0, 0, 1),
    "BA": (2, 0, 0, 0, 0, 0, 1, 0, 0, 0),
    "PA": (17, 3, 1, 0, 1, 2, 10, 1, 0, 0),
}
TABLE1_COLUMN_TOTALS = dict(zip(ITALY_NODES, (369, 101, 41, 3, 38, 70, 305, 35, 3, 35)))


def traffic_matrix() -> Dict[Tuple[str, str], int]:
    """Table 1 as {(source, destination): thousandths}, zero entries left out."""
    out: Dict[Tuple[str, str], int] = {}
    for dst, row in _TABLE1_ROWS.items():
        for src, value in zip(ITALY_NODES, row):
            if value:
                out[(src, dst)] = value
    return out


# Table 2: measured background load (fraction of the link capacity) on the links each TCP
# connection crosses, in order, for 0.8, 1.0 and 1.2 Gb/s of background.
TABLE2: Dict[str, Dict[float, Tuple[float, ...]]] = {
    "Mi-Ro": {0.8e9: (0.41,), 1.0e9: (0.51,), 1.2e9: (0.61,)},
    "To-Fi": {0.8e9: (0.294, 0.114, 0.11), 1.0e9: (0.367, 0.143, 0.13), 1.2e9: (0.44, 0.165, 0.15)},
    "Ve-To": {0.8e9: (0.072, 0.30), 1.0e9: (0.090, 0.377), 1.2e9: (0.098, 0.43)},
    "Ro-Ba": {0.8e9: (0.25, 0.06), 1.0e9: (0.32, 0.074), 1.2e9: (0.38, 0.088)},
    "Ba-Pa": {0.8e9: (0.06, 0.028), 1.0e9: (0.074, 0.035), 1.2e9: (0.088, 0.042)},
    "Pa-Ba": {0.8e9: (0.028, 0.06), 1.0e9: (0.035, 0.074), 1.2e9: (0.042, 0.088)},
}
# What the text says about the links: Mi-Ro on a 600 Mb/s channel with 60/50/40 % of it free;
# To-Fi, Ve-To and Ro-Ba over 150 Mb/s channels; Ro-Ba and Pa-Ba share the Na-Ba link; the
# Ro-Na link is "quite heavily loaded"; Ba-Pa and Pa-Ba run on very lightly loaded links.
MIRO_FREE_FRACTION = {0.8e9: 0.60, 1.0e9: 0.50, 1.2e9: 0.40}


# ---------------------------------------------------------------------------------------------
# Numbers the text states about the figures


@dataclass(frozen=True)
class Statement:
    """One stated number: the figure, the point it belongs to (labels of the experiment), the
    compared quantity, the value, the sentence it comes from and how the sentence states it
    (studies/comparators.py): "=" for "equal to", "grab 149.4", "sticks to one"; "~" for
    "about"; "<=" for "does not exceed" and "or even less"; "<" for "below".

    Bound statements of the text, all here: figure 2 "the goodput does not exceed 83 Mbit/s"
    (<= 83), "dropping to 0.5 or even less" (<= 0.5); figures 8-11 Ba-Pa without shaping "the
    efficiency remains very poor, below 0.8" (< 0.8); figure 3 "the connection with length 1000
    km still gets a lower bandwidth" (ratio < 1); the closures by backoff (>= 1: two-node at
    100 Mb/s, To-Fi in figures 8-9 and 12; see the readings above the closure statements).
    Not compared as a row: "the TCP goodput
    can be at most either 22.5, or 33.8, or 45.1 Mbit/s" (the shaping caps, the paper's
    arithmetic: ITALY_MAX_GOODPUT_MBPS), and the comparisons between curves ("always greater
    than", "higher than") in QUALITATIVE."""

    figure: str
    point: Mapping[str, object]
    quantity: str
    value: float
    quote: str
    comparator: str = "="  # "=", "~", "<", "<=", ">", ">=" (studies/comparators.py)
    section: str = ""  # where the sentence is, when not beside its figure ("" = the figure)


STATEMENTS: List[Statement] = [
    Statement(
        "2",
        {"buffer": 5000, "shaping": "50", "bg_mbps": 0},
        "tcp_link_mbps",
        149.4,
        "when a 50 Mbit/s shaping is enforced on TCP connections and no background "
        "traffic is present, the TCP connections completely saturate the link capacity, "
        "since they grab 149.4 out of 150 available Mbit/s",
    ),
    Statement(
        "2",
        {"buffer": 5000, "shaping": "none", "bg_mbps": 0},
        "goodput_mbps",
        83.0,
        "while without shaping the goodput does not exceed 83 Mbit/s, for 5000-cell node buffers",
        comparator="<=",
    ),
    Statement(
        "2",
        {"shaping": "15", "bg_mbps": 75},
        "efficiency",
        1.0,
        "the one with 15 Mbit/s shaping, whose efficiency remains equal to 1 (no segment "
        "loss was recorded) up to a background traffic load equal to 75 Mbit/s",
    ),
    Statement(
        "2",
        {"shaping": "none", "bg_mbps": 50},
        "efficiency",
        0.5,
        "as soon as the total traffic offered to the network exceeds the bottleneck link "
        "capacity, the efficiency of the TCP protocol becomes very poor, dropping to 0.5 "
        "or even less",
        comparator="<=",
    ),
    Statement(
        "4",
        {"bg_mbps": 45, "shaping_mbps": 30.0},
        "efficiency",
        1.0,
        "assigned bandwidth up to 30 Mbit/s with 45 Mbit/s background ... the TCP "
        "connections efficiency sticks to one",
    ),
    Statement(
        "4",
        {"bg_mbps": 15, "shaping_mbps": 37.5},
        "efficiency",
        1.0,
        "and up to 37.5 Mbit/s with 15 Mbit/s background",
    ),
    Statement(
        "4",
        {"bg_mbps": 45, "shaping_mbps": 37.5},
        "efficiency",
        0.5,
        "As soon as the link becomes overloaded, the TCP efficiency drops to about 0.5",
        comparator="~",
    ),
    Statement(
        "4",
        {"bg_mbps": 15, "shaping_mbps": 50.0},
        "efficiency",
        0.5,
        "As soon as the link becomes overloaded, the TCP efficiency drops to about 0.5",
        comparator="~",
    ),
    Statement(
        "6",
        {"buffer": 5000, "fairness": "enforced"},
        "efficiency",
        1.0,
        "all TCP connections have efficiency one, all of them receive the same amount of bandwidth",
    ),
    Statement(
        "12",
        {"buffer": 1000},
        "efficiency_min",
        1.0,
        "when buffers are 1000 cells long all connections attain efficiency 1",
    ),
]
# Figures 8-11, Ba-Pa with neither TCP nor background shaped, 100 and 1000-cell buffers.
STATEMENTS += [
    Statement(
        figure,
        {"shaping": "none", "bg_shaped": False},
        "efficiency_Ba-Pa",
        0.8,
        "when no shaping is used, and the buffer size is increased from 100 to 1000 cells. The "
        "goodput of the connection increases significantly with the larger buffers, but the "
        "efficiency remains very poor, below 0.8",
        comparator="<",
    )
    for figure in ("8-9", "10-11")
]

# The prose about figures 3 and 8-12 and the connections closed by backoff, as comparable
# statements. Readings (each stated in its quote where it is not the paper's words):
#  * figure 3, unshaped: "the goodput obtained by the connections is inversely proportional to
#    the connection length": goodput ratios 1000 km / 505 km = 505/1000 and 550 km / 505 km =
#    505/550, read at 0.1 (0.5, 0.9: the sentence prints no digits). 50 Mb/s shaping: "the goodput
#    difference between the connections of length 505 and 550 km is negligible" (ratio ~ 1),
#    "the connection with length 1000 km still gets a lower bandwidth" (ratio < 1). Both:
#    "the efficiency of the connection is independent from the connection length" (lowest /
#    highest efficiency ~ 1). 15 Mb/s shaping (not drawn): "all of the connections obtain
#    exactly the same goodput" (lowest / highest goodput = 1). At the loads 0-75 Mb/s: at 100
#    the text says the network is overloaded and a connection is closed.
#  * figures 8-11: Mi-Ro "operates with efficiency one, grabbing all the resources it can, in
#    all case except one" (unshaped TCP and background, 100-cell buffers): efficiency = 1
#    elsewhere, and goodput / the shaping cap ~ 1 when shaped (the cap is the text's "the TCP
#    goodput can be at most either 22.5, or 33.8, or 45.1 Mbit/s"; the ratio is read at 0.01,
#    the caps' printed precision). To-Fi and Ve-To "completely use their assigned bandwidth
#    when both their traffic and the background traffic are shaped, or when the node buffers
#    are large enough" (1000 cells): goodput / cap ~ 1 for shaped TCP.
#  * closures (flows[].aborts: connections the sender gave up after too many successive
#    timeouts): two-node network at 100 Mb/s of background (figures 2 and 3, every shaping),
#    at least one connection closed; To-Fi without shaping of TCP or background, 100-cell
#    buffers: "the missing points ... those referring to the To-Fi connection" do not say at
#    which loads; "those" is plural, so at least two of the three, read as the two heavier
#    (1.0 and 1.2 Gb/s); figure 12, 100-cell buffers: To-Fi "still forced to close when the
#    background load is 1.2 Gbit/s".
FIG3_LOADS = (0, 25, 50, 75)
_INVERSE = (
    "When the TCP connections are unshaped, it can be noticed that the goodput obtained by the "
    "connections is inversely proportional to the connection length"
)
_EFF_LENGTH = (
    "It is interesting to notice that the efficiency of the connection is independent from the "
    "connection length, even if no shaping is performed on the connections"
)
for _bg in FIG3_LOADS:
    STATEMENTS += [
        Statement(
            "3",
            {"shaping": "none", "bg_mbps": _bg},
            "goodput_ratio_1000_505",
            0.5,
            _INVERSE + " (derived: 505 km / 1000 km = 0.505, read at 0.1)",
            comparator="~",
        ),
        Statement(
            "3",
            {"shaping": "none", "bg_mbps": _bg},
            "goodput_ratio_550_505",
            0.9,
            _INVERSE + " (derived: 505 km / 550 km = 0.918, read at 0.1)",
            comparator="~",
        ),
        Statement(
            "3",
            {"shaping": "50", "bg_mbps": _bg},
            "goodput_ratio_550_505",
            1.0,
            "In this case [50 Mbit/s shaping] the goodput difference between the connections of "
            "length 505 and 550 km is negligible",
            comparator="~",
        ),
        Statement(
            "3",
            {"shaping": "50", "bg_mbps": _bg},
            "goodput_ratio_1000_505",
            1.0,
            "while the connection with length 1000 km still gets a lower bandwidth",
            comparator="<",
        ),
        Statement(
            "3",
            {"shaping": "15", "bg_mbps": _bg},
            "goodput_min_max",
            1.0,
            "The shaping at 15 Mbit/s is not reported for the sake of brevity since all of the "
            "connections obtain exactly the same goodput",
        ),
    ]
    STATEMENTS += [
        Statement(
            "3", {"shaping": _s, "bg_mbps": _bg}, "efficiency_min_max", 1.0, _EFF_LENGTH, comparator="~"
        )
        for _s in ("none", "50")
    ]
_CLOSED_TWO_NODE = (
    "with the exception of the case when ABR-like services are simulated, the 2-node network "
    "with 100 Mbit/s background traffic was so overloaded that one of the TCP connections was "
    "forced to close by the backoff mechanism"
)
STATEMENTS += [
    Statement(
        _figure,
        {"bg_mbps": 100},
        "aborts",
        1.0,
        _CLOSED_TWO_NODE,
        comparator=">=",
        section="section 2",
    )
    for _figure in ("2", "3")
]
# Figures 8-11.
_MIRO = (
    "The Mi-Ro connection has a lot of spare bandwidth to exploit; thus it operates with "
    "efficiency one, grabbing all the resources it can, in all case except one: if neither the "
    "TCP traffic nor the background traffic are shaped and the node buffers are small (100 cells)"
)
_CAP = "; the cap: the TCP goodput can be at most either 22.5, or 33.8, or 45.1 Mbit/s"
_TOFI_VETO = (
    "Both of them [To-Fi and Ve-To] completely use their assigned bandwidth when both their "
    "traffic and the background traffic are shaped, or when the node buffers are large enough "
    "to absorb the background traffic burstiness"
)
_SHAPED_LABELS = ("25", "37.5", "50")
for _figure, _buffer in (("8-9", 100), ("10-11", 1000)):
    for _bg_shaped in (True, False):
        for _s in ("none",) + _SHAPED_LABELS:
            if not (_buffer == 100 and _s == "none" and not _bg_shaped):
                STATEMENTS.append(
                    Statement(
                        _figure, {"shaping": _s, "bg_shaped": _bg_shaped}, "efficiency_Mi-Ro", 1.0, _MIRO
                    )
                )
        for _s in _SHAPED_LABELS:
            STATEMENTS.append(
                Statement(
                    _figure,
                    {"shaping": _s, "bg_shaped": _bg_shaped},
                    "cap_use_Mi-Ro",
                    1.0,
                    _MIRO + _CAP,
                    comparator="~",
                )
            )
            if _bg_shaped or _buffer == 1000:
                STATEMENTS += [
                    Statement(
                        _figure,
                        {"shaping": _s, "bg_shaped": _bg_shaped},
                        f"cap_use_{_name}",
                        1.0,
                        _TOFI_VETO + _CAP,
                        comparator="~",
                    )
                    for _name in ("To-Fi", "Ve-To")
                ]
STATEMENTS += [
    Statement(
        "8-9",
        {"shaping": "none", "bg_shaped": False, "total_gbps": _total},
        "aborts_To-Fi",
        1.0,
        "the missing points in the graphs, like for instance those referring to the To-Fi "
        "connection without shaping of the background and TCP traffics with 100 cells buffers, "
        "correspond to simulations where the TCP connections were closed due to the TCP backoff "
        "mechanism (read at the two heavier loads: 'those' points are at least two)",
        comparator=">=",
    )
    for _total in (1.0, 1.2)
]
STATEMENTS.append(
    Statement(
        "12",
        {"buffer": 100, "total_gbps": 1.2},
        "aborts_To-Fi",
        1.0,
        "Notice that in these conditions [adaptive shaping, 100 cell buffers] the To-Fi "
        "connection is still forced to close when the background load is 1.2 Gbit/s",
        comparator=">=",
    )
)

# Qualitative statements, compared in the report notes.
QUALITATIVE = {
    "fig2_order": "the goodput with 50 Mbit/s shaping is always greater than the unshaped "
    "goodput, regardless of the node buffer size and the background load",
    "fig2_15": "with 15 Mbit/s shaping the goodput is limited by the shaping and constant up to "
    "75 Mbit/s of background",
    "fig3_unshaped": "unshaped: goodput inversely proportional to the connection length",
    "fig3_50": "50 Mbit/s shaping: 505 and 550 km nearly equal, 1000 km lower",
    "fig3_eff": "efficiency independent of the connection length",
    "fig5_buffers": "adaptive shaping: better with 5000-cell than with 1000-cell buffers",
    "fig5_oscillation": "at medium loads the rate oscillates between about 15 and 50 Mbit/s",
    "italy_miro": "Mi-Ro: efficiency one except unshaped TCP and background with 100-cell buffers",
    "italy_bapa": "Ba-Pa unshaped: efficiency below 0.8, lower with 1000-cell buffers, goodput higher",
    "italy_adaptive_tofi": "adaptive shaping, 100-cell buffers: To-Fi closed at 1.2 Gbit/s",
}


def shaped_goodput_cap_mbps(rate_bps: float) -> float:
    """Largest goodput (the paper's unit: whole 9180-octet segments, Mb/s) of a connection
    shaped at `rate_bps` of 53-octet cells: one segment is a 9188-octet AAL5 payload in 192
    cells. 25, 37.5 and 50 Mb/s give the stated 22.5, 33.8 and 45.1."""
    cells = -(-(SEGMENT_OCTETS + AAL5_TRAILER) // 48)
    return rate_bps / (53 * 8) / cells * SEGMENT_OCTETS * 8 / 1e6


def _of(figure: str, labels: Mapping[str, object]) -> List[Statement]:
    return [
        st
        for st in STATEMENTS
        if st.figure == figure and all(labels.get(k) == v for k, v in st.point.items())
    ]


def published(figure: str, labels: Mapping[str, object]) -> Dict[str, Optional[float]]:
    """The stated values whose point matches `labels` (every key of the statement's point)."""
    return {st.quantity: st.value for st in _of(figure, labels)}


def comparators(figure: str, labels: Mapping[str, object]) -> Dict[str, str]:
    """How each stated value of the point is stated ("~" left out: the default)."""
    return {st.quantity: st.comparator for st in _of(figure, labels) if st.comparator != "~"}


def quotes(figure: str, labels: Mapping[str, object]) -> Dict[str, str]:
    """The sentence each stated value of the point comes from, with its figure (or section)."""
    return {st.quantity: f'"{st.quote}", ' + (st.section or f"figure {figure}") for st in _of(figure, labels)}
