"""The UBR+ study (Goyal, Jain et al.): which runs make up each table, and their scenarios.

Every row of the paper becomes one N-source scenario; the engine's summary gives the
simulated efficiency, fairness and bottleneck maximum queue, compared with the paper's.
"""

from __future__ import annotations

from typing import Iterable, List, Optional

from . import data
from .data import PaperRow

# Section 3.1: LAN runs last 10 s, WAN runs 20 s.
DURATION_S = {"LAN": 10.0, "WAN": 20.0}

# Paper column label -> the scenario's n_source.policy.
POLICY_KEY = {"UBR": "tail_drop", "EPD": "epd", "SD": "selective_drop", "FBA": "fba"}

# The paper's tables as `data` numbers them; Table 3 is the fairness half of Table 2.
TABLES = (1, 2, 4, 5, 6)

# Section 3.1: "There is no processing delay, delay variation or randomization in any
# component of the simulation": every link's slot grid and every host's timer ticks start at 0
# and no oscillator drifts (phases = "aligned"). Cells of equal links then reach a port at the
# same instants; the order of such ties is the one choice the paper leaves open, declared as
# the assumption `arbitration` (assumptions.py): random, drawn from the seed.
PHASES = "aligned"
ARBITRATION = "random"
SEED = 1


def scenario_text(
    config: str,
    sources: int,
    buffer_cells: Optional[int],
    policy: str,
    r: Optional[float] = None,
    z: Optional[float] = None,
    duration_s: Optional[float] = None,
    seed: int = SEED,
    arbitration: str = ARBITRATION,
) -> str:
    """The N-source scenario for one paper row (policy as a paper label: UBR, EPD, SD, FBA),
    phase-locked, its ties in the `arbitration` order (the study's declared one by default)."""
    duration = DURATION_S[config] if duration_s is None else duration_s
    buffer = '"infinite"' if buffer_cells is None else str(buffer_cells)
    lines = [
        "[simulation]",
        f"duration_s = {float(duration)!r}",
        f"seed = {seed}",
        f'phases = "{PHASES}"',
        "",
        "[n_source]",
        f"sources = {sources}",
        f'config = "{config}"',
        f"buffer_cells = {buffer}",
        f'policy = "{POLICY_KEY[policy]}"',
        f'arbitration = "{arbitration}"',
    ]
    # R and Z mean something only to the per-VC policies; EPD keeps the engine's default
    # threshold (buffer - 200 cells), which is the paper's.
    if r is not None:
        lines.append(f"r = {r!r}")
    if z is not None:
        lines.append(f"z = {z!r}")
    return "\n".join(lines) + "\n"


def row_scenario(row: PaperRow, duration_s: Optional[float] = None) -> str:
    return scenario_text(row.config, row.sources, row.buffer_cells, row.policy, row.r, row.z, duration_s)


def select(tables: Iterable[int], quick: bool = False) -> List[PaperRow]:
    """Published rows of the chosen tables, in the paper's order.

    quick keeps only the 5-source rows of Tables 1-3: the smallest set that still shows
    every policy in both LAN and WAN.
    """
    chosen = set(tables)
    if quick:
        chosen &= {1, 2}
    rows = [row for row in data.all_rows() if row.table in chosen]
    if quick:
        rows = [row for row in rows if row.sources == 5]
    return rows


def cost(row: PaperRow) -> float:
    """Rough relative run time, used to start the longest runs first."""
    return DURATION_S[row.config] * (1.0 + row.sources / 15.0)
