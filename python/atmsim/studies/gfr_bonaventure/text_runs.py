"""The runs Bonaventure's text reports without a figure, as tables of their own.

- `wfq-p512-b9140` / `wfq-p9140-b512` (section 7, "LAN simulations with limited buffers"):
  the WFQ-based switch with GFR.1, TCP_SACK and heterogeneous MSS, the section's 64 KB
  windows: "With TCP_SACK, there were almost no difference when the privileged source used a
  512 bytes MSS while the background sources used a 9140 bytes MSS or the opposite [2]. In
  both cases, the privileged source was able to achieve almost its weighted fair throughput."
- `gfr2-mss9140` / `gfr2-mss1460` (section 9, "LAN Simulations"): the WFQ-based switch with
  GFR.2 (F-GCRA tagging at the UPC), TCP_SACK, 64 KB windows, homogeneous MSS (9140 or 1460):
  "produced similar results as those presented in section 17". The paper has no section 17
  (a broken cross-reference); the 64 KB, TCP_SACK, 9140 / 1460-octet runs it can mean are
  figures 18 and 19 (section 7), so their statements are read as these runs' too.
- `mss1460` / `mss4424` (section 5, "Influence of the TCP Maximum Segment Size"): the
  FIFO-based switch with TCP_default and every source at the MSS of an Emulated Ethernet or
  an Emulated Token Ring: "The throughputs achieved by TCP_default with the MSS sizes
  corresponding to an Emulated Ethernet and an Emulated Token Ring are between these two
  values" (the 512-octet run, `mss512`, and figure 5's 9140 octets).

The Emulated Ethernet MSS is stated ("the 1460 bytes MSS (figure 12) corresponding to an
Emulated Ethernet"). The Emulated Token Ring MSS is not: ASSUMPTION 4424 octets, the IEEE 802.5
(4 Mb/s) IP MTU of 4464 octets (RFC 1191, table 7-1; LAN Emulation's 4544-octet frame class)
less 40 octets of TCP/IP headers, the rule that gives the stated 1460 from Ethernet's 1500.
Plausible range 4424..4462 (the LANE frame less its LE, MAC, RIF and LLC/SNAP headers).

The paper's other text-only runs are not tables here: "Similar unfairness occurs with
TCP_default and TCP_fast when the privileged source is part of an Emulated Token Ring and the
background sources are part of an Emulated Ethernet or the reverse" (section 5) states no
value, only a likeness to figures 13 and 14.
"""

from __future__ import annotations

from typing import Dict, Tuple

from .setups import KB, Setup

ETHERNET_MSS = 1460  # stated (section 5, figure 12)
TOKEN_RING_MSS = 4424  # ASSUMPTION: the declared assumption token_ring_mss (assumptions.py)

_RUNS: Tuple[Setup, ...] = (
    Setup(
        "wfq-p512-b9140",
        "Section 7 (text): WFQ, GFR.1, TCP_SACK, 64 KB, privileged MSS 512, background 9140",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        priv_mss=512,
        conformance="gfr1",
    ),
    Setup(
        "wfq-p9140-b512",
        "Section 7 (text): WFQ, GFR.1, TCP_SACK, 64 KB, privileged MSS 9140, background 512",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        bg_mss=512,
        conformance="gfr1",
    ),
    Setup(
        "gfr2-mss9140",
        "Section 9 (text): WFQ, GFR.2, TCP_SACK, 64 KB, MSS 9140 for every source",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        conformance="gfr2",
    ),
    Setup(
        "gfr2-mss1460",
        "Section 9 (text): WFQ, GFR.2, TCP_SACK, 64 KB, MSS 1460 for every source",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        priv_mss=ETHERNET_MSS,
        bg_mss=ETHERNET_MSS,
        conformance="gfr2",
    ),
    Setup(
        "mss1460",
        "Section 5 (text): TCP_default, MSS 1460 (Emulated Ethernet) for every source",
        "tcp_default",
        priv_mss=ETHERNET_MSS,
        bg_mss=ETHERNET_MSS,
    ),
    Setup(
        "mss4424",
        "Section 5 (text): TCP_default, MSS 4424 (Emulated Token Ring, assumed) for every source",
        "tcp_default",
        priv_mss=TOKEN_RING_MSS,
        bg_mss=TOKEN_RING_MSS,
    ),
)

SETUPS: Dict[str, Setup] = {s.figure: s for s in _RUNS}
TABLES: Tuple[str, ...] = tuple(s.figure for s in _RUNS)
# What each run stands beside (the notes compare them): figures 18 / 19 for the GFR.2 runs,
# the 512-octet and 9140-octet TCP_default runs for the LANE MSS runs.
SIMILAR_TO = {"gfr2-mss9140": "18", "gfr2-mss1460": "19"}
BETWEEN = ("mss512", "5")
# Full mode: the three MCRs of the section-6 variants. Quick mode: one cheap row (MSS 9140,
# the MCR at which the stated bound applies).
MCRS = (20000, 100000, 180000)
QUICK: Tuple[Tuple[str, int], ...] = (("gfr2-mss9140", 180000),)
