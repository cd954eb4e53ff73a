"""atmsim: fast cell-level discrete-event simulation of ATM networks carrying TCP/IP.

The engine is Rust (`atmsim._core`); this package adds scenario loading, a typed result with
pandas tables, the paper reproductions and the `atmsim` command line.

    >>> import atmsim
    >>> result = atmsim.run(atmsim.example("ubr-plus-lan5"), overrides={"n_source.policy": "fba"})
    >>> result.summary["efficiency"], result.flows[["name", "goodput_bps"]]
    >>> atmsim.sweep(atmsim.example("ubr-plus-lan5"), grid={"n_source.buffer_cells": [1000, 2000]},
    ...              runs=3, store="results.sqlite")
"""

from ._core import ScenarioError, version
from .examples import copy_example, example, examples
from .limits import LimitError
from .result import Result
from .runner import estimate, run, run_with_captures
from .scenario import Scenario, load
from .seeds import derive_seed
from .store import Store, open_store
from .sweeps import sweep
from .tables import summarize

__all__ = [
    "LimitError",
    "Result",
    "Scenario",
    "ScenarioError",
    "Store",
    "copy_example",
    "derive_seed",
    "estimate",
    "example",
    "examples",
    "load",
    "open_store",
    "run",
    "run_with_captures",
    "summarize",
    "sweep",
    "version",
]
__version__ = version()
