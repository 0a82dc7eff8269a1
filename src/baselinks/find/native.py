"""native: the walk over lexbor's own nodes, where the document was kept as them
(``Document.native``): :func:`~.walk.raw_links`' RawLinks with no lxml tree made.

The walk itself is compiled into the HTML5 parser's extension (load/_chtml5_walk.pxi), beside
lexbor; it reads the table from walk._Table (each tag's steps, compiled when first met) and
decides the conditions and kind rules the rows name from their records' fields (find/rules.py;
load/_chtml5_rules.pxi), so a new row of linktable.py reaches it with no change here.
tests/test_native.py holds it to both walks over the copy, and checks that no row's condition
or kind rule is one it must call Python for.
"""

from __future__ import annotations

from typing import Any

from ..load import html5
from . import rules, walk
from .anchor import TEXT_CAP
from .linktable import PLACEMENT_HOLDERS
from .metadata import _by_names
from .walk import RawLink

__all__ = ["native_links", "walker_names"]


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
        table.native = engine.Walker(table, PLACEMENT_HOLDERS, walker_names())
    found: list[RawLink] | None = parsed.links(table.native)
    return found


def walker_names() -> dict[str, Any]:
    """What the native Walker reads besides the table: the walk's helpers and constants, the
    rules' records (find/rules.py), each by its name there."""
    return {
        **vars(walk),
        **walk._SYNTAX,
        **vars(rules),
        "TEXT_CAP": TEXT_CAP,
        "metadata_names": _by_names,
    }
