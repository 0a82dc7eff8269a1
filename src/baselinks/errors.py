"""Every exception baselinks raises on purpose derives from one root.

    BaselinksError                  the root: ``except baselinks.BaselinksError`` catches them all
     ├── URLError (ValueError)      a URL the chosen mode cannot parse or resolve (whatwg failures),
     │                              or an unknown resolution mode; the message names the input
     └── SelectError (ValueError)   a ``select`` CSS selector that cannot be parsed

Messages say where: the offending input with ``repr()``, and the file, offset or line when known.
"""

from __future__ import annotations

__all__ = ["BaselinksError", "SelectError", "URLError"]


class BaselinksError(Exception):
    """Root of every error baselinks raises deliberately."""


class URLError(BaselinksError, ValueError):
    """A URL could not be parsed or resolved in the requested mode.

    It is a :class:`ValueError`, so code written against ``urllib.parse`` or ada-url keeps working.
    """


class SelectError(BaselinksError, ValueError):
    """The ``select`` CSS selector could not be parsed; the message quotes it."""
