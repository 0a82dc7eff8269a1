"""schema: the link record as typed columns, for the columnar outputs (Parquet, Spark).

    Link (resolve/link.py), its annotations ──columns()──► Column(name, type, nullable) ...
        ──► parquet.py: an Arrow schema        ──► spark.py: a Spark StructType

The one place a field's type is written is the record itself:
:class:`~baselinks.resolve.link.Link`'s annotation. A field added to the record (with a type
below) is a column of both outputs, with no other line. The column types, and what each engine
makes of them:

    annotation          type       Arrow / Parquet              Spark
    str                 string     string, not null             StringType, not null
    str | None          string     string, nullable             StringType, nullable
    int, int | None     int64      int64 (nullable with None)   LongType
    tuple[str, ...]     strings    list<string not null>        ArrayType(StringType, False)

Integers are 64-bit, so that a byte offset in a WARC file of over 2 GiB fits.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import NamedTuple

from ..resolve.link import COMPUTED_FIELDS, DEFAULT_FIELDS, FIELDS, Link, Origin

__all__ = ["COLUMNS", "Column", "column_types", "columns"]


class Column(NamedTuple):
    """One column of a columnar output: a field of the record, its type, whether it may be
    null (the type one of ``string``, ``int64``, ``strings``: a list of strings)."""

    name: str
    type: str
    nullable: bool


# annotation -> (type, nullable)
_TYPES: dict[object, tuple[str, bool]] = {
    str: ("string", False),
    str | None: ("string", True),
    int: ("int64", False),
    int | None: ("int64", True),
    tuple[str, ...]: ("strings", False),
}


def column_types(
    record: type[tuple[object, ...]], names: Iterable[str] | None = None
) -> dict[str, tuple[str, bool]]:
    """Each field of the named tuple ``record`` (or those ``names``) with its column type and
    nullability, read from its annotations; a field of a type no column has is a
    ``TypeError`` naming it."""
    hints = typing.get_type_hints(record)
    found = {}
    for name in record._fields if names is None else names:  # type: ignore[attr-defined]
        hint = hints[name]
        if hint not in _TYPES:
            raise TypeError(f"{record.__name__}.{name}: no column type for {hint!r}")
        found[name] = _TYPES[hint]
    return found


# The link's own fields, then its document's Origin flattened (link.FIELDS: how every format
# writes it); the record's `origin` field itself is no column. Then the forms of the URL
# computed when chosen (link.COMPUTED_FIELDS: host, domain, surt, canonical), nullable strings.
_LINK = {
    **column_types(Link, DEFAULT_FIELDS),
    **column_types(Origin),
    **dict.fromkeys(COMPUTED_FIELDS, ("string", True)),
}


def columns(fields: Iterable[str] = FIELDS) -> tuple[Column, ...]:
    """The columns of these fields of :class:`~baselinks.resolve.link.Link` (a computed one
    too: :data:`~baselinks.resolve.link.COMPUTED_FIELDS`), in the order given."""
    return tuple(Column(name, *_LINK[name]) for name in fields)


COLUMNS = columns()
