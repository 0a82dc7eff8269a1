"""resolve: a document's RawLinks and its Base → :class:`~.link.Link`, each absolute (RFC
1808 §4, or the mode's rules) with its problem codes and where its document is stored.

Open first: link.py

    link.py       Linker (one document's links against its base, each distinct reference
                  resolved once), the Link record and FIELDS, the order every format writes

The rules of resolution themselves are the URL engine's (url/: RFC 1808 §2.4 and §4, RFC 3986,
WHATWG, problem codes), which knows no stage; this stage applies them to a document's links.
Its compiled copy of Linker.link lives in url/_cresolve.pyx, beside the resolver it calls
in C. The name ``baselinks.resolve`` was a module before 0.2 (now url/resolve.py): its names
still come from here, with a DeprecationWarning (``_moved.py``); ``baselinks.resolve`` itself
is the function.
"""

from __future__ import annotations

from typing import Any

from .._moved import forward


def __getattr__(name: str) -> Any:
    # the names of the flat layout's module of this name, for one release (_moved.py)
    return forward(__name__, name)
