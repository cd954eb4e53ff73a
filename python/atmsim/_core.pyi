"""Type stubs for the Rust extension module (crates/atmsim-py)."""

from typing import List, Optional, Sequence, Tuple

class ScenarioError(ValueError):
    """A scenario the engine rejects: a bad field, value or combination, or invalid TOML.

    A `ValueError`, raised by `run`, `run_with_captures`, `estimate` and `sweep`; str(err) is
    one line, "field: reason".

    Attributes:
        field: Dotted path of the offending field, e.g. "n_source.sources".
        reason: Why it was rejected.
    """

    field: str  # dotted path of the offending field, e.g. "n_source.sources"
    reason: str  # why it was rejected

def run_json(
    toml_text: str,
    overrides: Sequence[Tuple[str, str]] = ...,
    seed: Optional[int] = None,
) -> str:
    """Run a scenario (TOML text) and return the engine's report as one JSON document.

    overrides are (dotted.key, value) pairs, values written as TOML literals; seed replaces
    simulation.seed. The GIL is released while the engine runs.
    """

def run_with_captures(
    toml_text: str,
    overrides: Sequence[Tuple[str, str]] = ...,
    seed: Optional[int] = None,
    captures: Sequence[str] = ...,
) -> Tuple[str, List[Tuple[str, bytes]]]:
    """Run a scenario and record its packet captures.

    Captures are the points of the scenario's [capture] table plus `captures` (a link
    "from->to" or a host name each). Returns (report JSON, [(file stem, pcap bytes), ...]),
    one classic pcap file (nanosecond timestamps) per capture point. The GIL is released
    while the engine runs.
    """

def estimate_json(
    toml_text: str,
    overrides: Sequence[Tuple[str, str]] = ...,
    seed: Optional[int] = None,
) -> str:
    """What running the scenario would cost, without running it: a JSON object with cells,
    cell_hops, events, memory_bytes and wall_s."""

CELL_BITS: int
"""Bits in one ATM cell on the wire: 53 octets (ITU-T I.361), the engine's `time::CELL_BITS`."""

def version() -> str:
    """The engine's version.

    Returns:
        The version string (also `atmsim.__version__`), recorded in every report as
            `engine_version` and part of every stored run's key.
    """

def eta_oh(mss: int, mean_bytes: float) -> float:
    """The credit/rate study's protocol-overhead bound eta_OH (its eq. 2): the fraction of the
    ATM bandwidth available to an application whose messages (exponential, mean `mean_bytes`
    octets) are cut into segments of at most `mss` octets, each with 48 octets of TCP, IP and
    AAL5 overhead, carried in 53-octet cells. Raises ValueError for mss 0 or a bad mean."""
