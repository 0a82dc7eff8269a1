"""The unicode family (issue 36): code points no UTF-8 holds, and noncharacters, through every
reader into every format.

    cases     a document of one reader (HTML attributes, a <style>, a style attribute, a
              style sheet, JSON-LD, a broken JSON-LD block, an SVG, a feed, a sitemap, a text
              sitemap, a robots.txt, a WARC's headers, MHTML's Content-Location), its links
              holding random code points in the forms that reader decodes: a lone surrogate
              (U+D800-U+DFFF) or a noncharacter (U+FDD0..., U+nFFFE, U+nFFFF), or any other,
              as CSS and JSON escapes, HTML and XML character references, or bytes (a
              surrogate's as "WTF-8" writes them)
    findings  a traceback, an "internal error"; a link the library hands out holding a lone
              surrogate (text is made scalar where it enters the pipeline); a format's output
              that is no UTF-8, a JSON Lines line that is no JSON, or a format giving another
              number of records than the library gives links

Before the fix, one ``url(\\D800)`` ended the run in every format with a UnicodeEncodeError.
The child side (:func:`format_problems`) runs in fuzz.py's child, mode "formats".
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

NONCHARACTERS = [
    *range(0xFDD0, 0xFDF0),
    *(plane + end for plane in range(0, 0x110000, 0x10000) for end in (0xFFFE, 0xFFFF)),
]


def _code_point(rng: random.Random) -> int:
    pick = rng.random()
    if pick < 0.45:
        return rng.randrange(0xD800, 0xE000)
    if pick < 0.8:
        return rng.choice(NONCHARACTERS)
    return rng.choice((0, 0x7F, 0x85, 0x2028, 0x202E, 0x10FFFF, rng.randrange(1, 0x110000)))


def _bytes(code: int) -> bytes:
    return chr(code).encode("utf-8", "surrogatepass")


def _css(code: int) -> bytes:
    return b"\\%X " % code


def _json(code: int) -> bytes:
    if 0xD800 <= code < 0xE000:
        return b"\\u%04x" % code
    return json.dumps(chr(code)).strip('"').encode()


def _reference(code: int) -> bytes:
    return b"&#x%X;" % code


@dataclass(frozen=True)
class Case:
    reader: str
    file: str
    data: bytes
    codes: tuple[int, ...]


# each reader: its file name, and a document holding one link per code point
_READERS: dict[str, tuple[str, Callable[[list[int]], bytes]]] = {
    "html attribute": (
        "page.html",
        lambda codes: (
            b'<meta charset="utf-8">'
            + b"".join(
                b'<a href="x%sy">t</a><a href="x%sy">t</a>' % (_reference(c), _bytes(c))
                for c in codes
            )
        ),
    ),
    "style element": (
        "page.html",
        lambda codes: (
            b"<style>"
            + b"".join(b'a{b:url(x%sy)} c{d:url("x%sy")}' % (_css(c), _css(c)) for c in codes)
            + b"</style>"
        ),
    ),
    "style attribute": (
        "page.html",
        lambda codes: b"".join(b"<p style=\"b:image-set('i%s' 1x)\">" % _css(c) for c in codes),
    ),
    "style sheet": ("sheet.css", lambda codes: b"".join(b"a{b:url(x%s)}" % _css(c) for c in codes)),
    "JSON-LD": (
        "page.html",
        lambda codes: (
            b'<script type="application/ld+json">['
            + b",".join(b'{"url": "x%s"}' % _json(c) for c in codes)
            + b"]</script>"
        ),
    ),
    "JSON-LD, broken": (
        "page.html",
        lambda codes: (
            b'<script type="application/ld+json">['
            + b",".join(b'{"url": "x%s",}' % _json(c) for c in codes)
            + b"</script>"
        ),
    ),
    "SVG": (
        "image.svg",
        lambda codes: (
            b'<svg xmlns="http://www.w3.org/2000/svg">'
            + b"".join(b'<a href="x%s"/>' % _bytes(c) for c in codes)
            + b"</svg>"
        ),
    ),
    "feed": (
        "feed.atom",
        lambda codes: (
            b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
            + b"".join(
                b'<link href="x%s"/><content type="html">&lt;a href="x&amp;#x%X;"&gt;</content>'
                % (_bytes(c), c)
                for c in codes
            )
            + b"</entry></feed>"
        ),
    ),
    "sitemap": (
        "sitemap.xml",
        lambda codes: (
            b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            + b"".join(b"<url><loc>http://e.example/%s</loc></url>" % _bytes(c) for c in codes)
            + b"</urlset>"
        ),
    ),
    "text sitemap": (
        "sitemap.txt",
        lambda codes: b"".join(b"http://e.example/%s\n" % _bytes(c) for c in codes),
    ),
    "robots.txt": (
        "robots.txt",
        lambda codes: b"".join(b"Sitemap: /%s\n" % _bytes(c) for c in codes),
    ),
    "MHTML": (
        "page.mht",
        lambda codes: (
            b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
            + b"".join(
                b"--b\r\nContent-Type: text/html\r\nContent-Location: http://m.example/%s/\r\n\r\n"
                b'<a href="x">t</a>\r\n' % _bytes(c)
                for c in codes
            )
            + b"--b--\r\n"
        ),
    ),
}


def cases(rng: random.Random, count: int) -> Iterator[Case]:
    for _ in range(count):
        reader = rng.choice(sorted(_READERS))
        file, make = _READERS[reader]
        codes = [_code_point(rng) for _ in range(rng.randrange(1, 12))]
        yield Case(reader, file, make(codes), tuple(codes))


# --- the child's side: fuzz.py runs this in its child, mode "formats" ------------------------

FORMATS = ("jsonl", "csv", "tsv", "text", "table")


def _records(fmt: str, text: str) -> int | None:
    """How many records a format's output holds (None: the table, for a person)."""
    import csv
    import io

    if fmt == "jsonl":
        return len([json.loads(line) for line in text.splitlines()])
    if fmt == "csv":
        return len(list(csv.reader(io.StringIO(text, newline="")))) - 1
    if fmt == "tsv":
        return len(text.split("\n")) - 2  # the header; the empty string after the last \n
    if fmt == "text":
        return len(text.splitlines())
    return None


def format_problems(path: str) -> list[str]:
    """What is wrong with the links of ``path`` as the library hands them out and as each
    format writes them (see the module docstring); [] when nothing is."""
    import contextlib
    import io
    import os
    import tempfile

    from baselinks import extract_links
    from baselinks.cli import main

    problems: list[str] = []
    links = extract_links(path, url="http://e.example/d/", on_error=lambda error: None)
    for link in links:
        for value in (*link[:-1], *link.origin):
            if isinstance(value, str) and any(0xD800 <= ord(c) < 0xE000 for c in value):
                problems.append(f"a lone surrogate handed out in {value!r}")
    with tempfile.TemporaryDirectory(prefix="baselinks-fuzz-formats-") as folder:
        for fmt in FORMATS:
            out = os.path.join(folder, f"out.{fmt}")
            said = io.StringIO()
            with contextlib.redirect_stderr(said):
                main(
                    [
                        "extract",
                        "-q",
                        path,
                        "--url",
                        "http://e.example/d/",
                        "--format",
                        fmt,
                        "-o",
                        out,
                    ]
                )
            if "Traceback" in said.getvalue() or "internal error" in said.getvalue():
                problems.append(f"{fmt}: {said.getvalue().strip()[-160:]}")
            with open(out, "rb") as written:
                data = written.read()
            try:
                count = _records(fmt, data.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                problems.append(f"{fmt}: {type(exc).__name__}: {exc}")
                continue
            if count is not None and count != len(links):
                problems.append(f"{fmt}: {count} records of {len(links)} links")
    return problems
