"""The API reference (docs/reference.md, rendered by mkdocstrings) documents the public API as
users import it: every name of `atmsim.__all__` under `atmsim.NAME`, none through the module
that defines it, and every public callable with Google-style sections naming its parameters.

Docstrings are read as the reference reads them: from the source for Python code, from the
`_core.pyi` stub for the compiled engine (whose runtime docstrings come from Rust)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Set, Tuple, Union

import pytest

import atmsim

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference.md"
STUB = ROOT / "python" / "atmsim" / "_core.pyi"
MKDOCS = ROOT / "mkdocs.yml"

PUBLIC = sorted(atmsim.__all__)


def directives(text: str) -> Dict[str, str]:
    """{name the page shows: object path} of every `::: path` directive; the name shown is
    the directive's `heading:` option when it has one, else the path."""
    out: Dict[str, str] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^:::\s+(\S+)\s*$", line)
        if not m:
            continue
        shown = m.group(1)
        for option in lines[i + 1 :]:
            if option and not option.startswith(" "):
                break
            h = re.match(r"^\s+heading:\s*(\S+)\s*$", option)
            if h:
                shown = h.group(1)
        out[shown] = m.group(1)
    return out


def resolve(path: str) -> Any:
    """The object a directive's path names, found as mkdocstrings finds it: a module of that
    name first (so `atmsim.examples` is the module, not the function it re-exports)."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError:
        parent, _, name = path.rpartition(".")
        return getattr(resolve(parent), name)


def stub_objects() -> Dict[str, Union[ast.FunctionDef, ast.ClassDef]]:
    """The stub's definitions of the public names `atmsim/__init__.py` takes from `_core`."""
    init = ast.parse((ROOT / "python" / "atmsim" / "__init__.py").read_text(encoding="utf-8"))
    from_core = {
        alias.name
        for node in init.body
        if isinstance(node, ast.ImportFrom) and node.module == "_core" and node.level == 1
        for alias in node.names
    }
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    return {
        n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in from_core
    }


def section(doc: str, title: str) -> Optional[str]:
    """The body of a Google-style section (`Args:`, `Returns:`, ...), or None."""
    lines = inspect.cleandoc(doc).splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"{title}:":
            body: List[str] = []
            for rest in lines[i + 1 :]:
                if rest.strip() and not rest.startswith(" "):
                    break
                body.append(rest)
            return "\n".join(body)
    return None


def documented_args(doc: str) -> Set[str]:
    """Names the `Args:` section documents (for a dataclass that users read rather than
    build, such as `limits.Estimate`, its `Attributes:` section instead)."""
    body = section(doc, "Args") or section(doc, "Attributes") or ""
    indent = min((len(x) - len(x.lstrip()) for x in body.splitlines() if x.strip()), default=0)
    pattern = rf"^ {{{indent}}}\*{{0,2}}(\w+)(?: \([^)]*\))?:"
    return set(re.findall(pattern, body, re.M))


def runtime_params(obj: Any) -> List[str]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p for p in sig.parameters if p not in ("self", "cls")]


def returns_something(obj: Any) -> bool:
    try:
        ret = inspect.signature(obj).return_annotation
    except (TypeError, ValueError):
        return False
    return ret not in (inspect.Signature.empty, None, "None")


def stub_params(node: ast.FunctionDef) -> List[str]:
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return names


Entry = Tuple[str, Optional[str], List[str], bool]


def entries(label: str, obj: Any) -> List[Entry]:
    """(label, docstring, parameter names, returns a value) of a function, or of a class (its
    constructor) and each of its public methods and properties."""
    if not inspect.isclass(obj):
        return [(label, inspect.getdoc(obj), runtime_params(obj), returns_something(obj))]
    if issubclass(obj, BaseException):
        return [(label, obj.__doc__, [], False)]
    # merge_init_into_class: the class docstring documents the constructor's parameters.
    init = obj.__dict__.get("__init__")
    doc = "\n\n".join(d for d in (obj.__doc__, getattr(init, "__doc__", None)) if d)
    out: List[Entry] = [(label, doc, runtime_params(obj), False)]
    for member, value in vars(obj).items():
        if member.startswith("_"):
            continue
        if isinstance(value, property):
            out.append((f"{label}.{member}", value.__doc__, [], False))
            continue
        func = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        if inspect.isfunction(func):
            params = runtime_params(func)
            out.append((f"{label}.{member}", inspect.getdoc(func), params, returns_something(func)))
    return out


def callables() -> List[Entry]:
    """Entries of every name of `atmsim.__all__` (those from `_core` read from the stub)."""
    stub = stub_objects()
    out: List[Entry] = []
    for name in PUBLIC:
        node = stub.get(name)
        if isinstance(node, ast.FunctionDef):
            returns = node.returns is not None and ast.unparse(node.returns) != "None"
            out.append((name, ast.get_docstring(node), stub_params(node), returns))
        elif isinstance(node, ast.ClassDef):
            out.append((name, ast.get_docstring(node), [], False))  # an exception
        else:
            out.extend(entries(name, getattr(atmsim, name)))
    return out


# The modules behind the public names: their other public functions and classes (used by the
# command line and the studies, and read with help()) follow the same rules.
MODULES = ["runner", "sweeps", "scenario", "examples", "result", "store", "tables", "seeds", "limits"]


def module_callables() -> List[Entry]:
    out: List[Entry] = []
    for short in MODULES:
        module = importlib.import_module(f"atmsim.{short}")
        for name, obj in vars(module).items():
            if (
                not name.startswith("_")
                and callable(obj)
                and getattr(obj, "__module__", None) == module.__name__
            ):
                out.extend(entries(f"{short}.{name}", obj))
    return out


CALLABLES = callables()
MODULE_CALLABLES = module_callables()


def test_every_public_name_is_documented_under_the_name_users_import():
    page = directives(REFERENCE.read_text(encoding="utf-8"))
    missing = [n for n in PUBLIC if f"atmsim.{n}" not in page]
    assert not missing, f"docs/reference.md has no `::: atmsim.NAME` for {missing}"
    for name in PUBLIC:
        target = resolve(page[f"atmsim.{name}"])
        assert target is getattr(atmsim, name), (
            f"`atmsim.{name}` in docs/reference.md renders {page[f'atmsim.{name}']}, which is "
            f"{target!r}, not the object `atmsim.{name}`"
        )


def test_no_public_name_is_documented_through_the_module_that_defines_it():
    stub = set(stub_objects())
    homes = {"atmsim._core" if n in stub else getattr(atmsim, n).__module__ for n in PUBLIC}
    page = directives(REFERENCE.read_text(encoding="utf-8"))
    through_modules = sorted(
        path for path in page.values() if isinstance(resolve(path), ModuleType) and path in homes
    )
    assert not through_modules, f"module directives for public names: {through_modules}"


@pytest.mark.parametrize("name,doc,params,returns", CALLABLES, ids=[c[0] for c in CALLABLES])
def test_public_callables_document_their_parameters(name, doc, params, returns):
    check_sections(name, doc, params, returns)


@pytest.mark.parametrize("name,doc,params,returns", MODULE_CALLABLES, ids=[c[0] for c in MODULE_CALLABLES])
def test_the_modules_behind_them_document_their_parameters(name, doc, params, returns):
    check_sections(name, doc, params, returns)


def check_sections(name: str, doc: Optional[str], params: List[str], returns: bool) -> None:
    assert doc and doc.strip(), f"atmsim.{name} has no docstring"
    if params:
        has_args = section(doc, "Args") is not None or section(doc, "Attributes") is not None
        assert has_args, f"atmsim.{name}: no Args: section for {params}"
        undocumented = [p for p in params if p not in documented_args(doc)]
        assert not undocumented, f"atmsim.{name}: Args: does not name {undocumented}"
        unknown = sorted(documented_args(doc) - set(params))
        assert not unknown, f"atmsim.{name}: Args: names {unknown}, not parameters"
    if returns:
        assert section(doc, "Returns") is not None, f"atmsim.{name}: no Returns: section"


def test_the_parser_reads_google_sections():
    doc = """Do it.

    Args:
        a: First.
        b (int): Second, with a
            continuation line.
        **rest: The others.

    Returns:
        Something.
    """
    assert documented_args(doc) == {"a", "b", "rest"}
    assert section(doc, "Returns") is not None
    assert section(doc, "Raises") is None
    assert documented_args("Do it.\n\nReturns:\n    a: b\n") == set()


def test_signatures_render_with_their_types():
    config = MKDOCS.read_text(encoding="utf-8")
    for option in ("show_signature_annotations: true", "separate_signature: true", "docstring_style: google"):
        assert option in config, f"mkdocs.yml: the python handler needs {option}"
    # Inspecting the compiled engine would document its Rust docstrings instead of the stub.
    assert "allow_inspection: false" in config
