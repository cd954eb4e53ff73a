"""Scenario sources: a file on disk or TOML text in memory.

The core parses and validates scenarios; this module only decides where the text comes from,
so that every front end (API, CLI, studies) hands the engine the same thing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Tuple, Union

from .overrides import Overrides, normalize


@dataclass(frozen=True)
class Scenario:
    """Scenario text, where it came from (for messages), and dotted-key overrides applied to it
    before any given when it is run (`(key, TOML literal)` pairs, in order)."""

    text: str
    source: str = "<text>"
    overrides: Tuple[Tuple[str, str], ...] = ()

    def with_overrides(self, overrides: Overrides = None, **values: object) -> "Scenario":
        """A copy with more overrides: a mapping or pairs of ("dotted.key", value), "key=value"
        strings, or keyword arguments with `__` for dots (`n_source__policy="epd"`)."""
        extra = normalize(overrides) + normalize({k.replace("__", "."): v for k, v in values.items()})
        return Scenario(self.text, self.source, self.overrides + tuple(extra))


ScenarioLike = Union[Scenario, str, "os.PathLike[str]"]


def load(path: Union[str, "os.PathLike[str]"], overrides: Overrides = None) -> Scenario:
    """Read a scenario file, optionally with overrides by dotted key. Raises FileNotFoundError
    (an OSError) if it does not exist, and LimitError (a ValueError) if it is larger than
    `limits.MAX_SCENARIO_BYTES` or not UTF-8."""
    from .limits import read_file

    return Scenario(text=read_file(path), source=os.fspath(path), overrides=tuple(normalize(overrides)))


def as_scenario(scenario: Optional[ScenarioLike] = None, text: Optional[str] = None) -> Scenario:
    """A Scenario from exactly one of: a Scenario, a path, or TOML text.

    The rule, with no guessing from the file system: an `os.PathLike` is a path; a `str` with a
    line break is TOML text (scenarios span lines), a `str` on one line is a path. TOML text on
    one line is given as `text=` (or as `Scenario(text)`).
    """
    if text is not None:
        if scenario is not None:
            raise TypeError("give either a scenario (Scenario or path) or text=, not both")
        if not isinstance(text, str):
            raise TypeError(f"text: expected TOML text (a str), got {type(text).__name__}")
        return Scenario(text)
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, os.PathLike):
        return load(scenario)
    if isinstance(scenario, str):
        if "\n" in scenario:
            return Scenario(scenario)
        try:
            return load(scenario)
        except OSError as err:
            # Say which rule applied: a long one-line TOML text lands here too.
            hint = " (a one-line str is a path; pass TOML text on one line as text=...)"
            shown = scenario if len(scenario) <= 80 else scenario[:77] + "..."
            raise type(err)(err.errno, f"{err.strerror}{hint}", shown) from None
    raise TypeError(f"expected a Scenario, a path or TOML text, got {type(scenario).__name__}")
