"""atmsim: fast cell-level discrete-event simulation of ATM networks carrying TCP/IP.

The engine is Rust (`atmsim._core`); this package adds scenario loading, a typed result with
pandas tables, the paper reproductions and the `atmsim` command line.

    >>> import atmsim
    >>> result = atmsim.run("scenarios/ubr-plus-lan5.toml", overrides={"n_source.policy": "fba"})
    >>> result.summary["efficiency"], result.flows[["name", "goodput_bps"]]
"""

from ._core import ScenarioError, version
from .result import Result
from .runner import run
from .scenario import Scenario, load

__all__ = ["Result", "Scenario", "ScenarioError", "load", "run", "version"]
__version__ = version()
