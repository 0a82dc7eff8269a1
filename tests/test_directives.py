"""Issue 37 item 4: kinds that mean what they say, and the fields nofollow, hreflang,
page_host, page_domain (find/directives.py, find/linktable.py, resolve/link.py).

The HTML cases are golden files too (fixtures/html/rel-nofollow-hreflang.html,
robots-meta-nofollow.html, under both parsers); here the rules one by one, the headers, and
every path a field takes to the output.
"""

from __future__ import annotations

import json

import pytest

from baselinks import extract_links
from baselinks.cli import main
from baselinks.find.directives import header_nofollow, says_nofollow
from baselinks.find.linktable import rel_kind
from conftest import FIXTURES


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("nofollow", True),
        ("noindex, nofollow", True),
        ("NOINDEX,NOFOLLOW", True),
        (" none ", True),  # "Equivalent to noindex, nofollow"
        ("noindex", False),
        ("index, follow", False),
        ("nofollowing", False),  # a directive is a whole token
        ("max-snippet:-1, nofollow", True),
        ("", False),
    ],
)
def test_robots_directives(content: str, expected: bool) -> None:
    assert says_nofollow(content) is expected


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([("X-Robots-Tag", "noindex, nofollow")], True),
        ([("x-robots-tag", "none")], True),
        ([("X-Robots-Tag", "noindex")], False),
        # a crawler's own: Google's "X-Robots-Tag: googlebot: nofollow"
        ([("X-Robots-Tag", "googlebot: nofollow")], False),
        ([("X-Robots-Tag", "googlebot: noindex"), ("X-Robots-Tag", "nofollow")], True),
        # a directive with a value is no user agent
        ([("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST, nofollow")], True),
        ([("Link", "<a>; rel=nofollow")], False),
        ([], False),
        (None, False),
    ],
)
def test_x_robots_tag(headers: list[tuple[str, str]] | None, expected: bool) -> None:
    assert header_nofollow(headers) is expected


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("dns-prefetch", "other"),
        ("preconnect", "other"),
        ("preconnect dns-prefetch", "other"),
        ("preload", "resource"),
        ("modulepreload", "resource"),
        ("prefetch", "resource"),
        ("preconnect stylesheet", "resource"),  # loaded: what matters to a replay
        ("alternate", "link"),
        ("", "link"),
    ],
)
def test_resource_hints_are_not_links(rel: str, kind: str) -> None:
    assert rel_kind(rel) == kind


def _response(headers: str, body: str) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{headers}\r\n"
    return (head + body).encode()


def test_x_robots_tag_marks_every_link_of_the_response_its_header_links_too() -> None:
    data = _response(
        "X-Robots-Tag: nofollow\r\nLink: </style.css>; rel=preload; hreflang=en, "
        "<https://cdn.example>; rel=preconnect\r\n",
        '<a href="/a">a</a>',
    )
    links = extract_links(data, url="http://example.com/p")
    assert [(link.url, link.kind, link.nofollow, link.hreflang) for link in links] == [
        ("http://example.com/style.css", "resource", True, "en"),
        ("https://cdn.example", "other", True, ""),  # RFC 1808 adds no "/"
        ("http://example.com/a", "link", True, ""),
    ]
    # the same response without the header: only rel says nofollow
    plain = extract_links(_response("", '<a href="/a" rel=nofollow>a</a><a href=b>b</a>'))
    assert [link.nofollow for link in plain] == [True, False]


def test_json_ld_ids_are_other() -> None:
    page = b"""<script type="application/ld+json">{"@id": "https://s.example/#org",
        "url": "https://s.example/", "logo": "/logo.png"}</script>"""
    links = extract_links(page, url="https://s.example/")
    assert [(link.attr, link.kind) for link in links] == [
        ("@id", "other"),
        ("url", "link"),
        ("logo", "resource"),
    ]


def test_page_host_and_domain_are_computed_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = FIXTURES / "html" / "base-late.html"
    url = "http://WWW.Example.co.uk:80/dir/page.html"
    fields = "url,host,page_url,page_host,page_domain,nofollow,hreflang"
    assert main(["extract", str(page), "--url", url, "--fields", fields, "-q"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records and all(list(record) == fields.split(",") for record in records)
    assert {(r["page_host"], r["page_domain"]) for r in records} == {
        ("www.example.co.uk", "example.co.uk")
    }
    assert all(r["nofollow"] is False and r["hreflang"] == "" for r in records)
    # not among what JSON Lines writes unless named
    assert main(["extract", str(page), "--url", url, "-q"]) == 0
    assert "page_host" not in capsys.readouterr().out
    # a page whose URL is not known has none
    link = extract_links(b'<a href="/x">x</a>')[0]
    assert link.page_url is None and link.page_host is None and link.page_domain is None


def test_csv_and_tsv_write_a_bool_as_json_does(capsys: pytest.CaptureFixture[str]) -> None:
    page = FIXTURES / "html" / "rel-nofollow-hreflang.html"
    for name in ("tsv", "csv"):
        args = ["extract", str(page), "--url", "http://e.example/", "--format", name, "-q"]
        assert main([*args, "--fields", "nofollow,hreflang"]) == 0
        rows = capsys.readouterr().out.splitlines()
        assert rows[0] == ("nofollow\threflang" if name == "tsv" else "nofollow,hreflang")
        assert {row.split("\t" if name == "tsv" else ",")[0] for row in rows[1:]} == {
            "true",
            "false",
        }


def test_unique_by_takes_no_page_field(capsys: pytest.CaptureFixture[str]) -> None:
    page = FIXTURES / "html" / "base-late.html"
    assert main(["extract", str(page), "--unique-by", "page_host"]) == 2
    assert "page_host" in capsys.readouterr().err
