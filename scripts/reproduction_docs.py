"""Rewrite the measured-numbers block of `docs/STUDY-reproduction.md` from a report folder.

    python scripts/reproduction_docs.py REPORT_DIR STUDY --run RUN.json \
        --command "atmsim reproduce STUDY --jobs 1 --store S --out REPORT_DIR --json" \
        [--before docs/data/before-session4.json] [--doc docs/STUDY-reproduction.md]
    python scripts/reproduction_docs.py - STUDY --pending "why there are no numbers yet"

REPORT_DIR is the folder `atmsim reproduce ... --out REPORT_DIR` wrote (its STUDY/table-*.csv
are read); RUN.json is what that command printed with `--json` (wall time, run counts, engine
version, start time). Only the text between the markers of `atmsim.studies.docgen` changes;
the hand-written analysis around it is left as it is. See `atmsim/studies/docgen.py`.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path
from typing import Any, Dict

from atmsim.studies import docgen, registry


def run_meta(run_json: Path, study: str, command: str) -> Dict[str, Any]:
    doc = json.loads(run_json.read_text(encoding="utf-8"))
    entry = next((s for s in doc.get("studies", []) if s.get("name") == study), None)
    if entry is None:
        raise SystemExit(f"--run {run_json}: no study {study!r} in it")
    return {
        "command": command,
        "started_utc": doc.get("started_utc", "?"),
        "engine_version": doc.get("engine_version", "?"),
        "mode": "quick" if doc.get("quick") else "full",
        "runs": entry.get("runs"),
        "replications": entry.get("replications"),
        "wall_s": doc.get("wall_s"),
        "machine": f"a shared 2-core {platform.machine()} sandbox",
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("study")
    ap.add_argument("--run", help="the --json output of the reproduce command")
    ap.add_argument("--command", help="the command that made the report")
    ap.add_argument(
        "--pending",
        metavar="TEXT",
        help="no report yet: write the block with the before numbers only and TEXT saying why",
    )
    ap.add_argument("--before", default="docs/data/before-session4.json")
    ap.add_argument("--doc", default=None)
    args = ap.parse_args()
    study = registry.get(args.study)
    before = Path(args.before)
    doc = Path(args.doc or f"docs/{study.name}-reproduction.md")
    if not args.pending:
        if not args.run or not args.command:
            raise SystemExit("--run and --command are needed (or --pending TEXT)")
        run = run_meta(Path(args.run), study.name, args.command)
        try:
            n = docgen.update_doc(doc, study, Path(args.report), run, before)
        except ValueError as err:
            raise SystemExit(f"{err} (did the reproduction finish?)") from None
        print(f"{doc}: measured block rewritten ({n} tables)")
        return 0
    block = docgen.section(
        study,
        {},
        {"pending": args.pending},
        docgen.load_before(before, study.name),
        docgen.before_source(before, study.name),
    )
    doc.write_text(docgen.rewrite(doc.read_text(encoding="utf-8"), block), encoding="utf-8")
    print(f"{doc}: pending block written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
