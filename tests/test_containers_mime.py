"""Containers: MHTML/MIME (containers/mime.py), the RFC 1808 §3.2 base of each part, layer by
layer, and damage in one part never stopping the others."""

from __future__ import annotations

import pytest

from baselinks import InputError, extract_links, iter_links
from baselinks.base.layers import Base, BaseSource, encapsulating_base
from baselinks.load.containers.mimeheaders import base_header


def _mime(html: str, *, outer: str = "", part: str = "") -> bytes:
    return (
        "MIME-Version: 1.0\r\n"
        f"{outer}"
        'Content-Type: multipart/related; boundary="b"\r\n\r\n'
        "--b\r\n"
        "Content-Type: text/html\r\n"
        f"{part}\r\n"
        f"{html}\r\n"
        "--b--\r\n"
    ).encode()


@pytest.mark.parametrize(
    ("html", "outer", "part", "url", "expected", "source"),
    [
        # §3.4: nothing anywhere
        ("<a href=x>", "", "", None, ("x", ""), "default"),
        # §3.3: the retrieval URL
        ("<a href=x>", "", "", "http://r.example/d/m", ("http://r.example/d/x",) * 1, "retrieval"),
        # §3.2 over §3.3: the part's Content-Location
        (
            "<a href=x>",
            "",
            "Content-Location: http://p.example/q/page\r\n",
            "http://r.example/",
            ("http://p.example/q/x",),
            "encapsulating",
        ),
        # §3.2 recursively: a relative part location against the multipart's
        (
            "<a href=x>",
            "Content-Location: http://o.example/dir/\r\n",
            "Content-Location: sub/page\r\n",
            None,
            ("http://o.example/dir/sub/x",),
            "encapsulating",
        ),
        # a relative location with nothing absolute around it: §3.3 stands
        (
            "<a href=x>",
            "",
            "Content-Location: sub/page\r\n",
            "http://r.example/",
            ("http://r.example/sub/x",),
            "encapsulating",
        ),
        # §3.1 over everything: the document's <base>, relative to the part's location
        (
            "<base href=../b/><a href=x>",
            "",
            "Content-Location: http://p.example/q/page\r\n",
            "http://r.example/",
            ("http://p.example/b/x",),
            "content",
        ),
        # the legacy headers: Content-Base first, then Base:, then Content-Location
        (
            "<a href=x>",
            "",
            "Content-Location: http://l.example/\r\nContent-Base: http://c.example/cb/\r\n",
            None,
            ("http://c.example/cb/x",),
            "encapsulating",
        ),
        (
            "<a href=x>",
            "",
            "Content-Location: http://l.example/\r\nBase: <URL:http://b.example/ b/>\r\n",
            None,
            ("http://b.example/b/x",),
            "encapsulating",
        ),
        # cid: and mid: are absolute: they stay as they are
        ("<img src=cid:logo@x><a href=mid:m@x>", "", "", "http://r/", ("cid:logo@x",), "retrieval"),
    ],
)
def test_mime_base_precedence(
    html: str, outer: str, part: str, url: str | None, expected: tuple[str, ...], source: str
) -> None:
    links = extract_links(_mime(html, outer=outer, part=part), url=url)
    assert links[0].url == expected[0]
    assert links[0].base_source == source


def test_encapsulating_base_resolves_each_layer_against_the_one_around_it() -> None:
    outer = Base("http://a/b/c", BaseSource.RETRIEVAL)
    assert encapsulating_base(["d/", "e/f"], outer, "rfc1808") == Base(
        "http://a/b/d/e/f", BaseSource.ENCAPSULATING
    )
    assert encapsulating_base([], outer, "rfc1808") is outer
    # still relative (nothing absolute around it), or unresolvable: passed over
    assert encapsulating_base(["d/"], Base("", BaseSource.DEFAULT), "rfc1808").url == ""
    assert encapsulating_base(["http://[bad"], outer, "whatwg") is outer


@pytest.mark.parametrize(
    ("header", "value", "expected"),
    [
        ("Content-Location", "http://a/b", "http://a/b"),
        ("Content-Location", "http://a/very/\r\n long/b", "http://a/very/long/b"),
        ("Base", "<URL:http://a/b/>", "http://a/b/"),
        ("base", "<URL: http://a/\r\n b/ >", "http://a/b/"),
        ("Content-Base", '"http://a/q/"', "http://a/q/"),
    ],
)
def test_base_header_unwrapping(header: str, value: str, expected: str) -> None:
    from email import message_from_bytes, policy

    entity = message_from_bytes(f"{header}: {value}\r\n\r\n".encode(), policy=policy.default)
    assert base_header(entity) == expected


def test_mhtml_snapshot_location_is_the_retrieval_url_when_none_is_given() -> None:
    data = b"Snapshot-Content-Location: http://s.example/d/page\r\n" + _mime("<a href=x>")
    assert extract_links(data)[0].url == "http://s.example/d/x"
    assert extract_links(data, url="http://u.example/")[0].url == "http://u.example/x"


def test_one_bad_part_never_stops_the_other_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from baselinks.find.sheets import LOADERS
    from baselinks.load.containers.doctypes import DocType

    real_load = LOADERS[DocType.HTML]

    def load(body: bytes, **options: object) -> object:
        if b"bad" in body:
            raise ValueError("cannot parse")
        return real_load(body, **options)

    monkeypatch.setitem(LOADERS, DocType.HTML, load)  # type: ignore[arg-type]
    message = (
        b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/html\r\n\r\n<a href=bad>\r\n"
        b"--b\r\nContent-Type: text/html\r\n\r\n<a href=good>\r\n--b--\r\n"
    )
    errors: list[InputError] = []
    assert [link.url for link in iter_links(message, on_error=errors.append)] == ["good"]
    assert [str(error) for error in errors] == [
        "-#part-1: internal error (a bug in baselinks, please report it): ValueError: cannot parse"
    ]
