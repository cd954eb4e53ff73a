#!/usr/bin/env python3
"""What `atmsim reproduce all` (full mode) costs on this machine, estimated from measured parts.

A full reproduction is long and the machine is shared, so it is not timed; it is estimated
(issue 11). Steps:

1. Plan. Every simulation run the harness of a given checkout makes is listed by importing its
   own planning code (`studies.registry`, `studies.reproduce._point`, `plan.tasks`, the trace
   runs, and `studies.replication` where it exists), with a stub in place of the compiled
   `atmsim._core` (planning never runs the engine). Runs with the same store key (scenario text,
   overrides, seed) are computed once by the harness and are counted once here.
2. Sample. Runs are grouped into strata (study, table or trace run, simulated duration); up to
   `--per-stratum` runs of each are drawn with a fixed random seed.
3. Measure. Each sampled run is executed by an `examples/run` binary under
   `valgrind --tool=callgrind` three times: set-up only (3 us, or the least duration the engine
   accepts), D1 and D2 = 2 x D1 simulated seconds (D2 = D for runs of 2 s or less, else
   min(`--short`, max(2 s, D / 5))). The marginal rate between the two extrapolates to the
   run's full duration D: I(D) = I(D2) + (I(D2) - I(D1)) / (D2 - D1) * (D - D2). Results are
   cached in `--work`, so an interrupted estimate resumes.
4. Convert. Each sampled run also runs natively at D2 (`--repeat` times, least CPU time, user +
   system from wait4: on a shared machine wall time counts the waits for a core); its
   instructions per CPU second convert its extrapolated count. Unsampled runs take their
   stratum's mean.
5. Sum. Per study and in total: CPU seconds, and the end-to-end time on `--cores` idle cores
   (the harness's order replayed: each study's experiments, then its trace runs, largest cost
   hint first, each run on the first free core). Uncertainty: the between-run spread of each
   stratum (standard error of the unsampled part; a stratum sampled once borrows the largest
   relative spread of its study). `--validate` / `--validate-longest` run sampled runs natively
   at full length on both engines, back to back, against their predictions.

The "old" engine runs the 1a9e2f9 plan as is; the "new" engine runs the same plan with
`simulation.phases = "aligned"`, and the reports of both are compared field by field (the same
work only where they are equal); `--today` also plans today's harness (more replications,
random phases) and prices it with the new engine.

Usage (from the repository root; everything is optional, the defaults are this machine's):

    python scripts/reproduce_cost.py \\
        --old-python /work/wt-orig/python --old-bin /work/run-orig \\
        --new-python python --new-bin /work/run-final2 \\
        --work /tmp/reproduce-cost --short 4 --per-stratum 2 --today \\
        --validate 4 --validate-longest 3 --markdown /tmp/reproduce-cost/estimate.md

    python scripts/reproduce_cost.py --plan-only      # list the runs per study, no engine

Run it under `nice -n 10`: it runs one valgrind at a time. The first call takes about 75 min of
one core here (valgrind is ~30x slower than native); later calls reuse the cache.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import tomllib

ROOT = Path(__file__).resolve().parent.parent
SETUP_S = 3e-6
ALIGNED = ("simulation.phases", '"aligned"')
IGNORED = {"wall_s", "engine_version"}


@dataclass
class Run:
    """One simulation run of a reproduction, as `examples/run` takes it."""

    study: str
    group: str  # table id or "trace:<name>"
    text: str
    overrides: List[Tuple[str, str]]
    seed: int
    duration_s: float
    batch: str  # one `execute` call of the harness: "<study>" or "<study> traces"
    order_cost: float  # the harness's cost hint: it starts the largest first

    @property
    def key(self) -> str:
        doc = [self.text, [list(p) for p in self.overrides], self.seed]
        return hashlib.sha256(json.dumps(doc).encode()).hexdigest()[:16]

    @property
    def stratum(self) -> Tuple[str, str, float]:
        return (self.study, self.group, self.duration_s)


def _stub_core() -> types.ModuleType:
    stub = types.ModuleType("atmsim._core")

    class ScenarioError(Exception):
        pass

    stub.ScenarioError = ScenarioError  # type: ignore[attr-defined]
    stub.version = lambda: "plan-only"  # type: ignore[attr-defined]
    stub.eta_oh = lambda *a: 1.0  # type: ignore[attr-defined]
    stub.CELL_BITS = 424  # type: ignore[attr-defined]
    stub.run_json = lambda *a, **k: "{}"  # type: ignore[attr-defined]
    return stub


def _duration(text: str, overrides: Sequence[Tuple[str, str]]) -> float:
    from_file = tomllib.loads(text).get("simulation", {}).get("duration_s")
    value = from_file
    for k, v in overrides:
        if k == "simulation.duration_s":
            value = float(v)
    if value is None:
        raise SystemExit("a run without simulation.duration_s: cannot price it")
    return float(value)


def plan(python_dir: Path) -> List[Run]:
    """Every distinct run `atmsim reproduce all` (full mode, no --duration) makes with the
    harness in python_dir, in the order the harness submits them."""
    for name in [m for m in sys.modules if m == "atmsim" or m.startswith("atmsim.")]:
        del sys.modules[name]
    sys.modules["atmsim._core"] = _stub_core()
    sys.path.insert(0, str(python_dir.resolve()))
    try:
        from atmsim import plan as plan_mod
        from atmsim.studies import registry, reproduce

        try:
            from atmsim.studies import replication

            def reps(study: Any) -> int:
                return replication.replications(study.runs, False)
        except ImportError:  # 1a9e2f9: the study's own count

            def reps(study: Any) -> int:
                return int(study.runs)

        out: List[Run] = []
        seen = set()

        def add(run: Run) -> None:
            if run.key not in seen:  # one store: equal runs are computed once
                seen.add(run.key)
                out.append(run)

        for name in registry.names():
            study = registry.get(name)
            exps = study.experiments(False)
            points = [reproduce._point(study, e, ()) for e in exps]
            for task in plan_mod.tasks(points, reps(study), 1, "plan-only"):
                p, e = points[task.point], exps[task.point]
                ov = list(p.overrides)
                add(
                    Run(
                        name,
                        str(e.table),
                        p.scenario.text,
                        ov,
                        task.seed,
                        _duration(p.scenario.text, ov),
                        name,
                        float(e.cost),
                    )
                )
            for tr in study.trace_runs(False):
                ov = list(tr.scenario.overrides) + list(tr.overrides)
                seed = _seed0()
                add(
                    Run(
                        name,
                        f"trace:{tr.name}",
                        tr.scenario.text,
                        ov,
                        seed,
                        _duration(tr.scenario.text, ov),
                        f"{name} traces",
                        1.0,
                    )
                )
        return out
    finally:
        sys.path.remove(str(python_dir.resolve()))
        for name in [m for m in sys.modules if m == "atmsim" or m.startswith("atmsim.")]:
            del sys.modules[name]


def _seed0() -> int:
    # Trace runs are one replication: the seed of run 0 from base seed 1.
    from atmsim.seeds import derive_seed

    return int(derive_seed(1, 0))


def short_durations(d: float, cap: float) -> Tuple[float, float]:
    """The two shortened durations a run is measured at: a run of 2 s or less is measured
    whole; a longer one at min(cap, max(2 s, D / 5)) and half of that, so the marginal rate is
    taken after the start-up transient (slow start, first timeouts) of most runs."""
    d2 = d if d <= 2.0 else min(d, cap, max(2.0, d / 5.0))
    return d2 / 2.0, d2


def sample(runs: Sequence[Run], per_stratum: int, seed: int) -> Dict[Tuple[str, str, float], List[Run]]:
    """Up to per_stratum runs of each stratum, drawn with a fixed seed."""
    rng = random.Random(seed)
    strata: Dict[Tuple[str, str, float], List[Run]] = {}
    for r in runs:
        strata.setdefault(r.stratum, []).append(r)
    return {k: rng.sample(v, min(per_stratum, len(v))) for k, v in strata.items()}


class Engine:
    """An `examples/run` binary, with measurements cached in the work folder."""

    def __init__(self, label: str, binary: Path, extra: Sequence[Tuple[str, str]], work: Path):
        self.label, self.binary, self.extra = label, binary, list(extra)
        st = binary.stat()
        ident = f"{binary.resolve()}:{st.st_size}:{int(st.st_mtime)}:{self.extra}"
        self.tag = hashlib.sha256(ident.encode()).hexdigest()[:10]
        self.work = work
        (work / "scenarios").mkdir(parents=True, exist_ok=True)
        (work / "reports").mkdir(parents=True, exist_ok=True)
        self.cache_path = work / f"cache-{label}-{self.tag}.json"
        self.cache: Dict[str, Any] = {}
        if self.cache_path.exists():
            self.cache = json.loads(self.cache_path.read_text())

    def _argv(self, run: Run, duration: float) -> List[str]:
        scenario = self.work / "scenarios" / f"{run.key}.toml"
        if not scenario.exists():
            scenario.write_text(run.text)
        pairs = list(run.overrides) + [("simulation.seed", str(run.seed))] + self.extra
        pairs.append(("simulation.duration_s", repr(float(duration))))
        return [str(self.binary), str(scenario)] + [f"{k}={v}" for k, v in pairs]

    def _save(self) -> None:
        self.cache_path.write_text(json.dumps(self.cache, indent=1))

    def instructions(self, run: Run, duration: float) -> int:
        """Instructions of the whole process under callgrind; the report is kept."""
        key = f"cg:{run.key}:{duration!r}"
        if key not in self.cache:
            found, err = self._callgrind(run, duration)
            if found is None:
                raise SystemExit(f"{self.label}: run {run.key} failed:\n{err[-2000:]}")
            self.cache[key] = found
            self._save()
        return int(self.cache[key])

    def setup(self, run: Run) -> Tuple[float, int]:
        """(duration, instructions) of a set-up-only run: 3 us, or the shortest duration the
        engine accepts if it asks for more (today's engine wants one cell time of the slowest
        link)."""
        key = f"setup:{run.key}"
        if key not in self.cache:
            duration = SETUP_S
            found, err = self._callgrind(run, duration)
            least = re.search(r"duration_s: must be at least .*\(([0-9.e-]+) s\)", err)
            if found is None and least:
                duration = float(least.group(1)) * 1.01
                found, err = self._callgrind(run, duration)
            if found is None:
                raise SystemExit(f"{self.label}: run {run.key} failed:\n{err[-2000:]}")
            self.cache[key] = [duration, found]
            self._save()
        duration, found = self.cache[key]
        return float(duration), int(found)

    def _callgrind(self, run: Run, duration: float) -> Tuple[Optional[int], str]:
        argv = ["nice", "-n", "10", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        done = subprocess.run(argv + self._argv(run, duration), capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or not found:
            return None, done.stderr
        report = self.work / "reports" / f"{self.label}-{self.tag}-{run.key}-{duration!r}.json"
        report.write_text(done.stdout)
        return int(found.group(1)), done.stderr

    def report(self, run: Run, duration: float) -> Any:
        self.instructions(run, duration)
        path = self.work / "reports" / f"{self.label}-{self.tag}-{run.key}-{duration!r}.json"
        return json.loads(path.read_text())

    def cpu(self, run: Run, duration: float, repeat: int) -> float:
        """Least CPU time (user + system, from wait4) of `repeat` native runs. CPU time, not
        wall time: on a shared machine a run waiting for a core does not count; the least of
        several is the run least slowed by its neighbours' use of the caches."""
        key = f"cpu:{run.key}:{duration!r}:{repeat}"
        if key not in self.cache:
            best = math.inf
            for _ in range(repeat):
                child = subprocess.Popen(
                    ["nice", "-n", "10"] + self._argv(run, duration),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                _, status, usage = os.wait4(child.pid, 0)
                child.returncode = os.waitstatus_to_exitcode(status)
                if child.returncode != 0:
                    raise SystemExit(f"{self.label}: run {run.key} failed natively")
                best = min(best, usage.ru_utime + usage.ru_stime)
            self.cache[key] = best
            self._save()
        return float(self.cache[key])


@dataclass
class RunCost:
    """One sampled run on one engine."""

    stratum: Tuple[str, str, float]
    key: str
    d1: float
    d2: float
    setup: int
    i1: int
    i2: int
    cpu2: float

    @property
    def marginal_rate(self) -> float:  # instructions per simulated second, after the start
        return (self.i2 - self.i1) / (self.d2 - self.d1)

    def full_instructions(self, d: float) -> float:
        return self.i2 + self.marginal_rate * (d - self.d2)

    def full_instructions_mean_rate(self, d: float) -> float:
        # The set-up-subtracted mean rate over the short run, start-up transient included.
        return self.setup + (self.i2 - self.setup) / self.d2 * d

    @property
    def ips(self) -> float:  # instructions per native wall second of this run on this machine
        return self.i2 / self.cpu2


Stratum = Tuple[str, str, float]


def measure(engine: Engine, chosen: Dict[Stratum, List[Run]], cap: float, repeat: int) -> List[RunCost]:
    out = []
    total = sum(len(v) for v in chosen.values())
    n = 0
    for stratum, runs in chosen.items():
        for r in runs:
            n += 1
            d1, d2 = short_durations(r.duration_s, cap)
            t0 = time.perf_counter()
            _, setup = engine.setup(r)
            i1 = engine.instructions(r, d1)
            i2 = engine.instructions(r, d2)
            cpu2 = engine.cpu(r, d2, repeat)
            out.append(RunCost(stratum, r.key, d1, d2, setup, i1, i2, cpu2))
            print(
                f"  [{engine.label} {n}/{total}] {stratum[0]} {stratum[1]} D={stratum[2]:g}: "
                f"setup {setup / 1e6:.0f} M, {d2:g} s {i2 / 1e9:.2f} G instr, {cpu2:.3f} s native CPU "
                f"({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    return out


@dataclass
class Priced:
    """A plan priced on one engine: per run, estimated instructions and CPU seconds."""

    runs: List[Run]
    instr: List[float]
    seconds: List[float]
    # Per stratum: (runs, sampled, total seconds, standard error of the total).
    strata: Dict[Tuple[str, str, float], Tuple[int, int, float, float]]
    alt_seconds: float  # total with the mean-rate extrapolation instead (a model check)
    spreads: Dict[Tuple[str, str, float], float]  # relative spread of strata sampled twice or more


def price(runs: Sequence[Run], costs: Sequence[RunCost], borrow: Optional[Dict[str, float]] = None) -> Priced:
    """Estimated instructions and CPU seconds of every run. borrow: per study, the relative
    spread to assume for strata sampled once when the study has no stratum sampled twice (from
    another measurement of the same study)."""
    by_key = {c.key: c for c in costs}
    by_stratum: Dict[Tuple[str, str, float], List[RunCost]] = {}
    for c in costs:
        by_stratum.setdefault(c.stratum, []).append(c)

    def t(c: RunCost, d: float) -> float:
        return c.full_instructions(d) / c.ips

    instr, seconds = [], []
    alt = 0.0
    for r in runs:
        own = by_key.get(r.key)
        group = [own] if own else by_stratum[r.stratum]
        instr.append(statistics.fmean(c.full_instructions(r.duration_s) for c in group))
        seconds.append(statistics.fmean(t(c, r.duration_s) for c in group))
        alt += statistics.fmean(c.full_instructions_mean_rate(r.duration_s) / c.ips for c in group)
    # Relative spread of a stratum's sampled runs, borrowed by strata sampled once.
    cv: Dict[Tuple[str, str, float], float] = {}
    for k, group in by_stratum.items():
        if len(group) >= 2:
            ts = [t(c, k[2]) for c in group]
            cv[k] = statistics.stdev(ts) / statistics.fmean(ts)
    overall = max(cv.values(), default=0.25)
    strata = {}
    for k, group in by_stratum.items():
        members = [i for i, r in enumerate(runs) if r.stratum == k]
        total = sum(seconds[i] for i in members)
        n, m = len(members), len(group)
        same_study = [v for kk, v in cv.items() if kk[0] == k[0]]
        fallback = (borrow or {}).get(k[0], overall)
        spread = cv.get(k, max(same_study, default=fallback))
        mean = statistics.fmean(t(c, k[2]) for c in group)
        se = (n - m) * spread * mean / math.sqrt(m)
        strata[k] = (n, m, total, se)
    return Priced(list(runs), instr, seconds, strata, alt, cv)


def makespan(seconds: Sequence[float], order_cost: Sequence[float], cores: int) -> float:
    """End of the last run when runs start in the harness's order (largest cost hint first,
    stable) each on the first free core."""
    free = [0.0] * cores
    for i in sorted(range(len(seconds)), key=lambda i: -order_cost[i]):
        j = min(range(cores), key=lambda j: free[j])
        free[j] += seconds[i]
    return max(free)


@dataclass
class StudyRow:
    study: str
    runs: int
    sampled: int
    sim_s: float
    cpu_s: float
    cpu_se: float
    wall_s: float  # on `cores` cores, batches one after another


def summarize(priced: Priced, cores: int) -> List[StudyRow]:
    rows = []
    for study in dict.fromkeys(r.study for r in priced.runs):
        idx = [i for i, r in enumerate(priced.runs) if r.study == study]
        strata = [v for k, v in priced.strata.items() if k[0] == study]
        wall = 0.0
        for batch in dict.fromkeys(priced.runs[i].batch for i in idx):
            b = [i for i in idx if priced.runs[i].batch == batch]
            wall += makespan([priced.seconds[i] for i in b], [priced.runs[i].order_cost for i in b], cores)
        rows.append(
            StudyRow(
                study,
                len(idx),
                sum(v[1] for v in strata),
                sum(priced.runs[i].duration_s for i in idx),
                sum(priced.seconds[i] for i in idx),
                math.sqrt(sum(v[3] ** 2 for v in strata)),
                wall,
            )
        )
    return rows


def total(rows: Sequence[StudyRow]) -> StudyRow:
    return StudyRow(
        "total",
        sum(r.runs for r in rows),
        sum(r.sampled for r in rows),
        sum(r.sim_s for r in rows),
        sum(r.cpu_s for r in rows),
        math.sqrt(sum(r.cpu_se**2 for r in rows)),
        sum(r.wall_s for r in rows),
    )


def differences(a: Any, b: Any, path: str = "") -> List[str]:
    """Paths where two reports differ, over the fields both print (wall time and engine
    version aside)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(a.keys() & b.keys()):
            if k not in IGNORED:
                out += differences(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path} (length {len(a)} vs {len(b)})"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def fmt_s(s: float) -> str:
    return f"{s:,.0f} s ({s / 60:.1f} min)"


def table(title: str, rows: Sequence[StudyRow], cores: int) -> List[str]:
    out = [
        f"**{title}**",
        "",
        f"| study | runs | sampled | simulated s | CPU s (± 1 s.e.) | end-to-end on {cores} cores |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in list(rows) + [total(rows)]:
        out.append(
            f"| {r.study} | {r.runs} | {r.sampled} | {r.sim_s:,.0f} | {r.cpu_s:,.0f} ± {r.cpu_se:,.0f} | "
            f"{fmt_s(r.wall_s)} |"
        )
    return out + [""]


def compare_table(old: Sequence[StudyRow], new: Sequence[StudyRow], cores: int) -> List[str]:
    out = [
        f"| study | 1a9e2f9 engine, end-to-end ({cores} cores) | today's engine, same plan | ratio (CPU) | "
        "ratio (end-to-end) |",
        "|---|---:|---:|---:|---:|",
    ]
    for a, b in list(zip(old, new)) + [(total(old), total(new))]:
        out.append(
            f"| {a.study} | {fmt_s(a.wall_s)} | {fmt_s(b.wall_s)} | {a.cpu_s / b.cpu_s:.2f} | "
            f"{a.wall_s / b.wall_s:.2f} |"
        )
    return out + [""]


def strata_table(priced: Dict[str, Priced], costs: Dict[str, List[RunCost]]) -> List[str]:
    labels = list(priced)
    head = "| stratum (study, table, D) | runs | sampled | short runs (s) |"
    head += "".join(f" {lab}: G instr/sim s | {lab}: G instr/s native | {lab}: CPU s |" for lab in labels)
    out = [head, "|---" * (4 + 3 * len(labels)) + "|"]
    for k, (n, m, _, _) in priced[labels[0]].strata.items():
        row = f"| {k[0]} {k[1]} {k[2]:g} | {n} | {m} |"
        first = [c for c in costs[labels[0]] if c.stratum == k]
        row += f" {first[0].d1:g}, {first[0].d2:g} |"
        for lab in labels:
            cs = [c for c in costs[lab] if c.stratum == k]
            rate = statistics.fmean(c.marginal_rate for c in cs) / 1e9
            ips = statistics.fmean(c.ips for c in cs) / 1e9
            _, _, seconds, se = priced[lab].strata[k]
            row += f" {rate:.3f} | {ips:.2f} | {seconds:,.1f} ± {se:,.1f} |"
        out.append(row)
    return out + [""]


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--old-python", type=Path, default=Path("/work/wt-orig/python"), help="1a9e2f9's python/")
    ap.add_argument("--old-bin", type=Path, default=Path("/work/run-orig"), help="1a9e2f9's examples/run")
    ap.add_argument("--new-python", type=Path, default=ROOT / "python", help="today's python/ (for --today)")
    ap.add_argument("--new-bin", type=Path, default=Path("/work/run-final2"), help="today's examples/run")
    ap.add_argument("--work", type=Path, default=Path("/tmp/reproduce-cost"), help="cache and reports")
    ap.add_argument("--short", type=float, default=4.0, help="longest shortened duration, s (default 4)")
    ap.add_argument("--per-stratum", type=int, default=2, help="runs sampled per stratum (default 2)")
    ap.add_argument("--today-per-stratum", type=int, default=1, help="the same for --today (default 1)")
    ap.add_argument("--seed", type=int, default=11, help="sampling seed")
    ap.add_argument("--repeat", type=int, default=3, help="native runs per sampled run (best kept)")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--today", action="store_true", help="also price today's plan on today's engine")
    ap.add_argument(
        "--validate",
        type=int,
        default=0,
        metavar="N",
        help="run N sampled runs natively at full length on both engines, back to back",
    )
    ap.add_argument(
        "--validate-longest",
        type=int,
        default=0,
        metavar="M",
        help="also the M sampled runs with the longest predicted time on the old engine",
    )
    ap.add_argument("--plan-only", action="store_true", help="list the runs per study and stop")
    ap.add_argument("--markdown", type=Path, help="write the tables here too")
    args = ap.parse_args(argv)

    old_plan = plan(args.old_python)
    today_plan = plan(args.new_python) if (args.today or args.plan_only) else []
    lines: List[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    for label, runs in (("1a9e2f9", old_plan), ("today", today_plan)):
        if not runs:
            continue
        say(f"plan {label}: {len(runs)} distinct runs, {sum(r.duration_s for r in runs):,.0f} simulated s")
        for study in dict.fromkeys(r.study for r in runs):
            rs = [r for r in runs if r.study == study]
            durations = sorted({r.duration_s for r in rs})
            say(
                f"  {study}: {len(rs)} runs, {len({r.stratum for r in rs})} strata, durations {durations} s, "
                f"{sum(r.duration_s for r in rs):,.0f} simulated s"
            )
    if args.plan_only:
        return 0

    old = Engine("old", args.old_bin, [], args.work)
    new = Engine("new-aligned", args.new_bin, [ALIGNED], args.work)
    chosen = sample(old_plan, args.per_stratum, args.seed)
    print("measuring the 1a9e2f9 plan", file=sys.stderr)
    costs = {k: measure(e, chosen, args.short, args.repeat) for k, e in (("old", old), ("new", new))}

    # Same work: today's engine with aligned phases must print what 1a9e2f9's printed.
    say("")
    say("same-work check (reports of every sampled run at its longer short duration):")
    differing = 0
    # Per study: runs checked, identical, events (old, new), instructions (old, new) at D2.
    per: Dict[str, List[float]] = {}
    for runs in chosen.values():
        for r in runs:
            d2 = short_durations(r.duration_s, args.short)[1]
            a, b = old.report(r, d2), new.report(r, d2)
            diff = differences(a, b)
            acc = per.setdefault(r.study, [0, 0, 0, 0, 0, 0])
            acc[0] += 1
            acc[1] += not diff
            acc[2] += a["events"]
            acc[3] += b["events"]
            acc[4] += old.instructions(r, d2)
            acc[5] += new.instructions(r, d2)
            if diff:
                differing += 1
                say(f"  DIFFERS {r.study} {r.group} {r.key}: {len(diff)} fields, first {diff[0]}")
    n_checked = sum(len(v) for v in chosen.values())
    say(f"  {n_checked - differing} of {n_checked} sampled runs identical on every field both print")
    say("  per study: identical / checked, events new/old, instructions old/new, instructions per event")
    for study, (n, same, ea, eb, ia, ib) in per.items():
        say(
            f"    {study}: {same:.0f}/{n:.0f}, events {eb / ea:.3f}, instructions {ia / ib:.2f}, "
            f"per event {ia / ea:.0f} -> {ib / eb:.0f}"
        )

    priced = {"old": price(old_plan, costs["old"]), "new": price(old_plan, costs["new"])}
    rows = {k: summarize(v, args.cores) for k, v in priced.items()}
    say("")
    for k, v in priced.items():
        say(
            f"{k}: mean-rate extrapolation would give {v.alt_seconds:,.0f} CPU s "
            f"(marginal rate: {sum(v.seconds):,.0f})"
        )
    say("")
    lines.extend(table("1a9e2f9 plan on the 1a9e2f9 engine", rows["old"], args.cores))
    aligned = '1a9e2f9 plan on today\'s engine, simulation.phases = "aligned"'
    lines.extend(table(aligned, rows["new"], args.cores))
    lines.extend(compare_table(rows["old"], rows["new"], args.cores))
    lines.extend(strata_table(priced, costs))

    if args.today:
        today = Engine("today", args.new_bin, [], args.work)
        chosen_t = sample(today_plan, args.today_per_stratum, args.seed)
        print("measuring today's plan", file=sys.stderr)
        costs_t = measure(today, chosen_t, args.short, args.repeat)
        # Sampled once per stratum: the spread is borrowed from the old plan's strata of the
        # same study (the largest), measured on the same scenario families.
        borrow: Dict[str, float] = {}
        for stratum, spread in priced["old"].spreads.items():
            borrow[stratum[0]] = max(borrow.get(stratum[0], 0.0), spread)
        rows_t = summarize(price(today_plan, costs_t, borrow), args.cores)
        title = "today's plan (main 4f50605) on today's engine, random phases"
        lines.extend(table(title, rows_t, args.cores))

    if args.validate or args.validate_longest:
        rng = random.Random(args.seed)
        pool = [r for rs in chosen.values() for r in rs]
        picked = rng.sample(pool, min(args.validate, len(pool)))
        longest = sorted(pool, key=lambda r: -priced["old"].seconds[old_plan.index(r)])
        picked += [r for r in longest if r not in picked][: args.validate_longest]
        lines.extend(
            [
                "**validation: native full-length runs, back to back**",
                "",
                "| run | D s | old predicted | old measured | new predicted | new measured "
                "| ratio predicted | ratio measured |",
                "|---|---:|---:|---:|---:|---:|---:|---:|",
            ]
        )
        for r in picked:
            i = old_plan.index(r)
            po, pn = priced["old"].seconds[i], priced["new"].seconds[i]
            mo, mn = old.cpu(r, r.duration_s, 1), new.cpu(r, r.duration_s, 1)
            lines.append(
                f"| {r.study} {r.group} | {r.duration_s:g} | {po:.2f} | {mo:.2f} | {pn:.2f} | {mn:.2f} | "
                f"{po / pn:.2f} | {mo / mn:.2f} |"
            )
        lines.append("")

    text = "\n".join(lines)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
