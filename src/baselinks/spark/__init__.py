"""Links of many WARC files on Apache Spark: one task per file, rows into a DataFrame.

    pip install "baselinks[spark]"

    from baselinks.spark import Counters, extract_links
    counters = Counters.of(spark)
    frame = extract_links(spark, ["a.warc.gz", "b.warc.gz"], counters=counters)
    frame.write.parquet("links.parquet")
    print(counters)  # documents, links, failed files: exact after the one action

The pattern of Common Crawl's cc-pyspark and the Archives Unleashed Toolkit: the paths are
parallelized one per partition (a gzip WARC cannot be split), each task streams its file
through :func:`baselinks.dataflow.iter_warc_links` in bounded memory, and a file that fails is
logged on the executor's stderr and counted, never fatal. Unlike them, links are resolved
against the page's ``<base>`` (RFC 1808 §3.1) before the record's URI.

    links.py    extract_links: the rows of many files, Counters, SCHEMA, to_pandas
    graph.py    build_graph: the link graph by Spark's own joins, as ``baselinks graph``
    driver.py   main: the job spark-submit runs, with cc-pyspark's options

This file is also the driver ``spark-submit`` is handed (``baselinks.spark.__file__``, or
``python -m baselinks.spark``); so the package imports baselinks by absolute name. The schema
is the link record's own (:mod:`baselinks.write.schema`, the CLI's Parquet has the same
columns), then ``warc``; :func:`to_pandas` keeps its integer columns integers.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

try:
    from baselinks.spark.driver import COUNTERS_FILE, main
    from baselinks.spark.graph import build_graph
    from baselinks.spark.links import SCHEMA, Counters, Filters, extract_links, to_pandas
except ImportError:  # no pyspark: each name says so when it is asked for (__getattr__, below)
    pass

__all__ = [
    "COUNTERS_FILE",
    "SCHEMA",
    "Counters",
    "Filters",
    "build_graph",
    "extract_links",
    "main",
    "to_pandas",
]

# Each public name, and the module it comes from. Without pyspark the package still imports
# (so that ``python -m baselinks.spark`` can say in one line what is missing, issue 36: it
# ended in a traceback), and a name asked for raises the ImportError that names the extra
# (PEP 562's __getattr__, asked only for a name the imports above did not define).
_FROM = {
    "COUNTERS_FILE": "driver",
    "main": "driver",
    "build_graph": "graph",
    "SCHEMA": "links",
    "Counters": "links",
    "Filters": "links",
    "extract_links": "links",
    "to_pandas": "links",
}


def __dir__() -> list[str]:
    # the names of __all__ too, not yet loaded (autodoc and help() list a module by dir())
    return sorted({*globals(), *__all__})


def __getattr__(name: str) -> Any:
    module = _FROM.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"baselinks.spark.{module}"), name)
    globals()[name] = value
    return value


def run() -> int:
    """The driver's ``main``, or, without pyspark, one line saying what to install (exit 1):
    what ``python -m baselinks.spark`` and ``spark-submit .../spark/__init__.py`` run."""
    try:
        from baselinks.spark.driver import main
    except ImportError as exc:
        print(f"baselinks: {exc}", file=sys.stderr)
        return 1
    return main()


if __name__ == "__main__":  # spark-submit .../baselinks/spark/__init__.py
    sys.exit(run())
