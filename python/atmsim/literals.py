"""Override values as the engine reads them, and back as Python values for tables.

The engine parses a `--set` value as a TOML literal and, failing that, takes it as a plain
string. Sweeps need the same reading on the Python side so that a parameter column holds
1000 (an int) rather than "1000", and "epd" rather than a parse error.
"""

from __future__ import annotations

import sys
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.9/3.10 only
    import tomli as tomllib


def value_of(literal: str) -> Any:
    """The Python value of a TOML literal ('1000' -> 1000, 'true' -> True, 'epd' -> 'epd').

    What TOML cannot read is the plain string, as in the engine; an integer too long for
    Python's int-from-text limit (4300 digits) too, and the engine then names the field
    that cannot take it."""
    try:
        return tomllib.loads(f"v = {literal}")["v"]
    except ValueError:  # TOMLDecodeError, or int() past sys.get_int_max_str_digits()
        return literal


def split_values(text: str) -> list[str]:
    """Split 'v1,v2,...' at top-level commas: commas inside [..], {..} or quotes stay."""
    parts: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts
