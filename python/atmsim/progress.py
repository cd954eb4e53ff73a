"""The sweep's progress bar: tqdm (`tqdm.auto`: a widget in notebooks) on stderr, and only
on a terminal or in a Jupyter notebook.

stdout may carry a JSON document that scripts parse, and a log file would fill with carriage
returns; so elsewhere the bar is silent unless asked for explicitly.
"""

from __future__ import annotations

import sys
from typing import Any, Optional


class _Silent:
    def update(self, n: int = 1) -> None:
        return None

    def close(self) -> None:
        return None


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where stderr is no terminal but a bar shows)."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    shell = get() if callable(get) else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def bar(total: int, cached: int, enabled: Optional[bool] = None, desc: str = "runs") -> Any:
    """A bar over `total` runs to compute; `cached` ones (already stored) are shown as a note.

    enabled None: only when stderr is a terminal.
    """
    show = (sys.stderr.isatty() or in_notebook()) if enabled is None else enabled
    if not show or total == 0:
        return _Silent()
    # tqdm.auto: a widget in a notebook (with ipywidgets), the text bar elsewhere.
    from tqdm.auto import tqdm

    postfix = f"{cached} cached" if cached else None
    return tqdm(
        total=total,
        unit="run",
        desc=desc,
        file=sys.stderr,
        dynamic_ncols=True,
        smoothing=0.1,
        postfix=postfix,
    )
