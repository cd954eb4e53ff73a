"""`atmsim validate [--json] [--only NAME,...]`: the engine against closed-form results."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, List, Optional


def _names(text: str) -> List[str]:
    return [n.strip() for n in text.split(",")]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check the engine against closed-form queueing, TCP, AAL5 and GCRA results",
    )
    p.add_argument("--json", action="store_true", help='print {"checks": [...]} as JSON')
    p.add_argument(
        "--only",
        metavar="NAME,...",
        type=_names,
        help="run only these checks (comma-separated; `--only list` names them)",
    )
    p.set_defaults(func=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    from . import validate
    from .cli import CliError

    only: Optional[List[str]] = args.only
    if only == ["list"]:
        print("\n".join(validate.names()))
        return 0
    try:
        checks = validate.select(only)
    except validate.UnknownCheck as err:
        raise CliError(f"validate: --only: {err}") from None
    start = time.perf_counter()
    results = []
    for check in checks:
        result = check.run()
        results.append(result)
        if not args.json:
            # One block per check as it finishes: the whole set takes a while.
            print(validate.render_one(result), flush=True)
    passed, total = validate.summary(results)
    if args.json:
        print(json.dumps({"checks": [r.as_dict() for r in results]}, indent=2))
    else:
        print(f"{passed}/{total} checks passed in {time.perf_counter() - start:.1f} s")
    if passed < total:
        failed = ", ".join(r.name for r in results if not r.passed)
        print(f"atmsim: validate: failed: {failed}", file=sys.stderr)
        return 1
    return 0
