"""Linear work on inputs built to be quadratic, outside the containers (issue 16, item 3).

Time itself is measured by benchmarks/bench_hostile.py, never asserted here. These tests pin
what each fix must keep: the same answers as before, and a measure of the work that does not
depend on the machine (characters copied, characters of text computed, bytes written).
"""

from __future__ import annotations

import itertools
import re
from typing import Any, SupportsIndex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml.cssselect import CSSSelector

from baselinks import extract_links
from baselinks.find import anchor as anchor_module
from baselinks.find.anchor import TEXT_CAP
from baselinks.find.walk import raw_links, select_roots
from baselinks.load import html5
from baselinks.load import tokens as tokens_module
from baselinks.load.document import parse_utf8
from baselinks.load.html5 import PARSERS
from baselinks.url.rfc3986 import remove_dot_segments

URL = "http://e.example/dir/page.html"


class _CountingStr(str):
    """A str that counts the characters its slices copy."""

    copied = 0

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        result = str.__getitem__(self, key)
        _CountingStr.copied += len(result)
        return result


def test_remove_dot_segments_copies_each_character_a_bounded_number_of_times() -> None:
    """RFC 3986 §5.2.4 rule D tested ``buf[i:] in (".", "..")``: a copy of the rest of the path
    for every segment (a 2.56 MB path took 38 s)."""
    path = "/a" * 20_000 + "/./b/../c"
    _CountingStr.copied = 0
    result = remove_dot_segments(_CountingStr(path))
    assert result == "/a" * 20_000 + "/c"
    assert _CountingStr.copied <= 2 * len(path)


def _remove_dot_segments_literally(path: str) -> str:
    """RFC 3986 §5.2.4 as written: an input buffer, rules A to E tried in order."""
    output = ""
    while path:
        if path.startswith("../"):  # A
            path = path[3:]
        elif path.startswith("./") or path.startswith("/./"):  # A, B
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../") or path == "/..":  # C
            path = "/" + path[4:]
            output = output[: max(output.rfind("/"), 0)]
        elif path in (".", ".."):  # D
            path = ""
        else:  # E
            end = path.find("/", 1)
            end = len(path) if end < 0 else end
            output, path = output + path[:end], path[end:]
    return output


def test_remove_dot_segments_is_the_input_buffer_algorithm_on_every_short_path() -> None:
    paths = ["".join(chars) for n in range(10) for chars in itertools.product("./a", repeat=n)]
    assert len(paths) == 29_524
    for path in paths:
        assert remove_dot_segments(path) == _remove_dot_segments_literally(path), path


def test_rfc3986_mode_on_a_long_path_resolves_it() -> None:
    ref = "x/" * 10_000 + "../y"
    [link] = extract_links(b'<a href="%s">' % ref.encode(), url=URL, mode="rfc3986")
    assert link.url == "http://e.example/dir/" + "x/" * 9_999 + "y"


# Over-deep documents: libxml2 gives up at 2048 levels, and the document is parsed again with
# the elements deeper than MAX_NESTING closed at once. Finding them is a tokenizer of our own.

_DEEP = b"<div>" * 3000


@pytest.mark.parametrize(
    "trap",
    [
        b"<![x]>",  # html.parser: AssertionError "unknown status keyword", the document lost
        b"<![CDATA[ <p> ]]>",
        b"<!doctype x>",
        b"<?pi <p> ?>",
        b"</>",
        b"</ 3>",
        b"<3>",
    ],
)
@pytest.mark.parametrize("parser", PARSERS)
def test_markup_declarations_in_an_over_deep_document_keep_its_links(
    trap: bytes, parser: str
) -> None:
    errors: list[object] = []
    document = b'<a href="before">' + _DEEP + trap + b'<a href="after">'
    links = extract_links(document, url=URL, on_error=errors.append, parser=parser)
    raws = [link.raw for link in links]
    if parser == "html5":
        # the second <a> runs the adoption agency over the first, open around every <div>:
        # a browser's DOM has its clones too (docs/guide/parsers.md)
        raws = list(dict.fromkeys(raws))
    assert raws == ["before", "after"]
    assert errors == []


def _flattened(document: bytes, monkeypatch: pytest.MonkeyPatch, depth: int = 2) -> bytes:
    monkeypatch.setattr(tokens_module, "MAX_NESTING", depth)
    return tokens_module.flatten(document)


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        # the third <b> and every one after it are closed at once
        (b"<b><b><b>x<b>y", b"<b><b><b></b>x<b></b>y"),
        # void elements and self-closing tags open nothing
        (b"<b><br><img src=x><i/><b>x", b"<b><br><img src=x><i/><b>x"),
        # an end tag closes up to its name; a stray one closes nothing
        (b"<b><i></b></u><b><b><b>", b"<b><i></b></u><b><b><b></b>"),
        # a comment, a bogus comment and a script hold no tags
        (b"<b><!-- <b><b> --><?x <b>?><b>", b"<b><!-- <b><b> --><?x <b>?><b>"),
        (b"<b><script><b><b></b></script><b><b>", b"<b><script><b><b></b></script><b><b></b>"),
        (b"<b><!--><b><b>", b"<b><!--><b><b></b>"),  # "<!-->" is a whole comment
        # a quoted value holds ">" and tags; an unquoted one ends at ">"
        (b"<b title='>'><i x=\"<b>\"><b>", b"<b title='>'><i x=\"<b>\"><b></b>"),
        (b"<b t=a><i u=b><u>", b"<b t=a><i u=b><u></u>"),
        # upper case names are the same element
        (b"<B><I></b><U><S><P>", b"<B><I></b><U><S><P></p>"),
        # a tag left open at the end, an unclosed comment or quote: nothing more to close
        (b"<b><b><b title='x", b"<b><b><b title='x"),
        (b"<b><b><!-- <b>", b"<b><b><!-- <b>"),
    ],
)
def test_the_deep_start_tags_are_found_as_an_html_tokenizer_finds_them(
    document: bytes, expected: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _flattened(document, monkeypatch) == expected


@pytest.mark.parametrize(
    "tail",
    [b"<a " * 2000, b"<a href='" * 2000, b"<!--" * 2000, b"</a" * 2000, b"&#" * 2000],
)
@pytest.mark.parametrize("parser", PARSERS)
def test_unclosed_markup_after_deep_nesting_loses_nothing_before_it(
    tail: bytes, parser: str
) -> None:
    """html.parser took quadratic time on each of these (``<a <a <a``: 155 KB in 51 s)."""
    errors: list[object] = []
    document = b'<a href="before">' + _DEEP + b'<a href="deep">' + tail
    links = extract_links(document, url=URL, parser=parser, on_error=errors.append)
    raws = [link.raw for link in links]
    assert list(dict.fromkeys(raws))[:2] == ["before", "deep"]  # html5: clones, as above
    # "<a <a <a" is one tag of 2,000 attributes named "<a" (HTML's tokenizer): past the limit
    # of lxml's path, said; the HTML5 parser keeps the first of the duplicates, as a browser
    assert all("attributes at line 1" in str(error) for error in errors)


# Anchor text: capped, and computed once however deep anchors nest.


def _reference_text(element: Any) -> str:
    """The definition, written the slow way: XPath's string-value of each anchor, whole."""
    text = " ".join(str(element.xpath("string()")).split())
    if not text:
        for image in element.iter("img"):
            if image.get("alt"):
                text = " ".join(image.get("alt").split())
                break
    return text if len(text) <= TEXT_CAP else text[: TEXT_CAP - 1].rstrip() + "\u2026"


_PIECES = st.sampled_from(
    [
        "<a href=x>",
        "<a>",
        "</a>",
        "<span>",
        "</span>",
        "<b>",
        "</b>",
        "<img alt='pic  one'>",
        "<img alt=''>",
        "<img>",
        "<!-- hidden -->",
        "<?php echo 1 ?>tail",
        "<script>code()</script>",
        "<br>",
        " ",
        "\n\t",
        "word",
        "wörd\u00a0x",
        "&amp;",
        "y" * 300,
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_anchor_texts_are_the_string_value_of_each_anchor(pieces: list[str]) -> None:
    tree = parse_utf8("".join(pieces).encode())
    expected = [_reference_text(a) for a in tree.iter("a") if a.get("href") is not None]
    assert [link.text for link in raw_links(tree) if link.tag == "a"] == expected


def test_an_anchor_text_over_the_cap_is_cut_with_an_ellipsis() -> None:
    [short, long] = extract_links(
        b"<a href=s>%s</a><a href=l>%s</a>" % (b"w " * 249 + b"w", b"word " * 1000), url=URL
    )
    assert short.text == "w " * 249 + "w"  # 499 characters: whole
    assert len(long.text) == TEXT_CAP
    assert long.text == ("word " * 100)[: TEXT_CAP - 1].rstrip() + "\u2026"


# Anchors nest in libxml2's tree only: HTML's parser closes an open <a> when another starts.


def test_nested_anchors_write_output_proportional_to_the_input() -> None:
    """Each of 1000 nested anchors repeated the whole text after it: an 816 KB page wrote
    800 MB. Capped, each anchor's text is at most TEXT_CAP characters."""
    document = b"<a href=x><span>" * 1000 + b"text " * 20_000
    links = extract_links(document, url=URL, parser="lxml")
    assert len(links) == 1000
    assert {len(link.text) for link in links} == {TEXT_CAP}
    assert sum(len(link.text) for link in links) <= 1000 * TEXT_CAP


def test_nested_anchors_around_one_long_word_are_capped() -> None:
    links = extract_links(b"<a href=x><span>" * 100 + b"y" * 100_000, url=URL, parser="lxml")
    assert {link.text for link in links} == {"y" * (TEXT_CAP - 1) + "\u2026"}
    assert len(links) == 100


def test_nested_anchors_compute_the_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The string-value of each nested anchor was computed whole (and the <img> under each
    searched for an alt): the size of the document times the depth of the anchors."""
    computed: list[int] = []
    string_value = anchor_module._string_value

    def counting(element: Any) -> str:
        value = string_value(element)
        computed.append(len(value))
        return value

    monkeypatch.setattr(anchor_module, "_string_value", counting)
    document = b"<a href=x><span>" * 1000 + b"<img> " * 5000 + b"<img alt=last>"
    tree = parse_utf8(document, "lxml")
    links = raw_links(tree)
    assert [link.text for link in links] == ["last"] * 1000
    assert sum(computed) <= len(document)


_SELECTABLE = st.sampled_from(
    ["<div>", "</div>", "<p class=x>", "</p>", "<a href=y>", "</a>", "<span class=x>", "t"]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_SELECTABLE, max_size=30), st.sampled_from(["div", ".x", "a, div", "p span"]))
def test_select_gives_the_outermost_matches_in_document_order(
    pieces: list[str], selector: str
) -> None:
    tree = parse_utf8("".join(pieces).encode())
    matches = CSSSelector(selector)(tree)
    outermost = [m for m in matches if not any(a in set(matches) for a in m.iterancestors())]
    assert select_roots(tree, selector) == outermost


def test_an_over_deep_document_keeps_the_links_after_a_cut_in_a_long_line() -> None:
    # the cut positions are byte offsets: multi-byte characters before them do not shift them
    document = "é".encode() * 100 + _DEEP + b'<a href="after">x</a>'
    assert [link.raw for link in extract_links(document, url=URL)] == ["after"]
    assert re.search(rb"</div>", tokens_module.flatten(document)) is not None


# The HTML5 parser's limits (load/html5.py): lexbor's work grows with the square of the depth
# and of the names a page makes up. Past MAX_DEPTH a page is parsed again flattened, past
# MAX_NAMES libxml2 parses it: at n and 4n the same bounded number of parses, every link kept
# (the times: benchmarks/bench_hostile.py's "nested elements" and "distinct ... names").


@pytest.mark.skipif(bool(html5.unavailable()), reason=f"no HTML5 parser: {html5.unavailable()}")
@pytest.mark.parametrize("n", [2_000, 8_000])
def test_a_deep_page_is_flattened_once_past_the_html5_limit(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    flattened: list[int] = []
    flatten = html5.flatten

    def counting(data: bytes, limit: int) -> bytes:
        flattened.append(limit)
        return flatten(data, limit)

    monkeypatch.setattr(html5, "flatten", counting)
    page = b'<a href="before">b</a>' + b"<div>" * n + b'<a href="deep">d</a>' + b"</div>" * n
    links = extract_links(page + b'<a href="after">a</a>', url=URL, parser="html5")
    assert [link.raw for link in links] == ["before", "deep", "after"]
    assert flattened == [html5.MAX_DEPTH]


@pytest.mark.skipif(bool(html5.unavailable()), reason=f"no HTML5 parser: {html5.unavailable()}")
@pytest.mark.parametrize("n", [2_500, 10_000])
def test_past_the_html5_names_limit_libxml2_parses_the_page(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    trees: list[Any] = []

    def recording(parse: Any) -> Any:
        def recorded(data: bytes) -> Any:
            trees.append(parse(data))
            return trees[-1]

        return recorded

    # the tree copied at once, or lexbor's parse kept for the native walk: either declines
    monkeypatch.setattr(html5, "tree", recording(html5.tree))
    monkeypatch.setattr(html5, "parsed", recording(html5.parsed))
    many = b"".join(b"<x-%d data-u%d=1></x-%d>" % (i, i, i) for i in range(n))
    links = extract_links(b'<a href="first">' + many + b'<a href="last">', url=URL, parser="html5")
    assert [link.raw for link in links] == ["first", "last"]
    assert trees == [None]  # the HTML5 parser declined once: lxml's parse gave these links
    few = b"".join(b"<x-%d></x-%d>" % (i, i) for i in range(100))
    assert extract_links(b"<a href=f>" + few, url=URL, parser="html5")[0].raw == "f"
    assert trees[-1] is not None
