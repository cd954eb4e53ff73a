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
    """A scenario's TOML text, where it came from, and overrides to apply to it.

    `atmsim.load` makes one from a file; `Scenario(text)` from text in memory. Frozen:
    `with_overrides` returns a copy.

    Args:
        text: The scenario as TOML text (the format of the scenario files).
        source: Where the text came from, for messages and the results store (a path, or
            the default `"<text>"`).
        overrides: `(dotted key, TOML literal)` pairs applied, in order, before any given
            when it is run (`run(..., overrides=...)`).
    """

    text: str
    source: str = "<text>"
    overrides: Tuple[Tuple[str, str], ...] = ()

    def with_overrides(self, overrides: Overrides = None, **values: object) -> Scenario:
        """A copy with more overrides, applied after the ones it has.

        Args:
            overrides: A mapping `{"dotted.key": value}`, or an iterable of
                `("dotted.key", value)` pairs or `"key=value"` strings; values are str, int,
                float or bool.
            **values: More overrides as keyword arguments, `__` standing for a dot
                (`n_source__policy="epd"` is `n_source.policy`).

        Returns:
            A new `Scenario`; this one is unchanged.

        Raises:
            ValueError: A `"key=value"` string without `=` or with an empty key.
            TypeError: A value that is not a str, int, float or bool.
        """
        extra = normalize(overrides) + normalize({k.replace("__", "."): v for k, v in values.items()})
        return Scenario(self.text, self.source, self.overrides + tuple(extra))


ScenarioLike = Union[Scenario, str, "os.PathLike[str]"]
"""What `run`, `estimate` and `sweep` take as a scenario: a `Scenario`, a path (an
`os.PathLike`, or a `str` on one line) or TOML text (a `str` spanning lines)."""


def load(path: Union[str, os.PathLike[str]], overrides: Overrides = None) -> Scenario:
    """Read a scenario file.

    Args:
        path: The scenario file (TOML), a `str` or an `os.PathLike`.
        overrides: Dotted-key overrides carried with the scenario and applied when it is run,
            as for `Scenario.with_overrides`.

    Returns:
        A `Scenario` with the file's text, `source` set to the path.

    Raises:
        FileNotFoundError: The file does not exist (other `OSError`s for other failures).
        LimitError: The file is larger than 16 MiB (`limits.MAX_SCENARIO_BYTES`) or not
            UTF-8 (a `ValueError`).
    """
    from .limits import read_file

    return Scenario(text=read_file(path), source=os.fspath(path), overrides=tuple(normalize(overrides)))


def as_scenario(scenario: Optional[ScenarioLike] = None, text: Optional[str] = None) -> Scenario:
    """A Scenario from exactly one of: a Scenario, a path, or TOML text.

    The rule, with no guessing from the file system: an `os.PathLike` is a path; a `str` with a
    line break is TOML text (scenarios span lines), a `str` on one line is a path. TOML text on
    one line is given as `text=` (or as `Scenario(text)`).

    Args:
        scenario: A `Scenario`, a path or TOML text.
        text: TOML text, whatever its shape.

    Returns:
        The Scenario (the one given, one read from the path, or one of the text).

    Raises:
        TypeError: Both or neither given, or a value of another type.
        FileNotFoundError: A path that does not exist (the message says a one-line `str` is
            taken for a path).
        LimitError: A file larger than 16 MiB or not UTF-8.
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
