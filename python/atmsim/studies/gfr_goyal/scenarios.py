"""Scenarios of the GFR rate-guarantee study (Goyal, Jain, Fahmy, Vandalore): Tables 1-3
(15 TCPs, one VC each, threshold_drop) and Tables 4-5 (15 TCPs merged 3 per VC, DFBA).

Topology (Figures 4 and 7 are lost in the text; assumed from the prose):
- Tables 1-3, "N source configuration" as in the UBR+ paper: src1..15 -> sw1 -> sw2 ->
  dst1..15, every link 155.52 Mb/s with 5 ms one-way delay (3 links: RTT 30 ms, as the
  paper says). The FIFO at sw1->sw2 (the bottleneck) has 48000 cells and the
  threshold_drop policy with r_i per VC; other ports are uncongested (infinite, tail drop).
- Figure 3 (section 2): the same configuration with one SACK TCP (N = 1), sw1->sw2 a
  48000-cell tail-drop FIFO, and a window-triggered fault at sw1->sw2 (`cwnd_octets`): one
  segment dropped each time the sender's cwnd reaches the threshold, none for the last case.
- Tables 4-5: src_i -> edge_k (local switch, k = group) -> sw1 -> sw2 -> dst_i. Access links
  10 us, edge->sw1 4990 us, sw1->sw2 and sw2->dst 5000 us (RTT 30 ms). edge_k->sw1 merges
  the 3 TCPs of group k onto one VC with whole frames (merge_frames); sw1->sw2 runs
  Differential FBA with per-VC R_i (Table 4), Z = 1.5, W_i = 1, buffer 48000 cells and global
  threshold R = 0.9 x 48000 (neither is given for this configuration).
"""

from __future__ import annotations

from typing import List, Optional

from . import data

# Not stated in the paper; Tables 1-3 ratios settle by ~20 s (see docs/gfr-goyal-reproduction.md).
DURATION_S = 30.0
SEED = 1
DFBA_R_CELLS = int(0.9 * data.BUFFER_CELLS)
N_TCP = 15

TCP_TABLE = (
    '[tcp]\nvariant = "sack"\nfast_retransmit = true\nmss = 1024\n'
    "window_bytes = 4_000_000\nwindow_scaling = true\n"
)


def _header(duration_s: float) -> List[str]:
    return [
        "[simulation]",
        f"duration_s = {float(duration_s)!r}",
        f"seed = {SEED}",
        "",
        TCP_TABLE,
        "[metrics]",
        'bottleneck = "sw1->sw2"',
        "",
    ]


def _node(name: str, kind: str) -> str:
    return f'[[node]]\nname = "{name}"\nkind = "{kind}"\n'


def _link(a: str, b: str, delay_us: int) -> str:
    return f'[[link]]\nends = ["{a}", "{b}"]\nrate_bps = {data.LINK_BPS}\ndelay_us = {delay_us}\n'


def group_of(tcp: int) -> int:
    """0-based group (VC for Tables 4-5) of TCP 1..15."""
    return (tcp - 1) // data.TCPS_PER_GROUP


def threshold_scenario(experiment: int, duration_s: Optional[float] = None) -> str:
    """Tables 1-3, one experiment (threshold column)."""
    r = data.TABLE1_THRESHOLDS[experiment]
    parts = _header(DURATION_S if duration_s is None else duration_s)
    parts += [
        _node("sw1", "switch"),
        _node("sw2", "switch"),
        _link("sw1", "sw2", 5000),
        f'[[port]]\nnode = "sw1"\ntoward = "sw2"\nbuffer_cells = {data.BUFFER_CELLS}\n'
        'policy = { kind = "threshold_drop" }\n',
    ]
    for i in range(1, N_TCP + 1):
        parts += [
            _node(f"src{i}", "host"),
            _node(f"dst{i}", "host"),
            _link(f"src{i}", "sw1", 5000),
            _link("sw2", f"dst{i}", 5000),
            f'[[connection]]\nname = "tcp{i}"\nroute = ["src{i}", "sw1", "sw2", "dst{i}"]\n'
            f"vc_threshold_cells = {r[group_of(i)]}\n",
        ]
    return "\n".join(parts)


def single_tcp_scenario(threshold_octets: Optional[int], duration_s: Optional[float] = None) -> str:
    """Figure 3, one case: one SACK TCP, a drop each time its cwnd reaches threshold_octets
    (None: no drop, the window grows to the 4 MB receiver window)."""
    parts = _header(DURATION_S if duration_s is None else duration_s)
    # One TCP alone on lossless links of one rate: random slot and timer phases move its RTT
    # samples by picoseconds but not what it delivers (seeds 1-3 give identical goodput, and
    # SACK never waits for a timer here), so replications would be identical; the case is
    # deterministic and says so.
    parts.insert(3, 'phases = "aligned"')
    parts += [
        _node("sw1", "switch"),
        _node("sw2", "switch"),
        _node("src1", "host"),
        _node("dst1", "host"),
        _link("src1", "sw1", 5000),
        _link("sw1", "sw2", 5000),
        _link("sw2", "dst1", 5000),
        f'[[port]]\nnode = "sw1"\ntoward = "sw2"\nbuffer_cells = {data.BUFFER_CELLS}\n'
        'policy = { kind = "tail_drop" }\n',
        '[[connection]]\nname = "tcp1"\nroute = ["src1", "sw1", "sw2", "dst1"]\n',
    ]
    if threshold_octets is not None:
        parts.append(
            f'[[fault]]\nport = "sw1->sw2"\nconnection = "tcp1"\ncwnd_octets = {int(threshold_octets)}\n'
        )
    return "\n".join(parts)


def dfba_scenario(experiment: int, duration_s: Optional[float] = None) -> str:
    """Tables 4-5, one experiment (threshold column)."""
    r = data.TABLE4_THRESHOLDS[experiment]
    parts = _header(DURATION_S if duration_s is None else duration_s)
    parts += [
        _node("sw1", "switch"),
        _node("sw2", "switch"),
        _link("sw1", "sw2", 5000),
        f'[[port]]\nnode = "sw1"\ntoward = "sw2"\nbuffer_cells = {data.BUFFER_CELLS}\n'
        f'policy = {{ kind = "dfba", r_cells = {DFBA_R_CELLS}, z = {data.Z!r} }}\n',
    ]
    for k in range(len(data.VCS)):
        edge = f"edge{k + 1}"
        parts += [
            _node(edge, "switch"),
            _link(edge, "sw1", 4990),
            f'[[port]]\nnode = "{edge}"\ntoward = "sw1"\nbuffer_cells = "infinite"\n'
            'policy = { kind = "tail_drop" }\nmerge_frames = true\n',
        ]
    for i in range(1, N_TCP + 1):
        k = group_of(i)
        parts += [
            _node(f"src{i}", "host"),
            _node(f"dst{i}", "host"),
            _link(f"src{i}", f"edge{k + 1}", 10),
            _link("sw2", f"dst{i}", 5000),
            f'[[connection]]\nname = "tcp{i}"\n'
            f'route = ["src{i}", "edge{k + 1}", "sw1", "sw2", "dst{i}"]\n'
            f'vc = "vc{k + 1}"\nvc_threshold_cells = {r[k]}\n',
        ]
    return "\n".join(parts)
