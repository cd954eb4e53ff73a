"""What Ajmone Marsan, Bianco, Lo Cigno and Munafò state in "Some simulation results about TCP
connections in ATM networks" (the CLASS study, shared/papers/004_e911ca70df55f06a.txt), for
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
    efficiency remains very poor, below 0.8" (< 0.8). Not compared as a row: "the TCP goodput
    can be at most either 22.5, or 33.8, or 45.1 Mbit/s" (the shaping caps, the paper's
    arithmetic: ITALY_MAX_GOODPUT_MBPS), and the comparisons between curves ("always greater
    than", "higher than") in QUALITATIVE."""

    figure: str
    point: Mapping[str, object]
    quantity: str
    value: float
    quote: str
    comparator: str = "="  # "=", "~", "<", "<=", ">", ">=" (studies/comparators.py)


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
    """The sentence each stated value of the point comes from, with its figure."""
    return {st.quantity: f'"{st.quote}", figure {figure}' for st in _of(figure, labels)}
