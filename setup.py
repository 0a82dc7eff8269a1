"""The optional compiled modules (baselinks.compiled lists them); everything else is in
pyproject.toml.

Each extension is ``optional``: where there is no C compiler or no Python headers, the build
says so and the install goes on with the pure-Python package, which works the same, slower
(``baselinks --version`` says which path is in use); ``BASELINKS_PURE=1`` at install skips
the attempt. Cython and lxml come from the build
requirements (pyproject's [build-system]); the C file is generated at build time, under build/,
and never committed.

Wheels (.ci/wheels builds and tests them): ``python -m build --wheel`` gives a wheel of this
Python with every module that built; where none built (no compiler), a ``py3-none-any`` wheel
(:class:`BdistWheel`). ``BASELINKS_LIMITED_API=1`` builds only the modules of
:data:`LIMITED`, against the Limited API (PEP 384) of Python 3.11: a ``cp311-abi3`` wheel
that every CPython from 3.11 installs, the pure path standing in for the other modules.
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel

# The compiled modules whose C uses only the Limited API (PEP 384) of Python 3.11, so that one
# .abi3.so serves every CPython from 3.11: checked by building each with Py_LIMITED_API and
# importing it (an undefined symbol at import is a macro outside it). None today; why each is
# not (the Cython or C it has; each fix is a function of the Limited API in place of a macro):
#   _chtml5      was (lxml's C API and lexbor compile and import as abi3) until its native walk
#                (_chtml5_walk.pxi) used PyTuple_GET_ITEM, _GET_SIZE, _SET_ITEM: with
#                PyTuple_GetItem, _Size, _SetItem there it is again: list it below
#   _cdocument   PyBytes_AS_STRING, PyBytes_GET_SIZE (macros: PyBytes_AsString/_Size would do)
#   _cresolve    PyUnicode_READ, PyUnicode_KIND, PyUnicode_DATA: PEP 393's string internals
#   _csyntax     the same PEP 393 internals, for its scans
#   _cjsonl      PyTuple_GET_ITEM (a macro: PyTuple_GetItem would do)
#   _cwalk       PyTypeObject.tp_alloc read (the type object is opaque in the Limited API;
#                PyType_GetSlot would do) and PyTuple_GET_ITEM/SET_ITEM; lxml's C API itself
#                compiles (its element struct is lxml's own layout, as _chtml5 shows)
# A module added to setup.py is version-specific until it is listed here.
LIMITED: frozenset[str] = frozenset()
LIMITED_API = "0x030B0000"  # Python 3.11, requires-python's

# lexbor, vendored (vendor/lexbor/README.md): the HTML5 parser of load/_chtml5.pyx
LEXBOR = "vendor/lexbor/source"


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
    # Each compiled module beside the pure-Python module it mirrors, in the pipeline's order
    # (compiled.COMPILED): load/document.py's search for "</html>" (no header but Python's)
    document = Extension("baselinks.load._cdocument", ["src/baselinks/load/_cdocument.pyx"])
    walk = Extension(
        "baselinks.find._cwalk",
        ["src/baselinks/find/_cwalk.pyx"],
        # lxml's .pxd files, etree_api.h and the libxml2 headers it was built with
        include_dirs=lxml.get_include(),
    )
    # find/css.css_urls and find/microsyntax.parse_srcset for the compiled walk; no headers
    syntax = Extension("baselinks.find._csyntax", ["src/baselinks/find/_csyntax.pyx"])
    # the URL engine's problem codes and RFC 1808 Steps (url/diagnose.py and url/resolve.py
    # the references) and resolve/link.py's Linker.link: no headers but Python's
    resolve = Extension("baselinks.url._cresolve", ["src/baselinks/url/_cresolve.pyx"])
    # the JSON Lines writer (write/jsonl.py's Python writers the reference)
    jsonl = Extension("baselinks.write._cjsonl", ["src/baselinks/write/_cjsonl.pyx"])
    extensions = [document, walk, syntax, resolve, jsonl, *_html5(lxml.get_include())]
    extensions = _limited_api(extensions)
    built = cythonize(extensions, build_dir="build/cython", quiet=True)
    for extension in built:
        extension.optional = True  # cythonize drops the flag from the extensions it returns
    return built


def _limited_api(extensions: list[Extension]) -> list[Extension]:
    """With ``BASELINKS_LIMITED_API=1``: only the modules of :data:`LIMITED`, built against
    the Limited API (an ``.abi3.so``); else all of them, as they are."""
    if os.environ.get("BASELINKS_LIMITED_API", "") in ("", "0"):
        return extensions
    print(f"baselinks: the Limited API: {', '.join(sorted(LIMITED)) or 'no module'} (abi3)")
    kept = [extension for extension in extensions if extension.name in LIMITED]
    for extension in kept:
        extension.py_limited_api = True  # named .abi3.so
        extension.define_macros.append(("Py_LIMITED_API", LIMITED_API))
    return kept


class BdistWheel(bdist_wheel):
    """The wheel's tags from what was built, not from what was tried: no compiled module (no
    compiler: each is optional) gives ``py3-none-any``; only Limited API modules,
    ``cp311-abi3``; else this Python's (``cp311-cp311``)."""

    def run(self) -> None:
        if not self.skip_build:
            self.reinitialize_command("build_ext").inplace = False
            self.run_command("build")
            self.skip_build = True  # built once, here: the tags below are of what it made
        build_ext = self.get_finalized_command("build_ext")
        built = [
            extension
            for extension in build_ext.extensions
            if os.path.exists(build_ext.get_ext_fullpath(extension.name))
        ]
        if not built:
            self.root_is_pure = True  # py3-none-any
        elif all(getattr(extension, "py_limited_api", False) for extension in built):
            self.py_limited_api = "cp311"  # cp311-abi3
        super().run()


def _html5(lxml_include: list[str]) -> list[Extension]:
    """load/_chtml5: lexbor's HTML5 parse copied into lxml's libxml2 nodes (compiled.ENGINES).
    Not on Windows, where lxml's etree.pyd exports no libxml2 function for the copy to call
    (load/html5.py then uses lxml's parser, as it does wherever this was not built)."""
    if sys.platform == "win32":
        print("baselinks: no HTML5 parser on Windows (lxml exports no libxml2 there)")
        return []
    # lexbor's core, dom, html, ns and tag modules, and its POSIX port (memory, files)
    sources = sorted(
        path
        for path in glob.glob(f"{LEXBOR}/lexbor/**/*.c", recursive=True)
        if "/ports/" not in path or "/ports/posix/" in path
    )
    return [
        Extension(
            "baselinks.load._chtml5",
            [
                "src/baselinks/load/_chtml5.pyx",
                "src/baselinks/load/_chtml5_tree.c",
                *sources,
            ],
            include_dirs=["src/baselinks/load", LEXBOR, *lxml_include],
            define_macros=[("LEXBOR_STATIC", None)],
            # lexbor's functions stay inside the module: another module that carries its own
            # lexbor (selectolax's) never answers for them
            extra_compile_args=["-fvisibility=hidden", "-Wno-unused-function"],
            libraries=["dl"] if sys.platform.startswith("linux") else [],  # dlopen, dlsym
        )
    ]


setup(ext_modules=extensions(), cmdclass={"bdist_wheel": BdistWheel})
