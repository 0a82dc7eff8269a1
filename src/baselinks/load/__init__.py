"""load: inputs → documents. Bytes, a path or a stream in; a :class:`~.document.Document`
(decoded text and an lxml tree) out for each document an input holds, with the raw facts its
base is made of (a WARC record's target URI, a MIME part's Content-Location chain).

Open first: document.py

    containers/   what holds documents: WARC/ARC, MIME/MHTML, HTTP messages, gzip; each input
                  → Part (bytes + raw base facts), Skipped, or InputError (resynchronising
                  after damage); never parses HTML, never resolves
    encoding.py   the HTML standard's encoding sniffing (BOM, transport, <meta> prescan)
    tokens.py     hand-written scans libxml2 cannot answer (over-deep tags, a late <body>);
                  ASCII_WHITESPACE, the HTML standard's spaces
    document.py   bytes | path → Document: decoded, parsed (lxml), what libxml2 passed over
    _cdocument.pyx  document.py's search for "</html>", compiled (compiled.py)

Style sheets and SVG images are documents too: find/sheets.py loads them, beside their links.
The name ``baselinks.load`` was a module before 0.2: its names still come from here, with a
DeprecationWarning (``_moved.py``).
"""

from __future__ import annotations

from typing import Any

from .._moved import forward


def __getattr__(name: str) -> Any:
    # the names of the flat layout's module of this name, for one release (_moved.py)
    return forward(__name__, name)
