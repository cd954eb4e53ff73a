"""Seeds of a sweep's replications: a stable function of (base seed, run number).

A replication's seed must not depend on the order runs are scheduled in, on the worker that
runs it, on the Python version (str hashes are salted per process) or on the other points of
the sweep, so that any one run can be repeated alone with `atmsim run FILE --set ... --seed S`.
SHA-256 of a fixed text gives that; the top 63 bits keep the seed positive in SQLite's signed
64-bit integers while staying inside the engine's u64.

Every point of a sweep uses the same seeds for the same run numbers (common random numbers):
differences between points are then not blurred by different random draws.
"""

from __future__ import annotations

import hashlib

# Changing this text changes every derived seed: never do it without a new version tag.
_TAG = "atmsim-seed-v1"


def derive_seed(base_seed: int, run: int) -> int:
    """Seed of one replication of a sweep.

    `derive_seed(b, r)` is the first 8 bytes of SHA-256 of `"atmsim-seed-v1:<b>:<r>"` as a
    big-endian integer, shifted right by one bit: the same on every machine and in every
    order the runs are scheduled in.

    Args:
        base_seed: The sweep's base seed (`sweep(..., base_seed=1)`), an integer >= 0.
        run: The replication number, 0, 1, 2, ...

    Returns:
        The seed, 0 <= seed < 2**63 (`atmsim run FILE --set ... --seed S` repeats that run
            alone).

    Raises:
        ValueError: `base_seed` or `run` is negative.
    """
    if base_seed < 0 or run < 0:
        raise ValueError(f"base seed and run number must be >= 0, got {base_seed}, {run}")
    digest = hashlib.sha256(f"{_TAG}:{base_seed}:{run}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1
