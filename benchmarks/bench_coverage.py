"""Coverage at scale: ``baselinks coverage``'s peak memory (and time) as an archive grows, on
crawls this script makes (deterministic, seed 39).

    python benchmarks/bench_coverage.py --records 12500,25000,50000,100000 [--jobs 1]

Each crawl is a site of pages, style sheets, images and redirects, as a crawler writes it:
40% HTML pages (20 to 40 links each: other pages, images, the site's style sheets, a fragment
of another page, now and then a URL never captured, another host, a mailto:), 45% images,
5% style sheets (a font and an image each), 5% redirects, 5% 404s; every response beside its
request record, one gzip member a record. Each size is checked by ``baselinks coverage -o
/dev/null`` in a process of its own, whose peak resident memory (GNU ``/usr/bin/time``'s ``%M``)
and CPU time are printed, with the links checked and the
captures kept. Memory is flat when the peak does not grow with the records: the captures are
on disk (coverage/store.py), the caches of a fixed size.
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SITE = "http://bench.example"


def _record(rec_type: str, uri: str, block: bytes, n: int) -> bytes:
    content = "application/http; msgtype=" + ("request" if rec_type == "request" else "response")
    head = (
        f"WARC/1.1\r\nWARC-Type: {rec_type}\r\nWARC-Record-ID: <urn:uuid:{n:08d}-0000-0000-0000"
        f"-000000000000>\r\nWARC-Date: 2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:"
        f"{n % 60:02d}Z\r\nWARC-Target-URI: {uri}\r\nContent-Type: {content}\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    )
    return gzip.compress(head.encode() + block + b"\r\n\r\n", compresslevel=1, mtime=0)


def _http(status: str, kind: str, body: bytes, extra: str = "") -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{extra}Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def _page(rng: random.Random, n: int, pages: int, images: int, sheets: int) -> bytes:
    links = []
    for _ in range(rng.randint(20, 40)):
        pick = rng.random()
        if pick < 0.45:
            links.append(f'<a href="/p/{rng.randrange(pages)}.html">page</a>')
        elif pick < 0.80:
            links.append(f'<img src="/img/{rng.randrange(images)}.png" alt="">')
        elif pick < 0.85:
            links.append(f'<a href="/p/{rng.randrange(pages)}.html#s{rng.randrange(5)}">part</a>')
        elif pick < 0.92:
            links.append(f'<a href="/never/{rng.randrange(1 << 30)}.html">gone</a>')
        elif pick < 0.96:
            links.append(f'<a href="http://other{rng.randrange(50)}.example/">other</a>')
        else:
            links.append('<a href="mailto:info@bench.example">mail</a>')
    sheet = f'<link rel="stylesheet" href="/css/{n % max(sheets, 1)}.css">'
    body = "".join(f'<p id="s{i}">{i}</p>' for i in range(3)) + "\n".join(links)
    return f"<!DOCTYPE html><html><head>{sheet}</head><body>{body}</body></html>".encode()


def make_crawl(path: Path, records: int, seed: int = 39) -> None:
    """A crawl of ``records`` captures (and as many request records) at ``path``."""
    rng = random.Random(seed)
    pages, images = int(records * 0.40), int(records * 0.45)
    sheets = max(1, int(records * 0.05))
    redirects = int(records * 0.05)
    errors = records - pages - images - sheets - redirects
    n = 0
    with path.open("wb") as out:

        def write(uri: str, block: bytes) -> None:
            nonlocal n
            out.write(_record("request", uri, b"GET / HTTP/1.1\r\n\r\n", n))
            out.write(_record("response", uri, block, n + 1))
            n += 2

        for i in range(pages):
            write(
                f"{SITE}/p/{i}.html",
                _http("200 OK", "text/html", _page(rng, i, pages, images, sheets)),
            )
        for i in range(images):
            write(f"{SITE}/img/{i}.png", _http("200 OK", "image/png", b"\x89PNG\r\n\x1a\n"))
        for i in range(sheets):
            font, image = f"url(/font/{i}.woff2)", f"url(/img/{i}.png)"
            css = f"@font-face {{ src: {font} }} p {{ background: {image} }}"
            write(f"{SITE}/css/{i}.css", _http("200 OK", "text/css", css.encode()))
        for i in range(redirects):
            location = f"Location: /p/{rng.randrange(pages)}.html\r\n"
            write(f"{SITE}/r/{i}", _http("301 Moved", "text/html", b"", location))
        for i in range(errors):
            write(f"{SITE}/e/{i}.html", _http("404 Not Found", "text/html", b"<p>gone</p>"))


def measure(crawl: Path, jobs: int, command: str = "coverage") -> tuple[float, float, str]:
    """Peak RSS (MiB: GNU time's %M, the process's own) and CPU seconds of one ``baselinks
    coverage`` (or ``extract``) run (with -j, the largest process's), and its summary's line."""
    argv = [sys.executable, "-m", "baselinks", command, str(crawl), "-o", "/dev/null"]
    timed = ["/usr/bin/time", "-f", "%M %U %S", *argv, "-j", str(jobs)]
    done = subprocess.run(timed, capture_output=True, text=True, check=True)
    lines = done.stderr.splitlines()
    kib, user, system = lines[-1].split()
    return int(kib) / 1024, float(user) + float(system), lines[1 if command == "coverage" else 0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default="12500,25000,50000,100000", help="captures per crawl")
    parser.add_argument("--jobs", type=int, default=1, help="baselinks coverage -j")
    args = parser.parse_args()
    sizes = [int(size) for size in args.records.split(",")]
    print(
        f"{'records':>9} {'crawl MB':>9} {'peak MiB':>9} {'CPU s':>7} {'extract':>8} {'CPU s':>7}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-coverage-") as scratch:
        for size in sorted(sizes):
            crawl = Path(scratch) / f"crawl-{size}.warc.gz"
            make_crawl(crawl, size)
            peak, cpu, summary = measure(crawl, args.jobs)
            extract_peak, extract_cpu, _ = measure(crawl, args.jobs, "extract")
            mb = crawl.stat().st_size / 1e6
            print(
                f"{size:>9,} {mb:>9.1f} {peak:>9.1f} {cpu:>7.1f} {extract_peak:>8.1f} "
                f"{extract_cpu:>7.1f}  {summary}",
                flush=True,
            )
            crawl.unlink()


if __name__ == "__main__":
    main()
