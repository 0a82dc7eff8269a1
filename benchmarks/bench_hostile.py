"""Is extraction time linear in the size of a hostile input? Each case is timed at n, 2n and 4n.

    python benchmarks/bench_hostile.py [--scale 1.0] [--rounds 3]

For every case of tests/test_hostile.py that grows with a size (a long line, deep nesting,
many links, a long attribute, CSS built to hurt tokenizers, ...), the document is made at three
sizes and extracted in this process with the library; the median of ``--rounds`` runs is kept.
Linear time shows as a ratio near 2.0 between one size and the next; a quadratic pattern as
4.0. The machine is noisy: read the ratios, not the times. Peak RSS of the whole run is printed
at the end (the largest case dominates it).
"""

from __future__ import annotations

import argparse
import gzip
import resource
import statistics
import time
from collections.abc import Callable

from baselinks import extract_links

URL = "http://e.example/dir/page.html"


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


_EMPTY_GZIP = _gzip(b"")
_RECORD = (
    b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
    b"Content-Type: text/html\r\nContent-Length: 10\r\n\r\n<a href=x>\r\n\r\n"
)


def nested(n: int) -> bytes:
    return b'<a href="a">' + b"<div>" * n + b'<a href="b">' + b"</div>" * n + b'<a href="c">'


CASES: dict[str, tuple[Callable[[int], bytes], int]] = {
    # name: (document of size n, n at scale 1)
    "single line": (lambda n: b"<p>" + b"x" * n + b'<a href="e">', 12_000_000),
    "nested elements (flattened)": (nested, 25_000),
    "links": (lambda n: b"".join(b'<a href="/p%d">%d</a>\n' % (i, i) for i in range(n)), 100_000),
    "long attribute": (lambda n: b'<a href="x" title="' + b"t" * n + b'">', 10_000_000),
    "data: URL": (lambda n: b'<img src="data:,' + b"A" * n + b'">', 25_000_000),
    "srcset candidates": (
        lambda n: b'<img srcset="' + b", ".join(b"i%d.png %dw" % (i, i) for i in range(n)) + b'">',
        25_000,
    ),
    "CSS escaped backslashes": (lambda n: b"<style>" + b"\\\\" * n + b"url(x)", 250_000),
    "CSS unclosed url( of escapes": (lambda n: b"<style>a{b:url(" + b"\\(" * n, 100_000),
    "CSS nested brackets": (lambda n: b"<style>a{b:" + b"(" * n + b"url(x)", 250_000),
    "CSS unclosed comment": (lambda n: b"<style>" + b"/* " * n + b"url(x)", 500_000),
    "CSS unclosed string": (lambda n: b"<style>@import '" + b"\\'" * n, 250_000),
    "CSS escape in a function name": (lambda n: b"<style>u\\72l(x) " + b"(" * n, 100_000),
    "unclosed tags": (lambda n: b'<a href="x" ' + b"<b " * n, 250_000),
    "unclosed comment": (lambda n: b"<!--" + b"<a href=x>" * n, 250_000),
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


def timed(data: bytes, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        extract_links(data, url=URL, on_error=lambda error: None)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'case':32} {'size n':>12} {'t(n) s':>8} {'t(2n)/t(n)':>11} {'t(4n)/t(2n)':>12}")
    for name, (make, size) in CASES.items():
        n = max(1, int(size * args.scale))
        sizes = [len(make(k)) for k in (n,)]
        t1, t2, t4 = (timed(make(k), args.rounds) for k in (n, 2 * n, 4 * n))
        print(f"{name:32} {sizes[0]:>12,} {t1:>8.3f} {t2 / t1:>11.2f} {t4 / t2:>12.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
