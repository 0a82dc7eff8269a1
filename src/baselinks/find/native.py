"""native: the walk over lexbor's own nodes, where the document was kept as them
(``Document.native``): :func:`~.walk.raw_links`' RawLinks with no lxml tree made.

The walk itself is compiled into the HTML5 parser's extension (load/_chtml5_walk.pxi), beside
lexbor; it reads the table the way the compiled walk over lxml's nodes does (walk._Table: each
tag's steps, find/'s conditions, kind rules and text readers), so a new row of linktable.py
reaches it with no change here. tests/test_native.py holds it to both walks over the copy.
"""

from __future__ import annotations

from typing import Any

from ..load import html5
from . import walk
from .anchor import TEXT_CAP, _capped
from .linktable import PLACEMENT_HOLDERS
from .walk import RawLink

__all__ = ["native_links"]


def native_links(parsed: Any, attributes: tuple[tuple[str, str], ...] = ()) -> list[RawLink] | None:
    """:func:`~.walk.raw_links` of the whole document lexbor parsed (``Document.native``), read
    from lexbor's own nodes. None where the walk over the lxml tree must give them: the native
    walk is not built (nor the compiled walk it mirrors), or declines this document
    (load/_chtml5_walk.pxi says when)."""
    table = walk._table(attributes)
    if table.native is None:
        engine = html5.engine()
        if engine is None or walk._cwalk is None:
            return None
        names = {**vars(walk), **walk._SYNTAX, "TEXT_CAP": TEXT_CAP, "_capped": _capped}
        table.native = engine.Walker(table, PLACEMENT_HOLDERS, names)
    found: list[RawLink] | None = parsed.links(table.native)
    return found
