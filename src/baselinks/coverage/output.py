"""output: coverage records written in every format baselinks writes, and the seed list.

jsonl, csv, tsv   write/rows.py: formats.py's escaping, over the record's values
parquet           pyarrow (the parquet extra): the link's columns as write/schema.py types
                  them (``page_date`` a timestamp as ``date`` is), then the coverage's:
                  ``capture``, ``status`` (int64), ``final_url``, ``date`` (timestamp),
                  ``fragment``, ``record_type``
--seeds FILE      one missing URL a line, the most needed first (a crawler's seed list)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO, TextIO

from ..write.rows import row_format
from ..write.schema import SQL_NAMES, column_types, utc_micros
from .classify import CHOOSABLE, COVERAGE_FIELDS, OUTPUT_FIELDS, Coverage, Covered

__all__ = ["FORMATS", "CoverageSink", "check_fields", "write_seeds"]

FORMATS = ("jsonl", "csv", "tsv", "parquet")
_ROW_GROUP = 65_536


def check_fields(fields: Iterable[str] | None) -> tuple[str, ...]:
    """The fields chosen (all of :data:`~.classify.OUTPUT_FIELDS` by default), each one of
    :data:`~.classify.CHOOSABLE` (else ``ValueError`` naming those), none twice."""
    if fields is None:
        return OUTPUT_FIELDS
    chosen = tuple(fields)
    unknown = [name for name in chosen if name not in CHOOSABLE]
    if unknown or not chosen:
        what = f"unknown field(s) {', '.join(unknown)}" if unknown else "no field"
        raise ValueError(f"{what}: expected some of {', '.join(CHOOSABLE)}")
    if len(set(chosen)) < len(chosen):
        raise ValueError(f"a field named twice: {', '.join(chosen)}")
    return chosen


def _arrow_fields(fields: tuple[str, ...]) -> tuple[list[Any], list[bool]]:
    """The Arrow field of each chosen field (a link's as write/parquet.py types it, the
    coverage's by its record's annotations), and whether its values are dates' text."""
    import pyarrow as pa

    from ..write.parquet import arrow_schema

    own = column_types(Coverage)
    types = {"string": pa.string(), "int64": pa.int64(), "timestamp": pa.timestamp("us", "UTC")}
    found, dated = [], []
    for name in fields:
        if name in COVERAGE_FIELDS:
            kind, nullable = own[name]
            found.append(pa.field(name, types[kind], nullable=nullable))
            dated.append(kind == "timestamp")
            continue
        field = arrow_schema(["date" if name == "page_date" else name]).field(0)
        found.append(field.with_name(SQL_NAMES.get(name, name)))
        dated.append(pa.types.is_timestamp(field.type))
    return found, dated


class CoverageSink:
    """Where coverage records go: ``text`` (a text stream) in a text format, or ``binary`` (a
    binary stream) as Parquet; :meth:`write` a document's records, then :meth:`close`."""

    def __init__(
        self,
        form: str,
        fields: Iterable[str] | None = None,
        *,
        text: TextIO | None = None,
        binary: BinaryIO | None = None,
    ) -> None:
        self.fields = check_fields(fields)
        self.form = form
        self.count = 0
        self.text = text
        self.rows: list[tuple[Any, ...]] = []
        if form == "parquet":
            self._parquet(binary)
            return
        if form not in FORMATS:
            raise ValueError(f"unknown format {form!r}: expected one of {', '.join(FORMATS)}")
        header, self.render = row_format(form, self.fields)
        assert text is not None, "a text format is written to a text stream"
        text.write(header)

    def _parquet(self, binary: BinaryIO | None) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        assert binary is not None, "Parquet is written to a binary stream"
        fields, self.dated = _arrow_fields(self.fields)
        self.schema = pa.schema(fields)
        self.writer = pq.ParquetWriter(binary, self.schema, compression="snappy")
        self._pa = pa

    def write(self, covered: Sequence[Covered]) -> None:
        """One document's records."""
        if not covered:
            return
        self.count += len(covered)
        rows = [one.values(self.fields) for one in covered]
        if self.form != "parquet":
            assert self.text is not None
            self.text.write(self.render(rows))
            return
        self.rows.extend(rows)
        if len(self.rows) >= _ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        rows, self.rows = self.rows, []
        if not rows:
            return
        pa = self._pa
        arrays = []
        for at, dated in enumerate(self.dated):
            values = [row[at] for row in rows]
            if dated:
                values = [utc_micros(value) for value in values]
            arrays.append(pa.array(values, self.schema.field(at).type))
        self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))

    def close(self) -> int:
        """The last rows (and Parquet's footer) written; how many records were."""
        if self.form == "parquet":
            self._flush()
            self.writer.close()
        return self.count


# What a seed line percent-encodes: the controls, space and the line separators (a URL the
# URL Standard serialised has none; one left relative or in rfc1808 mode might)
_UNSAFE = re.compile(r"[\x00-\x20\x7f-\x9f\u2028\u2029]")


def write_seeds(wanted: Iterable[tuple[str, int]], out: TextIO) -> int:
    """The missing URLs, one a line, as given (the most needed first); how many."""
    count = 0
    for url, _pages in wanted:
        safe = _UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), url)
        out.write(safe + "\n")
        count += 1
    return count
