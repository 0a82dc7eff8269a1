"""coverage: which links of an archive or a mirror point to what it did not capture, offline.

Open first: build.py

    build.py      check_coverage(), coverage_of(): the two passes (captures, then links)
    store.py      the captures by key, on disk (SQLite): the one thing kept of the archive
    scan.py       the inputs → the store: an archive's records, a mirror's files
    index.py      a CDXJ or CDX index → the store (--index)
    keys.py       the canonical key a link and a capture are matched by (SURT), its rules
    follow.py     a target → the capture a replay tool serves: ranked, redirects followed
    fragments.py  the HTML standard's indicated part: is a fragment's anchor there
    classify.py   one link → its coverage record (Covered); which links a page loads
    tally.py      completeness per page, most wanted URLs, broken fragments, loops
    summary.py    what a run found, as numbers: stderr lines and the report's data
    output.py     the records as JSON Lines, CSV, TSV, Parquet; the seed list
    report.py     the HTML report (self-contained) and the JSON one

It comes after the pipeline (api.py): it runs extraction (api.iter_pages) and reads the archives
with the container readers (load/containers/captures.py).
"""

from .build import check_coverage, coverage_of
from .classify import COVERAGE_FIELDS, OUTPUT_FIELDS, Coverage, Covered
from .summary import CoverageSummary

__all__ = [
    "COVERAGE_FIELDS",
    "OUTPUT_FIELDS",
    "Coverage",
    "CoverageSummary",
    "Covered",
    "check_coverage",
    "coverage_of",
]
