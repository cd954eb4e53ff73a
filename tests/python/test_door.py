"""Issue 26, "at the door": CI on a fresh machine, small gaps of the command line, and the
defects found by hostile input."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Dict

ROOT = Path(__file__).resolve().parents[2]


# -- CI on a fresh machine ---------------------------------------------------------------------


def _load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_installs_the_runtime_dependencies_before_mypy():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = _load_script("ci_requirements").requirements(doc, ["dev"])
    for dep in doc["project"]["dependencies"] + doc["project"]["optional-dependencies"]["dev"]:
        assert dep in wanted
    names = {re.split(r"[<>=;\[ ]", d)[0] for d in wanted}
    assert {"numpy", "pandas", "matplotlib", "tqdm", "mypy", "ruff"} <= names
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = ci.index("scripts/ci_requirements.py")
    assert install < ci.index('"$VENV/bin/mypy"')


def test_ci_venvs_do_not_see_system_site_packages():
    for script in (ROOT / ".ci" / "run", ROOT / "scripts" / "test.sh"):
        code = [
            ln for ln in script.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#")
        ]
        venv_lines = [ln for ln in code if " -m venv" in ln]
        assert venv_lines, script
        for line in venv_lines:
            assert "--system-site-packages" not in line, (script, line)


# -- store export over what is not a regular file ----------------------------------------------


def _store_with_one_run(tmp_path: Path) -> Path:
    from atmsim.store import open_store

    path = tmp_path / "r.sqlite"
    with open_store(path) as db:
        db.put(
            key="k1",
            scenario="s",
            source="src",
            overrides=[("a", "1")],
            params={"a": 1},
            seed=3,
            run=0,
            engine_version="v",
            metrics={"summary.efficiency": 0.5},
            result='{"summary": {"efficiency": 0.5}}',
        )
    return path


def _cli(*args: object, umask: int = 0o022, **kw):
    import os
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "atmsim", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.umask(umask),
        **kw,
    )


def test_export_follows_a_symlink_and_keeps_it(tmp_path):
    import os

    store = _store_with_one_run(tmp_path)
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    proc = _cli("store", "export", store, "--csv", link)
    assert proc.returncode == 0, proc.stderr
    assert os.path.islink(link)
    assert "summary.efficiency" in real.read_text() or "efficiency" in real.read_text()


def test_export_writes_through_a_fifo(tmp_path):
    import os
    import stat
    import threading

    store = _store_with_one_run(tmp_path)
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    got = []

    def read() -> None:
        with open(fifo) as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    proc = _cli("store", "export", store, "--csv", fifo)
    if reader.is_alive():  # the old code never opened the FIFO: unblock the reader
        with open(fifo, "w"):
            pass
    reader.join(10)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and "key" in got[0]


def test_export_to_a_full_device_fails_in_one_line_and_leaves_it(tmp_path):
    import os
    import stat

    import pytest

    # A private copy of /dev/full (char 1:7), so a failing test cannot replace the real one.
    device = tmp_path / "full"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    store = _store_with_one_run(tmp_path)
    proc = _cli("store", "export", store, "--csv", device)
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert str(device) in proc.stderr


def test_export_honours_the_umask(tmp_path):
    import os
    import stat

    store = _store_with_one_run(tmp_path)
    for mask, want in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"e{mask:o}.csv"
        proc = _cli("store", "export", store, "--csv", out, umask=mask)
        assert proc.returncode == 0, proc.stderr
        assert stat.S_IMODE(os.stat(out).st_mode) == want, (oct(mask), oct(os.stat(out).st_mode))


# -- SIGTERM stops the workers too --------------------------------------------------------------


def _children(pid: int):
    import os

    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.update(int(c) for c in f.read().split())
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _term_leaves_no_worker(args, tmp_path):
    import os
    import signal
    import subprocess
    import time

    import pytest

    if not os.path.exists(f"/proc/{os.getpid()}/task"):
        pytest.skip("needs Linux /proc")
    workers: set[int] = set()
    # stderr to a file: orphaned workers would hold a pipe open.
    log = open(tmp_path / "stderr.txt", "w+")  # noqa: SIM115 - closed in finally
    proc = subprocess.Popen(
        [sys.executable, "-m", "atmsim", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            # The pool's workers (a spawn/forkserver start method adds a helper process).
            workers = {c for c in _children(proc.pid) if _alive(c)}
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, (workers, proc.poll())
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        err = (tmp_path / "stderr.txt").read_text()
        assert "Traceback" not in err, err
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)]
    finally:
        if proc.poll() is None:
            proc.kill()
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        log.close()


def test_sigterm_of_a_sweep_kills_its_workers(tmp_path):
    from conftest import small_scenario

    path = tmp_path / "long.toml"
    path.write_text(small_scenario().replace("duration_s = 0.3", "duration_s = 600.0"))
    assert "duration_s = 600.0" in path.read_text()
    _term_leaves_no_worker(["sweep", path, "--runs", "4", "--jobs", "2", "--store", "s.sqlite"], tmp_path)


def test_sigterm_of_a_reproduce_kills_its_workers(tmp_path):
    _term_leaves_no_worker(
        ["reproduce", "ubr-plus", "--quick", "--jobs", "2", "--store", "s.sqlite"], tmp_path
    )


# -- hostile values on the command line ---------------------------------------------------------


def _one_line_error(proc, *needles: str) -> str:
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr[-2000:]
    for needle in needles:
        assert needle in lines[0], lines[0][:300]
    line: str = lines[0]
    return line


def test_huge_integers_in_set_and_grid_are_one_line(tmp_path):
    from atmsim import example

    big = "1" * 5000
    path = example("ubr-plus-lan5")
    store = tmp_path / "s.sqlite"
    for args in (
        ["sweep", path, "--set", f"n_source.buffer_cells={big}", "--store", store],
        ["sweep", path, "--grid", f"n_source.buffer_cells={big},1", "--store", store],
        ["reproduce", "ubr-plus", "--quick", "--set", f"n_source.buffer_cells={big}", "--store", store],
    ):
        _one_line_error(_cli(*args, cwd=tmp_path), "n_source.buffer_cells")


def test_closed_stdout_is_one_line_exit_1(tmp_path):
    import os
    import subprocess

    from atmsim import example

    run = ["run", example("ubr-plus-lan5"), "--set", "simulation.duration_s=0.01"]
    for args in ([*run, "--json"], run):
        proc = subprocess.run(
            [sys.executable, "-m", "atmsim", *map(str, args)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            preexec_fn=lambda: os.close(1),  # `>&-`
        )
        assert proc.returncode == 1, (args, proc.stderr)
        assert "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.strip() == "atmsim: error: cannot write output: standard output is closed"


def test_a_fixed_seed_in_a_sweep_or_reproduce_is_refused(tmp_path):
    import pytest

    import atmsim
    from atmsim import example

    store = tmp_path / "s.sqlite"
    line = _one_line_error(
        _cli("sweep", example("ubr-plus-lan5"), "--set", "simulation.seed=5", "--store", store, cwd=tmp_path),
        "--set simulation.seed",
        "--base-seed",
    )
    assert line.startswith("atmsim: error: ")
    _one_line_error(
        _cli("reproduce", "ubr-plus", "--set", "simulation.seed=5", "--store", store, cwd=tmp_path),
        "--set simulation.seed",
    )
    assert not store.exists()
    with pytest.raises(atmsim.plan.SweepSpecError, match="overrides simulation.seed"):
        atmsim.sweep(atmsim.example("ubr-plus-lan5"), overrides={"simulation.seed": 5}, store=None)


def test_assumptions_refuses_options_it_would_ignore(tmp_path):
    import pytest

    for options, flag in (
        (["--tables", "nonsense"], "--tables"),
        (["--set", "oops"], "--set"),
        (["--set", "n_source.buffer_cells=7"], "--set"),
        (["--sensitivity"], "--sensitivity"),
        (["--dask", "tcp://nowhere:1"], "--dask"),
        (["--jobs", "0"], "--jobs"),
        (["--morris"], "--morris"),
        (["--morris", "3", "--factorial", "phases,arbitration"], "--morris"),
    ):
        proc = _cli("reproduce", "ubr-plus", "--assumptions", *options, cwd=tmp_path)
        _one_line_error(proc, flag, "--assumptions")
        assert proc.stdout == ""
    ok = _cli("reproduce", "ubr-plus", "--assumptions", "--quick", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    if not ok.stdout.strip():
        pytest.fail("--assumptions printed nothing")


# -- user text in Markdown code spans and on the terminal --------------------------------------

TRICKY = ["plain", "a`b", "``x``", "`lead", "trail`", "a ``` b ` c", "new\nline", "x | y *z* _w_"]


def _code_spans(markdown_text: str):
    import html

    markdown = __import__("pytest").importorskip("markdown")
    rendered = markdown.markdown(markdown_text)
    return [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", rendered, re.S)]


def test_md_code_cannot_be_closed_by_its_text():
    from atmsim.markdown import md_code

    for text in TRICKY:
        span = md_code(text)
        found = re.match(r"`+", span)
        assert found is not None, span
        fence = found.group()
        inner = span[len(fence) : -len(fence)]
        assert span.endswith(fence) and "\n" not in span
        assert max((len(r) for r in re.findall(r"`+", inner)), default=0) < len(fence)
        flat = " ".join(text.splitlines())
        assert inner.strip() == flat.strip()
        assert _code_spans(f"before {span} after") == [flat.strip()], (text, span)


def test_report_and_docs_quote_the_store_and_set_values():
    from types import SimpleNamespace

    from atmsim.markdown import md_code
    from atmsim.studies import docgen, report

    store = "odd`name ``x``.sqlite"
    rep = SimpleNamespace(
        started=0.0,
        engine_version="9",
        quick=True,
        wall_s=1.0,
        store=store,
        overrides=[("port.0.policy", "`epd`")],
    )
    lines = report.settings(rep, md_code)  # type: ignore[arg-type]
    assert _code_spans(lines[1]) == [store]
    assert _code_spans(lines[2]) == ["port.0.policy=`epd`"]
    study = SimpleNamespace(name="fixture", tables=[])
    command = f"atmsim reproduce fixture --store '{store}' --set 'a=`b`'"
    block = docgen.section(study, {}, {"command": command, "runs": 1}, {})
    assert command in _code_spans(block)


def test_control_characters_in_names_do_not_reach_the_terminal(tmp_path):
    from atmsim import example

    text = example("class-two-node-shaped").read_text()
    text = re.sub(r"duration_s = .*", "duration_s = 0.01", text).replace('"t1"', '"t1\\u001b[2J\\u001b[31m"')
    path = tmp_path / "ansi\x1b[31m.toml"
    path.write_text(text)
    proc = _cli("run", path, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    assert "t1\\x1b[2J\\x1b[31m" in proc.stdout
    bad = _cli("run", path, "--set", "node.0.kind=\x1b[31mred", cwd=tmp_path)
    assert bad.returncode == 2 and "\x1b" not in bad.stderr, bad.stderr


def test_printable_escapes_controls_only():
    from atmsim.markdown import printable

    assert printable("a\x1b[31mb\x07\x9b\u202ec") == "a\\x1b[31mb\\x07\\x9b\\u202ec"
    assert printable("plain é ü 中 ->") == "plain é ü 中 ->"


# -- the __main__ guard under spawn and forkserver ---------------------------------------------

SWEEP_CALL = """atmsim.sweep(
    atmsim.example("ubr-plus-lan5"),
    grid={"n_source.buffer_cells": [500, 1000]},
    overrides={"simulation.duration_s": 0.01},
    store=None,
    jobs=2,
    progress=False,
)"""


def _script(tmp_path: Path, body: str, method: str):
    import subprocess

    path = tmp_path / "study.py"
    head = (
        f"import multiprocessing\nimport atmsim\n\nmultiprocessing.set_start_method({method!r}, force=True)\n"
    )
    path.write_text(head + body)
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=180, cwd=tmp_path
    )


def test_a_script_without_the_main_guard_gets_one_line(tmp_path):
    for method in ("spawn", "forkserver"):
        proc = _script(tmp_path, f"frame = {SWEEP_CALL}\nprint('done', len(frame))\n", method)
        assert proc.returncode == 1, proc.stderr[-3000:]
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, proc.stderr[-3000:]
        assert 'if __name__ == "__main__":' in lines[0] and method in lines[0]
        assert "done" not in proc.stdout


def test_a_guarded_script_sweeps_under_spawn(tmp_path):
    import textwrap

    call = textwrap.indent(f"frame = {SWEEP_CALL}\nprint('done', len(frame))\n", "    ")
    body = f"def main():\n{call}\n\nif __name__ == '__main__':\n    main()\n"
    proc = _script(tmp_path, body, "spawn")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "done" in proc.stdout


def test_guard_detection_reads_the_script():
    import ast

    from atmsim.mainguard import _guarded

    source = """import atmsim
def main():
    atmsim.sweep()
try:
    if __name__ == "__main__" and True:
        main()
except ImportError:
    pass
if "__main__" == __name__:
    main()
main()
if __name__ != "__main__":
    main()
"""
    body = ast.parse(source).body
    assert _guarded(body, 6) and _guarded(body, 10)
    assert not _guarded(body, 11) and not _guarded(body, 13) and not _guarded(body, 3)


def test_the_docs_explain_the_main_guard():
    text = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    assert 'if __name__ == "__main__":' in text and "spawn" in text


# -- small gaps at the door --------------------------------------------------------------------


def test_version_flag():
    from atmsim import _core

    proc = _cli("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"atmsim {_core.version()}"


def test_run_takes_an_example_name_and_a_file_wins(tmp_path):
    short = ["--set", "simulation.duration_s=0.01"]
    proc = _cli("run", "ubr-plus-lan5", *short, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert '"flows"' in proc.stdout
    (tmp_path / "ubr-plus-lan5").write_text("[simulation]\n")
    mine = _cli("run", "ubr-plus-lan5", *short, cwd=tmp_path)
    assert mine.returncode == 2 and "no nodes" in mine.stderr  # the file, not the example
    assert _cli("run", "no-such-example", cwd=tmp_path).returncode == 2


def test_store_info_defaults_to_results_sqlite(tmp_path):
    import shutil

    shutil.copy(_store_with_one_run(tmp_path), tmp_path / "results.sqlite")
    proc = _cli("store", "info", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("results.sqlite: 1 runs")
    export = _cli("store", "export", "--csv", "out.csv", cwd=tmp_path)
    assert export.returncode == 0, export.stderr and (tmp_path / "out.csv").is_file()


def test_store_command_reruns_a_stored_run(tmp_path):
    import json
    import subprocess

    import atmsim

    scenario = tmp_path / "my.toml"
    scenario.write_text(atmsim.example("ubr-plus-lan5").read_text())
    proc = _cli(
        "sweep",
        "my.toml",
        "--grid",
        "n_source.buffer_cells=500,1000",
        "--set",
        "simulation.duration_s=0.02",
        "--runs",
        "2",
        "--jobs",
        "1",
        "--store",
        "s.sqlite",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    with atmsim.open_store(tmp_path / "s.sqlite") as db:
        runs = db.fetch(with_result=True)
    target = runs[3]

    def rerun() -> Dict[str, Any]:
        command = _cli("store", "command", target.key[:10], "s.sqlite", cwd=tmp_path)
        assert command.returncode == 0, command.stderr
        line = command.stdout.strip()
        assert line.startswith("atmsim ") and f"--seed {target.seed}" in line
        shell = line.replace("atmsim ", f"{sys.executable} -m atmsim ") + " --json"
        done = subprocess.run(shell, shell=True, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, (line, done.stderr)
        return dict(json.loads(done.stdout))

    def same(got: Dict[str, Any]) -> None:
        stored = json.loads(target.result or "{}")
        for doc in (got, stored):
            doc.pop("wall_s", None)
        assert got == stored

    same(rerun())
    scenario.write_text("# edited since\n" + scenario.read_text())  # now the stored text is piped in
    same(rerun())
    missing = _cli("store", "command", "zzzz", "s.sqlite", cwd=tmp_path)
    _one_line_error(missing, "zzzz")


def test_examples_list_their_purpose_and_a_gfr_example_runs(tmp_path):
    import atmsim
    from atmsim.examples import describe

    names = atmsim.examples()
    assert "gfr-fifo" in names
    for name in names:
        text = atmsim.example(name).read_text()
        assert text.startswith("# purpose: "), name
        line = describe(name)
        assert line.endswith("."), (name, line)
        assert "Generated" not in line and "scripts/" not in line, (name, line)
        assert len(line) > 40, (name, line)
    listed = _cli("scenarios", cwd=tmp_path)
    assert describe("gfr-fifo") in listed.stdout
    result = atmsim.run(atmsim.example("gfr-fifo"), overrides={"simulation.duration_s": 0.5})
    assert "priv" in set(result.flows["name"]) and result.summary["total_goodput_bps"] > 0


def test_readme_snippet_changes_the_policy_of_the_example():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    import atmsim

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.findall(r"```python\n(.*?)```", readme, re.S)[0]
    found = re.search(r'atmsim\.example\("([^"]+)"\).*?"n_source\.policy": "([^"]+)"', block)
    assert found is not None, block
    name, policy = found.groups()
    shipped = tomllib.loads(atmsim.example(name).read_text(encoding="utf-8"))["n_source"]["policy"]
    assert policy != shipped, f"the README sets {name}'s policy to the value it already has"


def test_reproduce_help_lists_each_studys_table_ids():
    from atmsim.studies import registry

    proc = _cli("reproduce", "ubr-plus", "--help")
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    for name in registry.names():
        ids = ", ".join(t.id for t in registry.get(name).tables)
        assert f"--tables {ids}" in flat, name


def test_result_repr_is_readable_and_has_an_html_view():
    import atmsim

    result = atmsim.run(atmsim.example("ubr-plus-lan5"), overrides={"simulation.duration_s": 0.05})
    text = repr(result)
    assert text.startswith("<atmsim.Result 5 flows") and "efficiency" in text
    assert not re.search(r"\d\.\d{6,}", text), text
    page = result._repr_html_()
    assert page.startswith("<div>") and "<table>" in page
    for name in result.flows["name"]:
        assert f"<td>{name}</td>" in page
    assert "sw1-&gt;sw2" in page  # names are escaped
    for number in re.findall(r"\d+\.\d+", page.split("</b>", 1)[1]):
        assert len(number.replace(".", "").lstrip("0")) <= 4, number  # 4 significant digits


def test_progress_uses_tqdm_auto_and_shows_in_notebooks(monkeypatch):
    import types

    import tqdm.auto

    from atmsim import progress

    made = []

    class Fake:
        def __init__(self, **kw):
            made.append(kw)

    monkeypatch.setattr(tqdm.auto, "tqdm", Fake)
    assert isinstance(progress.bar(3, 0, True), Fake) and made[0]["total"] == 3

    class ZMQInteractiveShell:
        pass

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not progress.in_notebook()
    assert not isinstance(progress.bar(3, 0), Fake)
    fake_ipython = types.SimpleNamespace(get_ipython=lambda: ZMQInteractiveShell())
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython)
    assert progress.in_notebook()
    assert isinstance(progress.bar(3, 0), Fake)


# -- the cost estimate: recalibrated wall time, long runs announced ----------------------------


def test_estimate_wall_time_is_recalibrated_by_the_kind_of_scenario():
    import json
    from pathlib import Path

    import atmsim
    from atmsim import _core
    from atmsim.limits import WALL_SPEEDUP, estimate

    wfq = Path(atmsim.__file__).resolve().parent / "scenarios" / "bench" / "gfr-wfq.toml"
    for path, kind in (
        (atmsim.example("ubr-plus-lan5"), "plain"),
        (atmsim.example("gfr-fifo"), "plain"),
        (wfq, "virtual_spacing"),  # a Virtual Spacing port: departures never committed
        (atmsim.example("class-two-node-adaptive"), "adaptive"),  # level logs' ports: keyed
        (atmsim.example("class-two-node-shaped"), "background"),
        (atmsim.example("gerla-fcvc"), "background"),
    ):
        text = path.read_text()
        engine = json.loads(_core.estimate_json(text, [], None))["wall_s"]
        assert estimate(text).wall_s == __import__("pytest").approx(engine / WALL_SPEEDUP[kind]), path.name
        assert atmsim.estimate(path).wall_s == estimate(text).wall_s
    # The fit: plain FIFO work (trains, committed departures) runs fastest; every kind runs
    # faster than the engine's nominal rate.
    assert all(WALL_SPEEDUP["plain"] > v > 1 for k, v in WALL_SPEEDUP.items() if k != "plain")


def _stderr_until(args, needle: str, tmp_path: Path, timeout: float = 60.0) -> str:
    import subprocess
    import time

    path = tmp_path / "stderr.txt"
    with open(path, "w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "atmsim", *map(str, args)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            cwd=tmp_path,
        )
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and proc.poll() is None and needle not in path.read_text():
                time.sleep(0.1)
        finally:
            proc.kill()
            proc.wait(30)
    return path.read_text()


def test_long_runs_are_announced_before_they_start(tmp_path):
    from atmsim import example

    text = _stderr_until(
        ["run", example("class-italy"), "--set", "simulation.duration_s=600"], "Ctrl-C", tmp_path
    )
    assert "estimated" in text and "min of wall time; Ctrl-C to stop" in text, text
    quick = _cli("run", "ubr-plus-lan5", "--set", "simulation.duration_s=0.01", cwd=tmp_path)
    assert quick.returncode == 0 and "Ctrl-C" not in quick.stderr
    repro = [
        "reproduce",
        "ubr-plus",
        "--tables",
        "1",
        "--duration",
        "2000",
        "--jobs",
        "1",
        "--store",
        "r.sqlite",
    ]
    text = _stderr_until(repro, "Ctrl-C", tmp_path)
    assert "runs to compute on 1 worker(s): estimated" in text and "Ctrl-C to stop" in text, text
