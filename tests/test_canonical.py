"""The canonical forms of a URL (url/canonical.py, url/surt.py): host, domain, surt, canonical.

Each against its spec's cases, against the libraries it was chosen beside on the corpus's own
URLs (fixtures/canonical/corpus-urls.jsonl: the answers of the `surt` package, w3lib, tldextract
and the standard library, written once by make_table.py so that CI runs no AGPL code), with each
deliberate difference a strict xfail saying why; then as fields of the Link, the writers and
``--unique-by``; and the ``--same-host`` bug the host function fixed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import baselinks
from baselinks.cli import main
from baselinks.url.canonical import REASONS, canonical, domain, host, host_reason
from baselinks.url.surt import surt
from conftest import extra

FIXTURES = Path(__file__).parent.parent / "fixtures"

# The host: what a browser contacts (the URL Standard's host parser, UTS #46 non-transitional),
# with the DNS rules the URL Standard leaves out. (url, host or None, kind or reason)
HOSTS = [
    ("http://www.example.com/", "www.example.com", "domain"),
    ("http://WWW.Example.COM./a", "www.example.com", "domain"),  # one trailing dot: RFC 1034
    ("http://bücher.example/", "xn--bcher-kva.example", "domain"),
    ("http://faß.de/", "xn--fa-hia.de", "domain"),  # IDNA 2003 (the stdlib codec): fass.de
    ("http://example\uff0ecom/", "example.com", "domain"),  # a full-width dot maps to "."
    ("http://☃.net/", "xn--n3h.net", "domain"),  # the idna package refuses it; browsers not
    ("http://my_host.example.com/", "my_host.example.com", "domain"),  # real: qualtrics.com
    ("http://xn--a.example/", None, "invalid-idna"),  # ada 4.0 lets it through
    ("http://" + "a" * 64 + ".com/", None, "label-too-long"),
    ("http://" + "a." * 300 + "com/", None, "host-too-long"),
    ("http://" + "abcdefghi." * 26 + "com/", None, "host-too-long"),  # 263 characters
    ("http://a..example.com/", None, "empty-label"),
    ("http://.example.com/", None, "empty-label"),
    ("http://example.com../", None, "empty-label"),
    ("http://127.0.0.1/", "127.0.0.1", "ipv4"),
    ("http://0x7f.1/", "127.0.0.1", "ipv4"),  # the URL Standard's IPv4 forms
    ("http://2130706433/", "127.0.0.1", "ipv4"),
    ("http://0177.0.0.1/", "127.0.0.1", "ipv4"),
    ("http://999.1.1.1/", None, "invalid-host"),
    ("http://foo.09/", None, "invalid-host"),  # ends in a number that is no IPv4 part
    ("http://[2001:DB8:0:0::1]:8080/", "[2001:db8::1]", "ipv6"),
    ("http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]", "ipv6"),
    ("http://[::1/", None, "invalid-host"),
    ("http://ex%61mple.com/", "example.com", "domain"),
    ("http://b%C3%BCcher.example/", "xn--bcher-kva.example", "domain"),
    ("http://ex%zzample.com/", None, "invalid-host"),
    ("http://exa mple.com/", None, "invalid-host"),
    ("http://exa<mple.com/", None, "invalid-host"),
    ("http://a\\b.com/", "a", "domain"),  # a browser reads "\" as "/" in an http URL
    ("http://a\u05d0.example/", None, "invalid-host"),  # UTS #46's bidi rule
    ("http://user:pw@Example.com:8080/", "example.com", "domain"),
    ("http://evil.com\\@good.com/", "evil.com", "domain"),  # where a browser goes (w3lib's case)
    ("http://h.com?q", "h.com", "domain"),  # RFC 3986 §3.2: the authority ends at "?"
    ("http://h.com#f", "h.com", "domain"),
    ("http://h.com:99999/", None, "invalid-port"),
    ("http://h.com:x/", None, "invalid-port"),
    ("foo://Bücher.example/", "xn--bcher-kva.example", "domain"),
    ("ios-app://305343404/app", "305343404", "domain"),  # no IPv4 reading but for http(s)...
    ("mailto:a@example.com", None, "no-host"),
    ("file:///etc/hosts", None, "no-host"),
    ("/relative/page.html", None, "relative"),
    ("//cdn.example.com/x.js", None, "relative"),  # left relative: no scheme, no base
]


@pytest.mark.parametrize(("url", "expected", "kind"), HOSTS)
def test_host(url: str, expected: str | None, kind: str) -> None:
    assert host_reason(url) == (expected, kind)
    assert host(url) == expected
    assert expected is not None or kind in REASONS


DOMAINS = [
    ("https://www.bbc.co.uk/news", "bbc.co.uk", False),
    ("http://co.uk/", None, False),  # a public suffix itself
    ("http://com/", None, False),
    ("http://a.b.example.com/", "example.com", False),
    ("http://foo.bar.notatld/", None, False),  # under no listed suffix (accept_unknown=False)
    ("http://a.blogspot.com/", "blogspot.com", False),  # the ICANN section, as Common Crawl
    ("http://a.blogspot.com/", "a.blogspot.com", True),  # the private section too
    ("http://127.0.0.1/", None, False),  # the list's "*" rule would give 0.1
    ("http://[::1]/", None, False),
    ("http://EXAMPLE.COM/", "example.com", False),  # tldextract keeps the case
    ("http://bücher.de/", "xn--bcher-kva.de", False),
    ("mailto:a@example.com", None, False),
]


@pytest.mark.parametrize(("url", "expected", "private"), DOMAINS)
def test_domain(url: str, expected: str | None, private: bool) -> None:
    assert domain(url, private) == expected


# The `surt` package's published cases (its tests/test_surt.py, from webarchive-commons'
# WaybackURLKeyMakerTest), verbatim; then the deliberate differences.
SURT_PACKAGE_CASES = {
    "http://www.archive.org/": "org,archive)/",
    "http://archive.org/": "org,archive)/",
    "http://archive.org/goo/": "org,archive)/goo",
    "http://archive.org/goo/?": "org,archive)/goo",
    "http://archive.org/goo/?b&a": "org,archive)/goo?a&b",
    "http://archive.org/goo/?a=2&b&a=1": "org,archive)/goo?a=1&a=2&b",
    "http://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221": "org,archive)/index.php?action=profile;u=4221",
    "whois://whois.isoc.org.il/shaveh.co.il": "il,org,isoc,whois)/shaveh.co.il",
    "http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2": "com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2",
    "mailto:foo@example.com": "mailto:foo@example.com",
    "http://www.example.com/": "com,example)/",
    "http://host/%25%32%35": "host)/%25",
    "http://www.GOOgle.com/": "com,google)/",
    "http://www.google.com.../": "com,google)/",
    "http://www.google.com/blah/..": "com,google)/",
    "http://3279880203/blah": "11,0,127,195)/blah",
    "http://www.archive.org:80/": "org,archive)/",
    "https://www.archive.org:80/": "org,archive:80)/",
    "http://www.archive.org/big/": "org,archive)/big",
    "http://www34.archive.org/index.html?b=a&b=b&a=b": "org,archive)/index.html?a=b&b=a&b=b",
}


@pytest.mark.parametrize(("url", "expected"), sorted(SURT_PACKAGE_CASES.items()))
def test_surt_of_the_packages_published_cases(url: str, expected: str) -> None:
    assert surt(url) == expected


SURTS = [
    ("http://www.example.com:8080/x", "com,example:8080)/x"),
    ("https://www.example.com:443/x", "com,example)/x"),
    ("http://Example.COM/A/B?Z=1&a=2", "com,example)/a/b?a=2&z=1"),
    ("http://example.com/?b=2&a=1&a=0", "com,example)/?a=0&a=1&b=2"),
    ("http://www.com/", "com)/"),
    ("http://www.example.com./a", "com,example)/a"),
    ("http://faß.de/", "de,xn--fa-hia)/"),  # the package: de,fass)/ (IDNA 2003)
    ("http://0x7f.1/", "1,0,0,127)/"),  # the package: 1,0x7f)/
    ("http://999.1.1.1/", None),  # the package: 1,1,1,999)/, after a DNS query for it
    ("http://[2001:db8::1]:8080/", "[2001:db8::1]:8080)/"),  # the package: 2001:db8::1:8080)/
    ("http://h.com:{x}/", None),  # the package raises ValueError
    ("/relative/path.html", None),  # the package: relative)/path.html
    ("page.html?x=1", None),  # the package: html,page)/?x=1
    ("data:text/plain;base64,SGVsbG8=", "data:text/plain;base64,sgvsbg8="),
    ("urn:ISBN:123", "urn:isbn:123"),
    ("http://example.com/a/(0123456789abcdefghijklmn)/page.aspx", "com,example)/a/page.aspx"),
    ("http://example.com/?jsessionid=0123456789abcdef0123456789abcdef&y=1", "com,example)/?y=1"),
    ("http://example.com/%2525252525252525252525252525252525", "com,example)/%2525"),
]


@pytest.mark.parametrize(("url", "expected"), SURTS)
def test_surt(url: str, expected: str | None) -> None:
    assert surt(url) == expected


CANONICALS = [
    ("http://WWW.Archive.org/A/B.html?b=2&a=1#x", "http://www.archive.org/A/B.html?a=1&b=2"),
    ("http://user:pw@www1.example.com:80/a/./b/../c?", "http://user:pw@www1.example.com/a/c"),
    ("http://example.com/%7euser/a%2fb?q=a b&r=%41", "http://example.com/~user/a%2Fb?q=a+b&r=A"),
    ("https://bücher.example:443/", "https://xn--bcher-kva.example/"),  # w3lib keeps :443
    ("http://faß.de/", "http://xn--fa-hia.de/"),  # w3lib: http://fass.de/ (IDNA 2003)
    ("http://example.com/?b=&a", "http://example.com/?a=&b="),
    ("http://[2001:DB8:0::1]:80/", "http://[2001:db8::1]/"),
    ("http://a.com/p;params?x", "http://a.com/p;params?x="),
    ("http://example.com?a=1", "http://example.com/?a=1"),
    ("http://0x7f.1/", "http://127.0.0.1/"),  # w3lib: http://0x7f.1/
    ("http://example.com:8080/", "http://example.com:8080/"),
    ("mailto:A@B.com", "mailto:A@B.com"),  # no authority: w3lib's form
    ("page.html?b=1&a=2", None),  # w3lib: page.html?a=2&b=1 (a relative reference)
    ("http:///path", "http:///path"),  # an empty host: no authority to rewrite, w3lib's
    ("http://exa mple.com/", None),
]


@pytest.mark.parametrize(("url", "expected"), CANONICALS)
def test_canonical(url: str, expected: str | None) -> None:
    assert canonical(url) == expected


# The corpus's URLs and the libraries' answers. Where ours differs on purpose, the row is a
# strict xfail with the reason (never dropped): (url, field) -> why.
DELIBERATE = {
    ("http://0x425c45de/", "surt"): "a hex IPv4 read as the URL Standard reads it",
    ("http://66.92.0x45.221/", "surt"): "a hex IPv4 part read as the URL Standard reads it",
    (
        "http://[http://www.theguardian.com/film/filmblog/2013/may/09/raging-bull-reel-history-martin-scorsese-robert-de-niro]",
        "surt",
    ): "an invalid IPv6 host: no key, not a key of garbage",
    (
        "https://%3C?php%20echo%20SSO_PREFIX;?%3Eseattletimes.com/accountcenter/",
        "surt",
    ): "an invalid host (<): no key",
}
_IPV4_FORMS = "an IPv4 in another form (decimal, hex), written dotted as browsers do"


def _deliberate(row: dict[str, Any], field: str, ours: Any) -> str | None:
    """Why ``ours`` differs from the library's answer in ``row``, where it does on purpose."""
    url, theirs = row["url"], row[field]
    if (url, field) in DELIBERATE:
        return DELIBERATE[(url, field)]
    if isinstance(theirs, str) and theirs.startswith("!"):
        return f"the library raised {theirs[1:]}; ours is {ours!r}"
    kind = host_reason(url)[1]
    if field in ("stdlib_host", "w3lib") and kind == "ipv4":
        return _IPV4_FORMS
    if field == "w3lib" and ":80/" in url:
        return "the scheme's default port dropped (RFC 3986 §6.2.3); w3lib keeps it"
    if kind == "domain" and "%" in url.split("/")[2]:
        return "a %-encoded host decoded (the URL Standard's host parser)"
    if field == "tldextract" and kind == "domain" and "%" in url.split("/")[2]:
        return "a %-encoded host decoded"
    if kind == "invalid-host":
        return "an invalid host: none, where the library makes one of garbage"
    return None


def _corpus_rows() -> list[Any]:
    rows = []
    path = FIXTURES / "canonical" / "corpus-urls.jsonl"
    ours = {"surt": surt, "w3lib": canonical, "tldextract": domain, "stdlib_host": host}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for field, function in ours.items():
            value = function(row["url"])
            why = _deliberate(row, field, value) if value != row[field] else None
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            rows.append(pytest.param(row["url"], field, value, row[field], marks=marks))
    return rows


@pytest.mark.parametrize(("url", "field", "ours", "theirs"), _corpus_rows())
def test_agrees_with_the_libraries_on_the_corpus(
    url: str, field: str, ours: Any, theirs: Any
) -> None:
    assert ours == theirs


def test_the_corpus_table_is_not_empty_and_mostly_agrees() -> None:
    rows = _corpus_rows()
    differ = [row for row in rows if row.marks]
    assert len(rows) > 1500 and len(differ) < 40


def test_link_gives_them_as_fields_computed_when_read() -> None:
    page = (
        b'<a href="http://WWW.Example.co.uk:80/A/./b?z=1&a=2#top">x</a><a href="mailto:x@y.z">m</a>'
    )
    web, mail = baselinks.extract_links(page, url="http://example.com/")
    assert (web.host, web.domain, web.surt, web.canonical) == (
        "www.example.co.uk",
        "example.co.uk",
        "uk,co,example)/a/b?a=2&z=1",
        "http://www.example.co.uk/A/b?a=2&z=1",
    )
    assert (mail.host, mail.domain, mail.surt) == (None, None, "mailto:x@y.z")
    assert mail.canonical == "mailto:x@y.z"
    assert "host" not in baselinks.FIELDS  # not stored, not written by default


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().out


WARC = str(FIXTURES / "containers" / "crawl.warc.gz")


@pytest.mark.parametrize("form", ["jsonl", "tsv", "csv"])
def test_fields_write_them(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(
        ["extract", WARC, "--kind", "link", "-q", "--format", form, "--fields", "url,host,surt"],
        capsys,
    )
    assert status == 0
    assert "com,example)/next" in out and "example.com" in out
    if form == "jsonl":
        record = json.loads(out.splitlines()[0])
        assert list(record) == ["url", "host", "surt"]


def test_without_them_nothing_is_computed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from baselinks.url import canonical as module

    def refuse(url: str) -> None:
        raise AssertionError("computed when not asked for")

    monkeypatch.setattr(module, "host_reason", refuse)
    monkeypatch.setattr(module, "canonical", refuse)
    status, out = _run(["extract", WARC, "-q", "--format", "jsonl"], capsys)
    assert status == 0 and out.count("\n") == 10


def test_parquet_types_them(tmp_path: Path) -> None:
    pq = extra("parquet")
    out = tmp_path / "links.parquet"
    assert (
        main(
            [
                "extract",
                WARC,
                "-q",
                "--format",
                "parquet",
                "--fields",
                "url,domain,canonical",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    table = pq.read_table(out)
    assert [str(field.type) for field in table.schema] == ["string", "string", "string"]
    assert table.schema.field("domain").nullable
    assert "example.com" in table.column("domain").to_pylist()


def test_unique_by_host(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(
        [
            "extract",
            WARC,
            "-q",
            "--format",
            "tsv",
            "--fields",
            "host",
            "--unique=run",
            "--unique-by",
            "host",
        ],
        capsys,
    )
    assert status == 0
    # the Content-Location link's host first (the header's links come before the body's); the
    # file: link has no host
    assert out.splitlines() == ["host", "ignored.example", "example.com", ""]


def test_unique_by_canonical_in_the_library() -> None:
    page = b'<a href="/a?x=1&y=2">1</a><a href="/a?y=2&x=1#f">2</a><a href="/b">3</a>'
    links = baselinks.extract_links(page, url="http://h.com/", unique=True, unique_by="canonical")
    assert [link.text for link in links] == ["1", "3"]
    with pytest.raises(ValueError, match="unknown unique_by 'raw'"):
        baselinks.extract_links(page, unique=True, unique_by="raw")


def test_same_host_reads_the_host_as_rfc_3986_ends_it() -> None:
    # the bug: parse("http://h.com?q").hostname is "h.com?q" (RFC 1808 §2.4.3's net_loc), so
    # the link counted as external to its own host
    page = b'<a href="http://h.com?q">1</a><a href="http://H.COM./p">2</a><a href="http://o.com/">3</a>'
    same = baselinks.extract_links(page, url="http://h.com/", same_host=True)
    external = baselinks.extract_links(page, url="http://h.com/", external=True)
    assert [link.text for link in same] == ["1", "2"]
    assert [link.text for link in external] == ["3"]
