"""The layer table of README.md's Design section is true, for every module.

Every Python module (subpackages' modules included), every Cython extension
(its ``.pyx``, its ``.pxd`` and the ``.pxi`` files it includes), every
declarations-only ``.pxd`` and every C header is listed in the table, and
every name in the table exists.  Each module imports (at the top, inside a
function or under ``TYPE_CHECKING``) only modules listed before it; modules of
one subpackage (listed as ``records/``) share its place and may import each
other; and no import circle exists anywhere in the package, inside a
subpackage included.
"""
from __future__ import annotations

import ast
import functools
import pathlib
import re
from collections.abc import Iterable, Mapping

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / "ofc_fast"

_PY_IMPORT = re.compile(r"^[ \t]*(?:from|c?import)[ \t]+ofc_fast((?:\.\w+)*)"
                        r"(?:[ \t]+c?import[ \t]+(\([^)]*\)|[^\n#]*))?", re.M)
_INCLUDE = re.compile(r'^include\s+"([^"]+)"', re.M)
_EXTERN = re.compile(r'^\s*cdef\s+extern\s+from\s+"(ofc_\w+\.h)"', re.M)
_HEADER = re.compile(r'^\s*#\s*include\s+"(ofc_\w+\.h)"', re.M)


# ------------------------------------------------------------------ the code
def module_files(pkg: pathlib.Path = PKG) -> dict[str, list[pathlib.Path]]:
    """Every module of the package (dotted, relative to ``ofc_fast``; ``__init__``
    for the package itself, ``records`` for a subpackage's ``__init__``) and the
    source files it is made of."""
    units: dict[str, list[pathlib.Path]] = {}
    for path in sorted(pkg.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(pkg).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        units.setdefault(".".join(parts), []).append(path)
    for files in units.values():
        for pyx in [f for f in files if f.suffix == ".pyx"]:
            files += [pyx.parent / inc for inc in _INCLUDE.findall(pyx.read_text("utf-8"))]
    return units


def _resolve(name: str, imported: Iterable[str], units: Mapping[str, object]) -> set[str]:
    """The modules that ``from ofc_fast<name> import <imported>`` (or ``import
    ofc_fast<name>``) depends on: a submodule imported by name, else the module."""
    base = name.lstrip(".") or "__init__"
    found = set()
    rest = [n for n in imported if n != "*"]
    for n in rest:
        sub = n if base == "__init__" else f"{base}.{n}"
        if sub in units:
            found.add(sub)
    if not rest or len(found) < len(rest):
        while base not in units and "." in base:   # a name imported from a module
            base = base.rsplit(".", 1)[0]
        found.add(base)
    return found


def _python_imports(path: pathlib.Path, module: str, units: Mapping[str, object]) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if package == ["__init__"]:
        package = []
    deps: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "ofc_fast" or alias.name.startswith("ofc_fast."):
                    deps |= _resolve(alias.name[len("ofc_fast"):], [], units)
        elif isinstance(node, ast.ImportFrom):
            if node.level:                        # relative: from . import x, from .m import y
                here = package[:len(package) - (node.level - 1)]
                target = ".".join(here + ([node.module] if node.module else []))
                deps |= _resolve("." + target if target else "", [a.name for a in node.names],
                                 units)
            elif node.module and (node.module == "ofc_fast"
                                  or node.module.startswith("ofc_fast.")):
                deps |= _resolve(node.module[len("ofc_fast"):], [a.name for a in node.names],
                                 units)
    return deps


def _cython_imports(path: pathlib.Path, units: Mapping[str, object]) -> set[str]:
    deps: set[str] = set()
    for m in _PY_IMPORT.finditer(path.read_text("utf-8")):
        text = (m.group(2) or "").strip("()").replace("\n", ",").replace("\\", "")
        names = [n.split()[0] for n in text.split(",") if n.strip()]
        deps |= _resolve(m.group(1), names, units)
    return deps


@functools.lru_cache(maxsize=4)
def import_graph(pkg: pathlib.Path = PKG) -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in its files)."""
    units = module_files(pkg)
    graph: dict[str, set[str]] = {}
    for name, files in units.items():
        deps: set[str] = set()
        for f in files:
            if f.suffix == ".py":
                deps |= _python_imports(f, name, units)
            elif f.exists():
                deps |= _cython_imports(f, units)
        graph[name] = deps - {name}
    return graph


def header_deps(pkg: pathlib.Path = PKG) -> dict[str, set[str]]:
    """Module or header -> the C headers it declares (``cdef extern from``) or includes."""
    deps: dict[str, set[str]] = {}
    for name, files in module_files(pkg).items():
        deps[name] = {h for f in files if f.suffix != ".py" and f.exists()
                      for h in _EXTERN.findall(f.read_text("utf-8"))}
    for h in sorted((pkg.parent / "src").glob("*.h")):
        deps[h.name] = set(_HEADER.findall(h.read_text("utf-8"))) - {h.name}
    return deps


def circles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The import circles of ``graph``: its strongly connected components of more
    than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


# ------------------------------------------------------------------ README
def readme_layers(text: str | None = None) -> list[str]:
    """The names of README's Design table, in order (rows top to bottom, left
    to right): ``errors``, ``src/ofc_eval.h``, ``records/``, ..."""
    if text is None:
        text = (ROOT / "README.md").read_text(encoding="utf-8")
    design = text[text.index("## Design"):]
    design = design[:design.index("\n## ", 4)]
    order = []
    for line in design.splitlines():
        if line.startswith("|") and "`" in line:
            order += re.findall(r"`([^`]+)`", line.split("|")[2])
    return order


def _key(entry: str) -> str:
    """A table entry as a module or header name: ``records/`` -> ``records``,
    ``io/csv`` -> ``io.csv``, ``src/ofc_eval.h`` -> ``ofc_eval.h``."""
    if entry.startswith("src/"):
        return entry[4:]
    return entry.rstrip("/").replace("/", ".")


def positions(order: list[str]) -> dict[str, int]:
    return {_key(e): i for i, e in reversed(list(enumerate(order)))}


def place(name: str, pos: Mapping[str, int]) -> str | None:
    """The table entry a module is listed under: itself or its nearest package."""
    while name not in pos:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def layer_problems(graph: Mapping[str, set[str]], headers: Mapping[str, set[str]],
                   order: list[str]) -> list[str]:
    pos = positions(order)
    problems = []
    for name in sorted(set(graph) | set(headers)):
        here = place(name, pos)
        if here is None:
            continue          # reported by test_every_module_is_listed
        for dep in sorted(graph.get(name, set()) | headers.get(name, set())):
            there = place(dep, pos)
            if there is None or there == here:
                continue      # unlisted (reported elsewhere) or the same subpackage
            if pos[there] >= pos[here]:
                problems.append(f"{name} imports {dep}, listed after it")
    return problems


# ------------------------------------------------------------------ tests
def test_every_module_is_listed_and_every_listed_name_exists():
    order = readme_layers()
    pos = positions(order)
    units = module_files()
    unlisted = sorted(n for n in units if place(n, pos) is None)
    headers = {p.name for p in (ROOT / "src").glob("*.h")}
    unlisted += sorted(headers - set(pos))
    assert unlisted == []
    scripts = {p.name for p in (ROOT / "src").glob("*.py")}
    stale = [e for e in order if _key(e) not in units and _key(e) not in headers | scripts]
    assert stale == []


def test_every_pxi_is_included_by_an_extension():
    included = {f for files in module_files().values() for f in files if f.suffix == ".pxi"}
    assert sorted(p.name for p in PKG.rglob("*.pxi") if p not in included) == []
    assert sorted(p.name for p in included if not p.exists()) == []


@pytest.mark.slow
def test_each_module_imports_only_those_before_it():
    assert layer_problems(import_graph(), header_deps(), readme_layers()) == []


@pytest.mark.slow
def test_no_import_circle_anywhere():
    assert [sorted(c) for c in circles(import_graph())] == []


# ------------------------------------------------------------------ the checker
def test_the_checker_sees_what_it_must(tmp_path):
    """A planted circle inside a subpackage (through a relative import in a
    function), a Cython import from an included .pxi, an import of a later
    layer and an unlisted module are all found."""
    pkg = tmp_path / "ofc_fast"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from ofc_fast.b import f\n",
        "a.py": "import numpy\n",
        "b.py": "from ofc_fast import a\n\ndef f():\n    from ofc_fast.sub import x\n",
        "sub/__init__.py": "",
        "sub/x.py": "def g():\n    from .y import h\n",
        "sub/y.py": "from ofc_fast.sub.x import g\nfrom ofc_fast import _k\n",
        "_k.pyx": 'include "_k_part.pxi"\n',
        "_k_part.pxi": "from ofc_fast.b cimport thing\n",
        "_k.pxd": 'cdef extern from "ofc_late.h":\n    pass\n',
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ofc_late.h").write_text("")
    graph = import_graph(pkg)
    assert graph == {"__init__": {"b"}, "a": set(), "b": {"a", "sub.x"}, "sub": set(),
                     "sub.x": {"sub.y"}, "sub.y": {"sub.x", "_k"}, "_k": {"b"}}
    assert circles(graph) == [frozenset({"sub.x", "sub.y", "_k", "b"})]
    order = ["a", "_k", "b", "sub/", "__init__", "src/ofc_late.h"]
    assert layer_problems(graph, header_deps(pkg), order) == [
        "_k imports b, listed after it", "_k imports ofc_late.h, listed after it",
        "b imports sub.x, listed after it"]
    assert place("sub.y", positions(order)) == "sub"
    assert place("c", positions(order)) is None
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
