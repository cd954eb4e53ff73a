"""The identity of a run's result: what the engine was given, and which engine.

Two runs with the same scenario text, overrides (in order: a later override of the same key
wins), seed and engine version produce the same report, so the store keeps one and a sweep
started again skips it. The key is SHA-256 over a canonical JSON encoding of the four, so it
is stable across processes, machines and Python versions.
"""

from __future__ import annotations

import hashlib
import json
from typing import Sequence, Tuple

# Bump when the meaning of the fields below changes, so old keys cannot collide with new ones.
_FORMAT = 1


def run_key(
    scenario_text: str,
    overrides: Sequence[Tuple[str, str]],
    seed: int,
    engine_version: str,
) -> str:
    """Hex SHA-256 of (format, scenario text, overrides, seed, engine version)."""
    document = [_FORMAT, scenario_text, [[k, v] for k, v in overrides], int(seed), engine_version]
    canonical = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def scenario_hash(scenario_text: str) -> str:
    """Short hash naming a scenario text in tables (not used for identity)."""
    return hashlib.sha256(scenario_text.encode("utf-8")).hexdigest()[:12]
