"""User errors: one line `atmsim: error: ...` on stderr, exit status 2, no traceback."""

from __future__ import annotations

from conftest import run_cli, small_scenario


def assert_one_line_error(proc, *needles: str) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    line: str = lines[0]
    assert line.startswith("atmsim: error: "), line
    for needle in needles:
        assert needle in line, line
    assert proc.stdout == ""
    return line


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.toml"
    assert_one_line_error(run_cli("run", missing), str(missing))


def test_missing_file_json(tmp_path):
    assert_one_line_error(run_cli("run", tmp_path / "nope.toml", "--json"), "nope.toml")


def test_unknown_key(scenario_file):
    path = scenario_file(small_scenario() + "bogus_knob = 3\n")
    line = assert_one_line_error(run_cli("run", path), "bogus_knob")
    # `field: reason`: the field names the offending key.
    field = line[len("atmsim: error: ") :].split(": ", 1)[0]
    assert "bogus_knob" in field


def test_unknown_key_via_set(scenario_file):
    path = scenario_file()
    assert_one_line_error(run_cli("run", path, "--set", "n_source.bogus_knob=1"), "bogus_knob")


def test_negative_value(scenario_file):
    path = scenario_file(small_scenario(sources=-5))
    assert_one_line_error(run_cli("run", path), "sources")


def test_negative_value_via_set(scenario_file):
    path = scenario_file()
    assert_one_line_error(run_cli("run", path, "--set", "n_source.buffer_cells=-1"), "buffer_cells")


def test_malformed_set(scenario_file):
    assert_one_line_error(run_cli("run", scenario_file(), "--set", "no_equals_sign"), "--set")


def test_bad_tables_option():
    assert_one_line_error(run_cli("reproduce", "ubr-plus", "--tables", "9"), "--tables")


def test_bench_missing_file(tmp_path):
    assert_one_line_error(run_cli("bench", tmp_path / "gone.toml"), "gone.toml")


def test_negative_seed_is_a_usage_error(scenario_file):
    proc = run_cli("run", scenario_file(), "--seed", "-1")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "--seed" in proc.stderr
