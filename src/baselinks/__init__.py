"""baselinks: every link in a document, made absolute against the base RFC 1808 defines.

Read ``api.py`` first once it exists; the URL engine is ``url`` (RFC 1808 §2.4 parsing),
``resolve`` (RFC 1808 §4, RFC 3986 §5.2, WHATWG) and ``diagnose`` (problem codes).
"""

from __future__ import annotations

from .diagnose import CODES, diagnose
from .errors import BaselinksError, URLError
from .resolve import MODES, Explanation, Resolver, Step, explain, resolve
from .url import Login, URLParts, parse

__version__ = "0.1.0"

__all__ = [
    "CODES",
    "MODES",
    "BaselinksError",
    "Explanation",
    "Login",
    "Resolver",
    "Step",
    "URLError",
    "URLParts",
    "__version__",
    "diagnose",
    "explain",
    "parse",
    "resolve",
]
