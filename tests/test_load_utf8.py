"""load.py's UTF-8 pages: parsed as they are, their text decoded only when asked for.

The fast path rests on libxml2 logging every ill-formed UTF-8 sequence it reads (tested here in
every context), on Python's decoder where libxml2's log cannot tell (full, or bytes it did not
read), and must give what decoding first gives (``_decoded``): the same text, encoding, sniffing
step, unread note and tree, on generated pages.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from baselinks.base.layers import saved_from_url
from baselinks.load.document import _CHECKS_UTF8, _PARSER, Document, _decoded, _read_as_utf8, load
from baselinks.load.encoding import sniff

# Where a byte can sit in a page, and sequences Python's decoder refuses: a lone continuation
# byte, overlong forms, surrogates, beyond U+10FFFF, bytes that start nothing, cut short.
CONTEXTS = [
    b"<p>%s</p>", b"<p title='%s'>x</p>", b"<p title=%s>x</p>", b"<!-- %s -->",
    b"<script>%s</script>", b"<style>%s</style>", b"<textarea>%s</textarea>",
    b"<title>%s</title>", b"<p%s>x</p>", b"<p a%s=1>x</p>", b"<!DOCTYPE html%s>",
    b"<?pi %s?>", b"<!%s>", b"</p%s>", b"<plaintext>%s", b"<xmp>%s</xmp>",
    b"<noscript>%s</noscript>", b"&%s;", b"<svg><![CDATA[%s]]></svg>", b"%s",
    b"<!-- %s", b"<script>%s", b"<p title='%s", b"<p%s",
]  # fmt: skip
ILL_FORMED = [
    b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80",
    b"\xff", b"\xfe", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\xc3",
]  # fmt: skip


def test_this_libxml2_is_one_that_checks() -> None:
    assert _CHECKS_UTF8


@pytest.mark.parametrize("context", CONTEXTS)
def test_libxml2_logs_every_ill_formed_sequence(context: bytes) -> None:
    for sequence, tail in itertools.product(ILL_FORMED, (b"b", b"")):
        page = b"<html><body>" + context.replace(b"%s", b"a" + sequence + tail)
        etree.fromstring(page, _PARSER)
        assert not _read_as_utf8(_PARSER.error_log), page


def test_a_full_log_is_not_trusted() -> None:
    # libxml2 keeps 100 errors: the ill-formed byte after them is not logged
    page = b"</x>" * 150 + b"<p>a\x80b</p>"
    etree.fromstring(page, _PARSER)
    assert not any(entry.type_name == "ERR_INVALID_ENCODING" for entry in _PARSER.error_log)
    assert not _read_as_utf8(_PARSER.error_log)
    document = load(page)
    assert (document.encoding, document.encoding_source) == ("windows-1252", "default")
    assert document.text.endswith("<p>a€b</p>")


@pytest.mark.parametrize(
    ("page", "encoding", "source"),
    [
        (b"<p>caf\xc3\xa9</p>", "utf-8", "utf-8-detected"),
        (b"<p>caf\xe9</p>", "windows-1252", "default"),
        # libxml2 stops at the first "</html>": an ill-formed byte after it, Python finds
        (b"<p>caf\xc3\xa9</p></html>\n<!-- \xe9 -->\n", "windows-1252", "default"),
        (b"<p>caf\xc3\xa9</p></html>\n<!-- \xc3\xa9 -->\n", "utf-8", "utf-8-detected"),
        (b"<meta charset=utf-8><p>caf\xe9</p>", "utf-8", "meta"),  # declared: U+FFFD
        (b"\xef\xbb\xbf<p>caf\xc3\xa9</p>", "utf-8", "bom"),
        (b"<div>" * 3000 + b"caf\xc3\xa9", "utf-8", "utf-8-detected"),  # nested too deep
        (b"<div>" * 3000 + b"caf\xe9", "windows-1252", "default"),
    ],
)
def test_load_as_decoding_first(page: bytes, encoding: str, source: str) -> None:
    document = load(page)
    assert (document.encoding, document.encoding_source) == (encoding, source)
    assert _same(document, _decoded(page, "-", *sniff(page)))


def test_valid_utf8_is_kept_as_bytes_and_decoded_when_asked() -> None:
    page = "<p>café ☃ \U0001f600</p>".encode()
    document = load(page)
    assert document.content is page
    assert document.text == page.decode()
    assert isinstance(load(b"<p>caf\xe9</p>").content, str)


def _same(one: Document, other: Document) -> bool:
    def tree(document: Document) -> list[tuple[object, ...]]:
        return [
            (node.tag, node.sourceline, dict(node.attrib), node.text, node.tail)
            for node in document.tree.iter()
        ]

    return (
        (one.name, one.text, one.encoding, one.encoding_source, one.unread)
        == (other.name, other.text, other.encoding, other.encoding_source, other.unread)
        and etree.tostring(one.tree) == etree.tostring(other.tree)
        and tree(one) == tree(other)
    )


_PIECES = [
    b"<p>", b"</p>", b"<a href='x\xc3\xa9'>", b"caf\xc3\xa9", b"\xe9", b"\x80", b"\xc3",
    b"\xed\xa0\x80", b"\x00", b"</html>", b"</HTML >", b"<!-- c -->", b"<!--", b"\n", b" ",
    b"<script>", b"</script>", b"<meta charset=utf-8>", b"<meta charset=latin1>",
    b"<body background=b.png>", b"<html lang=x>", b"<title>", b"\xe2\x98\x83", b"&eacute;",
    b"\xef\xbf\xbd", b"<!-- saved from url=(0019)http://example.com/ -->",
]  # fmt: skip


@settings(max_examples=200)
@given(st.lists(st.sampled_from(_PIECES), max_size=20), st.sampled_from([None, "utf-8"]))
def test_load_agrees_with_decoding_first(pieces: list[bytes], charset: str | None) -> None:
    page = b"".join(pieces)
    assert _same(load(page, charset=charset), _decoded(page, "-", *sniff(page, charset)))


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=100)
@given(_TEXT, st.sampled_from(["", " ", "\n"]), _TEXT, st.integers(0, 5000))
def test_saved_from_url_reads_the_bytes_as_the_text(
    before: str, space: str, url: str, pad: int
) -> None:
    for head in (before, "é" * pad, "\U0001f600" * (pad // 4)):
        text = f"{head}<!--{space}saved from url=({len(url):04d})http://{url}-->"
        assert saved_from_url(text.encode("utf-8", "surrogatepass")) == saved_from_url(text)


def test_saved_from_url_reads_far_enough_into_the_bytes() -> None:
    # the comment at the end of the 4096 characters searched, its URL 9999 characters long
    url = "http://" + "é" * 9992
    text = "\U0001f600" * 4060 + f"<!-- saved from url=(9999){url}-->"
    assert saved_from_url(text.encode()) == saved_from_url(text) == url
