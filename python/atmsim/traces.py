"""Time series recorded with a scenario's [trace] table, as tidy pandas DataFrames.

The engine writes them as columns (one list per field, keyed by connection or port name) to
keep the JSON small; here each becomes one long table with the name as a column, the shape
plotting and groupby want. `write` saves them for `atmsim run --trace-dir`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:
    import pandas as pd

# Columns of each table, in order (also those of an empty table).
COLUMNS: Dict[str, List[str]] = {
    "cwnd": ["connection", "t_s", "cwnd_bytes", "ssthresh_bytes"],
    "queues": ["port", "t_s", "cells"],
    "queues_per_vc": ["port", "connection", "t_s", "cells"],
    "utilization": ["port", "t_s", "utilization"],
    "arrivals": ["port", "connection", "t_s", "cells_per_s"],
}


def _table(kind: str, parts: List["pd.DataFrame"]) -> "pd.DataFrame":
    import pandas as pd

    if not parts:
        return pd.DataFrame({c: [] for c in COLUMNS[kind]})
    return pd.concat(parts, ignore_index=True)[COLUMNS[kind]]


def frames(raw: Optional[Dict[str, Any]]) -> Dict[str, "pd.DataFrame"]:
    """The report's `traces` object as tables: cwnd, queues, utilization (always, possibly
    empty), queues_per_vc (when the trace asked for per_vc) and arrivals (when it asked for
    arrivals: each connection's data arrival rate at each port, cells/s per interval). {}
    without a trace."""
    import pandas as pd

    if not raw:
        return {}
    cwnd = [pd.DataFrame({"connection": name, **series}) for name, series in raw.get("cwnd", {}).items()]
    queues, per_vc = [], []
    has_per_vc = False
    for port, series in raw.get("queues", {}).items():
        queues.append(pd.DataFrame({"port": port, "t_s": series["t_s"], "cells": series["cells"]}))
        if "per_vc" in series:
            has_per_vc = True
            for conn, cells in series["per_vc"].items():
                per_vc.append(
                    pd.DataFrame({"port": port, "connection": conn, "t_s": series["t_s"], "cells": cells})
                )
    util = [pd.DataFrame({"port": port, **series}) for port, series in raw.get("utilization", {}).items()]
    out = {
        "cwnd": _table("cwnd", cwnd),
        "queues": _table("queues", queues),
        "utilization": _table("utilization", util),
    }
    if has_per_vc:
        out["queues_per_vc"] = _table("queues_per_vc", per_vc)
    if "arrivals" in raw:
        arrivals = [
            pd.DataFrame({"port": port, "connection": conn, "t_s": series["t_s"], "cells_per_s": rate})
            for port, series in raw["arrivals"].items()
            for conn, rate in series["cells_per_s"].items()
        ]
        out["arrivals"] = _table("arrivals", arrivals)
    return out


def write(tables: Dict[str, "pd.DataFrame"], directory: str) -> List[Path]:
    """Write each table as DIR/<kind>.csv, and DIR/<kind>.parquet too when pyarrow is
    installed (an optional dependency). Returns the paths written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    parquet = importlib.util.find_spec("pyarrow") is not None
    written = []
    for kind, table in tables.items():
        path = out / f"{kind}.csv"
        table.to_csv(path, index=False)
        written.append(path)
        if parquet:
            path = out / f"{kind}.parquet"
            table.to_parquet(path, index=False)
            written.append(path)
    return written
