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
    """Run a scenario and return its report.

    Args:
        scenario: A `Scenario`, a path (an `os.PathLike`, or a `str` on one line) or TOML text
            (a `str` spanning lines). Give either this or `text`.
        seed: Replaces the scenario's `simulation.seed` (an integer, 0 <= seed < 2**64).
            Default None: the scenario's own seed.
        overrides: Dotted-key overrides applied after the scenario's own: a mapping
            (`{"n_source.policy": "epd"}`), or an iterable of `("dotted.key", value)` pairs or
            `"key=value"` strings; values are str, int, float or bool.
        text: TOML text, whatever its shape (a one-line scenario given as `scenario` would be
            taken for a path).

    Returns:
        The run's `Result`: `.summary`, `.flows`, `.ports`, `.raw` (the engine's report).

    Raises:
        ScenarioError: The engine rejects the scenario (a `ValueError`; `.field` and `.reason`
            say which field and why).
        FileNotFoundError: The path does not exist.
        LimitError: The file is larger than 16 MiB or not UTF-8 (a `ValueError`).
        TypeError: Both `scenario` and `text`, neither, or an argument of another type.
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

    Args:
        scenario: A `Scenario`, a path or TOML text, as for `run`.
        seed: Replaces the scenario's `simulation.seed`, as for `run`.
        overrides: Dotted-key overrides, as for `run`.
        captures: Capture points besides those of the scenario's `[capture]` table: links
            `"from->to"` or host names.
        text: TOML text, as for `run`.

    Returns:
        The run's `Result` and `{file stem: pcap file contents}`, one classic pcap file
            (nanosecond timestamps) per capture point.

    Raises:
        ScenarioError: The engine rejects the scenario or a capture point.
        FileNotFoundError: The path does not exist.
        LimitError: The file is larger than 16 MiB or not UTF-8.
        TypeError: Both `scenario` and `text`, neither, or an argument of another type.
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
) -> Estimate:
    """What running the scenario would cost, without running it.

    Args:
        scenario: A `Scenario`, a path or TOML text, as for `run`.
        seed: Replaces the scenario's `simulation.seed`, as for `run`.
        overrides: Dotted-key overrides, as for `run`.
        text: TOML text, as for `run`.

    Returns:
        An `atmsim.limits.Estimate`: `cells`, `cell_hops`, `events`, `memory_bytes` (bytes)
            and `wall_s` (seconds of wall-clock time).

    Raises:
        ScenarioError: The engine rejects the scenario (the run would not start either).
        FileNotFoundError: The path does not exist.
        LimitError: The file is larger than 16 MiB or not UTF-8.
    """
    from .limits import estimate as engine_estimate

    sc = as_scenario(scenario, text)
    return engine_estimate(sc.text, list(sc.overrides) + normalize(overrides), seed)
