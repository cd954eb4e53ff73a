"""`atmsim reproduce STUDY|all`: a registered study (or every one) through the sweep machinery
and the results store, then either printed (one study, no `--out`: its claims and tables as
text, or with `--json` one object: the study's record, `study_record`, with its `rows`) or
written as a report folder (`--out DIR`, and always for `all`; `--json` then the same record
per study)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .cli_errors import user_errors

DEFAULT_OUT = "report"


def _description() -> str:
    import textwrap

    from .studies import registry

    def para(text: str) -> List[str]:
        return textwrap.wrap(text, 79)

    def item(name: str, text: str) -> List[str]:
        return textwrap.wrap(
            text, 79, initial_indent=f"  {name:16} ", subsequent_indent=" " * 19, break_on_hyphens=False
        )

    lines = para(
        "Rerun a published study and compare with the paper's values. Every run goes "
        "through the results store, so a repeated command only computes missing runs."
    )
    lines += ["", "studies:"]
    for name in registry.names():
        ids = ", ".join(t.id for t in registry.get(name).tables)
        lines += item(name, f"{registry.summary(name)}; --tables {ids}")
    lines += item("all", f"every study above, written as a report folder (default {DEFAULT_OUT}/)")
    lines += [""] + para(
        "Without --out, one study is printed: the paper's main claims with their verdicts, then "
        "each paper table with the simulated value beside the published one and the agreement "
        "(--json: one object with the run counts, claims, agreement, notes and rows, one row "
        "per experiment). With --out DIR (and always for 'all') the report folder is written: "
        "index.html, README.md, figures and CSV tables (--json: the same object per study, "
        "under studies)."
    )
    return "\n".join(lines)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "reproduce",
        help="rerun a published study and compare",
        description=_description(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Checked by the command, not by argparse, so an unknown study is a one-line error.
    p.add_argument("study", metavar="STUDY", help="a study named below, or all")
    p.add_argument(
        "--quick",
        action="store_true",
        help="each study's quick subset (UBR+: the 5-source rows of Tables 1-3)",
    )
    p.add_argument(
        "--tables",
        default=None,
        metavar="LIST",
        help="only these paper tables, comma-separated (a number also names the "
        "range it is in: 3 is UBR+'s table 2-3); default every table",
    )
    p.add_argument(
        "--all", action="store_true", help="every table (the default; kept for older command lines)"
    )
    p.add_argument(
        "--duration",
        type=float,
        metavar="S",
        help="simulated seconds per run instead of the paper's (smoke tests: the "
        "values are then not comparable with the paper)",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a scenario field in every run (sensitivity); repeatable; a * part "
        "stands for every element of that array (connection.*.tcp.mss=512)",
    )
    p.add_argument("--jobs", type=int, metavar="N", help="local worker processes (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS")
    p.add_argument("--store", metavar="PATH", help="results store (default results.sqlite)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help=f"write the report folder to DIR (default for 'all' and with --sensitivity: {DEFAULT_OUT})",
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON instead of text (see above for which document)"
    )
    p.add_argument(
        "--assumptions",
        action="store_true",
        help="list the parameters the paper states and those the study assumes "
        "(value, why, range swept), then stop (--json: {stated: [{name, value, source}], "
        "assumed: [{name, value, range, why}]}; for all: {studies: [...]})",
    )
    p.add_argument(
        "--docs",
        metavar="DIR",
        help="also rewrite the measured-numbers block of DIR/STUDY-reproduction.md for each study "
        "run (the repository's docs/ folder; agreement before from DIR/data/before-session4.json)",
    )
    p.add_argument(
        "--docs-blocks",
        metavar="LIST",
        help="with --docs: which generated blocks to rewrite, comma-separated from measured (the "
        "default run's numbers), variant (a run with --set/--duration beside the default, read "
        "from the store or run) and sensitivity (with --sensitivity: the 'Assumptions and "
        "sensitivity' section); default measured, or variant with --set/--duration, plus "
        "sensitivity with --sensitivity",
    )
    p.add_argument(
        "--sensitivity",
        action="store_true",
        help="also sweep each assumption over its range, one at a time, on the "
        "study's declared subset; the report gets a tornado figure per study",
    )
    p.add_argument(
        "--morris",
        nargs="?",
        const="",
        default=None,
        metavar="R",
        help="also screen the study's assumptions jointly by Morris elementary effects (SALib) "
        "with R trajectories (default 4) on its Morris subset (its sensitivity subset unless it "
        "declares one; the output says which experiments it covers), then run a full factorial of "
        "the strongest pair: DIR/STUDY/morris.csv, factorial.csv and morris-STUDY.png",
    )
    p.add_argument(
        "--factorial",
        metavar="A,B[,C]",
        help="with --morris: the assumptions of the full factorial instead of the strongest pair",
    )
    p.set_defaults(func=cmd_reproduce)


def _records(frame: Any) -> List[Dict[str, Any]]:
    from .tables import plain

    return [{k: plain(v) for k, v in r.items()} for _, r in frame.iterrows()]


def study_record(s: Any) -> Dict[str, Any]:
    """One study of `reproduce --json`, the same in both documents (one study without --out:
    the object itself, beside `study`, `quick` and `engine_version`; with --out or for all:
    each element of `studies`, beside `name`): run counts, figures drawn (0 without a
    folder), replications per row, the agreement rows, the notes, the paper's main claims
    with their verdicts, the sensitivity and Morris effects (null unless asked) and every
    row of the comparison tables (`text.rows`: per compared metric its `paper_X`,
    `comparator_X`, `agrees_X`)."""
    from .studies import claims, text

    return {
        "runs": s.runs,
        "runs_computed": s.computed,
        "runs_cached": s.cached,
        "figures": sum(len(f.files) for f in s.figures),
        "replications": s.replications,
        "claims": claims.records(s.study, s.results),
        "agreement": _records(s.agreement),
        "notes": s.notes,
        "sensitivity": None if s.sensitivity is None else _records(s.sensitivity.effects),
        "morris": None if s.morris is None else _records(s.morris.frame),
        "rows": text.rows(s),
    }


def cmd_assumptions(args: argparse.Namespace) -> int:
    """`atmsim reproduce NAME --assumptions [--json]`: no runs, the declarations only."""
    from .studies import assumptions, registry, sensitivity
    from .studies.reproduce import assumptions_of, stated_of

    with user_errors():
        names = registry.names() if args.study == "all" else [args.study]
        studies = [registry.get(n) for n in names]
    if args.json:
        docs = [
            {"study": study.name, **assumptions.listing(assumptions_of(study), stated_of(study))}
            for study in studies
        ]
        print(json.dumps(docs[0] if args.study != "all" else {"studies": docs}, indent=2))
        return 0
    for study in studies:
        print(f"== {study.name}: {study.title}")
        declared = assumptions_of(study)
        if not declared:
            print("  (this study declares no assumptions yet)")
        else:
            print(assumptions.render(declared, stated_of(study)))
            print(f"Sensitivity subset: {sensitivity.subset(study, args.quick).why}")
        print()
    return 0


def _docs_to_update(folder: Optional[str], names: Sequence[str]) -> Dict[str, Path]:
    """--docs DIR: each study's doc, checked before anything runs."""
    from . import cli

    if folder is None:
        return {}
    docs = {n: Path(folder) / f"{n}-reproduction.md" for n in names}
    for name, doc in docs.items():
        if not doc.is_file():
            raise cli.CliError(f"--docs {folder}: no {doc.name} for study {name}")
    return docs


DOC_BLOCKS = ("measured", "variant", "sensitivity")


def _doc_blocks(args: argparse.Namespace, overrides: Sequence[Tuple[str, str]]) -> Tuple[str, ...]:
    """--docs-blocks LIST (checked before anything runs), or its default."""
    from . import cli

    if args.docs_blocks is None:
        if args.docs is None:
            return ()
        first = "variant" if overrides else "measured"
        return (first, "sensitivity") if args.sensitivity else (first,)
    if args.docs is None:
        raise cli.CliError("--docs-blocks: only with --docs")
    chosen = tuple(dict.fromkeys(p.strip() for p in args.docs_blocks.split(",") if p.strip()))
    if not chosen:
        raise cli.CliError("--docs-blocks: no block given (choose from measured, variant, sensitivity)")
    for b in chosen:
        if b not in DOC_BLOCKS:
            raise cli.CliError(
                f"--docs-blocks: unknown block {b!r} (choose from measured, variant, sensitivity)"
            )
    if "measured" in chosen and overrides:
        raise cli.CliError(
            "--docs-blocks measured: the measured block is the default run's, not one with "
            "--set/--duration (that is the variant block)"
        )
    if "variant" in chosen and not overrides:
        raise cli.CliError("--docs-blocks variant: needs --set or --duration (the variant's overrides)")
    if "sensitivity" in chosen and not args.sensitivity:
        raise cli.CliError("--docs-blocks sensitivity: only with --sensitivity")
    return chosen


# The options whose values are paths on the machine that ran the command: a doc names them by
# role, so it does not publish one machine's folders.
_PATH_OPTIONS = {"--store": "STORE", "--out": "DIR", "--docs": "DOCS"}


def portable_command(argv: Sequence[str]) -> str:
    """The command line `argv` as a doc quotes it, path options by role (`--store STORE`)."""
    words: List[str] = []
    hide = False
    for a in argv:
        if hide:
            hide = False
            continue
        name, eq, _ = a.partition("=")
        if name in _PATH_OPTIONS:
            words += [name, _PATH_OPTIONS[name]]
            hide = not eq
            continue
        words.append(shlex.quote(a))
    return " ".join(["atmsim", *words])


def _update_docs(
    docs: Dict[str, Path],
    rep: Any,
    out: Path,
    args: argparse.Namespace,
    wall: float,
    blocks: Sequence[str] = ("measured",),
    default: Any = None,
) -> None:
    import shutil

    from .studies import docgen
    from .studies.reproduce import assumptions_of, stated_of
    from .studies.sensitivity import combinations_of

    command = portable_command(sys.argv[1:])
    for i, s in enumerate(rep.studies):
        doc = docs[s.study.name]
        run = {
            "generator": "atmsim reproduce --docs",
            "command": command,
            "started_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(rep.started)),
            "engine_version": rep.engine_version,
            "mode": "quick" if args.quick else "full",
            "runs": s.runs,
            "computed": s.computed,
            "cached": s.cached,
            "replications": s.replications,
            "wall_s": wall,
            "machine": f"{os.cpu_count()} cores ({platform.machine()})",
        }
        if "measured" in blocks:
            docgen.update_doc(doc, s.study, out, run, doc.parent / "data" / "before-session4.json")
            print(f"{doc}: measured block rewritten", file=sys.stderr)
        if "variant" in blocks and default is not None:
            block = docgen.variant_section(
                s.study, s.results.tables, default.studies[i].results.tables, run, rep.overrides
            )
            text = docgen.rewrite_block(
                doc.read_text(encoding="utf-8"),
                block,
                docgen.VARIANT_BEGIN,
                docgen.VARIANT_END,
                after=docgen.END,
            )
            doc.write_text(text, encoding="utf-8")
            print(f"{doc}: variant block rewritten", file=sys.stderr)
        if "sensitivity" in blocks and s.sensitivity is not None:
            figure = ""
            png = [p for p in s.tornado if p.suffix == ".png"]
            if png:
                target = doc.parent / "figures" / f"{s.study.name}-sensitivity-tornado.png"
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(png[0], target)
                figure = f"figures/{target.name}"
            declared = assumptions_of(s.study)
            block = docgen.sensitivity_section(
                s.study,
                s.sensitivity,
                declared,
                stated_of(s.study),
                combinations_of(s.study, declared),
                run,
                figure,
            )
            text = docgen.rewrite_block(
                doc.read_text(encoding="utf-8"),
                block,
                docgen.SENSITIVITY_BEGIN,
                docgen.SENSITIVITY_END,
                docgen.SENSITIVITY_HEADING,
            )
            doc.write_text(text, encoding="utf-8")
            print(f"{doc}: sensitivity block rewritten", file=sys.stderr)


# Options that choose or run simulations: --assumptions runs none, so each is refused with it
# rather than silently ignored (a bad value would otherwise pass unnoticed).
_RUN_OPTIONS = (
    ("tables", "--tables"),
    ("all", "--all"),
    ("duration", "--duration"),
    ("set", "--set"),
    ("jobs", "--jobs"),
    ("dask", "--dask"),
    ("store", "--store"),
    ("out", "--out"),
    ("docs", "--docs"),
    ("docs_blocks", "--docs-blocks"),
    ("sensitivity", "--sensitivity"),
    ("morris", "--morris"),
    ("factorial", "--factorial"),
)


def _assumptions_only(args: argparse.Namespace) -> None:
    from . import cli

    for attr, flag in _RUN_OPTIONS:
        value = getattr(args, attr, None)
        if value is not None and value is not False:
            raise cli.CliError(
                f"{flag}: not with --assumptions, which lists the declarations and runs nothing "
                f"(drop {flag}, or drop --assumptions to run)"
            )


def cmd_reproduce(args: argparse.Namespace) -> int:
    from . import cli, executors, store
    from .overrides import duration
    from .studies import claims, registry, replication, report, text
    from .studies.reproduce import reproduce, select_tables

    if args.assumptions:
        _assumptions_only(args)
        return cmd_assumptions(args)
    from . import sweeps
    from .limits import ANNOUNCE_WALL_S

    sweeps.ANNOUNCE_OVER_S = ANNOUNCE_WALL_S  # long batches of runs say so before they start

    with user_errors():
        names = registry.names() if args.study == "all" else [args.study]
        studies = [registry.get(n) for n in names]
        if args.jobs is not None and args.jobs < 1:
            raise cli.CliError("--jobs: must be at least 1")
        if args.dask and args.jobs is not None:
            raise cli.CliError("--jobs and --dask: choose one")
        if args.tables is not None and args.all:
            raise cli.CliError("--tables and --all: choose one")
        if args.tables is not None and len(studies) > 1:
            raise cli.CliError("--tables: only for one study (table ids differ between studies)")
        tables = None if args.tables is None else select_tables(studies[0], args.tables)
        overrides = tuple(duration(args.duration)) + tuple(cli._overrides(args.set))
        if any(key == "simulation.seed" for key, _ in overrides):
            raise cli.CliError(
                "--set simulation.seed: each replication's seed is derived from its run "
                "number (the study's replications), so a fixed seed would be ignored"
            )
        folder = args.out is not None or args.study == "all" or args.sensitivity or args.docs is not None
        morris_options = _morris_options(args, studies)
        folder = folder or morris_options is not None
        out = Path(args.out or DEFAULT_OUT) if folder else None
        if out is not None and out.exists() and not out.is_dir():
            raise cli.CliError(f"--out {out}: exists and is not a directory")
        docs = _docs_to_update(args.docs, names)
        blocks = _doc_blocks(args, overrides)
        db = store.open_store(args.store or store.DEFAULT_PATH)
        client = None
        try:
            executor = None
            if args.dask:
                executor, client = executors.dask(args.dask)
            started = time.perf_counter()
            try:
                rep = reproduce(
                    studies,
                    args.quick,
                    db,
                    out,
                    overrides,
                    args.jobs,
                    executor,
                    tables=tables,
                    sensitivity=args.sensitivity,
                    morris_options=morris_options,
                )
            except replication.IdenticalReplications as err:
                raise cli.CliError(str(err)) from None
            written = report.write(rep, out) if out is not None else []
            if docs and out is not None:
                wall_docs = time.perf_counter() - started
                default = None
                if "variant" in blocks:
                    # The default beside the variant: the same runs without the overrides
                    # (from the store when it holds them), compared only.
                    default = reproduce(studies, args.quick, db, None, (), args.jobs, executor, tables=tables)
                _update_docs(docs, rep, out, args, wall_docs, blocks, default)
        finally:
            if client is not None:
                client.close()
            db.close()
    wall = time.perf_counter() - started
    if out is None:
        (one,) = rep.studies
        if args.json:
            doc = {"study": one.study.name, "quick": args.quick, "engine_version": rep.engine_version}
            print(json.dumps({**doc, **study_record(one)}, indent=2))
        else:
            print(text.render(one))
            print(f"\n{one.runs} runs ({one.computed} computed, {one.cached} from {db.path}), {wall:.0f} s")
        return 0
    if args.json:
        doc = {
            "report": str(out),
            "quick": args.quick,
            "wall_s": wall,
            "engine_version": rep.engine_version,
            "started_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(rep.started)),
            "studies": [{"name": s.study.name, **study_record(s)} for s in rep.studies],
        }
        print(json.dumps(doc, indent=2))
        return 0
    for s in rep.studies:
        print(
            f"{s.study.name}: {s.runs} runs ({s.computed} computed, {s.cached} from "
            f"{db.path}), {len(s.figures)} figures"
        )
        print(text.summary(s))
        if s.sensitivity is not None:
            from .studies.sensitivity import render

            print(render(s.sensitivity))
        if block := claims.render(s.study, s.results):
            print(block)
        if s.morris is not None:
            from .studies.morris import render as render_morris

            print(render_morris(s.morris))
    print(
        f"report: {out / 'index.html'} and {out / 'README.md'} "
        f"({len(written)} files besides the figures), {wall:.0f} s"
    )
    return 0


def _morris_options(args: argparse.Namespace, studies: Sequence[Any]) -> Any:
    """--morris [R] and --factorial A,B: the screening's options, or None without --morris."""
    from . import cli
    from .studies import morris
    from .studies.reproduce import assumptions_of

    if args.morris is None:
        if args.factorial is not None:
            raise cli.CliError("--factorial: only with --morris")
        return None
    try:
        r = morris.parse_trajectories(args.morris)
        names: Tuple[str, ...] = ()
        if args.factorial is not None:
            if len(studies) > 1:
                raise ValueError("--factorial: only for one study (assumption names differ between studies)")
            names = morris.parse_factorial(args.factorial, assumptions_of(studies[0]), studies[0].name)
    except ValueError as err:
        raise cli.CliError(str(err)) from None
    for study in studies:
        if sum(len(a.values) >= 2 for a in assumptions_of(study)) < 2:
            raise cli.CliError(f"--morris: {study.name} declares fewer than two assumptions with a range")
    return morris.Options(trajectories=r, factorial=names)
