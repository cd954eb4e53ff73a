"""Traces ([trace], Result.traces, --trace-dir) and packet captures ([capture], --pcap,
--capture), the captures checked with tshark against the engine's own counts."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import List

import pandas as pd
import pytest

import atmsim
from conftest import host_switch_host, run_cli, small_scenario

TRACE = """
[trace]
interval_s = 0.05
per_vc = true
"""

# host a -> switch s -> host b; the fault drops chosen data segments at s so that the sender
# has to retransmit them. Host a is captured: it sees every segment it sends.
PATH = (
    host_switch_host(1.0, 100)
    + """
[[connection]]
name = "c"
route = ["a", "s", "b"]
[[fault]]
port = "s->b"
connection = "c"
segments = {segments}
{tcp}
[capture]
hosts = ["a"]
"""
)

# Tahoe without fast retransmit (timeouts, go-back-N), and SACK with fast retransmit.
CASES = {
    "tahoe_timeouts": dict(segments="[10, 50, 51]", tcp=""),
    "sack_fast_retransmit": dict(
        segments="[10, 12, 14, 100]", tcp='[tcp]\npreset = "tcp_sack"\nfast_retransmit = true'
    ),
}


def test_result_traces_are_tidy_frames():
    result = atmsim.run(small_scenario() + TRACE)
    traces = result.traces
    assert set(traces) == {"cwnd", "queues", "utilization", "queues_per_vc"}
    cwnd = traces["cwnd"]
    assert list(cwnd.columns) == ["connection", "t_s", "cwnd_bytes", "ssthresh_bytes"]
    assert set(cwnd["connection"]) == {f"tcp{i}" for i in range(1, 6)}
    last = cwnd.groupby("connection").last()
    flows = result.flows.set_index("name")
    assert (last["cwnd_bytes"] == flows.loc[last.index, "final_cwnd_bytes"]).all()
    queues = traces["queues"]
    assert list(queues.columns) == ["port", "t_s", "cells"]
    assert set(queues["port"]) == set(result.ports["name"])
    # 0.3 s sampled every 0.05 s: 6 boundaries per port, exact multiples.
    assert (queues.groupby("port").size() == 6).all()
    assert sorted(set(queues["t_s"])) == pytest.approx([0.05 * k for k in range(1, 7)])
    per_vc = traces["queues_per_vc"]
    summed = per_vc.groupby(["port", "t_s"])["cells"].sum()
    assert (summed == queues.set_index(["port", "t_s"])["cells"].loc[summed.index]).all()
    util = traces["utilization"]
    assert ((util["utilization"] >= 0) & (util["utilization"] <= 1.01)).all()


def test_arrival_rates_are_a_tidy_frame():
    result = atmsim.run(small_scenario() + "[trace]\ninterval_s = 0.1\ncwnd = false\narrivals = true\n")
    arrivals = result.traces["arrivals"]
    assert list(arrivals.columns) == ["port", "connection", "t_s", "cells_per_s"]
    # cells/s over 0.1 s windows add up to the cells that reached each port
    cells = (arrivals["cells_per_s"] * 0.1).groupby(arrivals["port"]).sum()
    ports = result.ports.set_index("name")
    assert cells.to_numpy() == pytest.approx(ports.loc[cells.index, "cells_in"].to_numpy())


def test_no_trace_table_no_traces():
    result = atmsim.run(small_scenario())
    assert "traces" not in result.raw
    assert result.traces == {}


def test_trace_kinds_can_be_off():
    result = atmsim.run(small_scenario() + "[trace]\ncwnd = false\nutilization = false\n")
    traces = result.traces
    assert traces["cwnd"].empty and list(traces["cwnd"].columns)[0] == "connection"
    assert traces["utilization"].empty and not traces["queues"].empty
    assert "queues_per_vc" not in traces


def test_cli_trace_dir_writes_csv(scenario_file, tmp_path: Path):
    out = tmp_path / "traces"
    proc = run_cli("run", scenario_file(small_scenario() + TRACE), "--trace-dir", out, "--json")
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)  # stdout stays the report alone
    for kind in ("cwnd", "queues", "queues_per_vc", "utilization"):
        frame = pd.read_csv(out / f"{kind}.csv")
        assert len(frame) > 0
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            assert not (out / f"{kind}.parquet").exists()
        else:
            assert (out / f"{kind}.parquet").exists()


def test_cli_usage_errors(scenario_file, tmp_path: Path):
    path = scenario_file()
    proc = run_cli("run", path, "--trace-dir", tmp_path / "t")
    assert proc.returncode == 2 and "no [trace] table" in proc.stderr
    proc = run_cli("run", path, "--capture", "src1")
    assert proc.returncode == 2 and "--capture needs --pcap" in proc.stderr
    proc = run_cli("run", path, "--pcap", tmp_path / "p")
    assert proc.returncode == 2 and "nothing to capture" in proc.stderr
    proc = run_cli("run", path, "--pcap", tmp_path / "p", "--capture", "sw1->dst1")
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("atmsim: error: --capture: no link joins")


def test_cli_capture_option_adds_points(scenario_file, tmp_path: Path):
    out = tmp_path / "pcap"
    proc = run_cli("run", scenario_file(), "--pcap", out, "--capture", "sw1->sw2", "--capture", "dst3")
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["dst3.pcap", "sw1_to_sw2.pcap"]
    for p in out.iterdir():
        assert p.read_bytes()[:4] == bytes.fromhex("4d3cb2a1")  # nanosecond pcap, little-endian


def test_api_captures_as_bytes():
    text = PATH.format(**CASES["tahoe_timeouts"])
    result, files = atmsim.run_with_captures(text, captures=["s->b"], overrides={"capture.sunatm": True})
    assert set(files) == {"a", "s_to_b"}
    assert all(isinstance(v, bytes) for v in files.values())
    # LINKTYPE_SUNATM in the file header.
    assert int.from_bytes(files["a"][20:24], "little") == 123
    assert int(result.flows["segments_retransmitted"][0]) > 0


def _tshark(pcap: Path, display_filter: str, field: str = "frame.number") -> List[str]:
    proc = subprocess.run(
        [
            shutil.which("tshark") or "tshark",
            "-n",
            "-r",
            str(pcap),
            "-o",
            "tcp.check_checksum:TRUE",
            "-o",
            "ip.check_checksum:TRUE",
            "-Y",
            display_filter,
            "-T",
            "fields",
            "-e",
            field,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_pcap_agrees_with_tshark(case: str, scenario_file, tmp_path: Path):
    if shutil.which("tshark") is None:
        pytest.skip("tshark not found (scripts/test.sh installs it with apt-get)")
    out = tmp_path / "pcap"
    proc = run_cli("run", scenario_file(PATH.format(**CASES[case])), "--pcap", out, "--json")
    assert proc.returncode == 0, proc.stderr
    flow = json.loads(proc.stdout)["flows"][0]
    assert flow["segments_retransmitted"] >= 3
    pcap = out / "a.pcap"

    packets = _tshark(pcap, "frame")
    assert len(packets) > 1000
    assert _tshark(pcap, "_ws.malformed") == []
    assert _tshark(pcap, "_ws.expert.severity >= 8388608") == []  # no expert errors
    # Every IPv4 and TCP checksum verified good.
    good = _tshark(pcap, "ip.checksum.status == 1 && tcp.checksum.status == 1")
    assert len(good) == len(packets)

    # The sender's data: 10.0.0.1 is host a (the first host).
    data = "ip.src == 10.0.0.1 && tcp.len > 0"
    retransmitted = _tshark(
        pcap, f"{data} && (tcp.analysis.retransmission || tcp.analysis.fast_retransmission)"
    )
    assert len(retransmitted) == flow["segments_retransmitted"]
    assert len(_tshark(pcap, data)) == flow["segments_sent"]
    assert sum(int(x) for x in _tshark(pcap, data, "tcp.len")) == flow["bytes_sent"]
