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
import typing

# Two public names are also the names of their modules: they are bound now, as importing the
# module later (baselinks.api imports both) would leave the module where the function belongs.
# Both load the URL engine alone (ada-url, the standard library).
from .diagnose import diagnose
from .resolve import resolve

if typing.TYPE_CHECKING:  # what a type checker sees; at run time, _HOMES and __getattr__ below
    from .api import FIELDS, KINDS, Link, Origin, Summary, extract_links, iter_links
    from .base import Base, BaseSource
    from .dataflow import iter_warc_links
    from .diagnose import CODES
    from .errors import BaselinksError, InputError, SelectError, URLError
    from .resolve import MODES, Explanation, Resolver, Step, explain
    from .rfc1738 import Problem, check
    from .url import Login, URLParts, parse

__version__ = "0.1.0"

# Each public name and the module that defines it: the one table __getattr__ reads.
_HOMES = {
    "FIELDS": "api",
    "KINDS": "api",
    "Link": "api",
    "Origin": "api",
    "Summary": "api",
    "extract_links": "api",
    "iter_links": "api",
    "Base": "base",
    "BaseSource": "base",
    "iter_warc_links": "dataflow",
    "CODES": "diagnose",
    "BaselinksError": "errors",
    "InputError": "errors",
    "SelectError": "errors",
    "URLError": "errors",
    "MODES": "resolve",
    "Explanation": "resolve",
    "Resolver": "resolve",
    "Step": "resolve",
    "explain": "resolve",
    "Problem": "rfc1738",
    "check": "rfc1738",
    "Login": "url",
    "URLParts": "url",
    "parse": "url",
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
    "Link",
    "Login",
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


def __getattr__(name: str) -> typing.Any:
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
