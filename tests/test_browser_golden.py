"""A browser's answers, kept: headless Chromium's resolved URLs for the fixture pages against
baselinks' whatwg mode, without a browser.

``fixtures/browser/<page>.json`` holds, for each page of ``fixtures/html`` and
``fixtures/browser/pages``, each SVG document of ``fixtures/svg`` and each style sheet of
``fixtures/css`` (its CSSOM's URLs, resolved by ``new URL()``), what Chromium's DOM said (its IDL attributes: ``a.href``,
``img.src``, ``form.action`` ...; ``new URL()`` for SVG), written by
``benchmarks/browser_oracle.py``, which also says how. Regenerate after a fixture changes:

    python benchmarks/browser_oracle.py fixtures/html fixtures/browser/pages fixtures/svg \\
        fixtures/css --golden fixtures/browser

Every URL the browser resolved must be baselinks' too, and baselinks must give no link of those
attributes that the browser's DOM lacks; each known difference is a strict xfail whose reason
is its class in docs/reference.md ("Against a browser"). Both parsers are checked: lxml's has the
classes of LXML_KNOWN besides (docs/guide/parsers.md), the HTML5 parser none.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

from baselinks import Link, extract_links
from conftest import FIXTURES, PARSERS

ROOT = FIXTURES.parent
GOLDEN = FIXTURES / "browser"
RECORDS: dict[str, dict[str, Any]] = {
    path.stem: json.loads(path.read_text(encoding="utf-8"))
    for path in sorted(GOLDEN.glob("*.json"))
}
Key = tuple[str, str, str]  # tag, attr, value as written
MEDIA_TYPES = {".html": "text/html", ".svg": "image/svg+xml", ".css": "text/css"}

_REASONS = {
    "encoding": "Chromium decodes this small undeclared non-ASCII page as windows-1252; "
    "baselinks takes valid UTF-8 as UTF-8 (docs/reference.md, Decoding)",
    "frame-outside-frameset": "HTML's parser ignores a <frame> outside <frameset>; "
    "libxml2 keeps it",
    "svg-base": "a <base> inside <svg> is no SVG element and its href no link; the oracle's "
    "new URL() reads every foreign href",
    "codebase": "baselinks resolves object data against codebase (HTML 4 §13.3); HTML and "
    "browsers dropped codebase",
    "template-inert": "template contents live in an inert document with no URL: Chromium "
    "resolves against about:blank or not at all; baselinks against the page's base, and "
    "marks the link inert-template",
    "quote-in-query": "Chromium escapes ' in every query; the URL Standard only in the "
    "queries of special schemes",
    "data-newline": "Chromium keeps a data: URL's newline as %0A; the URL Standard removes "
    "tabs and newlines",
    "file-drive-letter": "Chromium on Linux writes file:///C| as C%7C; the URL Standard makes "
    "a Windows drive letter C:",
    "noscript": "the browser runs with scripting enabled: <noscript> content is text, no "
    "element; baselinks reports its links, marked in-noscript",
    "formaction-spaces": "Chromium's formAction getter gives the base for formaction=' ', "
    "but its form submission strips the spaces and goes to the document's URL, as baselinks",
    "raw-text-self-closing": "HTML's parser ignores the / of <title/>, <iframe/>, <script/>: "
    "what follows is their text; libxml2 closes them",
    "nested-form": "HTML's parser makes no element of a <form> inside a form; libxml2 does",
    "adoption-agency": "HTML's parser clones an <a> that a <p> or an end tag cuts across; "
    "libxml2 makes one element",
}
# (page, tag, attr, value as written) -> class of difference; the classes of
# benchmarks/browser_oracle.py, each explained in docs/reference.md
KNOWN: dict[tuple[str, str, str, str], str] = {
    ("utf8-undeclared", "a", "href", "cafÃ©.html"): "encoding",
    ("utf8-undeclared", "a", "href", "/\u00e2\u201a\u00ac/"): "encoding",  # "/€/" as windows-1252
    ("utf8-undeclared", "a", "href", "café.html"): "encoding",
    ("utf8-undeclared", "a", "href", "/€/"): "encoding",
    ("base-in-template-svg", "base", "href", "http://svg.example/"): "svg-base",
    ("sources-object", "object", "data", "widget.dat"): "codebase",
    ("browser-quirks", "use", "href", "#icon"): "template-inert",
    ("browser-quirks", "a", "href", "in-template.html"): "template-inert",
    ("browser-quirks", "a", "href", "mailto:?subject=It's%20here"): "quote-in-query",
    ("browser-quirks", "image", "xlink:href", "data:image/png;base64,iVBO\n   Rw0K"): "data-newline",
    ("browser-quirks", "img", "src", "file:///C|/Documents/a.png"): "file-drive-letter",
    ("browser-quirks", "img", "src", "noscript.png"): "noscript",
    ("template-noscript", "a", "href", "template-link.html"): "template-inert",
    ("template-noscript", "link", "href", "noscript.css"): "noscript",
    ("template-noscript", "img", "src", "pixel.gif"): "noscript",
    ("template-noscript", "iframe", "src", "https://www.googletagmanager.com/ns.html?id=GTM-X"): "noscript",
    ("template-noscript", "a", "href", "both.html"): "noscript",  # <noscript> in <template>
    ("form-action-document-url", "button", "formaction", " "): "formaction-spaces",
}  # fmt: skip
# lxml's parser only: where libxml2's tree is not the HTML standard's (the HTML5 parser's is)
LXML_KNOWN: dict[tuple[str, str, str, str], str] = {
    ("sources-embedded", "frame", "src", "f.html"): "frame-outside-frameset",
    ("sources-embedded", "frame", "longdesc", "f-desc.html"): "frame-outside-frameset",
    ("parser-raw-text-self-closing", "a", "href", "in-title.html"): "raw-text-self-closing",
    ("parser-raw-text-self-closing", "a", "href", "in-iframe.html"): "raw-text-self-closing",
    ("parser-raw-text-self-closing", "a", "href", "in-script.html"): "raw-text-self-closing",
    ("parser-nested-forms", "form", "action", "inner.cgi"): "nested-form",
    ("parser-adoption-agency", "a", "href", "split.html"): "adoption-agency",
    ("parser-adoption-agency", "a", "href", "crossed.html"): "adoption-agency",
}  # fmt: skip


def _known(parser: str) -> dict[tuple[str, str, str, str], str]:
    return {**KNOWN, **LXML_KNOWN} if parser == "lxml" else KNOWN


# The classes baselinks marks with a problem code of its own: a user filters them out by it.
MARKS = {"template-inert": "inert-template", "noscript": "in-noscript"}


@cache
def _links(case: str, parser: str) -> dict[Key, list[Link]]:
    """baselinks' links of the page, by (tag, attr, value), in the browser's (tag, attr)
    terms."""
    record = RECORDS[case]
    links = extract_links(
        (ROOT / record["page"]).read_bytes(),
        url=record["url"],
        mode="whatwg",
        headers={"Content-Type": MEDIA_TYPES[Path(record["page"]).suffix]},  # as served
        on_error=lambda error: None,  # broken.svg: its damage is tests/test_documents.py's
        parser=parser,
    )
    found: dict[Key, list[Link]] = defaultdict(list)
    for link in links:
        # HTML's parser makes <image src> an <img>; libxml2 keeps its name
        tag = "img" if (link.tag, link.attr) == ("image", "src") else link.tag
        # the CSSOM writes an image-set() string as url()
        attr = "url()" if (tag, link.attr) == ("css", "image-set()") else link.attr
        found[(tag, attr, link.raw)].append(link)
    return found


def _ours(case: str, parser: str) -> tuple[dict[Key, list[str]], str]:
    """baselinks' URLs of the page, by (tag, attr, value); and the page's base: the most
    common, but an object's codebase and the document URL of an action without a URL."""
    links = _links(case, parser)
    found = {key: [link.url for link in found] for key, found in links.items()}
    bases = Counter(
        link.base
        for link in chain.from_iterable(links.values())
        if link.tag not in ("object", "applet")
        and (link.kind != "form" or link.raw.strip("\t\n\f\r "))
    )
    return found, bases.most_common(1)[0][0] if bases else ""


def _browser(case: str) -> dict[Key, list[str]]:
    found: dict[Key, list[str]] = defaultdict(list)
    for tag, attr, raw, url, _how in RECORDS[case]["links"]:
        found[(tag, attr, raw)].append(url)
    return found


def _param(case: str, key: Key, parser: Any) -> Any:
    known = _known(parser.values[0]).get((case, *key))
    marks = [pytest.mark.xfail(strict=True, reason=f"{known}: {_REASONS[known]}")] if known else []
    name = f"{parser.values[0]}:{case}:{key[0]}[{key[1]}]={key[2][:40]}"
    return pytest.param(case, key, parser.values[0], marks=[*parser.marks, *marks], id=name)


def _browser_params() -> list[Any]:
    return [
        _param(case, key, parser)
        for parser in PARSERS
        for case in RECORDS
        for key in _browser(case)
    ]


def _extra_params() -> list[Any]:
    """The (page, key) pairs baselinks gives in an attribute the browser reflects, but the
    browser's DOM has none of (computed from the committed files and the fixtures)."""
    params = []
    for parser in PARSERS:
        if parser.marks:  # skipped: the HTML5 parser is not there to ask
            continue
        for case, record in RECORDS.items():
            # the attributes the browser reflects, and those it answered for (SVG, CSS)
            reflected = {tuple(pair) for pair in record["reflected"]}
            reflected |= {(tag, attr) for tag, attr, *_ in record["links"]}
            browser = _browser(case)
            for key in _ours(case, parser.values[0])[0]:
                if key[:2] in reflected and key not in browser:
                    params.append(_param(case, key, parser))
    return params


def test_every_fixture_page_has_the_browsers_answer() -> None:
    pages = {p.stem for p in (FIXTURES / "html").glob("*.html")}
    pages |= {p.stem for p in (GOLDEN / "pages").glob("*.html")}
    pages |= {p.stem for p in (FIXTURES / "svg").glob("*.svg")}
    pages |= {p.stem for p in (FIXTURES / "css").glob("*.css")}
    assert pages == set(RECORDS)
    assert all(record["chromium"].startswith("Chrome/") for record in RECORDS.values())


@pytest.mark.parametrize(("case", "key", "parser"), _browser_params())
def test_what_the_browser_resolved_baselinks_resolves_alike(
    case: str, key: Key, parser: str
) -> None:
    assert sorted(_ours(case, parser)[0].get(key, [])) == sorted(_browser(case)[key])


@pytest.mark.parametrize(("case", "key", "parser"), _extra_params())
def test_baselinks_finds_nothing_the_browsers_dom_lacks(case: str, key: Key, parser: str) -> None:
    assert _ours(case, parser)[0][key] == []


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("case", sorted(RECORDS))
def test_the_base_is_the_browsers_base_uri(case: str, parser: str) -> None:
    assert _ours(case, parser)[1] == RECORDS[case]["base"]


@pytest.mark.parametrize("parser", PARSERS)
def test_every_known_difference_is_met(parser: str) -> None:
    # a row of KNOWN that no parameter uses would be a stale excuse
    used = {(case, *key) for case in RECORDS for key in _browser(case)}
    used |= {(case, *key) for case in RECORDS for key in _ours(case, parser)[0]}
    assert set(_known(parser)) <= used


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize(
    "row", [row for row, known in KNOWN.items() if known in MARKS], ids=lambda row: str(row)
)
def test_a_placement_difference_is_a_link_baselinks_marks(
    row: tuple[str, str, str, str], parser: str
) -> None:
    # the browser never sees it (noscript) or sees it in an inert document (template): the
    # link carries the code that says so
    case, tag, attr, raw = row
    found = _links(case, parser)[(tag, attr, raw)]
    assert all(MARKS[KNOWN[row]] in link.problems for link in found)


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("case", sorted(RECORDS))
def test_no_link_the_browser_reads_is_marked_in_noscript(case: str, parser: str) -> None:
    # with scripting enabled, <noscript> holds no element: a link baselinks marks in-noscript
    # must be one the browser's DOM lacks
    browser = _browser(case)
    marked = [
        key
        for key, links in _links(case, parser).items()
        if any("in-noscript" in link.problems for link in links)
    ]
    assert [
        key
        for key in marked
        if key in browser and len(browser[key]) >= len(_links(case, parser)[key])
    ] == []
