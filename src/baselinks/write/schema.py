"""schema: the link record as typed columns, for the columnar outputs (Parquet, Spark).

    Link (resolve/link.py), its annotations ──columns()──► Column(name, type, nullable, field)
        ──► parquet.py: an Arrow schema        ──► spark.py: a Spark StructType

The one place a field's type is written is the record itself:
:class:`~baselinks.resolve.link.Link`'s annotation. A field added to the record (with a type
below) is a column of both outputs, with no other line. The column types, and what each engine
makes of them:

    annotation          type       Arrow / Parquet              Spark
    str                 string     string, not null             StringType, not null
    str | None          string     string, nullable             StringType, nullable
    int, int | None     int64      int64 (nullable with None)   LongType
    bool                bool       bool, not null               BooleanType, not null
    tuple[str, ...]     strings    list<string not null>        ArrayType(StringType, False)
    date (a str)        timestamp  timestamp[us, UTC], nullable TimestampType (UTC instants)

Integers are 64-bit, so that a byte offset in a WARC file of over 2 GiB fits. ``date``, the
WARC-Date (ISO 8601, "2017-03-01T12:00:00Z"), is a timestamp, so that SQL compares and
truncates it as one (:func:`utc_timestamp`); a date that is no ISO 8601 is null there (the text
formats keep it as written).

A column is named as its field is, but where the name is a reserved word of SQL in DuckDB,
Spark SQL or PostgreSQL, which plain SQL cannot name without quotes (:data:`SQL_NAMES`).
"""

from __future__ import annotations

import datetime
import functools
import typing
from collections.abc import Iterable
from typing import NamedTuple

from ..resolve.link import COMPUTED_FIELDS, FIELDS, OWN_FIELDS, Link, Origin

__all__ = [
    "COLUMNS",
    "SQL_NAMES",
    "Column",
    "column_types",
    "columns",
    "utc_micros",
    "utc_timestamp",
]


class Column(NamedTuple):
    """One column of a columnar output: its name, its type (one of ``string``, ``int64``,
    ``strings``: a list of strings, ``timestamp``), whether it may be null, and the field of
    the record it holds (its name, unless that is a reserved word: :data:`SQL_NAMES`)."""

    name: str
    type: str
    nullable: bool
    field: str


# annotation -> (type, nullable)
_TYPES: dict[object, tuple[str, bool]] = {
    str: ("string", False),
    str | None: ("string", True),
    int: ("int64", False),
    int | None: ("int64", True),
    bool: ("bool", False),
    tuple[str, ...]: ("strings", False),
}

# A field whose column has another type than its annotation says: the record keeps the text
# as read (JSON Lines writes it so), the column holds its value.
_COLUMN_TYPES = {"date": ("timestamp", True)}

# The fields renamed as columns: a reserved word in one of the engines that read Parquet with
# plain SQL, which `SELECT offset FROM links` fails on ("syntax error at or near offset").
# Checked against each engine's own list, of the 19 fields only `offset` is:
# - DuckDB: SELECT * FROM duckdb_keywords() WHERE keyword_category = 'reserved' (1.x);
# - Spark SQL: the "ANSI Compliance" page's keyword table, reserved with spark.sql.ansi.enabled
#   and spark.sql.ansi.enforceReservedKeywords (SELECT * FROM sql_keywords() WHERE reserved);
# - PostgreSQL: Appendix C, "SQL Key Words", reserved (its parser's kwlist.h RESERVED_KEYWORD).
# `date`, `text`, `file`, `length`, `document` are keywords in some of them, but not reserved:
# plain SQL takes them (test_parquet.py runs every column name through DuckDB).
SQL_NAMES = {"offset": "record_offset"}


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
        found[name] = _COLUMN_TYPES.get(name, _TYPES[hint])
    return found


# The link's own fields, then its document's Origin flattened (link.FIELDS: how every format
# writes it); the record's `origin` field itself is no column. Then the forms of the URL
# computed when chosen (link.COMPUTED_FIELDS: host, domain, surt, canonical), nullable strings.
_LINK = {
    **column_types(Link, OWN_FIELDS),
    **column_types(Origin),
    **dict.fromkeys(COMPUTED_FIELDS, ("string", True)),
}


def columns(fields: Iterable[str] = FIELDS) -> tuple[Column, ...]:
    """The columns of these fields of :class:`~baselinks.resolve.link.Link` (a computed one
    too: :data:`~baselinks.resolve.link.COMPUTED_FIELDS`), in the order given."""
    return tuple(Column(SQL_NAMES.get(name, name), *_LINK[name], name) for name in fields)


COLUMNS = columns()


@functools.lru_cache(maxsize=4096)  # a document's links share one date: parsed once
def utc_timestamp(text: str | None) -> datetime.datetime | None:
    """A WARC-Date as a UTC instant: ISO 8601 as WARC 1.1 §5.4 writes it (W3C-DTF, to the
    second or finer, "Z"), an offset converted, one without a zone read as UTC, a date alone
    as its midnight; None for None and for text that is no such date."""
    if text is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)


@functools.lru_cache(maxsize=4096)
def utc_micros(text: str | None) -> int | None:
    """:func:`utc_timestamp` as microseconds since 1970 (UTC): what a timestamp column holds."""
    moment = utc_timestamp(text)
    return None if moment is None else (moment - _EPOCH) // _MICROSECOND
