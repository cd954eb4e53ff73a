"""`--set key=value` overrides, as the core expects them: (dotted key, TOML literal) pairs.

The core parses each value as a TOML literal and falls back to a plain string, so strings
pass through untouched; Python values are written as the TOML literal they mean.
"""

from __future__ import annotations

from typing import Iterable, List, Mapping, Optional, Tuple, Union

Overrides = Union[Mapping[str, object], Iterable[Union[str, Tuple[str, object]]], None]
"""Dotted-key overrides of a scenario: a mapping `{"n_source.policy": "epd"}`, an iterable of
`("dotted.key", value)` pairs or of `"key=value"` strings, or None (none). Values are str, int,
float or bool, written as the TOML literal they mean (a str is taken as it is)."""


def parse_set(item: str) -> Tuple[str, str]:
    """Split one command-line `key=value` at the first '='."""
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ValueError(f"--set: expected key=value, got {item!r}")
    return key, value.strip()


def _literal(value: object) -> str:
    if isinstance(value, bool):  # before int: bool is an int subclass
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    raise TypeError(f"override value {value!r}: use a str, int, float or bool")


def normalize(overrides: Overrides) -> List[Tuple[str, str]]:
    """Mapping, ("key", value) pairs or "key=value" strings -> [(key, literal)]."""
    if overrides is None:
        return []
    items = overrides.items() if isinstance(overrides, Mapping) else overrides
    pairs: List[Tuple[str, str]] = []
    for item in items:
        key, value = parse_set(item) if isinstance(item, str) else item
        pairs.append((str(key), _literal(value)))
    return pairs


def duration(seconds: Optional[float]) -> List[Tuple[str, str]]:
    """The override that sets the simulated time, if one is asked for."""
    return [] if seconds is None else [("simulation.duration_s", repr(float(seconds)))]
