"""What the benchmarks share: the corpus's pages, the unit they are measured in (a bare lxml
parse), and the WARC files they are built into. A case of benchmarks/run.py imports these, never
another case.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from baselinks import InputError, iter_links

Docs = list[tuple[bytes, str | None]]


def load_corpus(corpus: Path) -> Docs:
    index = corpus / "index.tsv"
    if index.exists():
        with open(index, encoding="utf-8") as rows:
            return [
                (
                    (corpus / row["relpath"]).read_bytes(),
                    row["retrieval_url"] if row.get("url_source") != "none" else None,
                )
                for row in csv.DictReader(rows, delimiter="\t")
                if row["kind"] == "html"
            ]
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in (".html", ".htm"))
    return [(p.read_bytes(), p.resolve().as_uri()) for p in files]


def lxml_parse(docs: Docs) -> int:
    from lxml import etree

    parser = etree.HTMLParser()
    for data, _ in docs:
        etree.fromstring(data, parser)
    return 0


def clean_warcs(corpus: Path, compress: bool = False) -> list[bytes]:
    """Every corpus WARC that baselinks reads without an error, rewritten by warcio.

    Rewritten (one record after another; each its own gzip member with ``compress``) so that
    copies can be concatenated: the corpus's files end in different numbers of blank lines, and
    one uses "\r\r\n" line ends, which is fine for a file but not in the middle of one.
    """
    from warcio.archiveiterator import ArchiveIterator
    from warcio.warcwriter import WARCWriter

    found = []
    for path in sorted(corpus.rglob("*")):
        if not path.name.lower().endswith((".warc", ".warc.gz")):
            continue
        errors: list[InputError] = []
        for _ in iter_links(path, on_error=errors.append):
            pass
        if errors:
            continue
        out = io.BytesIO()
        writer = WARCWriter(out, gzip=compress)
        try:
            with open(path, "rb") as stream:
                for record in ArchiveIterator(stream):
                    writer.write_record(record)
        except Exception:
            continue
        found.append(out.getvalue())
    return found


def build(warcs: list[bytes], megabytes: int, path: Path) -> int:
    """Write copies of ``warcs`` to ``path`` until it holds ``megabytes`` MB; return the copies."""
    target = megabytes * 1_000_000
    copies = 0
    with open(path, "wb") as out:
        while out.tell() < target:
            for data in warcs:
                out.write(data)
            copies += 1
    return copies


def write_warc(corpus: Path, copies: int, where: Path) -> tuple[Path, list[Path], int]:
    """The crawl, its two halves, and how many pages it holds."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(corpus / "index.tsv", encoding="utf-8") as index:
        rows = [row for row in csv.DictReader(index, delimiter="\t") if row["kind"] == "html"]
    pages = [
        (f"{row['retrieval_url'] or 'http://example.com/'}", (corpus / row["relpath"]).read_bytes())
        for row in rows
    ]
    records = [
        (url if copy == 0 else url.replace("://", f"://copy{copy}.", 1), body)
        for copy in range(copies)
        for url, body in pages
    ]
    whole, halves = where / "crawl.warc.gz", [where / "half-1.warc.gz", where / "half-2.warc.gz"]
    middle = len(records) // 2
    for path, part in (
        (whole, records),
        (halves[0], records[:middle]),
        (halves[1], records[middle:]),
    ):
        with open(path, "wb") as out:
            writer = WARCWriter(out, gzip=True)
            for url, body in part:
                http = StatusAndHeaders(
                    "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
                )
                record = writer.create_warc_record(
                    url, "response", payload=io.BytesIO(body), length=len(body), http_headers=http
                )
                writer.write_record(record)
    return whole, halves, len(records)
