"""The CLASS study's networks (Ajmone Marsan et al.) as general-form scenarios.

Two-node network (figure 1). Three TCP transmitters `t1..t3` reach switch `A` over L1..L3.
`A` reaches switch `B` over the bottleneck L0. The receivers `r1..r3` hang on `B` by links of
negligible length. All channels are 150 Mb/s. The background is 9 Poisson connections from host
`bga` (at A) to host `bgb` (at B), and 9 identical ones back from `bgb` to `bga` over L0's other
direction. Each carries 1/9 of the load on the figure's abscissa (user Mb/s, AAL3/4: x 53/44 on
the link). They send AAL3/4 messages (truncated geometric, mean 20 cells, at most 200) back to
back at the access link rate, or GCRA-shaped at beta = 1.2, tau = 0. The node buffers in front
of L0 (and of its reverse direction) are the figure's 1000 or 5000 cells. TCP is 4.3BSD-Reno,
MSS 9140 (the `reno_class` preset).

Italian network: the ten switches and links of italian_network. Each TCP endpoint is a host on
a 150 Mb/s access link of zero length. The background is one Poisson source per nonzero entry
of Table 1: share x total, read as a cell rate (see docs/italian-network.md), so
user rate = share x total x 44/53. The entries above 60 Mb/s of user rate at 1.2 Gb/s are split
over several identical sources. Each source sits on its own 150 Mb/s access link and sends to a
sink host at its destination city. Every switch-to-switch port has the figure's 100 or
1000-cell buffer. Shaped background: beta = 1.5, tau = 0.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple, Union

from . import data
from . import italian_network as it

Shaping = Union[None, float, str]  # None: unshaped; a rate in bit/s; "adaptive"

LINK_BPS = 150_000_000
US_PER_KM = 5


def _shaping_fields(shaping: Shaping, max_rate_bps: float) -> List[str]:
    if shaping is None:
        return []
    if shaping == "adaptive":
        return [f'abr = {{ kind = "adaptive", nrm = {data.NRM}, max_rate_bps = {float(max_rate_bps)!r} }}']
    if isinstance(shaping, (int, float)) and shaping > 0:
        return [f"shaping = {{ rate_bps = {float(shaping)!r}, cdvt_us = 0.0 }}"]
    raise ValueError(f"unknown shaping {shaping!r}")


def _bg_source(user_bps: float, shaped: bool, beta: float) -> List[str]:
    lines = [
        f'source = {{ kind = "poisson", user_bps = {float(user_bps)!r}, '
        f"mean_cells = {data.BG_MEAN_CELLS}, max_cells = {data.BG_MAX_CELLS} }}"
    ]
    if shaped:
        lines.append(f"shaping = {{ beta = {beta!r}, cdvt_us = 0.0 }}")
    return lines


# CLASS is time-driven, slotted and synchronous (Ajmone Marsan et al., "ATM simulation with
# CLASS", Performance Evaluation, 1995): every link's slots start together, a switch takes the
# cells of its inputs on the slot boundary they reach it, and cells of different inputs on one
# boundary tie. So every grid and timer starts at 0 with no drift (phases = "aligned"), every
# port counts arrivals from its next slot boundary (arrivals = "slotted"), and the order of a
# tie is the declared assumption `arbitration` (assumptions.py).
PHASES = "aligned"
ARRIVALS = "slotted"
ARBITRATION = "random"


def _simulation(duration_s: float, seed: int) -> str:
    return f'[simulation]\nduration_s = {float(duration_s)!r}\nseed = {seed}\nphases = "{PHASES}"'


def _port(
    node: str,
    toward: str,
    buffer_cells: int,
    thresholds: Optional[Tuple[int, int]] = None,
    fair_share_interval_us: Optional[float] = None,
) -> str:
    text = (
        f'[[port]]\nnode = "{node}"\ntoward = "{toward}"\nbuffer_cells = {buffer_cells}\n'
        'policy = { kind = "tail_drop" }\n'
        f'arrivals = "{ARRIVALS}"\narbitration = "{ARBITRATION}"'
    )
    if thresholds is not None:
        fair = (
            ""
            if fair_share_interval_us is None
            else f", fair_share_interval_us = {float(fair_share_interval_us)!r}"
        )
        text += f"\nrm_feedback = {{ t_low_cells = {thresholds[0]}, t_high_cells = {thresholds[1]}{fair} }}"
    return text


def two_node_thresholds(buffer_cells: int) -> Tuple[int, int]:
    """T_l and T_h at 1 % and 50 % of the buffer (the two-node runs)."""
    return (max(1, round(buffer_cells * data.T_LOW_FRACTION)), round(buffer_cells * data.T_HIGH_FRACTION))


def two_node_scenario(
    bg_mbps: float,
    buffer_cells: int,
    shaping: Shaping,
    lengths: str = "1000",
    bg_shaped: bool = True,
    duration_s: float = data.RUN_LIMIT_S,
    seed: int = 1,
    adaptive_max_bps: float = data.ADAPTIVE_MAX_BPS_TWO_NODE,
    fair_share_interval_us: Optional[float] = None,
) -> str:
    """Figures 2-6: background load (user Mb/s on the abscissa), buffer in front of L0, TCP
    shaping (None, a rate in bit/s of 53-octet cells, or "adaptive"), link lengths "1000",
    "mixed" (505/550/1000 km) or "100". With adaptive shaping, `fair_share_interval_us` turns on
    the switch's fair-share enforcement (figures 5-6) with that measurement interval."""
    l0, *access = data.LENGTHS_KM[lengths]
    adaptive = shaping == "adaptive"
    out = [
        _simulation(duration_s, seed),
        '[metrics]\nbottleneck = "A->B"',
        '[[node]]\nname = "A"\nkind = "switch"',
        '[[node]]\nname = "B"\nkind = "switch"',
        f'[[link]]\nends = ["A", "B"]\nrate_bps = {LINK_BPS}\ndelay_us = {US_PER_KM * l0}',
        _port(
            "A",
            "B",
            buffer_cells,
            two_node_thresholds(buffer_cells) if adaptive else None,
            fair_share_interval_us if adaptive else None,
        ),
        _port("B", "A", buffer_cells),
    ]
    for i, km in enumerate(access, start=1):
        t, r = f"t{i}", f"r{i}"
        out += [
            f'[[node]]\nname = "{t}"\nkind = "host"',
            f'[[node]]\nname = "{r}"\nkind = "host"',
            f'[[link]]\nends = ["{t}", "A"]\nrate_bps = {LINK_BPS}\ndelay_us = {US_PER_KM * km}',
            f'[[link]]\nends = ["B", "{r}"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
        ]
        conn = [
            f'[[connection]]\nname = "tcp{i}"\nroute = ["{t}", "A", "B", "{r}"]',
            'tcp = { preset = "reno_class" }',
        ]
        conn += _shaping_fields(shaping, adaptive_max_bps)
        out.append("\n".join(conn))
    if bg_mbps > 0:
        out += [
            '[[node]]\nname = "bga"\nkind = "host"',
            '[[node]]\nname = "bgb"\nkind = "host"',
            f'[[link]]\nends = ["bga", "A"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
            f'[[link]]\nends = ["B", "bgb"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
        ]
        per = bg_mbps * 1e6 / data.BG_CONNECTIONS
        for name, route in (("fwd", '["bga", "A", "B", "bgb"]'), ("back", '["bgb", "B", "A", "bga"]')):
            out.append(
                "\n".join(
                    [f'[[background]]\nname = "bg_{name}"\nroute = {route}', f"count = {data.BG_CONNECTIONS}"]
                    + _bg_source(per, bg_shaped, data.BG_BETA_TWO_NODE)
                )
            )
    return "\n\n".join(out) + "\n"


# --- Italian network -------------------------------------------------------------------------

SPLIT_USER_BPS = 60e6  # largest user rate of one background source at 1.2 Gb/s
SINK_BPS = 600_000_000


def _tcp_hosts(name: str) -> Tuple[str, str]:
    tag = name.replace("-", "")
    return f"s_{tag}", f"d_{tag}"


def background_sources(total_bps: float) -> List[Tuple[str, str, str, float]]:
    """(name, source city, destination city, user bit/s) of every background source."""
    out = []
    top = max(data.ITALY_TOTALS_BPS)
    for (src, dst), share in sorted(data.traffic_matrix().items()):
        cell_bps = share / 1000.0 * total_bps
        user = cell_bps * data.BG_USER_OCTETS_PER_CELL / 53
        parts = max(1, math.ceil(share / 1000.0 * top * 44 / 53 / SPLIT_USER_BPS))
        for k in range(1, parts + 1):
            out.append((f"bg_{src}_{dst}_{k}", src, dst, user / parts))
    return out


def italy_connection_names() -> List[str]:
    return [name for name, _, _ in data.ITALY_CONNECTIONS]


def italy_scenario(
    total_bps: float,
    buffer_cells: int,
    shaping: Shaping,
    bg_shaped: bool,
    duration_s: float = data.RUN_LIMIT_S,
    seed: int = 1,
    links: Sequence[it.Link] = it.TOPOLOGY,
    tcp: bool = True,
) -> str:
    """Figures 8-12: total background (0.8/1.0/1.2 Gb/s), buffer per switch port (100/1000),
    TCP shaping (None, a rate in bit/s, "adaptive"), background shaped (beta 1.5) or not.
    tcp=False replaces the six TCP connections by a trickle that crosses no switch-to-switch
    link (the check of Table 2's background loads)."""
    adaptive = shaping == "adaptive"
    paths = it.routes(links)
    out = [_simulation(duration_s, seed)]
    out += [f'[[node]]\nname = "{c}"\nkind = "switch"' for c in it.NODES]
    for link in links:
        out.append(
            f'[[link]]\nends = ["{link.a}", "{link.b}"]\n'
            f"rate_bps = {int(link.capacity_bps)}\ndelay_us = {link.delay_us}"
        )
        thresholds = data.ITALY_THRESHOLDS[buffer_cells] if adaptive else None
        out.append(_port(link.a, link.b, buffer_cells, thresholds))
        out.append(_port(link.b, link.a, buffer_cells, thresholds))
    for name, src, dst in data.ITALY_CONNECTIONS if tcp else ():
        s, d = _tcp_hosts(name)
        out += [
            f'[[node]]\nname = "{s}"\nkind = "host"',
            f'[[node]]\nname = "{d}"\nkind = "host"',
            f'[[link]]\nends = ["{s}", "{src}"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
            f'[[link]]\nends = ["{dst}", "{d}"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
        ]
        route = ", ".join(f'"{n}"' for n in [s] + paths[(src, dst)] + [d])
        cap = data.ITALY_ADAPTIVE_MAX_BPS_MIRO if name == "Mi-Ro" else data.ITALY_ADAPTIVE_MAX_BPS
        conn = [f'[[connection]]\nname = "{name}"\nroute = [{route}]', 'tcp = { preset = "reno_class" }']
        conn += _shaping_fields(shaping, cap)
        out.append("\n".join(conn))
    if not tcp:
        # The engine needs one connection: a trickle between two hosts on the Milan switch,
        # which crosses no switch-to-switch link.
        out += [
            '[[node]]\nname = "probe_s"\nkind = "host"',
            '[[node]]\nname = "probe_d"\nkind = "host"',
            f'[[link]]\nends = ["probe_s", "MI"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
            f'[[link]]\nends = ["MI", "probe_d"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
            '[[connection]]\nname = "probe"\nroute = ["probe_s", "MI", "probe_d"]\n'
            'app = { kind = "messages", mean_bytes = 1000, rate_bps = 1000.0 }',
        ]
    for city in it.NODES:
        out += [
            f'[[node]]\nname = "sink_{city}"\nkind = "host"',
            f'[[link]]\nends = ["{city}", "sink_{city}"]\nrate_bps = {SINK_BPS}\ndelay_us = 0',
        ]
    for name, src, dst, user in background_sources(total_bps):
        host = f"h_{name}"
        route = ", ".join(f'"{n}"' for n in [host] + paths[(src, dst)] + [f"sink_{dst}"])
        out += [
            f'[[node]]\nname = "{host}"\nkind = "host"',
            f'[[link]]\nends = ["{host}", "{src}"]\nrate_bps = {LINK_BPS}\ndelay_us = 0',
        ]
        out.append(
            "\n".join(
                [f'[[background]]\nname = "{name}"\nroute = [{route}]']
                + _bg_source(user, bg_shaped, data.BG_BETA_ITALY)
            )
        )
    return "\n\n".join(out) + "\n"


def expected_port_loads(total_bps: float, links: Sequence[it.Link] = it.TOPOLOGY) -> Dict[str, float]:
    """Background load per switch-to-switch port ("A->B") as a fraction of capacity."""
    return {f"{a}->{b}": v for (a, b), v in it.link_loads(total_bps, links).items()}
