"""The compiled walk's anchor texts (_cwalk._anchor_text) against the pure walk's, on the texts
its one-text-node shortcut (_collapsed) must tell apart: already collapsed or not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baselinks.find import walk
from baselinks.load.document import parse_html
from conftest import compared

compared(walk._cwalk is not None, "the compiled walk")

TEXTS = [
    "",
    "a",
    "a b",
    " a",  # a leading space
    "a ",  # a trailing one
    "a  b",  # two
    "a\tb",
    "a\x0bb",  # a vertical tab: whitespace to str.split()
    "a\x1fb",  # so is \x1f
    "a\x0cb",
    "a\u00a0b",  # NBSP: whitespace to str.split(), past ASCII
    "a\u2003b",
    "caf\u00e9",
    "x" * 500,  # the cap
    "x" * 501,  # past it: anchor.py cuts it
]


def _anchor_texts(page: str) -> list[str]:
    tree = parse_html(page)
    fast = walk.raw_links(tree)
    assert fast == walk.raw_links(tree, pure=True)
    return [link.text for link in fast]


@pytest.mark.parametrize("text", TEXTS)
def test_one_text_node(text: str) -> None:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;")
    assert _anchor_texts(f"<a href=x>{escaped}</a>") == [
        " ".join(text.split()) if len(text) <= 500 else "x" * 499 + "\u2026"
    ]


def test_several_nodes_and_an_image() -> None:
    page = "<a href=1>a <b>b</b> c</a><a href=2><img alt=' i  j '></a><a href=3>  </a>"
    assert _anchor_texts(page) == ["a b c", "i j", ""]


@given(st.text(alphabet=st.sampled_from(" \t\n\x0b\x0c\x1c\x1fab\u00a0\u2003é"), max_size=20))
def test_generated_texts(text: str) -> None:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;")
    _anchor_texts(f"<p><a href=x>{escaped}</a><area href=y alt='{escaped}'>")
