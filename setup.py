"""Build the Cython extensions of ofc_fast (metadata lives in pyproject.toml)."""
import os
import pathlib
import runpy

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = pathlib.Path(__file__).parent
# The hand-table seed data is generated from src/gen_tables.py (committed; made
# again here only when missing, e.g. after a clean).
if not (HERE / "src" / "ofc_tables_data.h").exists():
    runpy.run_path(str(HERE / "src" / "gen_tables.py"), run_name="__main__")

compile_args = ["-O3", "-g0"] if os.name != "nt" else ["/O2"]
if os.environ.get("OFC_FAST_NATIVE"):  # opt-in for local builds only, never wheels
    compile_args.append("-march=native")

# Every kernel header: a change to any of them rebuilds the extensions (cythonize
# tracks .pxd/.pxi itself, and these through `depends`).
headers = sorted(str(p.relative_to(HERE)) for p in (HERE / "src").glob("*.h"))

extensions = [
    Extension(
        f"ofc_fast.{path.stem}",
        [str(path.relative_to(HERE))],
        depends=headers,
        include_dirs=["src", np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
    )
    for path in sorted((HERE / "ofc_fast").glob("*.pyx"))
]

# freethreading_compatible: every module may run without the GIL (its kernels
# already release it, its module state is read-only after import), so the
# free-threaded wheels (cp313t, cp314t) keep the GIL off when ofc_fast is
# imported (tests/test_free_threading.py checks it there).
setup(ext_modules=cythonize(extensions, compiler_directives={
    "language_level": 3, "freethreading_compatible": True}))
