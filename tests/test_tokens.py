"""tokens.py: where a tag ends, read by the one expression (_TAG_REST) and by the attribute states
(_attributes), must agree; the expression gives up (and _attributes answers) where the text ends
inside the tag."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselinks.tokens import _TAG_REST, _attributes, late_tags, tags

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
