"""baselinks: every link in a document, made absolute against the base RFC 1808 defines.

Read ``api.py`` first: it is the pipeline (load → base → walk → resolve) in a few lines. The URL
engine is ``url`` (RFC 1808 §2.4 parsing), ``resolve`` (RFC 1808 §4, RFC 3986 §5.2, WHATWG) and
``diagnose`` (problem codes), with ``rfc1738`` (each URL against its scheme's syntax: ``check``).
"""

from __future__ import annotations

from .api import FIELDS, KINDS, Link, Summary, extract_links, iter_links
from .base import Base, BaseSource
from .dataflow import iter_warc_links
from .diagnose import CODES, diagnose
from .errors import BaselinksError, InputError, SelectError, URLError
from .resolve import MODES, Explanation, Resolver, Step, explain, resolve
from .rfc1738 import Problem, check
from .url import Login, URLParts, parse

__version__ = "0.1.0"

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
