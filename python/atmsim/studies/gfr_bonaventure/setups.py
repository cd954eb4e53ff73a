"""What each figure of Bonaventure's GFR paper varies, as builder arguments.

Figures 4, 5, 7 and 9 are the base cases (LAN, 9 background sources at MCR 20000, MSS 9140,
196608-octet windows, FIFO-based switch). The others change one or two things each, as the
text says:

- 11: 3 and 6 background sources, their MCRs summing to 180000 cells/s (TCP_default).
- 12: TCP_SACK with a 1460-octet MSS (Emulated Ethernet) for every source.
- 13 / 14: TCP_default, privileged MSS 9140 and background 512 / the reverse.
- 15: TCP_SACK in the WAN (2.5 ms UNI, 10 ms NNI). The text gives no window for this
  figure; the preset's 196608 octets are kept.
- 16 / 17: WFQ-based switch, GFR.1, 32 KB windows (no losses), background MCR 20000 / 5000.
  "TCP_default, TCP_fast and TCP_SACK have identical performances": TCP_SACK is run.
- 18 / 19: WFQ, GFR.1, TCP_SACK, 64 KB windows, MSS 9140 / 1460.
- 20: WFQ, GFR.1, TCP_SACK, WAN, 550 KB windows.
- 21 / 22: WFQ, GFR.2 (F-GCRA tagging at the UPC), TCP_SACK, 64 KB, privileged MSS 9140 and
  background 512 / the reverse.
- 23: WFQ, GFR.2, TCP_SACK, WAN, 550 KB windows.

Variants the text reports without a figure (section 6 and the conclusion; table ids name them):
- lbo4096 / lbo2048 / lbo0: the FIFO-based switch with LBO 4096, 2048 or 0 cells ("similar
  results" at 4096 and 2048, TCP_fast "slightly higher" at 2048; at 0 "the throughput achieved
  by all the sources collapses": 275 kb/s with TCP_default and TCP_SACK, three 9140-octet
  segments every 40 ms with TCP_fast). TCP_default, plus TCP_fast at 2048 and all three at 0.
- bg10000 / bg5000 / bg0: the nine background sources at MCR 10000, 5000, 0 ("similar
  results"; at 0 every background PDU is tagged), TCP_default.
- mss512: TCP_default with a 512-octet MSS for every source ("slightly lower" than figure 5).
- fifo-inf: infinite buffers ("the TCP throughput is almost independent of the MCR"),
  TCP_default.

The paper's "KBytes" are 1024 octets (its 196608-octet window is "192 KBytes").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from . import scenarios as net

KB = 1024


@dataclass(frozen=True)
class Setup:
    """One figure's scenario, without the swept privileged MCR."""

    figure: str
    title: str
    preset: str
    mode: str = "gfr"
    background_sources: int = net.BACKGROUND_SOURCES
    background_mcr: int = net.BACKGROUND_MCR
    config: str = "LAN"
    priv_mss: Optional[int] = None
    bg_mss: Optional[int] = None
    window_bytes: Optional[int] = None
    conformance: str = "gfr1"
    lbo_cells: int = net.LBO_CELLS
    infinite_buffer: bool = False

    @property
    def priv_segment(self) -> int:
        """The privileged source's MSS (for its application-level reserved bandwidth)."""
        return self.priv_mss or net.MSS

    @property
    def bg_segment(self) -> int:
        return self.bg_mss or net.MSS

    def cost(self) -> float:
        """Relative run time per simulated second: small segments mean many more packets and
        ACKs per cell; the WAN keeps more data in flight."""
        small = [m for m in (self.priv_segment,) + (self.bg_segment,) * self.background_sources if m < 2000]
        return 1.0 + 0.3 * len(small) + (0.5 if self.config == "WAN" else 0.0)

    def scenario_text(self, mcr: int, duration_s: float, trace: Optional[str] = None) -> str:
        return net.scenario_text(
            self.preset,
            mcr,
            mode=self.mode,
            duration_s=duration_s,
            background_sources=self.background_sources,
            background_mcr=self.background_mcr,
            config=self.config,
            trace=trace,
            priv_mss=self.priv_mss,
            bg_mss=self.bg_mss,
            window_bytes=self.window_bytes,
            conformance=self.conformance,
            lbo_cells=self.lbo_cells,
            infinite_buffer=self.infinite_buffer,
        )


_SETUPS: Tuple[Setup, ...] = (
    Setup("5", "Figure 5: TCP_default, FIFO-based GFR switch", "tcp_default"),
    Setup("7", "Figure 7: TCP_fast, FIFO-based GFR switch", "tcp_fast"),
    Setup("9", "Figure 9: TCP_SACK, FIFO-based GFR switch", "tcp_sack"),
    Setup("4", "Figure 4: TCP_default, UBR with the UNI2 links as bottlenecks", "tcp_default", mode="ubr"),
    Setup(
        "11-3bg",
        "Figure 11: TCP_default, 3 background sources (MCR 60000 each)",
        "tcp_default",
        background_sources=3,
        background_mcr=60000,
    ),
    Setup(
        "11-6bg",
        "Figure 11 (text): TCP_default, 6 background sources (MCR 30000 each)",
        "tcp_default",
        background_sources=6,
        background_mcr=30000,
    ),
    Setup(
        "12",
        "Figure 12: TCP_SACK, MSS 1460 (all sources), FIFO-based switch",
        "tcp_sack",
        priv_mss=1460,
        bg_mss=1460,
    ),
    Setup("13", "Figure 13: TCP_default, privileged MSS 9140, background MSS 512", "tcp_default", bg_mss=512),
    Setup(
        "14", "Figure 14: TCP_default, privileged MSS 512, background MSS 9140", "tcp_default", priv_mss=512
    ),
    Setup("15", "Figure 15: TCP_SACK in the WAN, FIFO-based switch", "tcp_sack", config="WAN"),
    Setup(
        "16",
        "Figure 16: WFQ-based switch, GFR.1, 32 KB windows (no losses)",
        "tcp_sack",
        mode="wfq",
        window_bytes=32 * KB,
    ),
    Setup(
        "17",
        "Figure 17: WFQ, GFR.1, 32 KB windows, background MCR 5000",
        "tcp_sack",
        mode="wfq",
        window_bytes=32 * KB,
        background_mcr=5000,
    ),
    Setup(
        "18",
        "Figure 18: WFQ, GFR.1, TCP_SACK, 64 KB windows, MSS 9140",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
    ),
    Setup(
        "19",
        "Figure 19: WFQ, GFR.1, TCP_SACK, 64 KB windows, MSS 1460",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        priv_mss=1460,
        bg_mss=1460,
    ),
    Setup(
        "20",
        "Figure 20: WFQ, GFR.1, TCP_SACK, 550 KB windows, WAN",
        "tcp_sack",
        mode="wfq",
        window_bytes=550 * KB,
        config="WAN",
    ),
    Setup(
        "21",
        "Figure 21: WFQ, GFR.2, TCP_SACK, 64 KB, privileged MSS 9140, background 512",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        bg_mss=512,
        conformance="gfr2",
    ),
    Setup(
        "22",
        "Figure 22: WFQ, GFR.2, TCP_SACK, 64 KB, privileged MSS 512, background 9140",
        "tcp_sack",
        mode="wfq",
        window_bytes=64 * KB,
        priv_mss=512,
        conformance="gfr2",
    ),
    Setup(
        "23",
        "Figure 23: WFQ, GFR.2, TCP_SACK, 550 KB windows, WAN",
        "tcp_sack",
        mode="wfq",
        window_bytes=550 * KB,
        config="WAN",
        conformance="gfr2",
    ),
)

_VARIANTS: Tuple[Setup, ...] = (
    Setup("lbo4096", "Section 6: TCP_default, LBO 4096 cells", "tcp_default", lbo_cells=4096),
    Setup("lbo2048", "Section 6: TCP_default, LBO 2048 cells", "tcp_default", lbo_cells=2048),
    Setup("lbo2048-fast", "Section 6: TCP_fast, LBO 2048 cells", "tcp_fast", lbo_cells=2048),
    Setup("lbo0", "Section 6: TCP_default, LBO 0 (every CLP=1 PDU discarded)", "tcp_default", lbo_cells=0),
    Setup("lbo0-fast", "Section 6: TCP_fast, LBO 0", "tcp_fast", lbo_cells=0),
    Setup("lbo0-sack", "Section 6: TCP_SACK, LBO 0", "tcp_sack", lbo_cells=0),
    Setup("bg10000", "Section 6: TCP_default, background MCR 10000", "tcp_default", background_mcr=10000),
    Setup("bg5000", "Section 6: TCP_default, background MCR 5000", "tcp_default", background_mcr=5000),
    Setup("bg0", "Section 6: TCP_default, background MCR 0 (all tagged)", "tcp_default", background_mcr=0),
    Setup(
        "mss512", "Section 6: TCP_default, MSS 512 for every source", "tcp_default", priv_mss=512, bg_mss=512
    ),
    Setup("fifo-inf", "Conclusion: TCP_default, infinite FIFO buffers", "tcp_default", infinite_buffer=True),
)

SETUPS: Dict[str, Setup] = {s.figure: s for s in _SETUPS + _VARIANTS}
# The base figures first (their order in the report), then the paper's order.
FIGURES: Tuple[str, ...] = tuple(s.figure for s in _SETUPS)
FIFO_VARIANTS = ("11-3bg", "11-6bg", "12", "13", "14", "15")
WFQ_FIGURES = ("16", "17", "18", "19", "20", "21", "22", "23")
VARIANTS: Tuple[str, ...] = tuple(s.figure for s in _VARIANTS)
# The variants' quick subset: the LBO-0 collapse the text quantifies (cheap runs: little
# traffic gets through), and the infinite FIFO.
QUICK_VARIANTS = ("lbo0", "lbo0-fast", "lbo0-sack", "fifo-inf")
