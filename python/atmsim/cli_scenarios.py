"""`atmsim scenarios`: list the example scenarios shipped with the package, or copy one out."""

from __future__ import annotations

import argparse
from typing import Any

from .cli_errors import user_errors
from .examples import copy_example, describe, example, examples


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "scenarios",
        help="list the shipped example scenarios, or copy one out",
        description="Without arguments: list the example scenarios shipped with the package, "
        "with their paths. 'copy NAME [DEST]' writes one to DEST (a file, or a directory; "
        "default: the working directory) to edit and run.",
    )
    p.add_argument(
        "action", nargs="?", choices=["list", "copy"], default="list", help="list (default) or copy"
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="with copy: the scenario's name")
    p.add_argument("dest", nargs="?", metavar="DEST", help="with copy: where to write it")
    p.add_argument("--force", action="store_true", help="with copy: replace an existing file")
    p.set_defaults(func=cmd_scenarios)


def cmd_scenarios(args: argparse.Namespace) -> int:
    from .cli import CliError

    with user_errors():
        if args.action == "list":
            if args.name is not None:
                raise CliError("scenarios: NAME is only for 'copy'")
            for name in examples():
                print(f"{name:<26} {describe(name)}")
            print(
                f"\n(in {example(examples()[0]).parent}; 'atmsim scenarios copy NAME [DEST]' copies one out)"
            )
            return 0
        if args.name is None:
            raise CliError("scenarios copy: NAME is required (see 'atmsim scenarios')")
        written = copy_example(args.name, args.dest, overwrite=args.force)
        print(written)
        return 0
