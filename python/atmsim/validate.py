"""The engine against theory: `atmsim validate`.

Each check builds a small scenario whose outcome a closed-form or textbook result predicts,
runs it, and compares the measurement with the prediction:

    passed = |measured - expected| <= tolerance

The tolerance is fixed by the check before looking at the measurement: for a stochastic
quantity, the 99 % Student-t half-width of the mean over independent replications; for a
deterministic one, the granularity of what is counted (one segment, one window, one cell over
the measured interval) or exactly 0 for counts the theory fixes. The method and each check's
source are described in docs/validation.md.

    >>> from atmsim.validate import run_checks
    >>> [r.passed for r in run_checks(["cell-rate"])]
    [True]
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .runner import run
from .student_t import quantile

# 155.52 Mb/s: the engine's cell rate is the line rate / 424 bits, 366 792.45 cells/s (no SONET
# overhead deducted; the UBR+ study's 125.2 Mb/s maximum assumes the same).
LINE_BPS = 155_520_000
CELL_BITS = 424
# TCP (20) + IP (20) headers, LLC/SNAP (8) and the AAL5 trailer (8), per AAL5 frame.
FRAME_OVERHEAD = 20 + 20 + 8 + 8
CONFIDENCE = 0.99


class UnknownCheck(ValueError):
    """A name given to `run_checks` (or `--only`) that is not a check."""


@dataclass(frozen=True)
class Measurement:
    """What a check's run gives: the prediction, the measurement, the tolerance, and a line of
    detail for the terminal."""

    expected: float
    measured: float
    tolerance: float
    note: str = ""


@dataclass(frozen=True)
class CheckResult:
    name: str
    source: str
    expected: float
    measured: float
    tolerance: float
    passed: bool
    note: str = ""

    def as_dict(self) -> Dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "expected": self.expected,
            "measured": self.measured,
            "tolerance": self.tolerance,
            "passed": self.passed,
        }


def judge(name: str, source: str, m: Measurement, expected: Optional[float] = None) -> CheckResult:
    """The verdict on a measurement; `expected` replaces the prediction (to show that a wrong
    prediction fails)."""
    want = m.expected if expected is None else expected
    ok = math.isfinite(m.measured) and abs(m.measured - want) <= m.tolerance
    return CheckResult(name, source, want, m.measured, m.tolerance, ok, m.note)


@dataclass(frozen=True)
class Check:
    name: str
    source: str
    measure: Callable[[], Measurement]

    def run(self, expected: Optional[float] = None) -> CheckResult:
        return judge(self.name, self.source, self.measure(), expected)


# --- scenario text -------------------------------------------------------------------------


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")


def _table(header: str, body: Mapping[str, Any]) -> str:
    return f"[{header}]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in body.items())


def scenario(
    duration_s: float,
    hosts: Sequence[str],
    switches: Sequence[str],
    links: Sequence[Mapping[str, Any]],
    *,
    seed: int = 1,
    phases: str = "aligned",
    ports: Sequence[Mapping[str, Any]] = (),
    connections: Sequence[Mapping[str, Any]] = (),
    background: Sequence[Mapping[str, Any]] = (),
    tcp: Optional[Mapping[str, Any]] = None,
) -> str:
    """TOML text of a general-form scenario (phase-locked links without drift by default)."""
    sim: Dict[str, Any] = {"duration_s": float(duration_s), "seed": seed, "phases": phases}
    if phases == "random":
        sim["clock_ppm"] = 0
    parts = [_table("simulation", sim)]
    if tcp is not None:
        parts.append(_table("tcp", tcp))
    parts += [_table("[node]", {"name": n, "kind": "host"}) for n in hosts]
    parts += [_table("[node]", {"name": n, "kind": "switch"}) for n in switches]
    parts += [_table("[link]", link) for link in links]
    parts += [_table("[port]", port) for port in ports]
    parts += [_table("[connection]", c) for c in connections]
    parts += [_table("[background]", b) for b in background]
    return "\n".join(parts)


def _link(a: str, b: str, delay_us: float = 0.0, rate_bps: int = LINE_BPS) -> Dict[str, Any]:
    return {"ends": [a, b], "rate_bps": rate_bps, "delay_us": float(delay_us)}


def _report(text: str) -> Dict[str, Any]:
    raw: Dict[str, Any] = run(text=text).raw
    return raw


def _port(raw: Mapping[str, Any], name: str) -> Dict[str, Any]:
    for p in raw["ports"]:
        if p["name"] == name:
            return dict(p)
    raise KeyError(name)


def cells_per_frame(octets: int) -> int:
    """Cells of an AAL5 frame carrying `octets` of TCP payload: ceil((payload + 56) / 48)."""
    return -(-(octets + FRAME_OVERHEAD) // 48)


def max_goodput_bps(mss: int, line_bps: float = LINE_BPS) -> float:
    """Largest TCP goodput over AAL5 with LLC/SNAP: line rate x MSS / (53 x cells per frame)."""
    return line_bps * mss * 8 / (CELL_BITS * cells_per_frame(mss))


def half_width(values: Sequence[float], level: float = CONFIDENCE) -> float:
    """Student-t half-width of the mean of independent replications."""
    n = len(values)
    return quantile(0.5 + level / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)


# --- queueing: M/D/1 with slotted service ---------------------------------------------------

MD1_RATE = 10_000  # cells/s of the output link (T = 100 us)
MD1_ACCESS = 100  # the access link is this many times faster: arrivals are Poisson to 1 %
MD1_DURATION = 200.0
MD1_REPLICATIONS = 8


def md1_expected(rho: float) -> float:
    """Mean number of cells waiting (not in transmission) at a port whose output slots have a
    fixed period D, fed by Poisson cells at rho / D.

    Pollaczek-Khinchine gives the M/D/1 mean wait W = rho D / (2 (1 - rho)). A cell that
    finds the port idle still waits for the next slot boundary, D/2 on average, and the count
    left at each boundary follows the M/D/1 embedded chain (Q' = max(Q - 1, 0) + A, A Poisson
    of mean rho), so the slotted wait is W + D/2 = D / (2 (1 - rho)) and by Little's law the
    mean queue is rho / (2 (1 - rho)).
    """
    return rho / (2 * (1 - rho))


def md1_scenario(
    rho: float, seed: int, duration_s: float = MD1_DURATION, buffer_cells: Optional[int] = None
) -> str:
    """Poisson cells at rho x 10 000 cells/s into the port s->b (infinite, or `buffer_cells`
    with tail drop), arriving on an access link 100 times faster."""
    ports = []
    if buffer_cells is not None:
        ports = [{"node": "s", "toward": "b", "buffer_cells": buffer_cells, "policy": {"kind": "tail_drop"}}]
    user_bps = rho * MD1_RATE * 44 * 8  # AAL3/4 messages: 44 user octets per cell
    return scenario(
        duration_s,
        ["a", "b"],
        ["s"],
        [
            {"ends": ["a", "s"], "rate_cells_per_s": MD1_RATE * MD1_ACCESS, "delay_us": 0.0},
            {"ends": ["s", "b"], "rate_cells_per_s": MD1_RATE, "delay_us": 0.0},
        ],
        seed=seed,
        phases="random",
        ports=ports,
        background=[
            {
                "name": "poisson",
                "route": ["a", "s", "b"],
                # One cell per message: a Poisson stream of cells.
                "source": {"kind": "poisson", "user_bps": user_bps, "mean_cells": 1.0, "max_cells": 2},
            }
        ],
    )


def _md1(rho: float) -> Callable[[], Measurement]:
    def measure() -> Measurement:
        means = [
            float(_port(_report(md1_scenario(rho, seed)), "s->b")["mean_queue_cells"])
            for seed in range(1, MD1_REPLICATIONS + 1)
        ]
        return Measurement(
            md1_expected(rho),
            statistics.fmean(means),
            half_width(means),
            f"{MD1_REPLICATIONS} replications of {MD1_DURATION:g} s at {MD1_RATE} cells/s",
        )

    return measure


MD1K_RHO, MD1K_BUFFER, MD1K_DURATION = 0.9, 10, 100.0


def md1k_loss(rho: float, k: int) -> float:
    """Cell loss ratio of the slotted M/D/1/K port (K waiting places, tail drop), from the
    stationary law of its embedded chain at slot boundaries: Q' = min(max(Q - 1, 0) + A, K),
    A Poisson of mean rho, and the cells lost in a slot max(Q - 1, 0) + A - K when positive.
    The law is found by iterating the transition matrix to a fixed point."""
    top = 80  # P(A >= 80) is below 1e-100 for rho <= 1
    pa = [math.exp(-rho) * rho**a / math.factorial(a) for a in range(top)]
    step = [[0.0] * (k + 1) for _ in range(k + 1)]
    lost = [0.0] * (k + 1)
    for q in range(k + 1):
        left = max(q - 1, 0)
        for a, p in enumerate(pa):
            step[q][min(left + a, k)] += p
            lost[q] += p * max(left + a - k, 0)
    pi = [1.0 / (k + 1)] * (k + 1)
    for _ in range(100_000):
        nxt = [sum(pi[i] * step[i][j] for i in range(k + 1)) for j in range(k + 1)]
        done = max(abs(x - y) for x, y in zip(nxt, pi)) < 1e-16
        pi = nxt
        if done:
            break
    return sum(p * d for p, d in zip(pi, lost)) / rho


def _md1k() -> Measurement:
    ratios = []
    for seed in range(1, MD1_REPLICATIONS + 1):
        text = md1_scenario(MD1K_RHO, seed, MD1K_DURATION, buffer_cells=MD1K_BUFFER)
        p = _port(_report(text), "s->b")
        ratios.append(int(p["cells_dropped"]) / int(p["cells_in"]))
    return Measurement(
        md1k_loss(MD1K_RHO, MD1K_BUFFER),
        statistics.fmean(ratios),
        half_width(ratios),
        f"{MD1_REPLICATIONS} replications of {MD1K_DURATION:g} s at {MD1_RATE} cells/s",
    )


# --- TCP -----------------------------------------------------------------------------------


def _one_hop_tcp(duration_s: float, delay_us: float, tcp: Mapping[str, Any]) -> str:
    return scenario(
        duration_s,
        ["a", "b"],
        ["s"],
        [_link("a", "s", delay_us), _link("s", "b", delay_us)],
        ports=[{"node": "s", "toward": "b", "buffer_cells": "infinite", "policy": {"kind": "tail_drop"}}],
        connections=[{"name": "tcp", "route": ["a", "s", "b"]}],
        tcp={"preset": "ubr_plus", **tcp},
    )


def _delivered(text: str) -> int:
    return int(_report(text)["flows"][0]["bytes_delivered"])


def _steady_bps(make: Callable[[float], str], d1: float, d2: float) -> float:
    """Goodput between d1 and d2 (the same run cut at two times: the start-up is left out)."""
    return (_delivered(make(d2)) - _delivered(make(d1))) * 8 / (d2 - d1)


def _aal5(mss: int) -> Callable[[], Measurement]:
    d1, d2 = 0.05, 1.05

    def measure() -> Measurement:
        tcp = {"mss": mss, "window_bytes": 65535}
        got = _steady_bps(lambda d: _one_hop_tcp(d, 5.0, tcp), d1, d2)
        cells = cells_per_frame(mss)
        return Measurement(
            max_goodput_bps(mss),
            got,
            2 * mss * 8 / (d2 - d1),
            f"{cells} cells per segment, goodput from {d1:g} s to {d2:g} s",
        )

    return measure


WINDOW_DELAY_US = 10_000.0  # each of two links: RTT about 40 ms
WINDOW_SEGMENTS = 32


def window_rtt_s(mss: int, delay_us: float = WINDOW_DELAY_US) -> float:
    """Round trip of a segment and its ACK on host-switch-host at the line rate: twice the two
    propagation delays, plus the segment's and the ACK's cells once and one cell time at the
    switch each way (cells cut through the switch)."""
    cell_s = CELL_BITS / LINE_BPS
    return 4 * delay_us * 1e-6 + (cells_per_frame(mss) + cells_per_frame(0) + 2) * cell_s


def _window_limited() -> Measurement:
    mss = 512
    window = WINDOW_SEGMENTS * mss
    d1, d2 = 1.0, 81.0
    tcp = {"mss": mss, "window_bytes": window, "initial_cwnd_segments": WINDOW_SEGMENTS}
    got = _steady_bps(lambda d: _one_hop_tcp(d, WINDOW_DELAY_US, tcp), d1, d2)
    rtt = window_rtt_s(mss)
    return Measurement(
        window * 8 / rtt,
        got,
        window * 8 / (d2 - d1),
        f"W = {window} octets, RTT = {rtt * 1e3:.4f} ms, well below the link's "
        f"{max_goodput_bps(mss) / 1e6:.1f} Mb/s",
    )


SLOW_START_ROUNDS = 6


def _slow_start() -> Measurement:
    mss = 512
    rtt = window_rtt_s(mss)
    k = SLOW_START_ROUNDS
    text = _one_hop_tcp((k + 0.5) * rtt, WINDOW_DELAY_US, {"mss": mss, "window_bytes": 65535})
    sent = int(_report(text)["flows"][0]["segments_sent"])
    return Measurement(
        float(2 ** (k + 1) - 1),
        float(sent),
        0.0,
        f"segments sent by {k + 0.5:g} RTT = {(k + 0.5) * rtt * 1e3:.2f} ms",
    )


def _shared_port(
    duration_s: float, n: int, port: Mapping[str, Any], conn: Callable[[int], Mapping[str, Any]]
) -> Dict[str, Any]:
    hosts = [f"h{i}" for i in range(1, n + 1)]
    return _report(
        scenario(
            duration_s,
            hosts + ["dst"],
            ["s"],
            [_link(h, "s", 5.0) for h in hosts] + [_link("s", "dst", 5.0)],
            ports=[{"node": "s", "toward": "dst", "buffer_cells": "infinite", **port}],
            connections=[
                {"name": f"tcp{i}", "route": [f"h{i}", "s", "dst"], **conn(i)} for i in range(1, n + 1)
            ],
            tcp={"preset": "ubr_plus"},
        )
    )


def _flow_bytes(raw: Mapping[str, Any]) -> List[int]:
    return [int(f["bytes_delivered"]) for f in raw["flows"]]


def _steady_shares(
    n: int, port: Mapping[str, Any], conn: Callable[[int], Mapping[str, Any]], d1: float, d2: float
) -> List[int]:
    a = _flow_bytes(_shared_port(d1, n, port, conn))
    b = _flow_bytes(_shared_port(d2, n, port, conn))
    return [y - x for x, y in zip(a, b)]


VS_MCR = (10_000, 20_000, 50_000)  # cells/s, 1 : 2 : 5


def _virtual_spacing() -> Measurement:
    d1, d2 = 0.05, 1.05
    port = {"policy": {"kind": "tail_drop"}, "scheduler": "virtual_spacing"}
    got = _steady_shares(len(VS_MCR), port, lambda i: {"gfr": {"mcr_cells_per_s": VS_MCR[i - 1]}}, d1, d2)
    total = sum(got)
    shares = [g / total for g in got]
    return Measurement(
        VS_MCR[-1] / sum(VS_MCR),
        shares[-1],
        2 * 512 / total,
        "shares " + ", ".join(f"{s:.4f}" for s in shares) + f" for MCR {VS_MCR}",
    )


RR_MSS = (512, 1460, 9140)


def _round_robin() -> Measurement:
    d1, d2 = 0.05, 2.05
    port = {"policy": {"kind": "tail_drop"}, "scheduler": "round_robin"}
    got = _steady_shares(
        len(RR_MSS), port, lambda i: {"tcp": {"mss": RR_MSS[i - 1], "window_bytes": 65535}}, d1, d2
    )
    per_cell = [m / cells_per_frame(m) for m in RR_MSS]
    expected = per_cell[-1] / per_cell[0]
    measured = got[-1] / got[0]
    # One segment of each flow at each end of the interval.
    tol = expected * (2 * RR_MSS[-1] / got[-1] + 2 * RR_MSS[0] / got[0])
    return Measurement(
        expected,
        measured,
        tol,
        "goodput (Mb/s) " + ", ".join(f"{g * 8 / (d2 - d1) / 1e6:.3f}" for g in got) + f" for MSS {RR_MSS}",
    )


FAIR_FLOWS = 4


def _fairness() -> Measurement:
    d1, d2 = 0.05, 1.05
    port = {"policy": {"kind": "tail_drop"}, "scheduler": "round_robin"}
    got = _steady_shares(FAIR_FLOWS, port, lambda i: {}, d1, d2)
    jain = sum(got) ** 2 / (len(got) * sum(g * g for g in got))
    # Each flow's count is exact to one segment at each end: a relative spread of at most
    # d = 2 MSS / mean, and Jain's index of values mean x (1 +- d) is 1 / (1 + d^2).
    d = 2 * 512 / statistics.fmean(got)
    return Measurement(
        1.0,
        jain,
        1 - 1 / (1 + d * d),
        "goodput (Mb/s) " + ", ".join(f"{g * 8 / (d2 - d1) / 1e6:.3f}" for g in got),
    )


# --- GCRA ----------------------------------------------------------------------------------

PS = 10**12
GCRA_ACCESS_CELLS = 1_000_000  # access link: 1 us cells
GCRA_PCR_T_PS = 10_000_000  # T = 10 us: PCR = 42.4 Mb/s
GCRA_CBR_PERIOD_PS = 7_300_000  # the source: one cell every 7.3 us (PCR x 1.37)
GCRA_DURATION = 0.2


def vsa_conforming(arrivals: Iterable[int], t: int, tau: int) -> int:
    """Cells conforming to GCRA(T, tau) by the virtual scheduling algorithm (ITU-T I.371
    annex A): a cell at ta conforms unless TAT > ta + tau; then TAT = max(TAT, ta) + T."""
    tat: Optional[int] = None
    ok = 0
    for ta in arrivals:
        if tat is None or tat <= ta + tau:
            tat = (ta if tat is None else max(tat, ta)) + t
            ok += 1
    return ok


def cbr_arrivals(period: int, slot: Fraction, n: int) -> List[int]:
    """Times (ps, up to a constant) at which a CBR source's cells reach the switch: generated
    every `period` from one period after 0, each leaving at the next boundary of the access
    link's slot grid (phase-locked at 0)."""
    return [math.ceil(math.ceil(k * period / slot) * slot) for k in range(1, n + 1)]


def _gcra(cdvt_ps: int) -> Callable[[], Measurement]:
    def measure() -> Measurement:
        rate_bps = CELL_BITS * PS / GCRA_CBR_PERIOD_PS
        pcr_bps = CELL_BITS * PS / GCRA_PCR_T_PS
        raw = _report(
            scenario(
                GCRA_DURATION,
                ["a", "b"],
                ["s"],
                [
                    {"ends": ["a", "s"], "rate_cells_per_s": GCRA_ACCESS_CELLS, "delay_us": 0.0},
                    {"ends": ["s", "b"], "rate_cells_per_s": GCRA_ACCESS_CELLS, "delay_us": 0.0},
                ],
                background=[
                    {
                        "name": "cbr",
                        "route": ["a", "s", "b"],
                        "source": {"kind": "cbr", "rate_bps": rate_bps},
                        "upc": {"pcr_bps": pcr_bps, "cdvt_us": cdvt_ps / 1e6, "action": "tag"},
                    }
                ],
            )
        )
        counts = next(iter(_port(raw, "s->b")["upc_cells"].values()))
        n = int(counts["conforming"]) + int(counts["tagged"]) + int(counts["dropped"])
        slot = Fraction(PS, GCRA_ACCESS_CELLS)
        arrivals = cbr_arrivals(GCRA_CBR_PERIOD_PS, slot, n)
        want = vsa_conforming(arrivals, GCRA_PCR_T_PS, cdvt_ps) / n
        a, t = GCRA_CBR_PERIOD_PS, GCRA_PCR_T_PS
        if cdvt_ps >= t - a:
            closed = f"closed form PCR/rate = {a / t:.4f}"
        elif cdvt_ps == 0:
            closed = f"closed form 1/ceil(T/a) = {1 / math.ceil(t / a):.4f}"
        else:
            closed = "between the two closed forms: the grid's 7/8 us spacings decide"
        return Measurement(want, int(counts["conforming"]) / n, 1 / n, f"{n} cells; {closed}")

    return measure


# --- cells ---------------------------------------------------------------------------------

CELL_RATE_D1, CELL_RATE_D2 = 0.01, 0.11


def _overload(duration_s: float) -> Dict[str, Any]:
    """Two CBR sources of 100 Mb/s each into one 155.52 Mb/s port of 100 cells."""
    return _report(
        scenario(
            duration_s,
            ["a1", "a2", "b"],
            ["s"],
            [_link("a1", "s"), _link("a2", "s"), _link("s", "b")],
            ports=[{"node": "s", "toward": "b", "buffer_cells": 100, "policy": {"kind": "tail_drop"}}],
            background=[
                {
                    "name": f"cbr{i}",
                    "route": [f"a{i}", "s", "b"],
                    "source": {"kind": "cbr", "rate_bps": 100e6},
                }
                for i in (1, 2)
            ],
        )
    )


def _cell_rate() -> Measurement:
    d1, d2 = CELL_RATE_D1, CELL_RATE_D2
    out = [int(_port(_overload(d), "s->b")["cells_out"]) for d in (d1, d2)]
    return Measurement(
        LINE_BPS / CELL_BITS,
        (out[1] - out[0]) / (d2 - d1),
        # One cell at each end of the interval.
        2 / (d2 - d1),
        f"{out[1] - out[0]} cells from {d1:g} s to {d2:g} s",
    )


def _conservation() -> Measurement:
    raw = _overload(CELL_RATE_D2)
    p = _port(raw, "s->b")
    gap = int(p["cells_in"]) - int(p["cells_out"]) - int(p["cells_dropped"]) - int(p["final_queue_cells"])
    c = raw["summary"]["conservation"]
    return Measurement(
        0.0,
        float(gap),
        0.0,
        f"in {p['cells_in']}, out {p['cells_out']}, dropped {p['cells_dropped']}, "
        f"queued {p['final_queue_cells']}; run balanced = {c.get('balanced')}",
    )


CHECKS: List[Check] = [
    Check(
        "md1-rho-0.5",
        "M/D/1 with slotted service, rho = 0.5: mean queue Lq = rho / (2 (1 - rho)) cells "
        "(Pollaczek-Khinchine wait rho D / (2 (1 - rho)) + D/2 to the slot boundary, Little)",
        _md1(0.5),
    ),
    Check(
        "md1-rho-0.8",
        "M/D/1 with slotted service, rho = 0.8: mean queue Lq = rho / (2 (1 - rho)) cells "
        "(Pollaczek-Khinchine + D/2, Little)",
        _md1(0.8),
    ),
    Check(
        "md1k-loss",
        "slotted M/D/1/K, rho = 0.9, K = 10, tail drop: cell loss ratio from the stationary law "
        "of the embedded chain Q' = min(max(Q - 1, 0) + A, K), A ~ Poisson(rho)",
        _md1k,
    ),
    Check(
        "window-limited",
        "window-limited TCP throughput W / RTT (b/s), fixed window, no loss",
        _window_limited,
    ),
    Check(
        "slow-start",
        "slow start without delayed ACK: segments sent by (k + 1/2) RTT = 2^(k+1) - 1, k = 6",
        _slow_start,
    ),
    Check(
        "aal5-goodput-mss512",
        "max TCP goodput over AAL5 (b/s) = 155.52e6 x MSS / (53 x ceil((MSS + 56) / 48)), "
        "MSS 512: 125.2 Mb/s (UBR+ section 3.2)",
        _aal5(512),
    ),
    Check(
        "aal5-goodput-mss9140",
        "max TCP goodput over AAL5 (b/s) = 155.52e6 x MSS / (53 x ceil((MSS + 56) / 48)), "
        "MSS 9140 (MTU 9180, RFC 1626)",
        _aal5(9140),
    ),
    Check(
        "virtual-spacing-share",
        "Virtual Spacing: backlogged VCs share the port in proportion to their MCR; "
        "share of the MCR-50000 VC = 5 / 8",
        _virtual_spacing,
    ),
    Check(
        "round-robin-cells",
        "cell round robin: equal cells per VC, goodput ratio of MSS 9140 to MSS 512 = "
        "(9140 / ceil(9196/48)) / (512 / ceil(568/48))",
        _round_robin,
    ),
    Check(
        "fairness-round-robin",
        "Jain's index (sum x)^2 / (n sum x^2) of 4 identical greedy TCPs at a cell round-robin port = 1",
        _fairness,
    ),
    Check(
        "gcra-cdvt-0",
        "GCRA(T, 0) conforming fraction of a CBR stream at 1.37 PCR: ITU-T I.371 virtual "
        "scheduling on the same arrival times",
        _gcra(0),
    ),
    Check(
        "gcra-cdvt-2us",
        "GCRA(T, tau = 2 us) conforming fraction of a CBR stream at 1.37 PCR (spacings of 7 and "
        "8 us on the 1 us access grid): ITU-T I.371 virtual scheduling on the same arrival times",
        _gcra(2_000_000),
    ),
    Check(
        "gcra-cdvt-covering",
        "GCRA(T, tau = T) conforming fraction of a CBR stream at 1.37 PCR: virtual scheduling, = PCR / rate",
        _gcra(GCRA_PCR_T_PS),
    ),
    Check(
        "cell-rate",
        "cell rate of a saturated 155.52 Mb/s port = 155.52e6 / 424 = 366 792.45 cells/s "
        "(the engine deducts no SONET overhead; 149.76 Mb/s payload would be 353 207.5)",
        _cell_rate,
    ),
    Check(
        "conservation",
        "cell conservation at an overloaded port: cells in - out - dropped - queued = 0",
        _conservation,
    ),
]


def names() -> List[str]:
    return [c.name for c in CHECKS]


def select(wanted: Optional[Iterable[str]] = None) -> List[Check]:
    """The checks named (all when None), in the CHECKS order; an unknown name raises
    UnknownCheck naming it."""
    if wanted is None:
        return list(CHECKS)
    asked = [w.strip() for w in wanted if w.strip()]
    known = set(names())
    bad = [w for w in asked if w not in known]
    if bad:
        raise UnknownCheck(f"unknown check {bad[0]!r} (known: {', '.join(names())})")
    if not asked:
        raise UnknownCheck("no check named (known: " + ", ".join(names()) + ")")
    return [c for c in CHECKS if c.name in asked]


def run_checks(names: Optional[Iterable[str]] = None) -> List[CheckResult]:
    """Run the checks named (all when None) and return their results."""
    return [c.run() for c in select(names)]


def _num(x: float) -> str:
    return "0" if x == 0 else f"{x:.6g}"


def render_one(r: CheckResult) -> str:
    """A check's block for the terminal: verdict and name, source, the numbers, the detail."""
    lines = [
        f"{'PASS' if r.passed else 'FAIL'}  {r.name}",
        f"      {r.source}",
        f"      expected {_num(r.expected)}  measured {_num(r.measured)}  "
        f"tolerance {_num(r.tolerance)}  |diff| {_num(abs(r.measured - r.expected))}",
    ]
    if r.note:
        lines.append(f"      {r.note}")
    return "\n".join(lines)


def render(results: Sequence[CheckResult]) -> str:
    """The terminal text: one block per check, then the count passed."""
    passed, total = summary(results)
    return "\n".join([render_one(r) for r in results] + [f"{passed}/{total} checks passed"])


def summary(results: Sequence[CheckResult]) -> Tuple[int, int]:
    return sum(r.passed for r in results), len(results)
