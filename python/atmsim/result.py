"""A run's report: the engine's JSON document plus pandas views of it.

pandas is imported only when a table is asked for, so `atmsim run --json` and the worker
processes of `atmsim reproduce` do not pay for it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:
    import pandas as pd


class Result:
    """Report of one run, as `run` returns it: the engine's JSON document plus pandas views.

    `.raw` is the document as a dict, `.json` its text; the properties below read from it
    (fields and units: the "Report fields" page).

    Args:
        raw: The engine's report as a dict (what `json.loads` gives of `.json`).
        text: The report's JSON text, if it is at hand. Default None: `json.dumps(raw)`.
    """

    def __init__(self, raw: Dict[str, Any], text: Optional[str] = None) -> None:
        self.raw = raw
        self.json = text if text is not None else json.dumps(raw)

    @classmethod
    def from_json(cls, text: str) -> "Result":
        """A Result from the engine's JSON report.

        Args:
            text: The report as JSON text (what `atmsim run --json` prints).

        Returns:
            The Result, its `.json` that same text.
        """
        return cls(json.loads(text), text)

    @property
    def flows(self) -> "pd.DataFrame":
        """One row per TCP flow: name, goodput_bps (bit/s), bytes_delivered, segments_sent,
        ... (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.raw.get("flows", []))

    @property
    def background(self) -> "pd.DataFrame":
        """One row per background source: name, messages_offered, cells_offered,
        cells_delivered, messages_delivered, offered_user_bps, delivered_user_bps,
        cell_loss_ratio (empty without [[background]])."""
        import pandas as pd

        columns = [
            "name",
            "messages_offered",
            "cells_offered",
            "cells_delivered",
            "messages_delivered",
            "offered_user_bps",
            "delivered_user_bps",
            "cell_loss_ratio",
        ]
        return pd.DataFrame(self.raw.get("background", []), columns=columns)

    @property
    def ports(self) -> "pd.DataFrame":
        """One row per switch output port: name, cells_in, cells_out, cells_dropped, ... (a
        pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.raw.get("ports", []))

    @property
    def traces(self) -> Dict[str, "pd.DataFrame"]:
        """Time series of a scenario with [trace], as tidy tables: cwnd (connection, t_s,
        cwnd_bytes, ssthresh_bytes), queues (port, t_s, cells), utilization (port, t_s,
        utilization), with per_vc queues_per_vc (port, connection, t_s, cells), and with
        arrivals arrivals (port, connection, t_s, cells_per_s). {} when the scenario has no
        [trace] table."""
        from .traces import frames

        return frames(self.raw.get("traces"))

    @property
    def summary(self) -> Dict[str, Any]:
        """The run's summary (a dict): total_goodput_bps (bit/s), efficiency, fairness,
        max_queue_cells (of the bottleneck port), ..."""
        return dict(self.raw.get("summary", {}))

    @property
    def seed(self) -> Optional[int]:
        """The seed the run used (None if the report has none)."""
        return self.raw.get("seed")

    @property
    def duration_s(self) -> float:
        """Simulated time, in seconds."""
        return float(self.raw["duration_s"])

    @property
    def wall_s(self) -> float:
        """Wall-clock time the engine took, in seconds."""
        return float(self.raw["wall_s"])

    @property
    def events(self) -> int:
        """Events the engine processed."""
        return int(self.raw["events"])

    @property
    def engine_version(self) -> Optional[str]:
        """Version of the engine that produced the report (as `atmsim.version()`)."""
        return self.raw.get("engine_version")

    def bottleneck_port(self) -> Optional[Dict[str, Any]]:
        """The bottleneck port's row of the report.

        Returns:
            The port the summary names as bottleneck, else the one that sent the most cells,
                as a dict of its report fields; None if the report lists no port.
        """
        ports: List[Dict[str, Any]] = self.raw.get("ports", [])
        if not ports:
            return None
        named = self.raw.get("summary", {}).get("bottleneck_port")
        for port in ports:
            if named is not None and port.get("name") == named:
                return dict(port)
        busiest = max(ports, key=lambda p: int(p.get("cells_out", 0)))
        return dict(busiest)

    def __repr__(self) -> str:
        from .numbers import fmt

        s = self.raw.get("summary", {})
        goodput = s.get("total_goodput_bps")
        mbps = f", goodput {fmt(goodput / 1e6, 4)} Mb/s" if isinstance(goodput, (int, float)) else ""
        return (
            f"<atmsim.Result {len(self.raw.get('flows', []))} flows, "
            f"{fmt(self.raw.get('duration_s'), 4)} s simulated{mbps}, "
            f"efficiency {fmt(s.get('efficiency'), 4)}, fairness {fmt(s.get('fairness'), 4)}>"
        )

    def _repr_html_(self) -> str:
        """The notebook view: the run's header, its summary, and the flows and ports tables
        (the columns of `atmsim run`'s text view), numbers to 4 significant digits."""
        import html

        from .numbers import fmt
        from .run_text import FLOW_COLUMNS, PORT_COLUMNS

        def table(rows: List[Dict[str, Any]], columns: List[str]) -> str:
            if not rows:
                return "<p>(none)</p>"
            shown = [c for c in columns if any(c in r for r in rows)]
            head = "".join(f"<th>{html.escape(c)}</th>" for c in shown)
            body = "".join(
                "<tr>" + "".join(f"<td>{html.escape(_cell(r.get(c)))}</td>" for c in shown) + "</tr>"
                for r in rows
            )
            return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

        def _cell(v: Any) -> str:
            if isinstance(v, dict):
                return " ".join(f"{k}={fmt(x, 4)}" for k, x in v.items() if x)
            return fmt(v, 4)

        raw = self.raw
        flows = [dict(f) for f in raw.get("flows", [])]
        for flow in flows:
            if isinstance(flow.get("goodput_bps"), (int, float)):
                flow["goodput_Mbps"] = flow["goodput_bps"] / 1e6
        summary = "".join(
            f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(_cell(v))}</td></tr>"
            for k, v in self.summary.items()
        )
        header = html.escape(
            f"atmsim run: seed {raw.get('seed')}, {fmt(raw.get('duration_s'), 4)} s simulated, "
            f"{raw.get('events')} events, wall {fmt(raw.get('wall_s'), 3)} s, "
            f"engine {raw.get('engine_version')}"
        )
        return (
            f"<div><p><b>{header}</b></p>"
            f"<details open><summary>Summary</summary><table>{summary}</table></details>"
            f"<details open><summary>Flows</summary>{table(flows, FLOW_COLUMNS)}</details>"
            f"<details><summary>Ports</summary>{table(raw.get('ports', []), PORT_COLUMNS)}</details>"
            "</div>"
        )
