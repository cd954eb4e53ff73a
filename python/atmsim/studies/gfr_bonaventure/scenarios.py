"""The GFR study (Bonaventure): the network of figure 2 as a general-form scenario.

One privileged and N background sources, each on its own host and VC: src -> sw1 (UNI1),
sw1 -> sw2 (NNI), sw2 -> dst (UNI2), every link 155 Mb/s = 365566 cells/s. Every source runs
10 MB transfers separated by exponential idle times (mean 0.1 s), each on a new connection.

Three switch configurations:
- "gfr": FIFO-based GFR switches (8192-cell buffers, LBO 6144, HBO 7168) with tagging of the
  non-eligible AAL5-PDUs in the adapters (MFS 200 cells, MBS 2 MFS, PCR = line rate);
  figures 5, 7, 9 and 11-15.
- "wfq": WFQ-based GFR switches (section 3): per-VC queues served by Virtual Spacing weighted
  by the MCR, LBO 6144 / HBO 7168 and per-VC thresholds T_i = MBS (2 MFS); an F-GCRA UPC at
  the first switch that only counts the non-eligible frames (GFR.1, sections 7-8) or tags
  them CLP=1 (GFR.2, section 9); figures 16-23.
- "ubr": the artificial UBR baseline of figure 4: EPD (threshold 7168 of 8192 cells), no GFR
  contract, and the UNI2 links as bottlenecks (background destinations at 20000 cells/s, the
  privileged one at the swept "MCR").
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Union

LINE_CELLS_PER_S = 365566
BUFFER_CELLS = 8192
LBO_CELLS = 6144
HBO_CELLS = 7168
EPD_THRESHOLD_CELLS = 7168
MFS_CELLS = 200
BACKGROUND_MCR = 20000
BACKGROUND_SOURCES = 9
TRANSFER_BYTES = 10_000_000
MEAN_IDLE_S = 0.1
DURATION_S = 250.0  # the paper's runs

# Delays (us): UNI links, NNI link.
DELAYS_US = {"LAN": (10, 100), "WAN": (2500, 10000)}

PRESETS = ("tcp_default", "tcp_fast", "tcp_sack")
MCRS = (20000, 40000, 60000, 80000, 100000, 120000, 140000, 160000, 180000)

# Application-level conversion (the paper's "reserved bandwidth" curves): MSS 9140 with the
# 12-octet timestamp option inside it carries 9128 data octets; the AAL5-PDU holds
# 9140 + 40 (TCP/IP) + 8 (LLC/SNAP) + 8 (AAL5 trailer) octets, padded to whole cells.
MSS = 9140
TIMESTAMP_OCTETS = 12
SEGMENT_DATA = MSS - TIMESTAMP_OCTETS


def frame_cells(mss: int = MSS) -> int:
    """Cells of the AAL5-PDU carrying one full segment: MSS + 40 (TCP/IP) + 8 (LLC/SNAP)
    + 8 (AAL5 trailer) octets, padded to whole cells."""
    return math.ceil((mss + 40 + 8 + 8) / 48)


FRAME_CELLS = frame_cells()


def reserved_bps(mcr_cells_per_s: float, mss: int = MSS) -> float:
    """MCR (cells/s) as the application-level throughput it can carry (bit/s):
    MCR x 48/53 x segment data / segment octets on the wire, on the 53-octet cell rate."""
    wire_octets = frame_cells(mss) * 48
    return mcr_cells_per_s * 53 * 8 * (48 / 53) * (mss - TIMESTAMP_OCTETS) / wire_octets


def privileged() -> str:
    return "priv"


def background(i: int) -> str:
    return f"bg{i}"


def flows(background_sources: int = BACKGROUND_SOURCES) -> List[str]:
    return [privileged()] + [background(i) for i in range(1, background_sources + 1)]


def _tcp_table(preset: str, mss: Optional[int], window_bytes: Optional[int]) -> str:
    keys: Dict[str, Union[str, int]] = {"preset": f'"{preset}"'}
    if mss is not None:
        keys["mss"] = mss
    if window_bytes is not None:
        keys["window_bytes"] = window_bytes
        keys["snd_buffer_bytes"] = window_bytes
    return "{ " + ", ".join(f"{k} = {v}" for k, v in keys.items()) + " }"


def scenario_text(
    preset: str,
    privileged_mcr: int,
    mode: str = "gfr",
    duration_s: float = DURATION_S,
    background_sources: int = BACKGROUND_SOURCES,
    background_mcr: int = BACKGROUND_MCR,
    config: str = "LAN",
    seed: int = 1,
    trace: Optional[str] = None,
    priv_mss: Optional[int] = None,
    bg_mss: Optional[int] = None,
    window_bytes: Optional[int] = None,
    conformance: str = "gfr1",
    lbo_cells: int = LBO_CELLS,
    infinite_buffer: bool = False,
) -> str:
    """The scenario for one point. mode "gfr" (FIFO-based GFR switch, adapter tagging), "wfq"
    (WFQ-based GFR switch, F-GCRA UPC with the given conformance definition) or "ubr"
    (figure 4: EPD, UNI2 bottlenecks at the given rates). priv_mss / bg_mss / window_bytes
    override the preset's MSS and socket buffers (both send and receive, as the paper's
    "window size") of the privileged / background sources / all sources. lbo_cells: the LBO
    threshold of the FIFO-based and WFQ-based switches (section 6, "influence of the LBO
    threshold"). infinite_buffer: every switch port an infinite FIFO that never drops (the
    conclusion's "infinite buffers in the switches"; tagging still happens, and matters not)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    if mode not in ("gfr", "wfq", "ubr"):
        raise ValueError(f"unknown mode {mode!r}")
    if conformance not in ("gfr1", "gfr2"):
        raise ValueError(f"unknown conformance {conformance!r}")
    uni_us, nni_us = DELAYS_US[config]
    if infinite_buffer and mode != "gfr":
        raise ValueError("infinite_buffer is a FIFO-based (mode gfr) variant")
    buffer: Union[int, str] = BUFFER_CELLS
    if infinite_buffer:
        policy = '{ kind = "tail_drop" }'
        buffer = '"infinite"'
    elif mode == "gfr":
        policy = f'{{ kind = "fifo_gfr", lbo_cells = {lbo_cells}, hbo_cells = {HBO_CELLS} }}'
    elif mode == "wfq":
        # T_i defaults to each VC's MBS (2 MFS), as the paper's reference [13] proposes.
        policy = (
            f'{{ kind = "wfq_gfr", lbo_cells = {lbo_cells}, '
            f'hbo_cells = {HBO_CELLS} }}\nscheduler = "virtual_spacing"'
        )
    else:
        policy = f'{{ kind = "epd", threshold_cells = {EPD_THRESHOLD_CELLS} }}'
    out = [
        "[simulation]",
        f"duration_s = {float(duration_s)!r}",
        f"seed = {seed}",
        "",
        "[metrics]",
        'bottleneck = "sw1->sw2"' if mode != "ubr" else f'bottleneck = "sw2->d_{privileged()}"',
        "",
        '[[node]]\nname = "sw1"\nkind = "switch"',
        '[[node]]\nname = "sw2"\nkind = "switch"',
        f'[[link]]\nends = ["sw1", "sw2"]\nrate_cells_per_s = {LINE_CELLS_PER_S}\ndelay_us = {nni_us}',
        f'[[port]]\nnode = "sw1"\ntoward = "sw2"\nbuffer_cells = {buffer}\npolicy = {policy}',
    ]
    for k, name in enumerate(flows(background_sources)):
        mcr = privileged_mcr if k == 0 else background_mcr
        src, dst = f"s_{name}", f"d_{name}"
        uni2_rate = mcr if mode == "ubr" else LINE_CELLS_PER_S
        out += [
            f'[[node]]\nname = "{src}"\nkind = "host"',
            f'[[node]]\nname = "{dst}"\nkind = "host"',
            f'[[link]]\nends = ["{src}", "sw1"]\nrate_cells_per_s = {LINE_CELLS_PER_S}\ndelay_us = {uni_us}',
            f'[[link]]\nends = ["sw2", "{dst}"]\nrate_cells_per_s = {uni2_rate}\ndelay_us = {uni_us}',
            f'[[port]]\nnode = "sw2"\ntoward = "{dst}"\nbuffer_cells = {buffer}\npolicy = {policy}',
            f'[[port]]\nnode = "sw1"\ntoward = "{src}"\nbuffer_cells = {buffer}\npolicy = {policy}',
        ]
        conn = [
            f'[[connection]]\nname = "{name}"\nroute = ["{src}", "sw1", "sw2", "{dst}"]',
            f'app = {{ kind = "transfers", bytes = {TRANSFER_BYTES}, mean_idle_s = {MEAN_IDLE_S} }}',
            f"tcp = {_tcp_table(preset, priv_mss if k == 0 else bg_mss, window_bytes)}",
        ]
        if mode == "gfr":
            conn.append(f'gfr = {{ mcr_cells_per_s = {mcr}, mfs_cells = {MFS_CELLS}, tagging = "adapter" }}')
        elif mode == "wfq":
            conn.append(
                f"gfr = {{ mcr_cells_per_s = {mcr}, mfs_cells = {MFS_CELLS}, "
                f'tagging = "upc", conformance = "{conformance}" }}'
            )
        out.append("\n".join(conn))
    if trace:
        out.append(trace)
    return "\n\n".join(out) + "\n"
