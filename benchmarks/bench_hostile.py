"""Are time, memory and output linear in the size of a hostile input? Each case at n and 4n.

    python benchmarks/bench_hostile.py [--scale 1.0] [--rounds 3] [--only SUBSTRING]

For every pattern that grows with a size (a long line, deep nesting, many links, a long
attribute, CSS built to hurt tokenizers, nested anchors, a long path, ...; tests/test_hostile.py
and tests/test_linear.py hold their outcomes), the document is made at two sizes, n and 4n, and
extracted and written as JSON Lines, as the command line does, in a fresh process for each size:
the median time of ``--rounds`` runs, the peak memory above what the process held before, and
the bytes written. Linear shows as a growth ratio near 4 from n to 4n; a quadratic pattern as
16. The machine is noisy and small times are dominated by constant costs: read the ratios of
the larger cases, and the memory ratio only where the memory is more than a few MB.

A case is a name, a function making the document of size n, and n at scale 1 (``CASES``);
``OPTIONS`` gives the ``extract_links`` options of the cases that need some (a mode).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from typing import Any

from baselinks import extract_links
from baselinks.write.formats import write_jsonl

URL = "http://e.example/dir/page.html"
GROWTH = 4  # the second size is GROWTH times the first


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


_EMPTY_GZIP = _gzip(b"")
_RECORD = (
    b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
    b"Content-Type: text/html\r\nContent-Length: 10\r\n\r\n<a href=x>\r\n\r\n"
)


def _gzip_of(head: bytes, piece: bytes, times: int) -> bytes:
    """One gzip member of ``head`` then ``piece`` ``times`` times, compressed as they come
    (100 MB of one byte: 100 KB), never held whole (the peak memory is the reader's)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    packed = [packer.compress(head), *(packer.compress(piece) for _ in range(times))]
    return b"".join([*packed, packer.flush()])


def _nested_multiparts(levels: int, size: int) -> bytes:
    """``levels`` multiparts without a boundary parameter around a page of ``size`` bytes."""
    inner = b"Content-Type: text/html\r\n\r\n<a href=x>" + b"y" * size
    for level in range(levels):
        inner = (
            b"Content-Type: multipart/mixed\r\n\r\n--b%d\r\n" % level
            + inner
            + b"\r\n--b%d--\r\n" % level
        )
    return b"MIME-Version: 1.0\r\n" + inner


def nested(n: int) -> bytes:
    return b'<a href="a">' + b"<div>" * n + b'<a href="b">' + b"</div>" * n + b'<a href="c">'


# Deeper than libxml2 builds (2048): the document is parsed a second time, flattened.
OVER_DEEP = b"<div>" * 3000


def nested_anchors(n: int, after: bytes) -> bytes:
    """n/8 anchors nested in each other (libxml2 nests an <a> in a <span> in an <a>), then
    ``after`` n times: each anchor's text is all the text after it. At 4n the anchors are
    1000 deep at most, under libxml2's limit, so the depth grows with n as the rest does."""
    return b"<a href=x><span>" * (n // 8) + after * n


CASES: dict[str, tuple[Callable[[int], bytes], int]] = {
    # name: (document of size n, n at scale 1)
    "single line": (lambda n: b"<p>" + b"x" * n + b'<a href="e">', 6_000_000),
    "nested elements (flattened)": (nested, 12_000),
    "links": (lambda n: b"".join(b'<a href="/p%d">%d</a>\n' % (i, i) for i in range(n)), 50_000),
    "long attribute": (lambda n: b'<a href="x" title="' + b"t" * n + b'">', 5_000_000),
    "data: URL": (lambda n: b'<img src="data:,' + b"A" * n + b'">', 12_000_000),
    "srcset candidates": (
        lambda n: b'<img srcset="' + b", ".join(b"i%d.png %dw" % (i, i) for i in range(n)) + b'">',
        12_000,
    ),
    "srcset long descriptor": (lambda n: b'<img srcset="a 1' + b"x" * n + b'">', 2_000_000),
    "CSS escaped backslashes": (lambda n: b"<style>" + b"\\\\" * n + b"url(x)", 120_000),
    "CSS unclosed url( of escapes": (lambda n: b"<style>a{b:url(" + b"\\(" * n, 50_000),
    "CSS nested brackets": (lambda n: b"<style>a{b:" + b"(" * n + b"url(x)", 120_000),
    "CSS unclosed comment": (lambda n: b"<style>" + b"/* " * n + b"url(x)", 250_000),
    "CSS unclosed string": (lambda n: b"<style>@import '" + b"\\'" * n, 120_000),
    "CSS escape in a function name": (lambda n: b"<style>u\\72l(x) " + b"(" * n, 50_000),
    "unclosed tags": (lambda n: b'<a href="x" ' + b"<b " * n, 120_000),
    "unclosed comment": (lambda n: b"<!--" + b"<a href=x>" * n, 120_000),
    # a late <body> tag makes load.py scan the page for its attributes (html.parser, which it
    # replaced, took 2.1 s for 80 KB of these comments and 8.8 s for 160 KB)
    "late body tags": (lambda n: b"<p>x" + b'<body a="1" b=2>' * n, 50_000),
    "late body, unclosed comments": (lambda n: b"<p>x<body a=1>" + b"<!--" * n, 500_000),
    "over-deep, then unclosed tags": (lambda n: OVER_DEEP + b"<a " * n, 25_000),
    "over-deep, then <![x]>": (lambda n: OVER_DEEP + b"<![x]><a href=y>" * n, 25_000),
    "over-deep, then stray end tags": (lambda n: OVER_DEEP + b"</x>" * n, 50_000),
    # round 2's open patterns: processing instructions and end tags after the flattened depth
    "over-deep, then processing instructions": (
        lambda n: OVER_DEEP + b"<?x?><a href=y>" * n,
        25_000,
    ),
    "over-deep, then PIs and end tags": (
        lambda n: OVER_DEEP + b"<?x?></div><a href=y>" * n,
        25_000,
    ),
    # the walker's per-tag plans: kept for the tags the table names, shared beyond 1024 others
    "distinct custom element names": (
        lambda n: b"".join(b'<x-t%d src="u"></x-t%d>' % (i, i) for i in range(n)),
        50_000,
    ),
    # the HTML5 parser's hash of names never grows: past html5.MAX_NAMES, libxml2 parses
    "distinct attribute names": (
        lambda n: b"".join(b'<p data-a%d="u">x</p>' % i for i in range(n)) + b"<a href=x>",
        50_000,
    ),
    "nested anchors, then <img>": (lambda n: nested_anchors(n, b"<img>"), 2_000),
    "nested anchors, then text": (lambda n: nested_anchors(n, b"word "), 2_000),
    "select, under deep nesting": (
        lambda n: b"<div>" * (n // 40) + b"<a href=x></a>" * n,  # 1000 deep at 4n
        10_000,
    ),
    "long path, rfc1808": (lambda n: b'<a href="' + b"a/" * n + b'../x">', 1_000_000),
    "long path, rfc3986": (lambda n: b'<a href="' + b"a/" * n + b'../x">', 1_000_000),
    # --- containers (issue 16): headers, gzip members, MIME parameters -------------------------
    "HTTP header folded n times": (
        lambda n: (
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: <a>\r\n"
            + b" ;b=c\r\n" * n
            + b"\r\n<a href=x>"
        ),
        100_000,
    ),
    "empty gzip members (.html.gz)": (lambda n: _EMPTY_GZIP * n + _gzip(b"<a href=x>"), 50_000),
    "empty gzip members (Content-Encoding)": (
        lambda n: (
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
            + _EMPTY_GZIP * n
            + _gzip(b"<a href=x>")
        ),
        50_000,
    ),
    "empty gzip members (.warc.gz)": (
        lambda n: _gzip(_RECORD) + _EMPTY_GZIP * n + _gzip(_RECORD),
        50_000,
    ),
    "MIME Content-Type parameters": (
        lambda n: (
            b"MIME-Version: 1.0\r\nContent-Type: text/html; "
            + b"; ".join(b"p%d=v%d" % (i, i) for i in range(n))
            + b"\r\n\r\n<a href=x>"
        ),
        50_000,
    ),
    # --- issue 29: header blocks, empty lines, gzip magic, MIME boundaries, attributes ---------
    "WARC header line with no end (gzip)": (
        lambda n: _gzip(_RECORD) + _gzip_of(b"WARC/1.0\r\nX: ", b"a" * 1000, n) + _gzip(_RECORD),
        100_000,
    ),
    "WARC header lines (gzip)": (
        lambda n: _gzip(_RECORD) + _gzip_of(b"WARC/1.0\r\n", b"a: b\r\n" * 100, n) + _gzip(_RECORD),
        100_000,
    ),
    "empty lines between records": (lambda n: _RECORD + b"\r\n" * n + _RECORD, 5_000_000),
    "gzip magic bytes in junk": (
        lambda n: _gzip(_RECORD) + b"\x1f\x8b\x08" * n + _gzip(_RECORD),
        100_000,
    ),
    "MIME boundary": (
        lambda n: (
            b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="'
            + b"b" * n
            + b'"\r\n\r\n--'
            + b"b" * n
            + b"\r\nContent-Type: text/html\r\n\r\n<a href=x>\r\n"
        ),
        1_000_000,
    ),
    "MIME multiparts nested, no boundary": (lambda n: _nested_multiparts(60, n), 1_000_000),
    "attributes on one element": (
        lambda n: b"<a " + b"".join(b"a%d=1 " % i for i in range(n)) + b"href=x><a href=y>",
        20_000,
    ),
    "MIME Content-Location folded n times": (
        lambda n: (
            b"MIME-Version: 1.0\r\nContent-Type: text/html\r\n"
            + b"Content-Location: http://a.example/"
            + b"\r\n b" * n
            + b"\r\n\r\n<a href=x>"
        ),
        100_000,
    ),
}

OPTIONS: dict[str, dict[str, Any]] = {
    "long path, rfc3986": {"mode": "rfc3986"},
    "select, under deep nesting": {"select": "a"},
}


class _Count:
    """A text stream that only counts what is written to it."""

    written = 0

    def write(self, text: str) -> int:
        self.written += len(text.encode("utf-8", "surrogatepass"))
        return len(text)


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(name: str, n: int, rounds: int) -> dict[str, float]:
    """In this process: the document of size n, extracted and written ``rounds`` times."""
    make, _ = CASES[name]
    data = make(n)
    before = _rss_mb()
    times = []
    out = _Count()
    for _ in range(rounds):
        out = _Count()
        start = time.perf_counter()
        links = extract_links(data, url=URL, on_error=lambda error: None, **OPTIONS.get(name, {}))
        write_jsonl(links, out)  # type: ignore[arg-type]  # write() is all it needs
        times.append(time.perf_counter() - start)
        del links
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "size": len(data),
        "seconds": statistics.median(times),
        "memory": max(0.0, peak - before),
        "output": out.written,
    }


def _in_a_fresh_process(name: str, n: int, rounds: int) -> dict[str, float]:
    command = [sys.executable, __file__, "--measure", name, str(n), "--rounds", str(rounds)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _ratio(big: float, small: float, floor: float) -> str:
    return f"{big / small:.1f}" if small > floor else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="the cases whose name holds this")
    parser.add_argument(
        "--parser", choices=("html5", "lxml"), help="the parser (default: html5 where built)"
    )
    parser.add_argument("--measure", nargs=2, metavar=("CASE", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure[0], int(args.measure[1]), args.rounds)))
        return
    if args.parser:
        os.environ["BASELINKS_PARSER"] = args.parser  # the measuring processes' default
    print(
        f"{'case':32} {'bytes n':>11} {'t(n) s':>8} {'t(4n) s':>8} {'time x':>7}"
        f" {'MB(n)':>7} {'MB(4n)':>7} {'mem x':>6} {'out(4n)':>11} {'out x':>6}"
    )
    for name, (_, size) in CASES.items():
        if args.only not in name:
            continue
        n = max(1, int(size * args.scale))
        small, big = (_in_a_fresh_process(name, k, args.rounds) for k in (n, GROWTH * n))
        print(
            f"{name:32} {small['size']:>11,} {small['seconds']:>8.3f} {big['seconds']:>8.3f}"
            f" {_ratio(big['seconds'], small['seconds'], 0.0):>7}"
            f" {small['memory']:>7.0f} {big['memory']:>7.0f}"
            f" {_ratio(big['memory'], small['memory'], 2.0):>6}"
            f" {big['output']:>11,} {_ratio(big['output'], small['output'], 0.0):>6}",
            flush=True,
        )


if __name__ == "__main__":
    main()
