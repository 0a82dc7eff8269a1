"""Links found on a corpus: baselinks against lxml iterlinks() + urljoin and Scrapy's LinkExtractor.

    python benchmarks/compare_links.py CORPUS_DIR [--pages-report N]

CORPUS_DIR holds ``index.tsv`` (kind, relpath, retrieval_url, url_source, ...) and its HTML
pages. For each page:

* baselinks: ``extract_links(bytes, url=retrieval_url)`` (rfc1808 mode), every link source;
* lxml: ``lxml.html.fromstring(bytes)``, the first ``<base href>`` joined to the retrieval
  URL, then ``urljoin(base, link)`` for each ``iterlinks()`` result (what most scripts do);
* Scrapy (optional, ``pip install scrapy``): ``LinkExtractor`` over every tag and every
  attribute baselinks knows, with ``deny_extensions=[]`` and ``unique=False``.

It prints links per source (tag/attr) for each tool, and every page where baselinks finds fewer
links than lxml, with the (tag, attr) pairs that account for the difference.
"""

from __future__ import annotations

import argparse
import csv
import sys
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any

import lxml.html

from baselinks import extract_links
from baselinks.find.linktable import LINK_SOURCES


def lxml_links(data: bytes, url: str) -> list[tuple[str, str, str]]:
    """(tag, attr, absolute url) as lxml's iterlinks() + first <base> + urljoin give them."""
    try:
        tree = lxml.html.fromstring(data)
    except Exception:
        return []
    base = url
    for element in tree.iter("base"):
        if element.get("href") is not None:
            base = urllib.parse.urljoin(url, element.get("href").strip())
            break
    found = []
    for element, attr, link, _ in tree.iterlinks():
        tag = element.tag if isinstance(element.tag, str) else "?"
        try:
            found.append((tag, attr or "text", urllib.parse.urljoin(base, link.strip())))
        except ValueError:
            found.append((tag, attr or "text", link))
    return found


def scrapy_links(data: bytes, url: str) -> list[str] | None:
    try:
        from scrapy.http import HtmlResponse
        from scrapy.linkextractors import LinkExtractor
    except ImportError:
        return None
    tags = sorted({t for s in LINK_SOURCES if s.tags for t in s.tags})
    attrs = sorted({s.attr for s in LINK_SOURCES if s.syntax != "css-text"})  # not <style> text
    extractor = LinkExtractor(tags=tags, attrs=attrs, deny_extensions=[], unique=False)
    response = HtmlResponse(url=url or "http://unknown.invalid/", body=data)
    try:
        return [link.url for link in extractor.extract_links(response)]
    except Exception:
        return []


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument(
        "--pages-report", type=int, default=1000, help="how many short pages to list"
    )
    args = parser.parse_args()

    ours_by_source: Counter[tuple[str, str]] = Counter()
    lxml_by_source: Counter[tuple[str, str]] = Counter()
    totals = Counter[str]()
    short: list[tuple[str, int, int, Any]] = []
    with open(args.corpus / "index.tsv", encoding="utf-8") as index:
        rows = [r for r in csv.DictReader(index, delimiter="\t") if r["kind"] == "html"]
    for row in rows:
        data = (args.corpus / row["relpath"]).read_bytes()
        url = row["retrieval_url"] if row["url_source"] != "none" else ""
        ours = extract_links(data, url=url or None)
        theirs = lxml_links(data, url)
        scrapy = scrapy_links(data, url)
        totals["pages"] += 1
        totals["baselinks"] += len(ours)
        totals["lxml"] += len(theirs)
        if scrapy is not None:
            totals["scrapy"] += len(scrapy)
        ours_by_source.update((link.tag, link.attr) for link in ours)
        lxml_by_source.update((tag, attr) for tag, attr, _ in theirs)
        if len(ours) < len(theirs):
            mine = Counter((link.tag, link.attr) for link in ours)
            other = Counter((tag, attr) for tag, attr, _ in theirs)
            short.append((row["relpath"], len(ours), len(theirs), other - mine))

    print(
        f"pages: {totals['pages']}   links: baselinks {totals['baselinks']}, "
        f"lxml iterlinks {totals['lxml']}, scrapy {totals.get('scrapy', 'not installed')}"
    )
    print(f"\n{'tag':<12} {'attr':<14} {'baselinks':>10} {'lxml':>8}")
    for key in sorted(set(ours_by_source) | set(lxml_by_source), key=lambda k: -ours_by_source[k]):
        print(f"{key[0]:<12} {key[1]:<14} {ours_by_source[key]:>10} {lxml_by_source[key]:>8}")
    print(f"\npages where baselinks finds fewer links than lxml: {len(short)}")
    for relpath, mine_n, theirs_n, diff in short[: args.pages_report]:
        print(f"  {relpath}: {mine_n} < {theirs_n}; lxml-only: {dict(diff)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
