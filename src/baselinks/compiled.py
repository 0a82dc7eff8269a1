"""compiled: the one place that says which compiled modules baselinks has and which are in use.

A compiled module is an optional copy of a hot path, built at install where a C compiler and
the Python headers exist (setup.py); the pure-Python module it stands beside stays the reference
it is tested against (tests/test_compiled.py). ``BASELINKS_PURE=1`` in the environment turns
every one of them off, read when the module that uses it is first imported: the whole test suite
runs once each way (.ci/run).

The HTML5 parser (``load/_chtml5``, :data:`PARSER`) is built the same way but is no copy of a
pure module: it is a second parser, chosen by ``parser=`` (load/html5.py), whose trees differ
from lxml's by the documented classes. ``BASELINKS_PURE`` does not turn it off;
``BASELINKS_PARSER=lxml`` does, as ``--parser lxml`` does. Its native walk (the walk over lexbor's
own nodes, load/_chtml5_walk.pxi) is a compiled copy of find/walk.py's and is turned off by
``BASELINKS_PURE=1`` with the others (the parse is then copied into lxml's tree at once).

Standard library only: ``baselinks --version`` reports :func:`status` without importing lxml or
the extensions (each is looked for as a file, not loaded).
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from types import ModuleType

__all__ = ["COMPILED", "ENV", "PARSER", "disabled", "load", "slow_path", "status"]

# The environment variable that turns every compiled module off.
ENV = "BASELINKS_PURE"

# Each compiled module and what it compiles, in the pipeline's order: the one table of them.
COMPILED: dict[str, str] = {
    "baselinks.load._cdocument": "load.document: the search for a </html> end tag, and "
    "tokens' pass for an element of too many attributes",
    "baselinks.find._cwalk": "find.walk.raw_links: the walk over the link-source table",
    "baselinks.find._csyntax": "find.css.css_urls and find.microsyntax.parse_srcset for it",
    "baselinks.url._cresolve": "url.diagnose, the RFC 1808 resolver and resolve.link's Linker",
    "baselinks.write._cjsonl": "write.jsonl: a batch of links written in one pass",
}


# The HTML5 parser's extension, and the environment variable that chooses a parser (html5.py).
PARSER = "baselinks.load._chtml5"
PARSER_ENV = "BASELINKS_PARSER"


def disabled() -> bool:
    """Whether ``BASELINKS_PURE`` asks for the pure-Python path (any value but "" and "0")."""
    return os.environ.get(ENV, "") not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` of :data:`COMPILED`, or None: turned off, not built, or
    built against a binary interface the installed libraries no longer have (an lxml upgraded
    after the build): the pure-Python path then runs, as it would without a compiler."""
    if disabled():
        return None
    try:
        return importlib.import_module(name)
    except (ImportError, ValueError, RuntimeError, RuntimeWarning):
        # ImportError: not built. ValueError: Cython refuses an lxml whose types changed size
        # since the build; RuntimeWarning: it warns of one that grew, an error under -W error.
        return None


def status() -> str:
    """Which path and which parser are in use, in a few words, as ``baselinks --version``
    prints it."""
    return f"{_path()}; {_parser()}"


def slow_path() -> str | None:
    """Why the slow path runs when nobody asked for it (no ``BASELINKS_PURE``): no compiled
    module built (an install without a C compiler, a ``py3-none-any`` wheel); None when they
    are built or were turned off. What the command line says once (cli/report.py)."""
    if disabled() or any(_built(name) for name in COMPILED):
        return None
    return (
        "the pure-Python path runs, about half as fast (no compiled module was built at "
        "install: no C compiler, or a py3-none-any wheel); a wheel for this platform, or "
        "pip install with a C compiler, gives the compiled one"
    )


def _path() -> str:
    if disabled():
        return f"pure Python: {ENV}=1"
    built = [name.rpartition(".")[2] for name in COMPILED if _built(name)]
    if not built:
        return "pure Python: no compiled module built"
    return "compiled: " + ", ".join(built)


def _parser() -> str:
    # built is not yet bound: the checks of load/html5.py need lxml, and run with the first
    # document (a failure is said then, in one warning)
    chosen = os.environ.get(PARSER_ENV, "")
    if chosen == "lxml":
        return f"parser: lxml, {PARSER_ENV}=lxml"
    return "parser: html5 (lexbor)" if _built(PARSER) else "parser: lxml, html5 not built"


def _built(name: str) -> bool:
    # Where the import system would find it: a file of the package's folder with an extension
    # suffix (what importlib.util.find_spec answers, without importing importlib.util: 10 ms,
    # a sixth of what `baselinks --version` may take).
    stem = os.path.join(os.path.dirname(__file__), *name.split(".")[1:])
    return any(os.path.isfile(stem + suffix) for suffix in EXTENSION_SUFFIXES)
