"""The `if __name__ == "__main__":` guard that a script running a parallel sweep needs under
the spawn and forkserver start methods (the default on macOS and Windows, and on Linux from
Python 3.14).

A worker started that way imports the script again (as `__mp_main__`) before it can run
anything; without the guard, the import runs the script's sweep again, which tries to start
its own workers while the first are still starting: multiprocessing refuses, every worker
dies, and the sweep ends in BrokenProcessPool and a long traceback. The sweep checks first
and says what to do in one line instead.
"""

from __future__ import annotations

import ast
import sys
from types import FrameType
from typing import Dict, List, Optional

MESSAGE = (
    "atmsim: error: {what} starts worker processes with the '{method}' start method, which "
    "imports {script} again in each worker: put the code that runs it under "
    "'if __name__ == \"__main__\":' (see docs/python-api.md), or pass jobs=1"
)


def start_method() -> str:
    """The start method a ProcessPoolExecutor without mp_context will use."""
    import multiprocessing

    return str(multiprocessing.get_context().get_start_method())


def _is_guard(test: ast.expr) -> bool:
    """Whether an `if` test compares __name__ with "__main__" (either side, in an `and` too)."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            sides = [node.left, *node.comparators]
            names = any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)
            main = any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)
            if names and main:
                return True
    return False


def _end(node: ast.AST) -> int:
    end: Optional[int] = getattr(node, "end_lineno", None)
    start: int = getattr(node, "lineno", 0)
    return end if end is not None else start


def _guarded(body: List[ast.stmt], line: int) -> bool:
    """Whether `line` of a module lies inside an `if __name__ == "__main__":` block."""
    for node in body:
        if not node.lineno <= line <= _end(node):
            continue
        if isinstance(node, ast.If) and _is_guard(node.test):
            return any(s.lineno <= line <= _end(s) for s in node.body)
        nested: List[ast.stmt] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                nested.append(child)
            else:  # except handlers, match cases: their bodies
                nested.extend(s for s in getattr(child, "body", []) if isinstance(s, ast.stmt))
        return _guarded(nested, line)
    return False


def _main_frame(main_globals: Dict[str, object]) -> Optional[FrameType]:
    """The frame running the main module's top-level code, if this call comes from it."""
    frame: Optional[FrameType] = sys._getframe(1)
    found = None
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals is main_globals:
            found = frame
        frame = frame.f_back
    return found


def unguarded_script() -> Optional[str]:
    """The path of the script that will be imported again by each spawned worker and that
    called this from its top-level code outside an `if __name__ == "__main__":` block, or
    None (fork, an interactive session or notebook, a guarded call, a `-m pkg.__main__`)."""
    if start_method() == "fork":
        return None
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return None  # REPL, notebook, -c: there is no file for a worker to import
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", "") or ""
    if name == "__main__" or name.endswith(".__main__"):
        return None  # multiprocessing does not import a package's __main__ again
    frame = _main_frame(main.__dict__)
    if frame is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    return None if _guarded(tree.body, frame.f_lineno) else str(path)


def importing_main_in_a_worker() -> bool:
    """Whether this process is a worker still importing the parent's main module (where
    starting processes of its own is refused)."""
    import multiprocessing

    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def check(what: str = "atmsim.sweep") -> None:
    """Before a local pool starts: if the guard is missing, print the one line that says
    what to do and exit with status 1 (the sweep cannot work, and would end in a long
    traceback of BrokenProcessPool)."""
    if importing_main_in_a_worker():
        # A worker running the unguarded script's sweep: leave quietly; the parent explains.
        import os

        os._exit(1)
    script = unguarded_script()
    if script is not None:
        print(MESSAGE.format(what=what, method=start_method(), script=script), file=sys.stderr)
        raise SystemExit(1)
