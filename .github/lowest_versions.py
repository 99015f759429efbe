"""Print pip constraints that pin every runtime dependency of ofc_fast, and
those of its data extras, to the lowest version pyproject.toml allows
(``numpy>=2.0`` -> ``numpy==2.0``): the tests workflow's lowest-versions job
installs with them, so the floors in pyproject.toml stay true.

    python .github/lowest_versions.py > lowest.txt
    pip install -c lowest.txt ".[test]"
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import tomllib

EXTRAS = ("arrow", "pandas", "polars", "parquet", "plot", "dask", "rl")


def lowest(pyproject: Path) -> dict[str, str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS:
        reqs += project["optional-dependencies"][extra]
    pins: dict[str, str] = {}
    for req in reqs:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*>=\s*([0-9][0-9.]*)", req.strip())
        if m is None:
            continue                    # no floor (or a self-reference such as ofc-fast[...])
        name, version = m.group(1).lower(), m.group(2)
        if pins.setdefault(name, version) != version:
            sys.exit(f"{name}: two floors in pyproject.toml ({pins[name]} and {version})")
    return pins


if __name__ == "__main__":
    for name, version in sorted(lowest(Path(__file__).resolve().parent.parent /
                                       "pyproject.toml").items()):
        print(f"{name}=={version}")
