"""The layer table of README.md's Design section is true: each module imports
(at the top or inside a function) only modules listed before it, and every
module of the package is listed."""
from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / "ofc_fast"


def _layers() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    design = text[text.index("## Design"):]
    design = design[:design.index("\n## ", 4)]
    order = []
    for line in design.splitlines():
        if line.startswith("|") and "`" in line:
            cells = line.split("|")
            order += re.findall(r"`([^`]+)`", cells[2])
    return order


def _module_files(name: str) -> list[pathlib.Path]:
    if name.endswith("/"):
        return sorted((PKG / name).glob("*.py"))
    return [p for p in (PKG / f"{name}.py", PKG / f"{name}.pyx", PKG / f"{name}.pxd")
            if p.exists()] + sorted(PKG.glob(f"{name}_*.pxi"))


def _imports(path: pathlib.Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = set()
    for m in re.finditer(r"^\s*(?:from|c?import)\s+ofc_fast\.([A-Za-z_]+)", text, re.M):
        found.add(m.group(1))
    if re.search(r"^\s*from\s+ofc_fast\s+c?import\s", text, re.M):
        found.add("__init__")
    return found


def _headers(path: pathlib.Path) -> set[str]:
    return set(re.findall(r'#include "(ofc_\w+\.h)"', path.read_text(encoding="utf-8")))


def test_every_module_is_listed():
    order = _layers()
    listed = {n.rstrip("/") for n in order}
    modules = {p.stem.split(".")[0] for p in PKG.glob("*.py")} | \
        {p.stem for p in PKG.glob("*.pyx")} | {p.stem for p in PKG.glob("*.pxd")} | \
        {p.name for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert modules - listed == set()
    headers = {p.name for p in (ROOT / "src").glob("*.h")}
    assert headers - {pathlib.Path(n).name for n in order} == set()


def test_each_module_imports_only_those_before_it():
    order = _layers()
    position = {}
    for i, name in enumerate(order):
        key = pathlib.Path(name).name if name.startswith("src/") else name.rstrip("/")
        position.setdefault(key, i)
    problems = []
    for i, name in enumerate(order):
        if name.startswith("src/"):
            path = ROOT / name
            if path.suffix == ".h":
                for h in _headers(path):
                    if position.get(h, len(order)) >= i:
                        problems.append(f"{name} includes {h}")
            continue
        for path in _module_files(name.rstrip("/")):
            for dep in _imports(path) - {name.rstrip("/")}:
                if position.get(dep, len(order)) >= i:
                    problems.append(f"{path.relative_to(ROOT)} imports {dep}")
    assert problems == []
