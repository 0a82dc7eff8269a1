"""write: Links → records on an output. Knows the Link record, nothing of HTML.

Open first: formats.py

    formats.py    one Format per output (jsonl, csv, tsv, text, table): a header and a renderer
                  per document, each escaping what would break a record; FORMATS, WRITERS
    jsonl.py      JSON Lines: compiled (_cjsonl.pyx), orjson or json, the same bytes
    schema.py     the record's fields as typed columns (Parquet's and Spark's schema)
    parquet.py    links → Parquet row groups (pyarrow: the parquet extra)
    stats.py      --stats: links counted by kind, base source, problem code and host
    output.py     where the command writes: -o FILE atomically, devices through, write errors
    _cjsonl.pyx   jsonl.py's writer, compiled

The name ``baselinks.write`` was a module before 0.2 (now formats.py): its names still come
from here, with a DeprecationWarning (``_moved.py``).
"""

from __future__ import annotations

from typing import Any

from .._moved import forward


def __getattr__(name: str) -> Any:
    # the names of the flat layout's module of this name, for one release (_moved.py)
    return forward(__name__, name)
