"""The one Python call that runs a scenario."""

from __future__ import annotations

from typing import Dict, Iterable, Optional, Tuple

from . import _core
from .overrides import Overrides, normalize
from .result import Result
from .scenario import ScenarioLike, as_scenario


def run(
    scenario: ScenarioLike,
    seed: Optional[int] = None,
    overrides: Overrides = None,
) -> Result:
    """Run a scenario (Scenario, path or TOML text) and return its Result.

    seed replaces simulation.seed; overrides is a mapping or iterable of ("dotted.key", value)
    pairs or "key=value" strings. Raises ScenarioError (a ValueError) for a scenario the
    engine rejects and FileNotFoundError for a missing file.
    """
    sc = as_scenario(scenario)
    return Result.from_json(_core.run_json(sc.text, list(sc.overrides) + normalize(overrides), seed))


def run_with_captures(
    scenario: ScenarioLike,
    seed: Optional[int] = None,
    overrides: Overrides = None,
    captures: Iterable[str] = (),
) -> Tuple[Result, Dict[str, bytes]]:
    """Run a scenario and record its packet captures.

    The capture points are those of the scenario's [capture] table plus `captures` (links
    "from->to" or host names). Returns the Result and {file stem: pcap file contents}, one
    classic pcap file (nanosecond timestamps) per capture point.
    """
    sc = as_scenario(scenario)
    overrides_all = list(sc.overrides) + normalize(overrides)
    text, files = _core.run_with_captures(sc.text, overrides_all, seed, list(captures))
    return Result.from_json(text), dict(files)
