"""wat: WARC, ARC and WACZ inputs → a WAT file, as Common Crawl writes one (``baselinks wat``).

A WAT holds, for each record of a WARC file, a ``metadata`` record of JSON: where the record is
stored (``Container``), its headers and what its block was read as (``Envelope``), and for an
HTML page its head and links (``HTML-Metadata``), with the keys, link paths and upper-case tag
names that webarchive-commons' WAT extractor writes, so that the tools that read Common Crawl's
WATs (cc-pyspark's host graph, cc2dataset...) read these unchanged. The links are baselinks'
own, URLs as written; ``additions`` adds, under keys named ``Baselinks``, what the extractor
misses (each link resolved, its base's source, its problem codes; the links it has no place
for: srcset, lazy loading, style attributes, HTTP headers, feeds...).

    keys.py      every key and link path, where it comes from in the extractor's source
    envelope.py  a framed record → Container, Envelope
    html.py      an HTML page's tree and links → HTML-Metadata
    record.py    the WAT's records (warcinfo, metadata), each a gzip member
    build.py     inputs → records, in order, in processes: read this first
"""

from __future__ import annotations

from .build import WatOptions, WatSummary, wat_members, wat_name, write_wat

__all__ = ["WatOptions", "WatSummary", "wat_members", "wat_name", "write_wat"]
