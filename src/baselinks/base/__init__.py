"""base: a document and its retrieval facts → :class:`~.layers.Base`, the URL its links
resolve against and the RFC 1808 §3 rule that set it (content §3.1, encapsulating entity
§3.2, retrieval URL §3.3, the empty default §3.4), innermost first.

Open first: layers.py

    layers.py     the four layers, each the fallback of the one inside it: Base, BaseSource,
                  establish_base (the first <base href>), encapsulating_base, retrieval_base
    mirror.py     §3.3 for a file of a mirrored site (--root-url): its URL from its path
    xmlbase.py    §3.1 for XML (a feed): each element's xml:base chain → its Base

Resolving a relative <base href> or Content-Location is the URL engine's (url/), imported
from below; the base rules themselves are all here. The name ``baselinks.base`` was a module
before 0.2: its names still come from here, with a DeprecationWarning (``_moved.py``).
"""

from __future__ import annotations

from typing import Any

from .._moved import forward


def __getattr__(name: str) -> Any:
    # the names of the flat layout's module of this name, for one release (_moved.py)
    return forward(__name__, name)
