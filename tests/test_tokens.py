"""tokens.py: where a tag ends, read by the one expression (_TAG_REST) and by the attribute states
(_attributes), must agree; the expression gives up (and _attributes answers) where the text ends
inside the tag."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks.load.document import _blank_html_end_tags
from baselinks.load.tokens import (
    _TAG_REST,
    _attributes,
    late_tags,
    late_tags_reference,
    passed_over,
    tags,
)

# the text after a tag name, and where the tag ends (None: the text ends inside the tag)
CASES = [
    (">x", 1),
    (' href="a>b">x', 12),
    (" href='a>b'>x", 12),
    (" href=a>b", 8),
    (' a="x"=b>', 9),  # "=" after a value starts a new attribute, named "=b"
    (" =x>", 4),  # "=" first is part of the name
    (' a= "x">', 8),
    (" a= >", 5),
    (" / a / >", 8),
    (' a="x', None),  # unclosed quote: the rest is in the value
    (" a=b", None),
    (' a =  "b" c>', 12),
]


@pytest.mark.parametrize(("rest", "end"), CASES)
def test_tag_end_as_the_attribute_states_read_it(rest: str, end: int | None) -> None:
    attributes, found = _attributes(rest, 0)
    assert (found if attributes is not None else None) == end
    match = _TAG_REST.match(rest)
    assert (match.end() if match is not None else None) == end


@given(st.text(alphabet=list("ab= \n/>'\"&"), max_size=20))
def test_expression_never_disagrees(rest: str) -> None:
    attributes, end = _attributes(rest, 0)
    match = _TAG_REST.match(rest)
    if match is not None:
        assert attributes is not None and match.end() == end


def test_unwanted_tags_keep_positions() -> None:
    text = '<p title="<body x=y>">t</p><body background="b.png"><a href=\'>\'>'
    every = list(tags(text, {}))
    some = list(tags(text, {}, ("body",)))
    assert [(n, s, e) for n, _, s, e in every] == [(n, s, e) for n, _, s, e in some]
    assert [a for n, a, _, _ in some if n == "body"] == [{"background": "b.png"}]
    assert late_tags(text) == [("body", {"background": "b.png"})]


# --- passed_over: the tags a caller does not watch, passed over in C ------------------------
# late_tags and load's "</html>" scan read only the tags that change what they look for; the
# rest is passed over by one expression. Both must answer as the step-by-step scan does, on
# documents built from the pieces where the two could part: every raw-text element, templates,
# comments and bogus comments, quotes that hold ">" or never close, names written in any case
# or running on ("<bodyx", "<script/"), the text ending anywhere.
_PIECES = [
    "<body a=1>", "<BODY b='2' a=3>", "<html lang=x>", "<bodyx c=4>", "<body", "<html/",
    "<template>", "</template>", "</TEMPLATE x='>'>", "<script>", "</script>", "<SCRIPT/>",
    "<style>", "</style >", "<noscript>", "</noscript>", "<textarea>", "</textarea>",
    "<title>", "</title>", "<xmp>", "<iframe>", "</iframe>", "<noembed>", "<noframes>",
    "<plaintext>", "</html>", "</HTML x>", "</htmlx>", "</html", "<!--", "-->", "<!-->",
    "<!--->", "<!", "<?", "<!doctype html>", "</ ", "<", ">", "=", '"', "'", " ", "\n", "/",
    "<p title='", "<a href=\"", "<p x=y>", "</p>", "&amp;", "\u212a", "text",
]  # fmt: skip


@settings(max_examples=150)
@given(st.lists(st.sampled_from(_PIECES), max_size=16))
def test_late_tags_agree_with_the_step_by_step_scan(pieces: list[str]) -> None:
    text = "".join(pieces)
    for end in range(len(text) + 1):
        assert late_tags(text[:end]) == late_tags_reference(text[:end])


@settings(max_examples=150)
@given(st.lists(st.sampled_from(_PIECES), max_size=16))
def test_html_end_tags_blanked_as_by_the_step_by_step_scan(pieces: list[str]) -> None:
    data = "".join(pieces).encode()
    for end in range(len(data) + 1):
        assert _blank_html_end_tags(data[:end]) == _blank_html_end_tags(data[:end], reference=True)


@pytest.mark.parametrize(
    "text",
    [
        '<p title="<body x=y>">t</p><body background="b.png">',
        "<template><body a=1></template><body b=2>",
        "<script><body a=1></script><body b=2>",
        "<!--><body a=1>--><body b=2>",  # "<!-->" is a whole comment
        "<!---><body a=1>--><body b=2>",  # and so is "<!--->"
        "<noscript><body a=1></noscript><body b=2>",
        "<p x='>'><body a=1>",
        "<p x='><body a=1>",  # the quote never closes: the tag is dropped, and the body
        "<bodyx a=1><body b=2>",
        "<plaintext><body a=1>",
    ],
)
def test_late_tags_passing_over(text: str) -> None:
    assert late_tags(text) == late_tags_reference(text)


@pytest.mark.parametrize(
    "data",
    [
        b"<plaintext></html>x",
        b"<noscript></html></noscript>x",  # libxml2 reads noscript as markup
        b"<script></html></script></html>x",
        b"<!---></html>-->x",
        b"<p a='</html>'></HTML>x",
        b"<p a='</html>></html>x",
    ],
)
def test_html_end_tags_passing_over(data: bytes) -> None:
    assert _blank_html_end_tags(data) == _blank_html_end_tags(data, reference=True)


def test_passed_over_stops_at_the_watched_tags() -> None:
    passing = passed_over(("body",), ("template",))
    assert passed_over(("body",), ("template",)) is passing  # compiled once
    text = "x<p a='>'><!-- <body> --><!x><BODY a=1></template>"
    assert passing.match(text).end() == text.index("<BODY")  # type: ignore[union-attr]
    assert passing.match("</TEMPLATE>").end() == 0  # type: ignore[union-attr]
    assert passing.match("<p a='x").end() == 0  # type: ignore[union-attr]  # no ">": stops
