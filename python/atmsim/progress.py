"""The sweep's progress bar: tqdm on stderr, and only on a terminal.

stdout may carry a JSON document that scripts parse, and a log file would fill with carriage
returns; so without a terminal the bar is silent unless asked for explicitly.
"""

from __future__ import annotations

import sys
from typing import Any, Optional


class _Silent:
    def update(self, n: int = 1) -> None:
        return None

    def close(self) -> None:
        return None


def bar(total: int, cached: int, enabled: Optional[bool] = None, desc: str = "runs") -> Any:
    """A bar over `total` runs to compute; `cached` ones (already stored) are shown as a note.

    enabled None: only when stderr is a terminal.
    """
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show or total == 0:
        return _Silent()
    from tqdm import tqdm

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
