"""The credit/rate study's ATM LAN (Gerla, Pazos, Signore, figure 1) as a general-form scenario.

One switch `sw`. The guaranteed traffic, 14 on-off VBR sources (10 Mb/s user peak, mean burst
4.8 KB, burstiness b_g), enters on a single input link from host `g`. N TCP workstations `ws1`
.. `wsN` each send to host `dst` on one VC. Everything leaves through the common output link
`sw->dst`. That port serves the guaranteed cells first, from their own buffer ("double priority
buffering"), and the ABR cells from a 165-cell buffer. Under PRCA that buffer is one FIFO that
sets EFCI above 50 %. Under FCVC it holds per-VC buffers of N2 + N3 = 11 cells served round
robin, with credits sent upstream every N2 cells. Every link has a 70 us delay.

Link rate: 14 x 10 Mb/s x 53/48 = 154.58 Mb/s (364583 cells/s), the rate the 14 sources fill
exactly when all are active, as the paper says they do (gerla_data explains the B_av check).

TCP: the paper describes Jacobson's 1988 algorithms (slow start, congestion avoidance, window
back to one segment on a timeout, Karn's rule). atmsim uses its Tahoe stack without fast
retransmit (the `ubr_plus` preset) with MSS 1024, and, as the paper says, timers and RTT
samples that count from a segment's transmission completion
(`timing_excludes_transmission`). The paper gives no timer granularity and no window: a 1 ms
clock (assumed, see gerla_assumptions) and the preset's 64 KB window.
"""

from __future__ import annotations

from typing import Optional

from . import data

CONTROLS = ("prca", "fcvc")
BOTTLENECK = "sw->dst"
EFCI_THRESHOLD_CELLS = round(data.ABR_BUFFER_CELLS * data.PRCA_EFCI_FRACTION)  # 82 of 165
# Section II: "timers and round-trip estimations do not include transmission times".
TIMING_EXCLUDES_TRANSMISSION = True
# Not stated: the assumption tick_ms (gerla_assumptions).
TICK_MS = 1.0


def trace_table(duration_s: float) -> str:
    """Figure 6: utilisation of the output link sampled every 1000 cell slots."""
    interval = data.TRACE_INTERVAL_SLOTS / data.LINK_CELLS_PER_S
    return (
        f"[trace]\ninterval_s = {interval!r}\ncwnd = false\nqueues = true\n"
        f'utilization = true\nports = ["{BOTTLENECK}"]\n'
    )


def scenario_text(
    control: str,
    b_g: float,
    sources: int,
    mss: int = data.MSS,
    duration_s: float = data.DURATION_S,
    seed: int = 1,
    trace: bool = False,
) -> str:
    """One point: ABR control "prca" or "fcvc", burstiness b_g, N TCP sources, MSS."""
    if control not in CONTROLS:
        raise ValueError(f"unknown control {control!r}")
    if not 1 <= sources <= 15:
        raise ValueError("the paper's switch has 1 to 15 TCP sources")
    rate = data.LINK_CELLS_PER_S
    delay = data.LINK_DELAY_US
    out = [
        f"[simulation]\nduration_s = {float(duration_s)!r}\nseed = {seed}",
        f'[metrics]\nbottleneck = "{BOTTLENECK}"',
        '[[node]]\nname = "sw"\nkind = "switch"',
        '[[node]]\nname = "g"\nkind = "host"',
        '[[node]]\nname = "dst"\nkind = "host"',
        f'[[link]]\nends = ["g", "sw"]\nrate_cells_per_s = {rate}\ndelay_us = {delay}',
        f'[[link]]\nends = ["sw", "dst"]\nrate_cells_per_s = {rate}\ndelay_us = {delay}',
    ]
    port = [
        f'[[port]]\nnode = "sw"\ntoward = "dst"\nbuffer_cells = {data.ABR_BUFFER_CELLS}',
        'policy = { kind = "tail_drop" }',
        'scheduler = "priority"',
    ]
    if control == "prca":
        port += ['best_effort = "fifo"', f"efci_threshold_cells = {EFCI_THRESHOLD_CELLS}"]
    else:
        port += ['best_effort = "round_robin"']
    out.append("\n".join(port))
    out.append(
        '[[background]]\nname = "guaranteed"\nroute = ["g", "sw", "dst"]\n'
        f"count = {data.GUARANTEED_SOURCES}\nguaranteed = true\n"
        f'source = {{ kind = "on_off", peak_bps = {data.GUARANTEED_PEAK_BPS!r}, '
        f"mean_burst_bytes = {data.GUARANTEED_MEAN_BURST_BYTES}, burstiness = {b_g!r} }}"
    )
    for i in range(1, sources + 1):
        ws = f"ws{i}"
        out.append(f'[[node]]\nname = "{ws}"\nkind = "host"')
        out.append(f'[[link]]\nends = ["{ws}", "sw"]\nrate_cells_per_s = {rate}\ndelay_us = {delay}')
        conn = [
            f'[[connection]]\nname = "tcp{i}"\nroute = ["{ws}", "sw", "dst"]',
            f'app = {{ kind = "messages", mean_bytes = {data.APP_MEAN_BYTES}, '
            f"rate_bps = {data.APP_RATE_BPS!r} }}",
            f'tcp = {{ preset = "ubr_plus", mss = {mss}, tick_ms = {TICK_MS!r}, '
            f"timing_excludes_transmission = {str(TIMING_EXCLUDES_TRANSMISSION).lower()} }}",
        ]
        if control == "prca":
            conn.append('abr = { kind = "prca" }')
        else:
            conn.append(f"fcvc = {{ n2 = {data.FCVC_N2}, n3 = {data.FCVC_N3} }}")
        out.append("\n".join(conn))
    if trace:
        out.append(trace_table(duration_s))
    return "\n\n".join(out) + "\n"


def offered_mbps(sources: int) -> float:
    """Traffic the TCP applications generate (user level), the paper's dotted line."""
    return sources * data.APP_RATE_BPS / 1e6


def bound_mbps(mss: int, b_g: float, b_av: Optional[float] = None) -> float:
    """The paper's theoretical goodput gamma_t = eta_OH(MSS) x B_av (Mb/s); B_av defaults to
    the average bandwidth this model's link leaves to ABR."""
    from ... import _core

    avail = data.b_av_mbps(b_g) if b_av is None else b_av
    return _core.eta_oh(mss, float(data.APP_MEAN_BYTES)) * avail
