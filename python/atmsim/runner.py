"""The one Python call that runs a scenario."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, Optional, Tuple

from . import _core
from .overrides import Overrides, normalize
from .result import Result
from .scenario import ScenarioLike, as_scenario

if TYPE_CHECKING:
    from .limits import Estimate


def run(
    scenario: Optional[ScenarioLike] = None,
    seed: Optional[int] = None,
    overrides: Overrides = None,
    *,
    text: Optional[str] = None,
) -> Result:
    """Run a scenario and return its Result.

    scenario is a Scenario, a path (os.PathLike, or a str on one line) or TOML text (a str
    spanning lines); text= takes TOML text whatever its shape (see `scenario.as_scenario`).

    seed replaces simulation.seed; overrides is a mapping or iterable of ("dotted.key", value)
    pairs or "key=value" strings. Raises ScenarioError (a ValueError) for a scenario the
    engine rejects and FileNotFoundError for a missing file.
    """
    sc = as_scenario(scenario, text)
    return Result.from_json(_core.run_json(sc.text, list(sc.overrides) + normalize(overrides), seed))


def run_with_captures(
    scenario: Optional[ScenarioLike] = None,
    seed: Optional[int] = None,
    overrides: Overrides = None,
    captures: Iterable[str] = (),
    *,
    text: Optional[str] = None,
) -> Tuple[Result, Dict[str, bytes]]:
    """Run a scenario and record its packet captures.

    The capture points are those of the scenario's [capture] table plus `captures` (links
    "from->to" or host names). Returns the Result and {file stem: pcap file contents}, one
    classic pcap file (nanosecond timestamps) per capture point.
    """
    sc = as_scenario(scenario, text)
    report, files = _core.run_with_captures(
        sc.text, list(sc.overrides) + normalize(overrides), seed, list(captures)
    )
    return Result.from_json(report), dict(files)


def estimate(
    scenario: Optional[ScenarioLike] = None,
    seed: Optional[int] = None,
    overrides: Overrides = None,
    *,
    text: Optional[str] = None,
) -> "Estimate":
    """What running the scenario would cost, without running it: cells, events,
    memory_bytes and wall_s (an `atmsim.limits.Estimate`)."""
    from .limits import estimate as engine_estimate

    sc = as_scenario(scenario, text)
    return engine_estimate(sc.text, list(sc.overrides) + normalize(overrides), seed)
