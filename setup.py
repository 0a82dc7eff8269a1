"""The optional compiled modules (baselinks.compiled lists them); everything else is in
pyproject.toml.

Each extension is ``optional``: where there is no C compiler or no Python headers, the build
says so and the install goes on with the pure-Python package, which works the same, slower
(``baselinks --version`` says which path is in use); ``BASELINKS_PURE=1`` at install skips
the attempt. Cython and lxml come from the build
requirements (pyproject's [build-system]); the C file is generated at build time, under build/,
and never committed.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup


def extensions() -> list[Extension]:
    if os.environ.get("BASELINKS_PURE", "") not in ("", "0"):  # as compiled.disabled() reads it
        print("baselinks: BASELINKS_PURE is set: building the pure-Python package only")
        return []
    try:
        import lxml
        from Cython.Build import cythonize
    except ImportError as exc:  # a build without the build requirements (--no-build-isolation)
        print(f"baselinks: building the pure-Python package only ({exc})")
        return []
    walk = Extension(
        "baselinks._cwalk",
        ["src/baselinks/_cwalk.pyx"],
        # lxml's .pxd files, etree_api.h and the libxml2 headers it was built with
        include_dirs=lxml.get_include(),
    )
    # css.css_urls and microsyntax.parse_srcset for the compiled walk; pure Cython, no headers
    syntax = Extension("baselinks._csyntax", ["src/baselinks/_csyntax.pyx"])
    # the resolve stage's problem codes (diagnose.py the reference): no headers but Python's
    resolve = Extension("baselinks._cresolve", ["src/baselinks/_cresolve.pyx"])
    # load's search for "</html>" (no header but Python's)
    end_tag = Extension("baselinks._cload", ["src/baselinks/_cload.pyx"])
    # the JSON Lines writer (write.py's Python writers the reference)
    jsonl = Extension("baselinks._cjsonl", ["src/baselinks/_cjsonl.pyx"])
    built = cythonize([walk, syntax, resolve, end_tag, jsonl], build_dir="build/cython", quiet=True)
    for extension in built:
        extension.optional = True  # cythonize drops the flag from the extensions it returns
    return built


setup(ext_modules=extensions())
