"""User errors of the sweep, store and reproduce commands, as the command line reports them.

The modules behind these commands raise their own exception types (a library caller wants
to tell a bad grid from an unreachable cluster); the command line turns each into its one
line `atmsim: error: ...`, exit status 2.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator


@contextmanager
def user_errors() -> Iterator[None]:
    from .cli import CliError
    from .examples import UnknownExample
    from .executors import ExecutorError
    from .plan import SweepSpecError
    from .store import StoreError
    from .studies.registry import UnknownStudy
    from .studies.reproduce import SelectionError
    from .sweeps import SweepError

    try:
        yield
    except (SweepSpecError, StoreError, ExecutorError, SweepError, SelectionError) as err:
        raise CliError(str(err)) from None
    except UnknownStudy as err:
        raise CliError(f"reproduce: {err}") from None
    except UnknownExample as err:
        raise CliError(f"scenarios: {err.args[0]}") from None
