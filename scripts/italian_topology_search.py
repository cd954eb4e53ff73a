"""Rank candidate topologies of the CLASS study's Italian network against its Table 2.

The search behind docs/italian-network.md: fixed links (Mi-Ro at 600 Mb/s, the southern links
Ro-Na, Na-Ba, Na-Pa, Ro-Pa), plus any subset of the links between northern cities less than
360 km apart (great circle), excluding the links Table 2 rules out (To-Fi and Ve-To would make
those connections one link long). Topologies whose routes do not cross as many links as Table 2
lists are dropped; the rest are ranked by the RMS of ln(model / Table 2) over the links of the
Mi-Ro, To-Fi and Ve-To connections (the southern links are the same in every candidate).

    python scripts/italian_topology_search.py [--rule km|hops] [--top N] [--user-level]

--user-level reads the 0.8 Gb/s total as user data (each link load x 53/44).
Takes about a minute.
"""

from __future__ import annotations

import argparse
import math
from itertools import combinations
from typing import Sequence

from atmsim.studies.ajmone_marsan import data
from atmsim.studies.ajmone_marsan import italian_network as it

NORTH = ("MI", "TO", "GE", "VE", "BO", "FI", "RO")
FIXED = ("MI-RO", "RO-NA", "NA-BA", "NA-PA", "RO-PA")
RULED_OUT = ({"TO", "FI"}, {"VE", "TO"}, {"MI", "RO"})


def candidates() -> list[str]:
    out = []
    for a, b in combinations(NORTH, 2):
        if {a, b} in RULED_OUT or it.great_circle_km(a, b) >= 360:
            continue
        out.append(f"{a}-{b}")
    return out


def north_error(links: Sequence[it.Link], rule: str, scale: float) -> float | None:
    if not it.route_lengths_match(links, rule):
        return None
    errs = []
    for r in it.table2_comparison(links, rule, (0.8e9,)):
        if r.connection in ("Mi-Ro", "To-Fi", "Ve-To") and r.paper is not None:
            errs.append(math.log(max(r.model * scale, 1e-4) / r.paper))
    return math.sqrt(sum(e * e for e in errs) / len(errs))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rule", default="km", choices=("km", "hops"))
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--user-level", action="store_true")
    args = ap.parse_args()
    scale = 53 / 44 if args.user_level else 1.0
    cand = candidates()
    print(f"{len(cand)} optional links: {' '.join(cand)}")
    ranked = []
    for mask in range(1 << len(cand)):
        pairs = FIXED + tuple(c for i, c in enumerate(cand) if mask >> i & 1)
        links = it._links(pairs)
        try:
            err = north_error(links, args.rule, scale)
        except ValueError:  # not connected
            continue
        if err is not None:
            ranked.append((err, len(pairs), pairs))
    ranked.sort()
    print(f"{len(ranked)} topologies meet the route lengths of Table 2")
    seen = set()
    for err, _, pairs in ranked:
        links = it._links(pairs)
        paths = it.routes(links, args.rule)
        key = tuple("-".join(paths[(s, d)]) for _, s, d in data.ITALY_CONNECTIONS[:3])
        if key in seen:
            continue
        seen.add(key)
        print(f"\nrms ln error {err:.3f}: {' '.join(p for p in pairs if p not in FIXED)}")
        for r in it.table2_comparison(links, args.rule, (0.8e9,)):
            if r.paper is not None and r.connection != "Pa-Ba":
                print(f"  {r.connection:6} {r.link:7} model {r.model * scale:.3f} paper {r.paper:.3f}")
        if len(seen) >= args.top:
            break


if __name__ == "__main__":
    main()
