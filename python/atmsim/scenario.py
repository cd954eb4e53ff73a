"""Scenario sources: a file on disk or TOML text in memory.

The core parses and validates scenarios; this module only decides where the text comes from,
so that every front end (API, CLI, studies) hands the engine the same thing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Tuple, Union

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
    (an OSError) if it does not exist."""
    p = Path(path)
    return Scenario(text=p.read_text(encoding="utf-8"), source=str(p), overrides=tuple(normalize(overrides)))


def _looks_like_path(s: str) -> bool:
    # TOML scenario text always spans lines; a single line ending in .toml or naming an
    # existing file is a path. A missing *.toml path must still be treated as a path so the
    # caller gets "no such file" rather than a TOML parse error.
    if "\n" in s:
        return False
    return s.endswith(".toml") or Path(s).is_file()


def as_scenario(scenario: ScenarioLike) -> Scenario:
    """Accept a Scenario, a path (str or PathLike) or TOML text."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, os.PathLike):
        return load(scenario)
    if isinstance(scenario, str):
        return load(scenario) if _looks_like_path(scenario) else Scenario(scenario)
    raise TypeError(f"expected a Scenario, a path or TOML text, got {type(scenario).__name__}")
