"""The bounded family's shapes measured against a baseline (issue 36): each hostile input beside
a benign one of the same size and kind, read in the same child in the same run.

    shape         a reader's input grown along one hostile dimension (nested xml:base, a
                  style sheet of nested blocks with an escape, a JSON-LD block of empty
                  arrays, a robots.txt of short lines...)
    baseline      the same bytes made harmless by one change of the same length (``xml:bose``
                  for ``xml:base``, ``url(AAA)`` for ``url(\\41)``, ``ld+json`` spelled ``xd+json``,
                  a space for each line break): what the reader costs on that many bytes

A shape is a finding where, at the same growth, its peak memory passes both three times its
baseline's and 16 MiB more and ten times its input (issue 29's rule: a reader may hold a
structure the baseline does not, in proportion); where its CPU time grows from one size to the
next more than three times as fast as its baseline's (superlinear: the quadratic xml:base
chains), or passes fifty times its baseline's and two seconds more (an input that costs far
more than its bytes: a gzip member inflated to its end). Relative to what was measured beside
it in the same run, never a time of its own. A shape may also say how many links it holds (a
text sitemap's lines with a form feed in them are one link each, not two) and that it is
read without an error (a page a browser reads whole).

fuzz_families.run_bounded reads them with the dimensions of issue 29; tests/test_fuzz.py runs
them at 1, 4 and 16 times in CI.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

# a shape's peak memory may be this many times its baseline's, and so much more; or this
# many times its input
MEMORY_RATIO, MEMORY_SLACK, MEMORY_PER_BYTE = 3, 16 << 20, 10
# its CPU time may grow this many times as fast as its baseline's from one size to the next,
# where it takes this long at the larger (seconds); or be this many times its baseline's, and
# so much more
CPU_GROWTH, CPU_FLOOR = 3, 1.0
CPU_RATIO, CPU_SLACK = 50, 2.0


@dataclass(frozen=True)
class Shape:
    make: Callable[[int], bytes]  # the input grown k times
    baseline: Callable[[int], bytes] | None  # the benign input of the same size, or none
    file: str  # the name it is read under (a robots.txt, a style sheet are told by theirs)
    links: Callable[[int], int] | None = None  # how many links it holds, when known
    clean: bool = False  # read without an error line


_ATOM = b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">'
_SITEMAP = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
_URL = b"<url><loc>http://e.example/a</loc></url>"


def _nested_bases(k: int) -> bytes:
    # 125 k entries, each inside the one before, each with an xml:base of 200 characters
    opened = b"".join(
        b'<entry xml:base="%s/"><link href="a"/>' % (b"d%d" % i).ljust(200, b"x")
        for i in range(125 * k)
    )
    return _ATOM + opened + b"</entry>" * (125 * k) + b"</feed>"


def _bases_under_nesting(k: int) -> bytes:
    # 2,000 nested xml:base values, then 300 k entries inside them, each with its own
    nested = b'<category xml:base="d/">' * 2000
    entries = b"".join(
        b'<entry xml:base="s%d/"><link href="a"/></entry>' % i for i in range(300 * k)
    )
    return _ATOM + nested + entries + b"</category>" * 2000 + b"</feed>"


def _no_base(make: Callable[[int], bytes]) -> Callable[[int], bytes]:
    # the same document, its nested xml:base attributes another name of the same length
    return lambda k: (
        make(k)
        .replace(b"<entry xml:base", b"<entry xml:bose")
        .replace(b"<category xml:base", b"<category xml:bose")
    )


def _robots(k: int, end: bytes = b"\n") -> bytes:
    return b"Sitemap: http://e.example/s.xml\n" + (b"ab" + end) * (200_000 * k)


def _blank_lines(k: int, end: bytes = b"\n") -> bytes:
    # lines of white space only: no URL, each a string of its own where the text is split whole
    return b"http://e.example/a\n" + (b"\t " + end) * (200_000 * k)


def _separators(k: int, plain: bool = False) -> bytes:
    # one URL a line, each with a form feed, NEL or U+2028 inside (str.splitlines() splits
    # there); ``plain``: a character of as many bytes that splits nothing
    marks = (b"\x0c", "\x85".encode(), "\u2028".encode())
    fills = (b"_", b"__", b"___")
    return b"".join(
        b"http://e.example/%d%sb\n" % (n, (fills if plain else marks)[n % 3])
        for n in range(1000 * k)
    )


@cache
def _oversize_member() -> bytes:
    """One gzip member: a response record declaring 300 MiB of NULs after its HTTP head."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    size = 300 << 20
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://e.example/big\r\n"
    head += b"Content-Length: %d\r\n\r\n" % (len(http) + size)
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    chunk = bytes(4 << 20)
    pieces = [packer.compress(head + http), *(packer.compress(chunk) for _ in range(size >> 22))]
    return b"".join([*pieces, packer.compress(b"\r\n\r\n"), packer.flush()])


def _record_member(uri: bytes) -> bytes:
    body = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=x>"
    head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + b"\r\n"
    record = head + b"Content-Length: %d\r\n\r\n" % len(body) + body + b"\r\n\r\n"
    return zlib.compress(record, 9, 31)


def _oversize_in_gzip(k: int) -> bytes:
    # gzip inside gzip: a .warc.gz of a record, k records of 300 MiB (over the 256 MiB limit),
    # a record; the oversize ones were inflated to their end to find the next
    first, last = _record_member(b"http://e.example/a"), _record_member(b"http://e.example/b")
    return gzip.compress(first + _oversize_member() * k + last, 9)


SHAPES: dict[str, Shape] = {
    "xml:base nested in a feed": Shape(_nested_bases, _no_base(_nested_bases), "feed.atom"),
    "xml:base entries under 2,000 nested xml:base": Shape(
        _bases_under_nesting, _no_base(_bases_under_nesting), "feed.atom"
    ),
    "a style sheet of nested blocks with one escape": Shape(
        lambda k: b"a{b:url(\\41)}" + b"{" * (200_000 * k),
        lambda k: b"a{b:url(AAA)}" + b"{" * (200_000 * k),
        "sheet.css",
    ),
    "functions nested in image-set()": Shape(
        lambda k: b"a{b:image-set(" + b"([" * (100_000 * k),
        lambda k: b"a{b:imageXset(" + b"([" * (100_000 * k),
        "sheet.css",
    ),
    "a JSON-LD block of empty arrays": Shape(
        lambda k: b'<script type="application/ld+json">[' + b"[]," * (100_000 * k) + b"0]</script>",
        lambda k: b'<script type="application/xd+json">[' + b"[]," * (100_000 * k) + b"0]</script>",
        "page.html",
    ),
    "a robots.txt of short lines": Shape(
        _robots, lambda k: _robots(k, b" "), "robots.txt", links=lambda k: 1
    ),
    "a text sitemap of blank lines": Shape(
        _blank_lines, lambda k: _blank_lines(k, b" "), "sitemap.txt", links=lambda k: 1
    ),
    "a text sitemap's lines with FF, NEL, U+2028": Shape(
        _separators, lambda k: _separators(k, plain=True), "sitemap.txt", links=lambda k: 1000 * k
    ),
    "a sitemap of unknown elements between entries": Shape(
        lambda k: _SITEMAP + _URL + b"<x/>" * (250_000 * k) + _URL + b"</urlset>",
        lambda k: _SITEMAP + _URL + b"    " * (250_000 * k) + _URL + b"</urlset>",
        "sitemap.xml",
        links=lambda k: 2,
    ),
    "records over the limit in gzip inside gzip": Shape(
        _oversize_in_gzip, None, "crawl.warc.gz.gz", links=lambda k: 2
    ),
    "one attribute name repeated on a <base>": Shape(
        lambda k: (
            b"<html><head>"
            + b"<base " * (2000 * k)
            + b'<base href="http://b.example/d/"></head><a href=x>'
        ),
        None,
        "page.html",
        links=lambda k: 1,
        clean=True,
    ),
}


def judge(
    shape: Shape,
    growth: int,
    size: int,
    result: dict[str, object],
    baseline: dict[str, object] | None,
) -> list[tuple[str, str]]:
    """The findings of one shape of ``size`` bytes at one growth, against its baseline's
    result (read beside it, None when it has none): memory and CPU time out of proportion,
    links and errors."""
    found: list[tuple[str, str]] = []
    if baseline is not None:
        grown, base_grown = int(result["grown"]), int(baseline["grown"])  # type: ignore[call-overload]
        if grown > max(MEMORY_RATIO * max(base_grown, 0) + MEMORY_SLACK, MEMORY_PER_BYTE * size):
            found.append(("memory over its baseline", f"{grown:,} bytes against {base_grown:,}"))
        cpu, base_cpu = float(result["cpu"]), float(baseline["cpu"])  # type: ignore[arg-type]
        if cpu > CPU_RATIO * base_cpu + CPU_SLACK:
            found.append(("CPU time over its baseline", f"{cpu:.2f} s against {base_cpu:.2f} s"))
    urls = result.get("urls")
    if shape.links is not None and isinstance(urls, list) and len(urls) != shape.links(growth):
        found.append(("wrong links", f"{len(urls):,} links, {shape.links(growth):,} expected"))
    errors = result.get("errors")
    if shape.clean and errors:
        found.append(("an error where a browser reads it whole", str(errors)[:160]))
    return found


def judge_growth(times: list[tuple[int, float, float]]) -> list[tuple[str, str]]:
    """The finding of a shape whose CPU time grows faster than its baseline's: ``times`` is
    (its size, its CPU time, its baseline's) at each growth, in order. A baseline's time under
    0.05 s is noise: the baseline is then taken to grow as its size does (linear)."""
    if len(times) < 2:
        return []
    (size_small, small, base_small), (size_large, large, base_large) = times[-2], times[-1]
    own = large / max(small, 0.05)
    linear = size_large / max(size_small, 1)
    theirs = base_large / base_small if base_small >= 0.05 else linear
    if large > CPU_FLOOR and own > CPU_GROWTH * max(theirs, linear):
        return [("CPU time grows faster than its baseline's", f"x{own:.1f} against x{theirs:.1f}")]
    return []
