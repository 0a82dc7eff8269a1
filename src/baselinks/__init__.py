"""baselinks: every link in a document, made absolute against the base RFC 1808 defines.

Read ``api.py`` first: it is the pipeline (load → base → walk → resolve) in a few lines. The URL
engine is ``url`` (RFC 1808 §2.4 parsing), ``resolve`` (RFC 1808 §4, RFC 3986 §5.2, WHATWG) and
``diagnose`` (problem codes), with ``rfc1738`` (each URL against its scheme's syntax: ``check``).

The names below are imported when first used (PEP 562), so that ``import baselinks.url`` or
``import baselinks.resolve`` loads the URL engine alone, without lxml, warcio or tinycss2
(``tests/test_layout.py`` runs a fresh interpreter to check it).
"""

from __future__ import annotations

import importlib
import sys
import types

from . import _moved
from ._version import __version__

# What a type checker sees; at run time, _HOMES and __getattr__ below. TYPE_CHECKING is
# typing's, without importing typing (4 ms of start-up; mypy knows the name).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .api import FIELDS, KINDS, Link, Origin, Summary, extract_links, iter_links
    from .base.layers import Base, BaseSource
    from .dataflow import iter_warc_links
    from .errors import BaselinksError, InputError, InputWarning, SelectError, URLError
    from .url.diagnose import CODES, diagnose
    from .url.explain import Explanation, Step
    from .url.parts import Login, URLParts, parse
    from .url.resolve import MODES, Mode, Resolver, explain, resolve
    from .url.rfc1738 import Problem, check


# Each public name and the module that defines it: the one table __getattr__ reads.
_HOMES = {
    "FIELDS": "api",
    "KINDS": "api",
    "Link": "api",
    "Origin": "api",
    "Summary": "api",
    "extract_links": "api",
    "iter_links": "api",
    "Base": "base.layers",
    "BaseSource": "base.layers",
    "iter_warc_links": "dataflow",
    "CODES": "url.diagnose",
    "diagnose": "url.diagnose",
    "BaselinksError": "errors",
    "InputError": "errors",
    "InputWarning": "errors",
    "SelectError": "errors",
    "URLError": "errors",
    "MODES": "url.resolve",
    "Mode": "url.resolve",
    "Explanation": "url.explain",
    "Resolver": "url.resolve",
    "Step": "url.explain",
    "explain": "url.resolve",
    "resolve": "url.resolve",
    "Problem": "url.rfc1738",
    "check": "url.rfc1738",
    "Login": "url.parts",
    "URLParts": "url.parts",
    "parse": "url.parts",
}

__all__ = [
    "CODES",
    "FIELDS",
    "KINDS",
    "MODES",
    "Base",
    "BaseSource",
    "BaselinksError",
    "Explanation",
    "InputError",
    "InputWarning",
    "Link",
    "Login",
    "Mode",
    "Origin",
    "Problem",
    "Resolver",
    "SelectError",
    "Step",
    "Summary",
    "URLError",
    "URLParts",
    "__version__",
    "check",
    "diagnose",
    "explain",
    "extract_links",
    "iter_links",
    "iter_warc_links",
    "parse",
    "resolve",
]


class _Package(types.ModuleType):
    """This package's module type. Two public names are also the names of their modules
    (``baselinks.resolve``, ``baselinks.diagnose``): importing such a module makes the import
    system bind it on the package (``setattr(baselinks, "resolve", module)``), where the
    function belongs. The binding is refused, and the name stays the function's (given by
    __getattr__ when first used, so that ``import baselinks`` loads neither module: the
    URL engine took 65 ms of ``baselinks --version``'s start-up)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return  # the module stays in sys.modules, reached as ``from .resolve import x``
        super().__setattr__(name, value)


_SHADOWED = frozenset({"diagnose", "resolve"})
sys.modules[__name__].__class__ = _Package

# The flat layout's module paths (baselinks.walk, baselinks.containers...), for one release
_moved.install()


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # once: later look-ups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    # the public names and the module's own dunders; not what __init__ imports to be lazy
    # (annotations, importlib, typing)
    return sorted({name for name in globals() if name.startswith("__")} | set(__all__))
