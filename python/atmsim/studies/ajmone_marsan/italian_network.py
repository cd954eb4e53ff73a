"""The CLASS study's ten-node Italian network, whose figure (Fig. 7) is lost: the topology atmsim
assumes, its routing, and the background load the traffic matrix of Table 1 puts on each link.

How the topology was derived is in docs/italian-network.md. In short:
  * nodes are the ten cities; a link's length is the great-circle distance between the city
    centres (coordinates below, rounded to 0.01 degree), rounded to the kilometre;
  * routing is shortest path by length (Dijkstra over the link lengths); with these lengths no
    two paths tie. Minimum hop count (ties broken by length) gives the same routes for the chosen
    topology;
  * Mi-Ro is a 600 Mb/s channel (the text), and so is Mi-To, which no TCP connection crosses and
    whose background would exceed 150 Mb/s at 1.2 Gb/s; every other link is 150 Mb/s (the text
    names only these two rates, and puts To-Fi, Ve-To and Ro-Ba on 150 Mb/s channels);
  * each (source, destination) entry of Table 1 is carried, in its direction, on every link of
    its route; a link's load is the sum over the entries it carries times the total, divided by
    the capacity. The totals (0.8, 1.0, 1.2 Gb/s) are read as rates of 53-octet cells, in the same
    units as the link capacity: read as user rates (x 53/44 on the link) they make every load of
    Table 2 about 20 % too high (see the docs);
  * among candidate topologies (links between neighbouring cities, with the route lengths Table 2
    gives: Mi-Ro one link, To-Fi three, Ve-To two, Ro-Ba, Ba-Pa and Pa-Ba two through Naples)
    the one kept gives the closest loads to Table 2.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from . import data

# City centres (degrees north, degrees east).
COORDS: Dict[str, Tuple[float, float]] = {
    "MI": (45.46, 9.19),
    "TO": (45.07, 7.69),
    "GE": (44.41, 8.93),
    "VE": (45.44, 12.32),
    "BO": (44.49, 11.34),
    "FI": (43.77, 11.26),
    "RO": (41.90, 12.50),
    "NA": (40.85, 14.27),
    "BA": (41.12, 16.87),
    "PA": (38.12, 13.36),
}
NODES: Tuple[str, ...] = data.ITALY_NODES
EARTH_RADIUS_KM = 6371.0
FAST_BPS = 600e6
SLOW_BPS = 150e6


def great_circle_km(a: str, b: str) -> float:
    """Haversine distance between two city centres (km)."""
    (la1, lo1), (la2, lo2) = COORDS[a], COORDS[b]
    p1, p2 = math.radians(la1), math.radians(la2)
    h = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lo2 - lo1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


@dataclass(frozen=True)
class Link:
    """A full-duplex channel between two cities."""

    a: str
    b: str
    capacity_bps: float = SLOW_BPS

    @property
    def length_km(self) -> int:
        return round(great_circle_km(self.a, self.b))

    @property
    def delay_us(self) -> int:
        """One-way propagation delay at 5 us/km."""
        return 5 * self.length_km


def _links(pairs: Iterable[str], fast: Sequence[str] = ("MI-RO",)) -> Tuple[Link, ...]:
    out = []
    for p in pairs:
        a, b = p.split("-")
        out.append(Link(a, b, FAST_BPS if p in fast else SLOW_BPS))
    return tuple(out)


# The topology atmsim assumes (best agreement with Table 2; docs/italian-network.md).
TOPOLOGY: Tuple[Link, ...] = _links(
    (
        "MI-RO",
        "MI-TO",
        "TO-BO",
        "GE-BO",
        "GE-FI",
        "VE-BO",
        "VE-FI",
        "FI-RO",
        "RO-NA",
        "RO-PA",
        "NA-BA",
        "NA-PA",
    ),
    fast=("MI-RO", "MI-TO"),
)

# Alternatives examined (docs/italian-network.md gives their loads beside Table 2).
ALTERNATIVES: Dict[str, Tuple[Link, ...]] = {
    # A Milan-centred backbone along the motorways: every northern city on Milan, Bologna on
    # the Milan-Florence-Rome axis. It meets the hop counts but loads Mi-To and Mi-Ro with all
    # of Turin's and Genoa's traffic.
    "milan-star": _links(
        (
            "MI-RO",
            "MI-TO",
            "MI-GE",
            "MI-VE",
            "MI-BO",
            "BO-FI",
            "FI-RO",
            "RO-NA",
            "RO-PA",
            "NA-BA",
            "NA-PA",
        )
    ),
    # Second best of the search (scripts/italian_topology_search.py): Turin-Genoa-Venice-
    # Florence, with Bologna-Florence; Genoa-Venice crosses the Po valley without a stop.
    "genoa-venice": _links(
        (
            "MI-RO",
            "MI-TO",
            "TO-GE",
            "GE-VE",
            "VE-FI",
            "BO-FI",
            "FI-RO",
            "RO-NA",
            "RO-PA",
            "NA-BA",
            "NA-PA",
        ),
        fast=("MI-RO", "MI-TO"),
    ),
    # The kept topology with Palermo reached only through Naples.
    "palermo-via-naples": _links(
        (
            "MI-RO",
            "MI-TO",
            "TO-BO",
            "GE-BO",
            "GE-FI",
            "VE-BO",
            "VE-FI",
            "FI-RO",
            "RO-NA",
            "NA-BA",
            "NA-PA",
        ),
        fast=("MI-RO", "MI-TO"),
    ),
}


def routes(links: Sequence[Link] = TOPOLOGY, rule: str = "km") -> Dict[Tuple[str, str], List[str]]:
    """Shortest route between every ordered pair of cities. rule "km": least total length;
    "hops": fewest links, ties broken by length. Raises ValueError on a disconnected graph."""
    if rule not in ("km", "hops"):
        raise ValueError(f"unknown routing rule {rule!r}")
    adj: Dict[str, List[Tuple[str, float]]] = {n: [] for n in NODES}
    for link in links:
        adj[link.a].append((link.b, link.length_km))
        adj[link.b].append((link.a, link.length_km))
    out: Dict[Tuple[str, str], List[str]] = {}
    for src in NODES:
        best: Dict[str, Tuple[float, float]] = {src: (0.0, 0.0)}
        prev: Dict[str, str] = {}
        heap: List[Tuple[Tuple[float, float], str]] = [((0.0, 0.0), src)]
        while heap:
            cost, node = heapq.heappop(heap)
            if cost > best[node]:
                continue
            for nxt, km in adj[node]:
                step = (cost[0] + km, 0.0) if rule == "km" else (cost[0] + 1, cost[1] + km)
                if nxt not in best or step < best[nxt]:
                    best[nxt] = step
                    prev[nxt] = node
                    heapq.heappush(heap, (step, nxt))
        if len(best) != len(NODES):
            raise ValueError(f"the topology does not connect {src} to every city")
        for dst in NODES:
            if dst == src:
                continue
            path = [dst]
            while path[-1] != src:
                path.append(prev[path[-1]])
            out[(src, dst)] = path[::-1]
    return out


def capacity(links: Sequence[Link]) -> Dict[Tuple[str, str], float]:
    """Capacity of each direction of each link, keyed (from, to)."""
    out: Dict[Tuple[str, str], float] = {}
    for link in links:
        out[(link.a, link.b)] = link.capacity_bps
        out[(link.b, link.a)] = link.capacity_bps
    return out


def link_loads(
    total_bps: float,
    links: Sequence[Link] = TOPOLOGY,
    matrix: Optional[Mapping[Tuple[str, str], float]] = None,
    rule: str = "km",
) -> Dict[Tuple[str, str], float]:
    """Background load of each direction of each link as a fraction of its capacity, when
    `total_bps` (cell rate) is spread over the routes by the thousandths of `matrix`
    (default: Table 1)."""
    matrix = data.traffic_matrix() if matrix is None else matrix
    paths = routes(links, rule)
    caps = capacity(links)
    bps: Dict[Tuple[str, str], float] = dict.fromkeys(caps, 0.0)
    for (src, dst), share in matrix.items():
        path = paths[(src, dst)]
        for hop in zip(path, path[1:]):
            bps[hop] += share / 1000.0 * total_bps
    return {key: bps[key] / caps[key] for key in caps}


@dataclass(frozen=True)
class Table2Row:
    connection: str
    hop: int  # 1 = the first link the connection crosses
    link: str  # "FROM->TO"
    total_bps: float
    model: float  # load fraction from the matrix and this topology
    paper: Optional[float]  # Table 2 (None where the connection crosses more links)


def table2_comparison(
    links: Sequence[Link] = TOPOLOGY, rule: str = "km", totals: Sequence[float] = data.ITALY_TOTALS_BPS
) -> List[Table2Row]:
    """For every TCP connection, every link of its route and every total: the model's load
    beside Table 2's."""
    paths = routes(links, rule)
    rows: List[Table2Row] = []
    for total in totals:
        loads = link_loads(total, links, rule=rule)
        for name, src, dst in data.ITALY_CONNECTIONS:
            path = paths[(src, dst)]
            paper = data.TABLE2[name][total]
            hops = list(zip(path, path[1:]))
            for i in range(max(len(hops), len(paper))):
                hop = hops[i] if i < len(hops) else None
                rows.append(
                    Table2Row(
                        connection=name,
                        hop=i + 1,
                        link=f"{hop[0]}->{hop[1]}" if hop else "-",
                        total_bps=total,
                        model=loads[hop] if hop else float("nan"),
                        paper=paper[i] if i < len(paper) else None,
                    )
                )
    return rows


def route_lengths_match(links: Sequence[Link] = TOPOLOGY, rule: str = "km") -> bool:
    """Each TCP connection crosses as many links as Table 2 lists, Ro-Ba and Pa-Ba share the
    Na-Ba link, and Mi-Ro is the 600 Mb/s channel."""
    paths = routes(links, rule)
    for name, src, dst in data.ITALY_CONNECTIONS:
        if len(paths[(src, dst)]) - 1 != len(data.TABLE2[name][0.8e9]):
            return False
    caps = capacity(links)
    shared = ("NA", "BA")
    for src, dst in (("RO", "BA"), ("PA", "BA")):
        p = paths[(src, dst)]
        if shared not in list(zip(p, p[1:])):
            return False
    return caps.get(("MI", "RO")) == FAST_BPS


def log_error(links: Sequence[Link] = TOPOLOGY, rule: str = "km", total_bps: float = 0.8e9) -> float:
    """Root-mean-square of ln(model / paper) over the links of Table 2 (Pa-Ba, the mirror of
    Ba-Pa, left out), the agreement measure used to rank topologies."""
    errs = [
        math.log(max(r.model, 1e-4) / r.paper)
        for r in table2_comparison(links, rule, (total_bps,))
        if r.paper is not None and r.connection != "Pa-Ba" and r.model == r.model
    ]
    return math.sqrt(sum(e * e for e in errs) / len(errs))
